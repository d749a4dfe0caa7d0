"""Results as people read them and as JSON.

>>> from dealer.stats import estimate
>>> half = HalfResult("m.log", "A", "B", 4, 40.0, estimate([10.0, -10.0, 30.0, 10.0], 10))
>>> half_line(half)
'A vs B: 4 hands, +40 chips, +1000.0 mbb/g ± 1600.3 (95% CI)'
>>> half_json(half)["mbb_per_game"]
1000.0
"""

from __future__ import annotations

import math
from typing import Any

from acpcbot.protocol.logfile import format_number
from dealer.duplicate import DuplicateRun
from dealer.results import HalfResult, PairResult
from dealer.stats import Estimate


def _number(value: float) -> float | None:
    """JSON has no infinity: an undefined interval is ``null``."""
    return None if math.isinf(value) or math.isnan(value) else round(value, 3)


def ci_text(e: Estimate) -> str:
    if math.isinf(e.ci95_mbb):
        return f"{e.mbb_per_game:+.1f} mbb/g (too few samples for a CI)"
    return f"{e.mbb_per_game:+.1f} mbb/g ± {e.ci95_mbb:.1f} (95% CI)"


def half_line(half: HalfResult) -> str:
    chips = format_number(half.chips)
    sign = "+" if half.chips > 0 else ""
    return (
        f"{half.player} vs {half.opponent}: {half.hands} hands, {sign}{chips} chips, "
        f"{ci_text(half.estimate)}"
    )


def pair_line(pair: PairResult) -> str:
    e = pair.estimate
    text = (
        f"{pair.player} vs {pair.opponent}, duplicate over {pair.pairs} pairs: {ci_text(e)}, "
        f"SD {e.sd_mbb:.1f} mbb per pair"
    )
    if pair.unpaired:
        text += f" ({pair.unpaired} hands without a partner left out)"
    return text


def half_json(half: HalfResult) -> dict[str, Any]:
    return {
        "log": half.log,
        "player": half.player,
        "opponent": half.opponent,
        "hands": half.hands,
        "chips": half.chips,
        "mbb_per_game": _number(half.estimate.mbb_per_game),
        "ci95": _number(half.estimate.ci95_mbb),
        "sd_mbb": _number(half.estimate.sd_mbb),
    }


def pair_json(pair: PairResult) -> dict[str, Any]:
    return {
        "agents": [pair.player, pair.opponent],
        "pairs": pair.pairs,
        "unpaired": pair.unpaired,
        "mbb_per_game": _number(pair.estimate.mbb_per_game),
        "ci95": _number(pair.estimate.ci95_mbb),
        "pair_sd_mbb": _number(pair.estimate.sd_mbb),
        "halves": [half_json(h) for h in pair.halves],
    }


def duplicate_json(run: DuplicateRun) -> dict[str, Any]:
    """The ``summary.json`` of a match (what ``acpcbot match --json`` prints)."""
    plan = run.plan
    combined = run.pair.estimate if run.pair is not None else run.halves[0].result.estimate
    return {
        "agents": list(plan.agents),
        "names": list(plan.names),
        "seed": plan.seed,
        "agent_seeds": list(plan.agent_seeds),
        "game": plan.game_path,
        "big_blind": run.big_blind,
        "duplicate": plan.duplicate,
        "transport": plan.transport.value,
        "hands_per_half": plan.hands,
        "samples": "pairs" if run.pair is not None else "hands",
        "mbb_per_game": _number(combined.mbb_per_game),
        "ci95": _number(combined.ci95_mbb),
        "pair_sd_mbb": _number(combined.sd_mbb),
        "halves": [
            {
                **half_json(h.result),
                "log": h.log.name,
                "seats": list(h.seats),
                "seconds": round(h.seconds, 3),
                "hands_per_second": round(h.result.hands / max(h.seconds, 1e-9), 1),
            }
            for h in run.halves
        ],
        "seconds": round(run.seconds, 3),
        "hands_per_second": round(run.hands_per_second, 1),
        "out": str(plan.out_dir),
    }


def duplicate_text(run: DuplicateRun) -> list[str]:
    """The readable summary of a match."""
    plan = run.plan
    a, b = plan.names
    halves = len(run.halves)
    kind = "duplicate match" if plan.duplicate else "match"
    lines = [
        f"{a} vs {b}: {kind}, {halves} × {plan.hands:,} hands, seed {plan.seed} "
        f"(agent seeds {plan.agent_seeds[0]}, {plan.agent_seeds[1]}), {plan.transport.value}"
    ]
    for number, h in enumerate(run.halves, start=1):
        seat1, seat2 = h.seats
        lines.append(
            f"  half {number} ({seat1} in seat 1, {seat2} in seat 2): {a} "
            f"{ci_text(h.result.estimate)}"
        )
    if run.pair is not None:
        e = run.pair.estimate
        lines.append(
            f"  {a}: {ci_text(e)} over {e.samples:,} duplicate pairs, "
            f"SD {e.sd_mbb:.1f} mbb per pair"
        )
    lines.append(
        f"  {sum(h.result.hands for h in run.halves):,} hands in {run.seconds:.1f} s "
        f"({run.hands_per_second:,.0f} hands/s)"
    )
    files = ", ".join(h.log.name for h in run.halves)
    lines.append(f"  files in {plan.out_dir}: summary.json, {files}")
    return lines
