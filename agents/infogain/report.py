"""The information-gain report as text and as JSON.

>>> from agents.infogain.measure import StreetReport
>>> street = StreetReport("flop", 3, 1, 0.5, 0.5, 0.25, 50.0, 12.5)
>>> street_line(street)
'flop              3   0.500    0.5000    0.2500   +50.0% ± 12.5'
>>> street_json(street)["gain_percent"]
50.0
"""

from __future__ import annotations

import math
from typing import Any

from agents.infogain.measure import FLOP_RUNOUTS, InfoGainReport, StreetReport

__all__ = ["report_json", "report_lines", "street_json", "street_line"]

HEADER = f"{'street':<10} {'points':>8} {'H(p)':>7} {'KL cards':>9} {'KL bet':>9}   gain (95% CI)"


def street_line(street: StreetReport) -> str:
    """One row of the table."""
    if street.points == 0:
        return f"{street.street:<10} {0:>8}   (no decision points)"
    gain = "n/a" if math.isnan(street.gain_percent) else f"{street.gain_percent:+.1f}%"
    ci = "" if math.isnan(street.gain_ci95) else f" ± {street.gain_ci95:.1f}"
    return (
        f"{street.street:<10} {street.points:>8,} {street.entropy:>7.3f} "
        f"{street.kl_cards:>9.4f} {street.kl_bet:>9.4f}   {gain}{ci}"
    )


def report_lines(report: InfoGainReport) -> list[str]:
    """The report as text."""
    logs = len(report.logs)
    who = " and ".join(report.players) if len(report.players) <= 2 else ", ".join(report.players)
    runouts = (
        "all 1176 runouts"
        if report.flop_runouts >= FLOP_RUNOUTS
        else f"{report.flop_runouts} of the 1176 runouts a hand"
    )
    lines = [
        f"information gain of bet inference: {report.hands:,} hands of {who} "
        f"({logs} log{'s' if logs != 1 else ''})",
        "  KL(p ‖ q) in bits per decision point; p: the omniscient observer's chance that "
        "position 0 wins,",
        "  q: the public observer's from the cards alone (1/2 in hold'em) or the cards and "
        f"the bets (flop: {runouts})",
        "",
        HEADER,
    ]
    lines.extend(street_line(street) for street in report.streets)
    lines.append(street_line(report.overall))
    lines.append("")
    lines.append("predictability (0: actions ignore the cards, 1: Saund's policy), by round:")
    for name, values in report.predictability.items():
        lines.append(f"  {name}: " + " ".join(f"{w:.2f}" for w in values))
    return lines


def _number(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 6)


def street_json(street: StreetReport) -> dict[str, Any]:
    """One street as JSON (NaN as ``null``)."""
    return {
        "street": street.street,
        "points": street.points,
        "hands": street.hands,
        "entropy_bits": _number(street.entropy),
        "kl_cards_bits": _number(street.kl_cards),
        "kl_bet_bits": _number(street.kl_bet),
        "gain_percent": _number(street.gain_percent),
        "gain_ci95": _number(street.gain_ci95),
        "by_point": [
            {
                "points": point.points,
                "entropy_bits": _number(point.entropy),
                "kl_cards_bits": _number(point.kl_cards),
                "kl_bet_bits": _number(point.kl_bet),
            }
            for point in street.by_point
        ],
    }


def report_json(report: InfoGainReport) -> dict[str, Any]:
    """The report as JSON."""
    return {
        "logs": list(report.logs),
        "hands": report.hands,
        "players": list(report.players),
        "flop_runouts": report.flop_runouts,
        "streets": [street_json(street) for street in report.streets],
        "all": street_json(report.overall),
        "predictability": {name: list(values) for name, values in report.predictability.items()},
    }
