"""Running matches: duplicate matches, their folders and summaries, and tournaments of them on
a local pool of processes or a Dask cluster.

The dealer runs the agents it is handed and never names one: a match is between two
:class:`~acpcbot.player.Entrant` s, which create a fresh player for every half wherever the
half is played (``agents.registry.entrant`` makes one from an agent spec).

* :func:`run_match` (:mod:`.match`) checks, plays and records one duplicate match
  (:class:`MatchRequest` in, :class:`MatchRun` out): its halves, each on the referee, side
  by side in processes (:mod:`.halves`), the folder locked while it runs
  (:mod:`.matchfolder`, :mod:`.resultfiles`), ``summary.json`` written as it starts and ends
  (:mod:`.duplicate`: the match as data), Ctrl-C stopping it with the hands played so far
  kept, and the same request going on with an earlier run it finds in its folder
  (:mod:`.replayedfile`).
* :func:`isolated` (:mod:`.isolation`) wraps an entrant to be played in a process of its
  own wherever a match plays it: code the dealer does not trust (plug-ins).
* :func:`run_tournament` (:mod:`.tournament`) plays every pairing's matches
  (:mod:`.tournamentplan`) on a local pool (:mod:`.localpool`) or a Dask cluster
  (:mod:`.daskpool`), one match a task (:mod:`.tasks`), into a folder it keeps
  (:mod:`.tournamentfolder`), and reports the crosstable and the rankings
  (:mod:`.tournamentreport`).

Both publish their progress to a terminal and, with ``mqtt``, to a broker. This package uses
the referee and the analysis of logs; neither of them imports it (a contract in
``pyproject.toml``). Importing it (or any module in it) loads nothing more: each name below is
imported from its module when first used (:mod:`acpcbot.faces`).

A match of 100 hands a half between two agents, played in this process:

>>> import tempfile
>>> from pathlib import Path
>>> from agents.registry import entrant
>>> from dealer.running import MatchRequest, run_match
>>> with tempfile.TemporaryDirectory() as tmp:
...     request = MatchRequest(
...         entrant("example"), entrant("always-call"), hands=100, seed=3, jobs=1,
...         out=Path(tmp) / "m",
...     )
...     match = run_match(request)
>>> match.run.status, match.run.hands, match.summary["agents"]
(<MatchStatus.FINISHED: 'finished'>, 200, ['example', 'always-call'])
>>> request.plan().log_name(1)
'always-call-example.seed3.n100.log'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acpcbot.faces import lazy_names

if TYPE_CHECKING:
    from dealer.running.duplicate import (
        DEFAULT_START_TIMEOUT_MS,
        Decisions,
        DuplicatePlan,
        DuplicateRun,
        Listening,
        MatchStatus,
        Transport,
        derived_seed,
    )
    from dealer.running.halves import StopHalf
    from dealer.running.isolation import IsolatedEntrant, isolated
    from dealer.running.match import (
        AfterHalf,
        BeforeHalf,
        MatchFailedError,
        MatchInterruptedError,
        MatchRequest,
        MatchRun,
        check_match,
        default_jobs,
        run_match,
    )
    from dealer.running.matchfolder import SUMMARY
    from dealer.running.resultfiles import write_json
    from dealer.running.tournament import (
        TournamentInterruptedError,
        TournamentRequest,
        TournamentRun,
        plan_tournament,
        run_tournament,
        write_plot,
    )
    from dealer.running.tournamentfolder import CROSSTABLE_PLOT, RESULTS
    from dealer.running.tournamentreport import (
        TournamentReport,
        read_tournament,
        tournament_json,
        tournament_lines,
    )

__all__ = [
    "CROSSTABLE_PLOT",
    "DEFAULT_START_TIMEOUT_MS",
    "RESULTS",
    "SUMMARY",
    "AfterHalf",
    "BeforeHalf",
    "Decisions",
    "DuplicatePlan",
    "DuplicateRun",
    "IsolatedEntrant",
    "Listening",
    "MatchFailedError",
    "MatchInterruptedError",
    "MatchRequest",
    "MatchRun",
    "MatchStatus",
    "StopHalf",
    "TournamentInterruptedError",
    "TournamentReport",
    "TournamentRequest",
    "TournamentRun",
    "Transport",
    "check_match",
    "default_jobs",
    "derived_seed",
    "isolated",
    "plan_tournament",
    "read_tournament",
    "run_match",
    "run_tournament",
    "tournament_json",
    "tournament_lines",
    "write_json",
    "write_plot",
]

_NAMES = {
    "dealer.running.duplicate": (
        "DEFAULT_START_TIMEOUT_MS",
        "Decisions",
        "DuplicatePlan",
        "DuplicateRun",
        "Listening",
        "MatchStatus",
        "Transport",
        "derived_seed",
    ),
    "dealer.running.halves": ("StopHalf",),
    "dealer.running.match": (
        "AfterHalf",
        "BeforeHalf",
        "MatchFailedError",
        "MatchInterruptedError",
        "MatchRequest",
        "MatchRun",
        "check_match",
        "default_jobs",
        "run_match",
    ),
    "dealer.running.isolation": ("IsolatedEntrant", "isolated"),
    "dealer.running.matchfolder": ("SUMMARY",),
    "dealer.running.resultfiles": ("write_json",),
    "dealer.running.tournament": (
        "TournamentInterruptedError",
        "TournamentRequest",
        "TournamentRun",
        "plan_tournament",
        "run_tournament",
        "write_plot",
    ),
    "dealer.running.tournamentfolder": (
        "CROSSTABLE_PLOT",
        "RESULTS",
    ),
    "dealer.running.tournamentreport": (
        "TournamentReport",
        "read_tournament",
        "tournament_json",
        "tournament_lines",
    ),
}
"""Where each name of ``__all__`` lives (imported when first used)."""

if not TYPE_CHECKING:  # the type checker sees the imports above, and catches a misspelt name
    __getattr__ = lazy_names(__name__, _NAMES)
