"""The evaluation tools measured: AIVAT's CI against the plain duplicate one, and LBR's values.

    python scripts/measure_evaluation.py aivat plicas --vs dpp --hands 20000 --seeds 1 2 3 --out m
    python scripts/measure_evaluation.py lbr dpp dpp-coarse example --hands 50000 --seed 1 --out m

``aivat A... --vs B`` plays ``acpcbot match A B --hands N --seed S --aivat`` for every A and
seed, one after the other (each on two processes), and prints per match and per pairing (the
seeds pooled) the plain and the AIVAT 95% CI half-width and their ratio (the acceptance asks
≤ 0.6 for plicas against dpp), with the time the corrections took. ``lbr AGENT ...`` plays
``acpcbot lbr AGENT --hands N --seed S`` for each agent, one after the other, and prints its
mbb/g ± 95% CI and the time per hand (of one process; the goal: 100,000 hands in at most 30
minutes on two cores). Every match's folder is kept under --out.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from acpcbot.cli import main as acpcbot


def _pool(parts: list[tuple[int, float, float]]) -> tuple[float, float]:
    """Mean and 95% CI half-width of samples given as (count, mean, SD) per match."""
    n = sum(c for c, _, _ in parts)
    mean = sum(c * m for c, m, _ in parts) / n
    squares = sum((c - 1) * s * s + c * m * m for c, m, s in parts)
    sd = math.sqrt(max(squares - n * mean * mean, 0.0) / (n - 1))
    return mean, 1.959963984540054 * sd / math.sqrt(n)


def aivat(args: argparse.Namespace) -> None:
    b = args.vs
    for a in args.agents:
        plain: list[tuple[int, float, float]] = []
        corrected: list[tuple[int, float, float]] = []
        for seed in args.seeds:
            out = args.out / f"aivat-{a}-vs-{b}.seed{seed}"
            command = ["match", a, b, "--hands", str(args.hands), "--seed", str(seed)]
            started = time.perf_counter()
            command += ["--jobs", str(args.jobs)] if args.jobs else []
            status = acpcbot([*command, "--aivat", "--out", str(out), "--force"])
            if status:
                sys.exit(status)
            summary = json.loads((out / "summary.json").read_text())
            wall = time.perf_counter() - started
            n = summary["hands_per_half"]
            s = summary["aivat"]
            plain.append((n, summary["mbb_per_game"], summary["pair_sd_mbb"]))
            corrected.append((s["count"], s["mbb_per_game"], s["pair_sd_mbb"]))
            print(
                f"{a} vs {b} seed {seed}: plain {summary['mbb_per_game']:+.1f} ± "
                f"{summary['ci95']:.1f}, AIVAT {s['mbb_per_game']:+.1f} ± {s['ci95']:.1f}, "
                f"ratio {s['ci95_ratio']:.3f}; {wall:.0f} s in all",
                flush=True,
            )
        (pm, pc), (am, ac) = _pool(plain), _pool(corrected)
        print(
            f"{a} vs {b}, {len(args.seeds)} seeds pooled: plain {pm:+.1f} ± {pc:.1f}, AIVAT "
            f"{am:+.1f} ± {ac:.1f}, ratio {ac / pc:.3f} ({(pc / ac) ** 2:.1f}× fewer hands)",
            flush=True,
        )


def lbr(args: argparse.Namespace) -> None:
    for agent in args.agents:
        out = args.out / f"lbr-{agent}.seed{args.seed}"
        command = ["lbr", agent, "--hands", str(args.hands), "--seed", str(args.seed)]
        command += ["--from", args.first_round, "--out", str(out), "--force"]
        command += ["--jobs", str(args.jobs)] if args.jobs else []
        started = time.perf_counter()
        status = acpcbot(command)
        if status:
            sys.exit(status)
        wall = time.perf_counter() - started
        summary = json.loads((out / "summary.json").read_text())
        hands = summary["hands"]
        print(
            f"LBR against {agent}: {summary['mbb_per_game']:+.1f} ± {summary['ci95']:.1f} "
            f"mbb/g over {hands // 2:,} pairs; {summary['lbr']['ms_per_hand']:.2f} ms a hand "
            f"of one process, {wall:.0f} s wall for {hands:,} hands "
            f"({100_000 * wall / hands / 60:.1f} min per 100,000 hands)",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("aivat", help="AIVAT's CI against the plain one")
    one.add_argument("agents", nargs="+", metavar="A")
    one.add_argument("--vs", required=True, metavar="B")
    one.add_argument("--hands", type=int, default=20_000)
    one.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    one.add_argument("--out", type=Path, default=Path("measurements"))
    one.add_argument("--jobs", type=int, help="processes a match plays on (the cores)")
    one.set_defaults(run=aivat)
    two = sub.add_parser("lbr", help="LBR's value against each agent")
    two.add_argument("agents", nargs="+", metavar="AGENT")
    two.add_argument("--hands", type=int, default=50_000)
    two.add_argument("--seed", type=int, default=1)
    two.add_argument("--from", dest="first_round", default="preflop")
    two.add_argument("--out", type=Path, default=Path("measurements"))
    two.add_argument("--jobs", type=int, help="processes LBR plays on (the cores)")
    two.set_defaults(run=lbr)
    args = parser.parse_args(argv)
    args.run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
