"""Analysing logs: what a match's ``.log`` files say, ours or the reference dealer's.

* Reading: every log is read by :mod:`acpcbot.logreader` (streamed, every line checked,
  :class:`LogError` for anything wrong); :func:`read_log` (:mod:`.playedlog`) keeps its
  results, :func:`logged_hands` (:mod:`.loghands`) gives every hand of several logs with
  its game (``acpcbot stats`` and ``acpcbot infogain`` read their logs so); whether two
  logs are a duplicate pair (:mod:`.twins`).
* Results: one player's winnings over a log or a duplicate pair (:mod:`.results`), with their
  mbb/g and 95% confidence interval (:mod:`.stats`); what ``acpcbot results`` computes and
  prints (:func:`report_logs`, :mod:`.logresults`).
* AIVAT: winnings with the luck taken out (:mod:`.aivat`, :mod:`.aivatreport`, its value
  function's table :mod:`.aivatvalue`). Not listed here: it loads numba, and importing this
  package stays cheap; import them from their modules.
* Tournaments: a crosstable pooled over seeds (:mod:`.crosstable`) and the ACPC's rankings
  (:mod:`.rankings`). Players' statistics (:mod:`.playerstats`). Pictures (matplotlib, the
  ``plot`` extra): bankroll curves (:mod:`.bankrollplot`) and a crosstable's heatmap
  (:mod:`.crosstableplot`).

This package may use the referee's file formats (:mod:`dealer.referee`), never the runners
(:mod:`dealer.running`): a contract in ``pyproject.toml``.

>>> import io
>>> from pathlib import Path
>>> data = (b"STATE:0:rc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h:20|-20:A|B\\n"
...         b"STATE:1:crf:9h6s|3d3h:10|-10:B|A\\n")
>>> log = read_log_stream(Path("m.log"), io.BytesIO(data))
>>> result = log_result(log, big_blind=10)
>>> result.player, result.hands, result.chips, result.estimate.mbb_per_game
('A', 2, 10.0, 500.0)
"""

from dealer.analysis.bankrollplot import bankroll_png as bankroll_png
from dealer.analysis.bankrollplot import logs_png as logs_png
from dealer.analysis.crosstable import Crosstable as Crosstable
from dealer.analysis.crosstable import pool as pool
from dealer.analysis.crosstableplot import heatmap_png as heatmap_png
from dealer.analysis.loghands import LoggedHand as LoggedHand
from dealer.analysis.loghands import logged_hands as logged_hands
from dealer.analysis.logresults import LogsReport as LogsReport
from dealer.analysis.logresults import ReportKind as ReportKind
from dealer.analysis.logresults import report_logs as report_logs
from dealer.analysis.playedlog import LogError as LogError
from dealer.analysis.playedlog import PlayedLog as PlayedLog
from dealer.analysis.playedlog import read_log as read_log
from dealer.analysis.playedlog import read_log_stream as read_log_stream
from dealer.analysis.playerstats import PlayerStats as PlayerStats
from dealer.analysis.playerstats import log_stats as log_stats
from dealer.analysis.playerstats import stats_json as stats_json
from dealer.analysis.playerstats import stats_lines as stats_lines
from dealer.analysis.rankings import Placing as Placing
from dealer.analysis.rankings import instant_runoff as instant_runoff
from dealer.analysis.rankings import total_bankroll as total_bankroll
from dealer.analysis.results import HalfResult as HalfResult
from dealer.analysis.results import PairResult as PairResult
from dealer.analysis.results import ResultsError as ResultsError
from dealer.analysis.results import duplicate_result as duplicate_result
from dealer.analysis.results import log_result as log_result
from dealer.analysis.stats import Z95 as Z95
from dealer.analysis.stats import Estimate as Estimate
from dealer.analysis.stats import estimate as estimate
from dealer.analysis.stats import pair_sorted as pair_sorted
from dealer.analysis.stats import to_mbb as to_mbb
from dealer.analysis.twins import twin_differences as twin_differences
