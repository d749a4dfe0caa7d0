"""Progress of long work: running results of a match (:mod:`~acpcbot.progress.running`), the
display on stderr (:mod:`~acpcbot.progress.display`), and both fed from a match's reports
together with its telemetry (:mod:`~acpcbot.progress.monitor`)."""

from acpcbot.progress.display import ProgressDisplay
from acpcbot.progress.running import MatchProgress, RunningMatch, RunningSums, eta_text

__all__ = ["MatchProgress", "ProgressDisplay", "RunningMatch", "RunningSums", "eta_text"]
