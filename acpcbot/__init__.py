"""acpcbot: the shared core of the acpcbot heads-up limit hold'em bot.

Cards and decks (:mod:`.cards`), game definitions (:mod:`.game`, the ``.game`` files), the
one source of betting rules (:class:`HandState`, :mod:`.rules`: who acts, what is legal, the
pot, the end of a round), the ACPC protocol (:mod:`acpcbot.protocol`: match states and their
text, the log file's lines; pure), the one reader of log files (:func:`open_log`,
:mod:`.logreader`: streamed, every line checked, compressed or not; :func:`game_of_log`
says which game a log is), hand evaluation and
equity (:mod:`acpcbot.handeval`, numba), what a player is (:class:`Player`,
:class:`Entrant`: :mod:`.player`), the asyncio protocol client (:func:`play_match`,
:mod:`acpcbot.client`), telemetry and progress (:mod:`acpcbot.telemetry`,
:mod:`acpcbot.progress`), and the command line (:mod:`acpcbot.cli`).

The core imports nothing of ``agents`` (everything that decides) or ``dealer`` (everything
that referees, runs and reads matches), which both build on it; only the command line wires
them together (contracts in ``pyproject.toml``). Importing this package (or any module in it)
costs nothing: each name below is imported from its module when first used
(:mod:`.faces`), and numba only when a hand is first evaluated.

>>> from acpcbot import CALL, RAISE, HandState, bundled_game
>>> hand = HandState(bundled_game())
>>> hand.apply(RAISE); hand.apply(CALL)
>>> hand.round, hand.pot, [t.name for t in hand.legal_action_types()]
(1, 40, ['CALL', 'RAISE'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acpcbot.faces import lazy_names

if TYPE_CHECKING:
    from acpcbot.actions import CALL, FOLD, RAISE, Action, ActionType
    from acpcbot.cards import Card, card_text, cards_text, parse_cards
    from acpcbot.client import MatchSummary, play_match
    from acpcbot.deal import Deal
    from acpcbot.errors import AcpcError, CardError, GameDefinitionError, MatchStateError
    from acpcbot.game import (
        LIMIT_HOLDEM,
        NOLIMIT_HOLDEM,
        BettingType,
        Game,
        bundled_game,
        load_game,
        parse_game,
    )
    from acpcbot.logreader import HandLine, LogError, LogReader, game_of_log, open_log
    from acpcbot.player import BettingView, Entrant, HandResult, MatchInfo, Player, Strategy
    from acpcbot.rules import HandState, replay

__version__ = "0.1.0"

__all__ = [
    "CALL",
    "FOLD",
    "LIMIT_HOLDEM",
    "NOLIMIT_HOLDEM",
    "RAISE",
    "AcpcError",
    "Action",
    "ActionType",
    "BettingType",
    "BettingView",
    "Card",
    "CardError",
    "Deal",
    "Entrant",
    "Game",
    "GameDefinitionError",
    "HandLine",
    "HandResult",
    "HandState",
    "LogError",
    "LogReader",
    "MatchInfo",
    "MatchStateError",
    "MatchSummary",
    "Player",
    "Strategy",
    "__version__",
    "bundled_game",
    "card_text",
    "cards_text",
    "game_of_log",
    "load_game",
    "open_log",
    "parse_cards",
    "parse_game",
    "play_match",
    "replay",
]

_NAMES = {
    "acpcbot.actions": ("CALL", "FOLD", "RAISE", "Action", "ActionType"),
    "acpcbot.cards": ("Card", "card_text", "cards_text", "parse_cards"),
    "acpcbot.client": ("MatchSummary", "play_match"),
    "acpcbot.deal": ("Deal",),
    "acpcbot.errors": ("AcpcError", "CardError", "GameDefinitionError", "MatchStateError"),
    "acpcbot.game": (
        "LIMIT_HOLDEM",
        "NOLIMIT_HOLDEM",
        "BettingType",
        "Game",
        "bundled_game",
        "load_game",
        "parse_game",
    ),
    "acpcbot.logreader": ("HandLine", "LogError", "LogReader", "game_of_log", "open_log"),
    "acpcbot.player": (
        "BettingView",
        "Entrant",
        "HandResult",
        "MatchInfo",
        "Player",
        "Strategy",
    ),
    "acpcbot.rules": ("HandState", "replay"),
}
"""Where each name of ``__all__`` lives (imported when first used)."""

if not TYPE_CHECKING:  # the type checker sees the imports above, and catches a misspelt name
    __getattr__ = lazy_names(__name__, _NAMES)
