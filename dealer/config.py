"""What a match is: the settings every transport and the engine share.

>>> from acpcbot.game import bundled_game
>>> config = MatchConfig("m", bundled_game(), "holdem.limit.2p.reverse_blinds.game", 10, 42,
...                      ("Alice", "Bob"))
>>> config.header.lines()[0]
'# name/game/hands/seed m holdem.limit.2p.reverse_blinds.game 10 42'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from acpcbot.errors import AcpcError
from acpcbot.game import Game
from acpcbot.protocol.logfile import LogHeader


@dataclass(frozen=True, slots=True)
class TimeLimits:
    """The reference's time limits, in milliseconds (its defaults)."""

    response_ms: int = 600_000
    """Longest time for one reply (``--t_response``)."""
    hand_ms: int = 600_000
    """Most reply time one seat may use within a hand (``--t_hand``)."""
    per_hand_ms: int = 7_000
    """Average reply time per hand over the match (``--t_per_hand``); the match budget is
    this times the number of hands."""


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """One match: names in seat order, the cards' seed, the rules of play."""

    match_name: str
    game: Game
    game_path: str
    """The game file as named in the log header (the reference writes what it was given)."""
    hands: int
    seed: int
    names: tuple[str, ...]
    """Player names in seat order (seat 1 first)."""
    fixed_seats: bool = False
    """``-f``: no button rotation."""
    limits: TimeLimits = field(default_factory=TimeLimits)
    strict: bool = False
    """End the match on any content error instead of repairing it like the reference."""

    def __post_init__(self) -> None:
        if self.hands <= 0:
            raise AcpcError(f"invalid number of hands {self.hands}")
        if len(self.names) != self.game.num_players:
            raise AcpcError(
                f"the game has {self.game.num_players} players but {len(self.names)} names "
                "were given"
            )
        for name in self.names:
            if not name or any(c in name for c in "|: \t\r\n"):
                raise AcpcError(f"player name {name!r} cannot be written to a log")

    @property
    def header(self) -> LogHeader:
        return LogHeader(
            match_name=self.match_name,
            game_path=self.game_path,
            hands=self.hands,
            seed=self.seed,
            t_response=self.limits.response_ms,
            t_hand=self.limits.hand_ms,
            t_per_hand=self.limits.per_hand_ms,
        )
