#!/usr/bin/env python3
"""Benchmark the engine against eval7 and phevaluator, measured in the same run.

    pip install -e '.[bench]'
    python scripts/bench_engine.py [--repeats 9] [--json]

Every figure is the median of --repeats runs after a warm-up call (so numba compiles, or
loads its cache, before timing). Ratios are ours over theirs for rates and theirs over
ours for times: above 1 means we are faster. Where a library has no equivalent operation
the closest one is timed and says so.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypedDict

import numpy as np

from acpcbot import cards_text, parse_cards
from acpcbot.handeval import evaluator
from acpcbot.handeval import rank_hand as checked_rank_hand
from acpcbot.handeval.enumeration import seven_card_histogram
from acpcbot.handeval.equity import equity, hand_vs_hand
from agents.common.manifest import DATA_DIR

try:
    import eval7
except ImportError:  # pragma: no cover - reported in the output
    eval7 = None
try:
    from phevaluator import _pheval, evaluate_cards
except ImportError:  # pragma: no cover
    _pheval = evaluate_cards = None

FULL_RANGE = "22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32"


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def random_hands(n: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    chunks = []
    for start in range(0, n, 100_000):
        keys = rng.random((min(100_000, n - start), 52), np.float32)
        chunks.append(np.argpartition(keys, 7, axis=1)[:, :7].astype(np.uint8))
    return np.concatenate(chunks)


def e7(cards: str) -> list[object]:
    return [eval7.Card(cards[i : i + 2]) for i in range(0, len(cards), 2)]


class Row(TypedDict):
    """One measurement: ours, the other evaluators', and our speed relative to theirs."""

    what: str
    unit: str
    ours: float
    theirs: dict[str, float]
    ratio: dict[str, float]


