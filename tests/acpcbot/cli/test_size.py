"""The command line stays thin: it parses, wires the layers together and prints
(``acpcbot/cli/__init__.py``); what a command does lives in the package of its layer."""

from __future__ import annotations

from pathlib import Path

import acpcbot.cli

MOST_LINES = 1_499
"""A ratchet, lowered as the command line loses weight: issue 34 asked for under 1,500. The
parsers of numbers, ports and durations and ``--host`` are :mod:`acpcbot.options`', which
``acpc-dealer`` shares; the options several commands share are :mod:`acpcbot.cli.arguments`'
(an on/off option is ``add_flag``). What is left is not logic: the commands' descriptions
(their ``--help``, each fact said once, an option's in its help), their options, and the
``run`` functions, which wire each option's value to the request it feeds field by field, so
that mypy checks each, and join the agents' registry to the dealer
(:func:`acpcbot.cli.arguments.entrants`), as only the command line may."""


def test_the_command_line_stays_under_its_size() -> None:
    files = sorted(Path(acpcbot.cli.__file__).parent.glob("*.py"))
    lines = {path.name: len(path.read_text().splitlines()) for path in files}
    total = sum(lines.values())
    largest = ", ".join(f"{name} {n}" for name, n in sorted(lines.items(), key=lambda x: -x[1])[:3])
    assert total <= MOST_LINES, f"acpcbot/cli/*.py: {total:,} lines (largest: {largest})"
