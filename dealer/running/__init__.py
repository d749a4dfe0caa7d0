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
``pyproject.toml``). Importing it (or any module in it) loads little: the names of the
modules that load numpy or numba are imported when first used (:mod:`acpcbot.faces`).

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

from dealer.running.matchfolder import SUMMARY as SUMMARY
from dealer.running.resultfiles import write_json as write_json

# The rest loads numpy (the referee's deals) and numba (the analysis' AIVAT), which a module
# that needs only the folders or a child process's helpers would pay for. So each is imported
# when one of its names is first used, the names read from this block (acpcbot.faces).
if TYPE_CHECKING:
    from dealer.running.duplicate import DEFAULT_START_TIMEOUT_MS as DEFAULT_START_TIMEOUT_MS
    from dealer.running.duplicate import Decisions as Decisions
    from dealer.running.duplicate import DuplicatePlan as DuplicatePlan
    from dealer.running.duplicate import DuplicateRun as DuplicateRun
    from dealer.running.duplicate import Listening as Listening
    from dealer.running.duplicate import MatchStatus as MatchStatus
    from dealer.running.duplicate import Transport as Transport
    from dealer.running.duplicate import derived_seed as derived_seed
    from dealer.running.halves import StopHalf as StopHalf
    from dealer.running.isolation import IsolatedEntrant as IsolatedEntrant
    from dealer.running.isolation import isolated as isolated
    from dealer.running.match import AfterHalf as AfterHalf
    from dealer.running.match import BeforeHalf as BeforeHalf
    from dealer.running.match import MatchFailedError as MatchFailedError
    from dealer.running.match import MatchInterruptedError as MatchInterruptedError
    from dealer.running.match import MatchRequest as MatchRequest
    from dealer.running.match import MatchRun as MatchRun
    from dealer.running.match import check_match as check_match
    from dealer.running.match import default_jobs as default_jobs
    from dealer.running.match import run_match as run_match
    from dealer.running.match import sigterm_ignored as sigterm_ignored
    from dealer.running.tournament import TournamentInterruptedError as TournamentInterruptedError
    from dealer.running.tournament import TournamentRequest as TournamentRequest
    from dealer.running.tournament import TournamentRun as TournamentRun
    from dealer.running.tournament import plan_tournament as plan_tournament
    from dealer.running.tournament import run_tournament as run_tournament
    from dealer.running.tournament import write_plot as write_plot
    from dealer.running.tournamentfolder import CROSSTABLE_PLOT as CROSSTABLE_PLOT
    from dealer.running.tournamentfolder import RESULTS as RESULTS
    from dealer.running.tournamentreport import TournamentReport as TournamentReport
    from dealer.running.tournamentreport import read_tournament as read_tournament
    from dealer.running.tournamentreport import tournament_json as tournament_json
    from dealer.running.tournamentreport import tournament_lines as tournament_lines
else:
    from acpcbot.faces import lazy_names

    __getattr__ = lazy_names(__name__)