def bench(repeats: int, quick: bool = False) -> list[Row]:
    """The rows; ``quick``: a hundredth of every sample and no enumeration of all hands (the
    script checked in seconds: figures not to quote)."""
    rows: list[Row] = []
    scale = 100 if quick else 1

    def row(what: str, ours: float, unit: str, theirs: dict[str, float], higher: bool) -> None:
        ratios = {k: (ours / v if higher else v / ours) for k, v in theirs.items() if v}
        rows.append({"what": what, "unit": unit, "ours": ours, "theirs": theirs, "ratio": ratios})

    # Batch evaluation, one core.
    hands = random_hands(2_000_000 // scale)
    ours = len(hands) / median_seconds(lambda: evaluator.rank_batch(hands), repeats) / 1e6
    theirs = {}
    if eval7 is not None:
        hero, villains, iterations = e7("AhAd"), eval7.HandRange(FULL_RANGE), 300_000 // scale

        def loop() -> object:
            return eval7.py_hand_vs_range_monte_carlo(hero, villains, [], iterations)

        theirs["eval7 C Monte Carlo loop"] = 2 * iterations / median_seconds(loop, repeats) / 1e6
    if _pheval is not None:
        listed = hands[: 300_000 // scale].tolist()
        seconds = median_seconds(
            lambda: list(itertools.starmap(_pheval.evaluate_7cards, listed)), repeats
        )
        theirs["phevaluator C extension, Python loop"] = len(listed) / seconds / 1e6
        sample = hands[: 200_000 // scale]
        agree = (
            evaluator.rank_batch(sample)
            == 7463 - np.array([_pheval.evaluate_7cards(*h) for h in sample.tolist()])
        ).all()
        print(f"phevaluator agrees on {len(sample):,} random hands: {bool(agree)}", file=sys.stderr)
    row("batch 7-card evaluations, one core", ours, "M/s", theirs, higher=True)

    # All 133,784,560 seven-card hands.
    if not quick:
        seconds = median_seconds(seven_card_histogram, max(3, repeats // 3))
        theirs = {}
        if "eval7 C Monte Carlo loop" in rows[0]["theirs"]:
            rate = rows[0]["theirs"]["eval7 C Monte Carlo loop"]
            theirs["eval7 at its C loop rate (extrapolated)"] = 133_784_560 / (rate * 1e6)
        row("enumerate all 133.8M seven-card hands", seconds, "s", theirs, higher=False)

    # Exact AhKh vs QsQd preflop.
    ak, qq = parse_cards("AhKh"), parse_cards("QsQd")
    seconds = median_seconds(lambda: hand_vs_hand(ak, qq), repeats)
    theirs = {}
    if eval7 is not None:
        boards = 1_712_304 // scale
        villain = eval7.HandRange("QsQd")
        hero = e7("AhKh")
        theirs["eval7 (no exact preflop): C Monte Carlo, 1,712,304 deals"] = median_seconds(
            lambda: eval7.py_hand_vs_range_monte_carlo(hero, villain, [], boards),
            max(3, repeats // 3),
        )
        sampled = eval7.py_hand_vs_range_monte_carlo(hero, villain, [], boards)
        exact = hand_vs_hand(ak, qq).equity[0]
        print(f"AhKh vs QsQd: ours exact {exact:.5f}, eval7 sampled {sampled:.5f}", file=sys.stderr)
    row(
        "exact AhKh vs QsQd preflop (1,712,304 boards)",
        seconds * 1e3,
        "ms",
        {k: v * 1e3 for k, v in theirs.items()},
        higher=False,
    )

    # 10,000-trial Monte Carlo against a random hand.
    aa = parse_cards("AhAd")
    seconds = median_seconds(lambda: equity([aa, None], trials=10_000, seed=1), repeats * 5)
    theirs = {}
    if eval7 is not None:
        hero, villains = e7("AhAd"), eval7.HandRange(FULL_RANGE)
        theirs["eval7 py_hand_vs_range_monte_carlo"] = median_seconds(
            lambda: eval7.py_hand_vs_range_monte_carlo(hero, villains, [], 10_000), repeats * 5
        )
        mine = equity([aa, None], trials=1_000_000 // scale).equity[0]
        other = eval7.py_hand_vs_range_monte_carlo(hero, villains, [], 1_000_000 // scale)
        print(f"AhAd vs random, 1M trials: ours {mine:.4f}, eval7 {other:.4f}", file=sys.stderr)
    row(
        "Monte Carlo hand vs random, 10,000 trials",
        seconds * 1e3,
        "ms",
        {k: v * 1e3 for k, v in theirs.items()},
        higher=False,
    )

    # One Python call per evaluation.
    listed = hands[: 300_000 // scale].tolist()
    engine_rank = evaluator.rank_hand
    engine_rank(listed[0])

    def ours_loop() -> None:
        for h in listed:
            engine_rank(h)

    ours = len(listed) / median_seconds(ours_loop, repeats) / 1e6
    theirs = {}

    def checked_loop() -> None:
        for h in listed[: 100_000 // scale]:
            checked_rank_hand(h)

    theirs["acpcbot.handeval.rank_hand (ours, checked)"] = (
        100_000 // scale / median_seconds(checked_loop, repeats) / 1e6
    )
    if eval7 is not None:
        cards = [
            [eval7.Card(t[i : i + 2]) for i in range(0, 14, 2)] for t in map(cards_text, listed)
        ]

        def eval7_loop() -> None:
            for h in cards:
                eval7.evaluate(h)

        theirs["eval7.evaluate"] = len(cards) / median_seconds(eval7_loop, repeats) / 1e6
    if evaluate_cards is not None:

        def ph_loop() -> None:
            for h in listed[: 100_000 // scale]:
                evaluate_cards(*h)

        theirs["phevaluator.evaluate_cards"] = (
            100_000 // scale / median_seconds(ph_loop, repeats) / 1e6
        )
    row(
        "one Python call per 7-card evaluation (evaluator.rank_hand)",
        ours,
        "M/s",
        theirs,
        higher=True,
    )

    # Table sizes.
    data = sum(p.stat().st_size for p in DATA_DIR.glob("*.npy"))
    theirs = {}
    if _pheval is not None:
        theirs["phevaluator native module (file)"] = Path(_pheval.__file__).stat().st_size / 1e3
    row(
        "evaluator lookup tables in memory", evaluator.TABLE_BYTES / 1e3, "kB", theirs, higher=False
    )
    row("shipped preflop tables (acpcbot/data)", data / 1e3, "kB", {}, higher=False)

    # acpcbot --help.
    command = Path(sys.executable).with_name("acpcbot")

    def run(*argv: str) -> Callable[[], object]:
        return lambda: subprocess.run(argv, check=True, capture_output=True)

    seconds = median_seconds(run(str(command), "--help"), repeats)
    baseline = median_seconds(run(sys.executable, "-c", "pass"), repeats)
    row("acpcbot --help", seconds * 1e3, "ms", {"python -c pass": baseline * 1e3}, higher=False)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a hundredth of every sample, no enumeration: checks the script in seconds "
        "(figures not to quote)",
    )
    args = parser.parse_args(argv)
    if eval7 is None or _pheval is None:
        print("eval7 or phevaluator is missing: pip install -e '.[bench]'", file=sys.stderr)
    rows = bench(args.repeats, args.quick)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    for r in rows:
        print(f"{r['what']}: {r['ours']:.3g} {r['unit']}")
        for name, value in r["theirs"].items():
            ratio = r["ratio"].get(name)
            print(
                f"    {name}: {value:.3g} {r['unit']}  (ours {ratio:.2f}x)"
                if ratio
                else f"    {name}: {value:.3g}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
