"""A match's summary: ``summary.json`` as it starts and as it ends, and the same for people.

The results in it (each half's and the pairs') are written as :mod:`dealer.analysis.results`
writes them for ``acpcbot results``.
"""

from __future__ import annotations

from typing import Any

from acpcbot.client.session import fallback_kinds
from dealer.analysis.results import ci_text, half_json, json_number
from dealer.analysis.stats import estimate
from dealer.running.duplicate import Decisions, DuplicatePlan, DuplicateRun, MatchStatus, Transport


def plan_json(plan: DuplicatePlan) -> dict[str, Any]:
    """What defines a match, as ``summary.json`` holds it: two runs with the same are the
    same match (the transport is left out: both give the same logs)."""
    return {
        "agents": list(plan.agents),
        "names": list(plan.names),
        "seed": plan.seed,
        "agent_seeds": list(plan.agent_seeds),
        "game": plan.game_path,
        "duplicate": plan.duplicate,
        "hands_per_half": plan.hands,
    }


def started_json(plan: DuplicatePlan, out: str) -> dict[str, Any]:
    """The ``summary.json`` of a match that is running: what it is and where its logs go."""
    return {
        "status": MatchStatus.RUNNING.value,
        **plan_json(plan),
        "transport": plan.transport.value,
        **_isolated_json(plan),
        "halves": [
            {"log": plan.log_name(half), "seats": [plan.names[i] for i in plan.seats(half)]}
            for half in range(plan.halves)
        ],
        "out": out,
    }


def _isolated_json(plan: DuplicatePlan) -> dict[str, list[str]]:
    """The agents played in a process of their own, when there are any."""
    names = plan.isolated_names
    return {"isolated": list(names)} if names else {}


def decisions_json(decisions: Decisions | None) -> dict[str, int] | None:
    if decisions is None:
        return None
    return {
        "decisions": decisions.decisions,
        "fallbacks": decisions.fallbacks,
        "failed": decisions.failed,
        "illegal": decisions.illegal,
        "over_budget": decisions.over_budget,
    }


def duplicate_json(run: DuplicateRun) -> dict[str, Any]:
    """The ``summary.json`` of a match (what ``acpcbot match --json`` prints): finished,
    or stopped early with the hands played so far (``status``)."""
    plan = run.plan
    if run.pair is not None:
        combined = run.pair.estimate
    elif run.halves:
        combined = run.halves[0].result.estimate
    else:
        combined = estimate([], run.big_blind)
    return {
        "status": run.status.value,
        **({"error": run.error} if run.error is not None else {}),
        **plan_json(plan),
        "big_blind": run.big_blind,
        "transport": plan.transport.value,
        **_isolated_json(plan),
        "hands": run.hands,
        "samples": "pairs" if run.pair is not None else "hands",
        "mbb_per_game": json_number(combined.mbb_per_game),
        "ci95": json_number(combined.ci95_mbb),
        "pair_sd_mbb": json_number(combined.sd_mbb),
        "decisions": {
            name: decisions_json(run.decisions(which)) for which, name in enumerate(plan.names)
        },
        "halves": [
            {
                **half_json(h.result),
                "log": h.log,
                "seats": list(h.seats),
                "finished": h.finished,
                "seconds": round(h.seconds, 3),
                "hands_per_second": round(h.result.hands / max(h.seconds, 1e-9), 1),
                "decisions": {
                    name: decisions_json(h.decisions[which])
                    for which, name in enumerate(plan.names)
                },
            }
            for h in run.halves
        ],
        "seconds": round(run.seconds, 3),
        "hands_per_second": round(run.hands_per_second, 1),
        "out": str(run.out_dir),
    }


def decisions_text(name: str, decisions: Decisions | None) -> str:
    """One agent's decisions for people.

    >>> decisions_text("dpp", Decisions(1200, failed=3, over_budget=1))
    'dpp 1,200 (4 fallbacks: 3 failed, 1 over budget)'
    >>> decisions_text("dpp", Decisions(1200))
    'dpp 1,200'
    """
    if decisions is None:
        return f"{name} unknown"
    text = f"{name} {decisions.decisions:,}"
    if decisions.fallbacks:
        kinds = fallback_kinds(decisions.failed, decisions.illegal, decisions.over_budget)
        plural = "s" if decisions.fallbacks != 1 else ""
        text += f" ({decisions.fallbacks:,} fallback{plural}: {kinds})"
    return text


def duplicate_text(run: DuplicateRun) -> list[str]:
    """The readable summary of a match."""
    plan = run.plan
    a, b = plan.names
    kind = "duplicate match" if plan.duplicate else "match"
    alone = plan.isolated_names
    own = "each in a process of its own" if len(alone) > 1 else "in a process of its own"
    isolated = f" ({' and '.join(alone)} {own}, over TCP)" if alone else ""
    lines = [
        f"{a} vs {b}: {kind}, {plan.halves} × {plan.hands:,} hands, seed {plan.seed} "
        f"(agent seeds {plan.agent_seeds[0]}, {plan.agent_seeds[1]}), {plan.transport.value}"
        f"{isolated}"
    ]
    if run.status is not MatchStatus.FINISHED:
        lines.append(f"  {run.status.value.upper()} after {run.hands:,} hands: the results so far")
    for h in run.halves:
        seat1, seat2 = h.seats
        number = plan.names.index(seat1) + 1 if plan.duplicate else 1
        played = "" if h.finished else f" ({h.result.hands:,} hands)"
        lines.append(
            f"  half {number} ({seat1} in seat 1, {seat2} in seat 2){played}: {a} "
            f"{ci_text(h.result.estimate)}"
        )
    if run.pair is not None:
        e = run.pair.estimate
        lines.append(
            f"  {a}: {ci_text(e)} over {e.samples:,} duplicate pairs, "
            f"SD {e.sd_mbb:.1f} mbb per pair"
        )
    if plan.transport is Transport.REMOTE:
        lines.append("  decisions: counted by the players (remote), each in its own summary")
    else:
        decisions = [decisions_text(name, run.decisions(i)) for i, name in enumerate(plan.names)]
        lines.append(f"  decisions: {', '.join(decisions)}")
    lines.append(
        f"  {run.hands:,} hands in {run.seconds:.1f} s ({run.hands_per_second:,.0f} hands/s)"
    )
    files = ", ".join(h.log for h in run.halves)
    lines.append(f"  files in {run.out_dir}: summary.json, {files}")
    return lines
