"""``acpc-dealer``'s progress display and telemetry (``--progress``, ``--mqtt``).

The referee tells :meth:`LiveMatch.on_hand` every hand: seat 1's chips feed a progress bar
on stderr (on a terminal unless ``-q``; ``--progress`` also elsewhere, as plain lines;
``--no-progress`` never) and, with ``--mqtt``, the match's ``progress`` messages; with
``--mqtt-hands`` every ``STATE`` line is published too (:meth:`LiveMatch.log`). The
transcript clears the bar before it writes. Nothing here runs unless asked for: a dealer
without these options plays exactly as before.
"""

from __future__ import annotations

import argparse
from typing import Any

from acpcbot.progress.display import ProgressDisplay, Show
from acpcbot.progress.monitor import MatchMonitor
from acpcbot.progress.running import RunningMatch
from acpcbot.telemetry.channel import Channel, told_text
from acpcbot.telemetry.codec import Kind, finite
from acpcbot.telemetry.url import BrokerAddress
from dealer.referee.config import MatchConfig
from dealer.referee.logtee import LogTee
from dealer.referee.matchlog import LogLines
from dealer.referee.referee import HandObserver, Referee
from dealer.referee.transcript import Transcript

__all__ = ["LiveMatch"]


class LiveMatch:
    """What one dealer match shows and publishes while it runs."""

    def __init__(
        self,
        config: MatchConfig,
        err: Transcript,
        *,
        show: Show | bool | None,
        broker: BrokerAddress | None = None,
        hands: bool = False,
    ) -> None:
        self.config = config
        self._err = err
        display = ProgressDisplay(config.match_name, config.hands, show=show)
        channel = None
        if broker is not None:
            describe = {
                "source": "acpc-dealer",
                "agents": list(config.names),
                "names": list(config.names),
                "seed": config.seed,
                "game": config.game_path,
                "hands_total": config.hands,
                "fixed_seats": config.fixed_seats,
            }

            def warn(text: str) -> None:
                display.write(f"WARNING: {text}")

            channel = Channel(broker, Kind.MATCH, config.match_name, describe, warn=warn)
            channel.start()
        running = RunningMatch(config.hands, max(1, config.game.big_blind), duplicate=False)
        self.monitor = MatchMonitor(running, display, config.names[0], channel, hands=hands)
        if display.enabled:
            err.guard = display.suspended
        self._referee: Referee | None = None

    @classmethod
    def from_args(cls, config: MatchConfig, args: argparse.Namespace, err: Transcript) -> LiveMatch:
        """As ``acpc-dealer``'s options ask (``-q`` turns the default bar off)."""
        # By default a bar on a terminal only: elsewhere the output is the reference's.
        show = Show.TERMINAL if args.progress is None else Show.flag(args.progress)
        if args.quiet and args.progress is None:
            show = Show.NEVER
        return cls(config, err, show=show, broker=args.mqtt, hands=args.mqtt_hands)

    @property
    def active(self) -> bool:
        """Whether anything is shown or published."""
        return self.monitor.display.enabled or self.monitor.channel is not None

    @property
    def on_hand(self) -> HandObserver | None:
        """The referee's ``on_hand`` (``None`` when nothing is shown or published)."""
        if not self.active:
            return None
        report = self.monitor.report
        last = self.config.hands - 1

        def observe(referee: Referee, values: tuple[float, ...]) -> None:
            self._referee = referee
            report(0, (values[referee.position_of(0)],))
            if referee.hand_number >= last:  # before the SCORE line is printed
                self.monitor.close_display()

        return observe

    def log(self, log: LogLines | None) -> LogLines | None:
        """``log``, also handing every ``STATE`` line to the telemetry (``--mqtt-hands``)."""
        if not self.monitor.hands_wanted:
            return log
        name = f"{self.config.match_name}.log"
        return LogTee(log, lambda line: self.monitor.hands(0, name, (line,)))

    def close(self, status: str, error: str | None = None) -> None:
        """Clear the bar; publish the final status (with the result so far) and say on
        stderr what became of the messages."""
        self._err.guard = None
        body: dict[str, Any] = {"result": self._result()}
        if error is not None:
            body["error"] = error
        stats = self.monitor.close(status, body)
        channel = self.monitor.channel
        if stats is not None and channel is not None:
            self._err.line(told_text(channel.told(stats)))
            self._err.flush()

    def _result(self) -> dict[str, Any]:
        referee = self._referee
        progress = self.monitor.snapshot()
        if referee is None:
            return {"hands": 0}
        names = self.config.names
        return {
            "hands": referee.hand_number,
            "chips": dict(zip(names, referee.totals, strict=True)),
            "score": referee.score_line() if referee.match_over else None,
            "player": names[0],
            "mbb_per_game": finite(progress.mbb_per_game),
            "ci95": finite(progress.ci95),
        }
