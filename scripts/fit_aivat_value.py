#!/usr/bin/env python3
"""Fit the bets-to-come term of AIVAT's value function (dealer.analysis.aivat.BetValue) and write it
to dealer/analysis/aivatvalue.py, with what it was fitted on and for.

    python scripts/fit_aivat_value.py MATCH_DIR... [--check DIR...] [--out FILE] [--jobs J]

Each MATCH_DIR is a duplicate match played with ``acpcbot match A B --hands N --seed S --aivat
--out MATCH_DIR`` (its two logs, their .probs files and summary.json). Every hand's AIVAT
corrections are linear in the term's coefficients (dealer.analysis.aivat.correction_parts), so
the coefficients that leave the duplicate pairs' corrected results the least variance are a
least-squares fit (each match weighted by its plain spread: the sum of the squared CI ratios
is what is made least). The value function must be fixed before the matches it is used on: fit on
matches at seeds that no evaluation uses, and never on a match of ``dpp``, the test set (a
folder with ``dpp`` in it is refused; ``dpp-coarse``, the field and self-play are what the fit
is for). The value function is zero-sum, so whose results are fitted does not matter (seat 1
of each match's first log). Prints, per match, the CI ratio (AIVAT over plain) with the
check-down value alone, with the table shipped now and with the new fit; ``--check`` folders
are left out of the fit and show the ratios on matches the fit has not seen.

The table records the matches it was fitted on and, for each agent in them, its fingerprint
(agents.fingerprint: its decisions in a short fixed probe); a test fails when an agent plays
differently from the fingerprint, until the table is fitted again. The commands that made the
shipped table are in docs/evaluation/aivat.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from acpcbot import Game, game_of_log
from acpcbot.game import bundled_game
from agents.fingerprint import fingerprint
from agents.registry import known_strategies, parse_agent_spec
from dealer.analysis import read_log
from dealer.analysis.aivat import BET_FEATURES, RAISES_SEEN, BetValue, CheckDownValue, parts_of_log

FloatArray = np.ndarray[tuple[int, ...], np.dtype[np.float64]]

TEST_SET = "dpp"
"""The agent nothing is fitted on: PLICAS's test set, the opponent of the results that count."""


@dataclass(frozen=True)
class Match:
    """A match folder's duplicate pairs: each pair's mean result and its mean correction
    parts (check-down first, then every coefficient's)."""

    folder: Path
    agents: tuple[str, ...]
    seed: int
    results: FloatArray
    parts: FloatArray
    game: Game

    def describe(self) -> str:
        return f"{' vs '.join(self.agents)}, seed {self.seed}, {len(self.results):,} pairs"


def match_agents(folder: Path) -> tuple[tuple[str, ...], int]:
    """The agent specs and the seed of a match folder (its summary.json); refuses a match of
    the test set."""
    summary = folder / "summary.json"
    if not summary.is_file():
        raise SystemExit(f"fit_aivat_value: {folder} has no summary.json (acpcbot match --out)")
    read = json.loads(summary.read_text())
    agents = tuple(str(a) for a in read["agents"])
    if any(parse_agent_spec(a)[0] == TEST_SET for a in agents):
        raise SystemExit(
            f"fit_aivat_value: {folder} is a match of {TEST_SET}, the test set: the value "
            "function is never fitted on it"
        )
    return agents, int(read["seed"])


def read_match(folder: Path) -> Match:
    agents, seed = match_agents(folder)
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
    return Match(folder, agents, seed, results, parts, game)


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


def ratio(match: Match, coefficients: FloatArray | None) -> float:
    """The CI half-width of the corrected results over the plain one's."""
    corrected = match.results - match.parts[:, 0]
    if coefficients is not None:
        corrected = corrected - match.parts[:, 1:] @ coefficients
    return float(corrected.std() / match.results.std())


def table_source(table: FloatArray, fitted: list[Match], fingerprints: dict[str, str]) -> str:
    """The text of dealer/analysis/aivatvalue.py."""
    rows = ",\n".join(
        "    (\n"
        + ",\n".join("        (" + ", ".join(f"{c:.6g}" for c in raises) + ")" for raises in round_)
        + ",\n    )"
        for round_ in table
    )
    matches = "".join(f"    {json.dumps(m.describe())},\n" for m in fitted)
    agents = "".join(
        f"    {json.dumps(spec)}: {json.dumps(digest)},\n"
        for spec, digest in sorted(fingerprints.items())
    )
    return (
        '"""The bets-to-come term of AIVAT\'s value function for heads-up limit hold\'em\n'
        "(:class:`dealer.analysis.aivat.BetValue`): written by ``scripts/fit_aivat_value.py``,\n"
        "not by hand. :data:`FITTED_FOR` holds the fingerprint of each agent of the matches it\n"
        "was fitted on (:func:`agents.fingerprint.fingerprint`): a test fails when one of them\n"
        'plays differently, until the table is fitted again (docs/evaluation/aivat.md)."""\n\n'
        "FITTED_ON: tuple[str, ...] = (\n"
        f"{matches})\n"
        '"""The matches (acpcbot match ... --aivat) the table was fitted on."""\n'
        "FITTED_FOR: dict[str, str] = {\n"
        f"{agents}}}\n"
        '"""Each agent of those matches: its fingerprint when the table was fitted."""\n\n'
        "COEFFICIENTS: tuple[tuple[tuple[float, ...], ...], ...] = (\n"
        f"{rows},\n)\n"
    )


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
    for folder in folders:  # before the long part
        match_agents(folder)
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            read = list(pool.map(read_match, folders))
    else:  # in this process
        read = [read_match(folder) for folder in folders]
    fitted = read[: len(args.matches)]
    # Each match's pairs in units of its own spread: what is minimised is the sum of the
    # matches' squared CI ratios, so a match of wild swings does not outweigh the others.
    residual = np.concatenate([(m.results - m.parts[:, 0]) / m.results.std() for m in fitted])
    design = np.concatenate([m.parts[:, 1:] / m.results.std() for m in fitted])
    coefficients = fit(design, residual)
    shipped: FloatArray | None = BetValue.shipped().weights()
    if shipped is not None and shipped.shape != coefficients.shape:  # other features now
        shipped = None
    for folder, match in zip(folders, read, strict=True):
        kind = "held out" if folder in args.check else "fitted"
        was = "" if shipped is None else f", {ratio(match, shipped):.3f} with the shipped table"
        print(
            f"{folder} ({kind}: {match.describe()}): CI ratio {ratio(match, None):.3f} with the "
            f"check-down value{was}, {ratio(match, coefficients):.3f} with the new fit"
        )
    game = fitted[0].game
    specs = sorted({spec for match in fitted for spec in match.agents})
    # In the game the table is for (the test fingerprints the agents there too).
    fingerprints = {spec: fingerprint(spec, bundled_game()) for spec in specs}
    table = coefficients.reshape(game.num_rounds, RAISES_SEEN + 1, BET_FEATURES)
    args.out.write_text(table_source(table, fitted, fingerprints))
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
