"""Progress of long work: running results of a match (:mod:`~acpcbot.progress.running`), the
display on stderr (:mod:`~acpcbot.progress.display`), and both fed from a match's reports
together with its telemetry (:mod:`~acpcbot.progress.monitor`; a tournament's:
:mod:`~acpcbot.progress.pool`; a player's own over MQTT: :mod:`~acpcbot.progress.player`).
Progress imports the telemetry it feeds, never the other way."""

from acpcbot.progress.display import ProgressDisplay as ProgressDisplay
from acpcbot.progress.display import Show as Show
from acpcbot.progress.running import MatchProgress as MatchProgress
from acpcbot.progress.running import RunningMatch as RunningMatch
from acpcbot.progress.running import RunningSums as RunningSums
