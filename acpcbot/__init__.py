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

__version__ = "0.1.0"

# Every import of a module of acpcbot runs this file first, `acpcbot --help` included (issue
# 37: it stays under 0.3 s): imported at the top, these modules would add a third to its time
# (the client alone loads asyncio). So each is imported when one of its
# names is first used, the names read from this block (acpcbot.faces).
if TYPE_CHECKING:
    from acpcbot.actions import CALL as CALL
    from acpcbot.actions import FOLD as FOLD
    from acpcbot.actions import RAISE as RAISE
    from acpcbot.actions import Action as Action
    from acpcbot.actions import ActionType as ActionType
    from acpcbot.cards import Card as Card
    from acpcbot.cards import card_text as card_text
    from acpcbot.cards import cards_text as cards_text
    from acpcbot.cards import parse_cards as parse_cards
    from acpcbot.client import MatchSummary as MatchSummary
    from acpcbot.client import play_match as play_match
    from acpcbot.deal import Deal as Deal
    from acpcbot.errors import AcpcError as AcpcError
    from acpcbot.errors import CardError as CardError
    from acpcbot.errors import GameDefinitionError as GameDefinitionError
    from acpcbot.errors import MatchStateError as MatchStateError
    from acpcbot.game import LIMIT_HOLDEM as LIMIT_HOLDEM
    from acpcbot.game import NOLIMIT_HOLDEM as NOLIMIT_HOLDEM
    from acpcbot.game import BettingType as BettingType
    from acpcbot.game import Game as Game
    from acpcbot.game import bundled_game as bundled_game
    from acpcbot.game import load_game as load_game
    from acpcbot.game import parse_game as parse_game
    from acpcbot.logreader import HandLine as HandLine
    from acpcbot.logreader import LogError as LogError
    from acpcbot.logreader import LogReader as LogReader
    from acpcbot.logreader import game_of_log as game_of_log
    from acpcbot.logreader import open_log as open_log
    from acpcbot.player import BettingView as BettingView
    from acpcbot.player import Entrant as Entrant
    from acpcbot.player import HandResult as HandResult
    from acpcbot.player import MatchInfo as MatchInfo
    from acpcbot.player import Player as Player
    from acpcbot.player import Strategy as Strategy
    from acpcbot.rules import HandState as HandState
    from acpcbot.rules import replay as replay
else:
    from acpcbot.faces import lazy_names

    __getattr__ = lazy_names(__name__)
