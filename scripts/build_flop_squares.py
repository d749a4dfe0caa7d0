#!/usr/bin/env python3
"""Build PLICAS's flop table: every holding's E[HS²] on every flop up to renaming suits
(``agents/data/plicas-flop-squares.npz``, read by :mod:`agents.plicas.holdingbuckets`), and
record its checksum in ``agents/data/SHA256SUMS``.

    python scripts/build_flop_squares.py            # on every core (about a minute)
    python scripts/build_flop_squares.py --verify 5 # 5 flops of the shipped table swept again

Each of the 1755 flop classes is swept exactly (every turn and river, every opponent
holding); the values are stored as E[HS²] × 255 rounded. The output is deterministic.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations
from pathlib import Path

import numpy as np

from acpcbot import cards_text
from acpcbot.handeval.combos import canonical_board
from acpcbot.options import add_progress_options, count, progress_of, seed_value
from acpcbot.progress import ProgressDisplay
from agents.common.manifest import DATA_DIR, update_manifest
from agents.plicas.holdingbuckets import FLOP_SQUARES_FILE, flop_squares

SCALE = 255


def flop_classes() -> list[tuple[int, ...]]:
    """Every flop's least renaming, each once, in order."""
    return sorted({canonical_board(flop)[0] for flop in combinations(range(52), 3)})


def _squares(flops: list[tuple[int, ...]]) -> list[np.ndarray]:
    from acpcbot.handeval.holdings import holdings_squared_strength

    return [np.rint(holdings_squared_strength(flop) * SCALE).astype(np.uint8) for flop in flops]


def verify(count: int, seed: int) -> int:
    """Sweep ``count`` flops of the shipped table again (in this process): 0 when each row
    is what the table holds."""
    index, squares = flop_squares()
    flops = random.Random(seed).sample(sorted(index), count)
    wrong = 0
    for flop, row in zip(flops, _squares(flops), strict=True):
        same = bool(np.array_equal(row, squares[index[flop]]))
        wrong += not same
        print(f"{cards_text(flop)}: {'the same' if same else 'DIFFERENT'}", file=sys.stderr)
    print(f"{count - wrong} of {count} flops as the table holds them", file=sys.stderr)
    return 0 if wrong == 0 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="output folder")
    parser.add_argument("--workers", type=count, default=os.cpu_count() or 1)
    parser.add_argument("--verify", type=count, metavar="N", help="only check N flops of the table")
    parser.add_argument("--seed", type=seed_value, default=0, help="which flops --verify checks")
    add_progress_options(parser)
    args = parser.parse_args(argv)
    if args.verify is not None:
        return verify(args.verify, args.seed)
    start = time.perf_counter()
    flops = flop_classes()
    chunks = [flops[i : i + 45] for i in range(0, len(flops), 45)]
    progress = ProgressDisplay("flop E[HS²]", len(flops), unit="flops", show=progress_of(args))
    progress.update(0)
    rows: list[np.ndarray] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for part in pool.map(_squares, chunks):
            rows.extend(part)
            progress.update(len(rows))
    progress.close()
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / FLOP_SQUARES_FILE
    np.savez_compressed(path, flops=np.array(flops, dtype=np.int8), squares=np.stack(rows))
    print(
        f"{path}: {len(flops)} flops in {time.perf_counter() - start:.0f} s, "
        f"{path.stat().st_size} bytes",
        file=sys.stderr,
    )
    if args.out.resolve() == DATA_DIR:
        update_manifest(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
