#!/usr/bin/env python3
"""Train the dpp-like strategies (or limit Leduc) with CFR+ and write the strategy files.

    scripts/train_dpp.py dpp                 # 169-256-256-128 buckets, the shipped dpp
    scripts/train_dpp.py dpp-coarse          # 169-4-4-4 buckets
    scripts/train_dpp.py leduc --game GAME   # limit Leduc with its real cards

Training is full-width CFR+, which has no random choices: the same command reproduces the
shipped file bit for bit (compare the printed checksum with ``agents/data/SHA256SUMS``).
Exploitability — exact best response inside the abstract game, in mbb/g = 1000 × chips per
game ÷ the game's big blind — is printed as training goes.

The HULHE abstraction's tables take a few minutes to enumerate; they are cached
(``--tables``) and the abstraction the agents read is written to ``--out``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from acpcbot import Game, bundled_game, load_game
from acpcbot.options import add_progress_options, progress_of
from acpcbot.progress import ProgressDisplay, Show
from agents.common.bettingtree import NodeKind
from agents.common.manifest import DATA_DIR
from agents.dpp.solver import AbstractGame, CfrPlus
from agents.dpp.strategy import Strategy

PRESETS: dict[str, tuple[tuple[int, ...], int]] = {
    "dpp": ((169, 256, 256, 128), 2000),
    "dpp-coarse": ((169, 4, 4, 4), 2000),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("strategy", choices=[*PRESETS, "leduc"], help="what to train")
    parser.add_argument("--iterations", type=int, help="CFR+ iterations (default: preset)")
    parser.add_argument("--buckets", help="flop,turn,river bucket counts (powers of 2 <= 256)")
    parser.add_argument(
        "--report-every",
        type=int,
        default=100,
        help="iterations per exploitability report (100; the curve is stored in the file, "
        "so keep the default to reproduce a shipped file)",
    )
    parser.add_argument("--game", type=Path, help="the Leduc game file (leduc only)")
    parser.add_argument(
        "--tables",
        type=Path,
        default=Path.home() / ".cache" / "acpcbot" / "dpp-tables.npz",
        help="cache of the enumerated abstraction tables (built when missing)",
    )
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="folder for the files")
    add_progress_options(parser)
    args = parser.parse_args(argv)
    show = progress_of(args)

    if args.strategy == "leduc":
        if args.game is None:
            parser.error(
                "leduc needs --game (e.g. tests/data/acpc-vectors/games/leduc.limit.2p.game)"
            )
        return train_leduc(load_game(args.game), args.iterations or 1000, args.report_every, show)

    counts, default_iterations = PRESETS[args.strategy]
    if args.buckets:
        counts = (169, *(int(b) for b in args.buckets.split(",")))
    iterations = args.iterations or default_iterations
    return train_holdem(
        args.strategy, counts, iterations, args.report_every, args.tables, args.out, show
    )


def train_leduc(game: Game, iterations: int, report_every: int, show: Show) -> int:
    from agents.dpp.chance import leduc_chance

    solver = CfrPlus(AbstractGame.build(game, leduc_chance(game)))
    run(solver, game, iterations, report_every, show)
    print(f"game value for position 0: {solver.value(solver.average_strategy()):+.5f} chips")
    return 0


def train_holdem(
    name: str,
    counts: tuple[int, ...],
    iterations: int,
    report_every: int,
    cache: Path,
    out: Path,
    show: Show,
) -> int:
    from agents.dpp.abstraction import DATA_FILE, HoldemAbstraction, holdem_chance
    from agents.dpp.tables import build_tables, load_tables, save_tables

    if cache.exists():
        tables = load_tables(str(cache))
        print(f"tables: read {cache}")
    else:
        started = time.perf_counter()
        tables = build_tables(progress=True)
        cache.parent.mkdir(parents=True, exist_ok=True)
        save_tables(tables, str(cache))
        print(f"tables: built in {time.perf_counter() - started:.0f} s, cached in {cache}")
    abstraction = HoldemAbstraction.from_tables(tables)
    out.mkdir(parents=True, exist_ok=True)
    abstraction.save(str(out / DATA_FILE))
    print(f"abstraction {abstraction.name} written to {out / DATA_FILE}")

    game = bundled_game()
    abstract = AbstractGame.build(game, holdem_chance(tables, counts))
    print(f"{name}: buckets {counts}, {abstract.num_rows} information sets")
    solver = CfrPlus(abstract)
    curve = run(solver, game, iterations, report_every, show)
    decisions = abstract.tree.kind == NodeKind.DECISION
    strategy = Strategy(
        game=game,
        layout=abstract.layout,
        legal=abstract.tree.children[decisions] >= 0,
        probabilities=solver.average_strategy(),
        abstraction=abstraction.name,
        metadata={
            "trainer": f"CFR+ (vector form, alternating, average delay {solver.delay})",
            "iterations": solver.iterations,
            "buckets": list(counts),
            "exploitability_mbb": curve[-1][1],
            "curve": curve,
        },
    )
    path = out / f"{name}.npz"
    strategy.save(str(path))
    print(f"{name}: written to {path} (checksum {strategy.checksum()})")
    return 0


def run(
    solver: CfrPlus, game: Game, iterations: int, report_every: int, show: Show = Show.TERMINAL
) -> list[list[float]]:
    """Train, printing exploitability (and showing progress on stderr); returns the
    (iteration, mbb/g) curve."""
    curve: list[list[float]] = []
    started = time.perf_counter()
    progress = ProgressDisplay("CFR+", iterations, unit="iterations", show=show)
    progress.update(solver.iterations)
    print(f"{'iteration':>9} {'mbb/g':>10} {'seconds':>8}", flush=True)
    while solver.iterations < iterations:
        solver.run(min(report_every, iterations - solver.iterations))
        mbb = 1000 * solver.exploitability() / game.big_blind
        curve.append([solver.iterations, round(mbb, 4)])
        elapsed = time.perf_counter() - started
        with progress.suspended():
            print(f"{solver.iterations:>9} {mbb:>10.3f} {elapsed:>8.0f}", flush=True)
        progress.update(solver.iterations, f"exploitability {mbb:.1f} mbb/g")
    progress.close()
    return curve


if __name__ == "__main__":
    raise SystemExit(main())
