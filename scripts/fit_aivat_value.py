#!/usr/bin/env python3
"""Fit the bets-to-come term of AIVAT's value function (dealer.analysis.aivat.BetValue) and write it
to dealer/analysis/aivatvalue.py.

    python scripts/fit_aivat_value.py MATCH_DIR... [--check DIR...] [--out FILE] [--jobs J]

Each MATCH_DIR is a duplicate match played with ``acpcbot match ... --aivat`` (its two logs
and their .probs files). Every hand's AIVAT corrections are linear in the term's
coefficients (dealer.analysis.aivat.correction_parts), so the coefficients that leave the duplicate
pairs' corrected results the least variance are a least-squares fit. Fit on matches at
seeds that no evaluation uses: the value function must be fixed before the matches it is
used on (the shipped table: ``acpcbot match plicas dpp --hands 20000 --seed S --aivat`` for
S = 101 and 102). The value function is zero-sum, so whose results are fitted does not
matter (seat 1 of each match's first log). Prints, per match, the CI ratio (AIVAT over
plain) without the term and with it; ``--check`` folders are left out of the fit and
show the ratio on matches the table has not seen.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from acpcbot import Game, game_of_log
from agents.registry import known_strategies
from dealer.analysis import read_log
from dealer.analysis.aivat import BET_FEATURES, RAISES_SEEN, BetValue, CheckDownValue, parts_of_log

FloatArray = np.ndarray[tuple[int, ...], np.dtype[np.float64]]


def match_parts(folder: Path) -> tuple[FloatArray, FloatArray, Game]:
    """The duplicate pairs of a match folder: each pair's mean result and its mean
    correction parts (check-down first, then every coefficient's)."""
    logs = sorted(folder.glob("*.log"))
    if len(logs) != 2:
        raise SystemExit(f"fit_aivat_value: {folder} does not hold a duplicate match's 2 logs")
    played = [read_log(path) for path in logs]
    game = game_of_log(played[0].path, played[0].header)
    name = played[0].seat_names[0]
    zero = BetValue(np.zeros((game.num_rounds, RAISES_SEEN + 1, BET_FEATURES)))
    value = CheckDownValue(game, bets=zero)
    halves = []
    for log in played:
        oracles = known_strategies(log.seat_names, game)
        rows = {n: (r, p) for n, r, p in parts_of_log(log, game, name, value, oracles)}
        halves.append(rows)
    numbers = sorted(set(halves[0]) & set(halves[1]))
    results = np.array([(halves[0][n][0] + halves[1][n][0]) / 2 for n in numbers])
    parts = np.array([(halves[0][n][1] + halves[1][n][1]) / 2 for n in numbers])
    return results, parts, game


def fit(design: FloatArray, residual: FloatArray) -> FloatArray:
    """Least squares with a little ridge (a thousandth of the mean feature power): a
    context that is rare, or a feature with almost no spread in it, gets a coefficient near
    0 rather than a huge one that fits noise; a context never seen gets exactly 0."""
    gram = design.T @ design
    seen = np.diag(gram) > 0
    ridge = 1e-3 * float(np.mean(np.diag(gram)[seen]))
    coefficients = np.zeros(design.shape[1])
    block = gram[np.ix_(seen, seen)] + ridge * np.eye(int(seen.sum()))
    coefficients[seen] = np.linalg.solve(block, design[:, seen].T @ residual)
    return coefficients


def ratio(results: FloatArray, parts: FloatArray, coefficients: FloatArray | None) -> float:
    """The CI half-width of the corrected results over the plain one's."""
    corrected = results - parts[:, 0]
    if coefficients is not None:
        corrected = corrected - parts[:, 1:] @ coefficients
    return float(corrected.std() / results.std())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("matches", nargs="+", type=Path, help="match folders (played --aivat)")
    parser.add_argument(
        "--check", nargs="*", type=Path, default=[], help="match folders left out of the fit"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).resolve().parents[1] / "dealer/analysis/aivatvalue.py",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="match folders read at once (1: in this process)"
    )
    args = parser.parse_args(argv)
    folders = [*args.matches, *args.check]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            read = list(pool.map(match_parts, folders))
    else:  # in this process
        read = [match_parts(folder) for folder in folders]
    fitted = read[: len(args.matches)]
    residual = np.concatenate([r - p[:, 0] for r, p, _ in fitted])
    design = np.concatenate([p[:, 1:] for _, p, _ in fitted])
    coefficients = fit(design, residual)
    for folder, (results, parts, _) in zip(folders, read, strict=True):
        kind = "held out" if folder in args.check else "fitted"
        print(
            f"{folder} ({kind}): CI ratio {ratio(results, parts, None):.3f} with the "
            f"check-down value, {ratio(results, parts, coefficients):.3f} with the term"
        )
    shape = fitted[0][2].num_rounds, RAISES_SEEN + 1, BET_FEATURES
    table = coefficients.reshape(shape)
    rows = ",\n".join(
        "    (\n"
        + ",\n".join("        (" + ", ".join(f"{c:.6g}" for c in raises) + ")" for raises in round_)
        + ",\n    )"
        for round_ in table
    )
    sources = ", ".join(
        f"{folder.name} ({len(results):,} pairs)"
        for folder, (results, _, _) in zip(args.matches, fitted, strict=True)
    )
    args.out.write_text(
        '"""The bets-to-come term of AIVAT\'s value function for heads-up limit hold\'em\n'
        "(:class:`dealer.analysis.aivat.BetValue`): written by ``scripts/fit_aivat_value.py``,\n"
        f'not by hand, from {sources}."""\n\n'
        "COEFFICIENTS: tuple[tuple[tuple[float, ...], ...], ...] = (\n"
        f"{rows},\n)\n"
    )
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
