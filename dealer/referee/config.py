"""What a match is: the settings every transport and the referee share.

>>> from acpcbot.game import bundled_game
>>> config = MatchConfig("m", bundled_game(), "holdem.limit.2p.reverse_blinds.game", 10, 42,
...                      ("Alice", "Bob"))
>>> config.header.lines()[0]
'# name/game/hands/seed m holdem.limit.2p.reverse_blinds.game 10 42'
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from acpcbot.errors import AcpcError
from acpcbot.game import Game
from acpcbot.protocol.constants import MAX_HANDS
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
        if not 0 < self.hands <= MAX_HANDS:
            raise AcpcError(f"invalid number of hands {self.hands}")
        if len(self.names) != self.game.num_players:
            raise AcpcError(f"{self.game.num_players} player names needed, {len(self.names)} given")
        for name in self.names:
            if _unloggable(name, "|:"):
                raise AcpcError(
                    f"player name {name!r} cannot be written to a log (no spaces, control "
                    "characters, ':' or '|')"
                )
        if _unloggable(self.match_name, ""):
            raise AcpcError(
                f"match name {self.match_name!r} cannot be written to a log header (no "
                "spaces or control characters)"
            )
        if _unloggable(self.game_path.replace(" ", "_"), ""):
            raise AcpcError(
                f"game file name {self.game_path!r} cannot be written to a log header (no "
                "control characters)"
            )

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


def logged_text(text: str) -> str:
    """A command-line argument (a name, a file name) as a log holds it: the bytes it was
    given, one Latin-1 character each, as the reference writes the bytes of ``argv``. Every
    text the dealer prints is such text, written as Latin-1.

    >>> logged_text("Zo\u00eb")  # given in UTF-8: two bytes for the last letter
    'ZoÃ«'
    """
    return os.fsencode(text).decode("latin-1")


def _unloggable(text: str, forbidden: str) -> bool:
    """Whether ``text`` is empty, or has a space, an ASCII control character, one of
    ``forbidden`` or a character beyond Latin-1 (a log holds bytes: a name given on the
    command line is passed here as its bytes, one Latin-1 character each).

    >>> _unloggable("Alice", "|:"), _unloggable("Al ice", ""), _unloggable("Zo\u00eb", "")
    (False, True, False)
    """
    return not text or any(c <= " " or c == "\x7f" or c > "\xff" or c in forbidden for c in text)
