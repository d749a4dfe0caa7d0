#!/usr/bin/env python3
"""Build the preflop tables shipped in ``agents/data/`` (see ``agents.common.tables``) and
record their checksums in ``agents/data/SHA256SUMS``.

    python scripts/build_tables.py              # everything, on every core (a few minutes)
    python scripts/build_tables.py --verify 25  # recompute 25 random matrix entries and
                                                # 10 flop-connect rows, compare, write nothing

The class-against-class matrix is exact (every board of every orbit of matchups); the other
tables follow from it and from the exact flop-connect counts. The output is deterministic:
the same code writes the same bytes.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TypeVar

import numpy as np

from acpcbot.handeval.combos import NUM_CLASSES, class_name
from acpcbot.options import add_progress_options, count, progress_of, seed_value
from acpcbot.progress import ProgressDisplay, Show
from agents.common import ranges, tables
from agents.common.manifest import DATA_DIR, update_manifest

T = TypeVar("T")
R = TypeVar("R")


def _matchups(pairs: list[tuple[int, int]]) -> list[float]:
    from agents.common.preflop import class_matchup

    return [class_matchup(i, j) for i, j in pairs]


def _connect(classes: list[int]) -> list[list[float]]:
    from agents.common.preflop import flop_connect_class

    return [flop_connect_class(k).tolist() for k in classes]


_CHUNKS_PER_WORKER = 16
"""Pieces of work per process: the progress line moves as each is done."""


def _parallel(
    function: Callable[[list[T]], list[R]],
    items: list[T],
    workers: int,
    label: str,
    unit: str,
    show: Show = Show.TERMINAL,
) -> list[R]:
    """``function`` over ``items`` in ``workers`` processes, results in the items' order;
    the progress (``label``: so many ``unit``) on stderr."""
    pieces = min(len(items), workers * _CHUNKS_PER_WORKER)
    chunks = [items[w::pieces] for w in range(pieces)]
    progress = ProgressDisplay(label, len(items), unit=unit, show=show)
    progress.update(0)
    parts = []
    done = 0
    with ProcessPoolExecutor(workers) as pool:
        for part in pool.map(function, chunks):
            parts.append(part)
            done += len(part)
            progress.update(done)
    progress.close()
    # items[i] went to chunk i % pieces, at place i // pieces
    return [parts[i % pieces][i // pieces] for i in range(len(items))]


def build(workers: int, show: Show = Show.TERMINAL) -> dict[str, np.ndarray]:
    start = time.perf_counter()
    upper = [(i, j) for i in range(NUM_CLASSES) for j in range(i, NUM_CLASSES)]
    values = _parallel(_matchups, upper, workers, "class matrix", "matchups", show)
    matrix = np.zeros((NUM_CLASSES, NUM_CLASSES))
    for (i, j), value in zip(upper, values, strict=True):
        matrix[i, j] = value
        matrix[j, i] = 1.0 - value
    print(f"class matrix: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    classes = list(range(NUM_CLASSES))
    per_class = np.array(_parallel(_connect, classes, workers, "flop connect", "classes", show))
    pairs = ranges.compatible_pairs()
    equity = ranges.equity_against_random(matrix, pairs)
    ranking = ranges.ranking_of(equity)
    return {
        "class_equity": matrix,
        "preflop_equity": equity,
        "preflop_buckets": ranges.buckets_of(ranking).astype(np.int8),
        "range_ev": ranges.range_ev_grid(matrix, pairs, ranking),
        "flop_connect_classes": per_class,
        "flop_connect": ranges.flop_connect_grid(per_class, ranking),
    }


def verify(entries: int, seed: int) -> int:
    from agents.common.preflop import class_matchup, flop_connect_class

    rng = random.Random(seed)
    matrix = tables.class_equity_matrix()
    worst = 0.0
    for _ in range(entries):
        i, j = rng.randrange(NUM_CLASSES), rng.randrange(NUM_CLASSES)
        worst = max(worst, abs(class_matchup(i, j) - matrix[i, j]))
        print(f"{class_name(i):>4} vs {class_name(j):<4} {matrix[i, j]:.6f}", file=sys.stderr)
    connect = tables.flop_connect_classes()
    for k in rng.sample(range(NUM_CLASSES), 10):
        worst = max(worst, float(np.abs(flop_connect_class(k) - connect[k]).max()))
    print(f"largest difference: {worst:.3g}", file=sys.stderr)
    return 0 if worst < 1e-12 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="output folder")
    parser.add_argument("--workers", type=count, default=os.cpu_count() or 1)
    parser.add_argument("--verify", type=count, metavar="N", help="only check N matrix entries")
    parser.add_argument("--seed", type=seed_value, default=0, help="which entries --verify checks")
    add_progress_options(parser)
    args = parser.parse_args(argv)
    if args.verify is not None:
        return verify(args.verify, args.seed)
    built = build(args.workers, progress_of(args))
    args.out.mkdir(parents=True, exist_ok=True)
    for name, array in built.items():
        path = args.out / f"{name}.npy"
        np.save(path, array)
        print(f"{path}: {array.shape} {array.dtype}, {path.stat().st_size} bytes", file=sys.stderr)
        if args.out.resolve() == DATA_DIR:
            update_manifest(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
