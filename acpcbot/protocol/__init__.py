"""The ACPC protocol (2.0.0), in one place and pure (no I/O): what a dealer and a client say,
and what a log file holds.

* Match states (:mod:`.matchstate`): ``MATCHSTATE:<position>:<hand>:<betting>:<cards>``
  parsed into a :class:`MatchState` and written back; :func:`view_of` is one position's view
  of a hand as the dealer sends it, :class:`StateLines` (:mod:`.statelines`) every
  position's, kept up to date action by action; the cards field of many deals at once
  (:class:`CardsLayout`, :mod:`.cardsfield`).
* The client's side: :class:`HandTracker` (:mod:`.tracker`) decodes the states of a hand
  incrementally and checks each against the last.
* The dealer's side: a client's reply read as leniently as the reference dealer reads it
  (:func:`read_reply`, :func:`read_version`, :mod:`.lenient`).
* Lines on the wire (:class:`LineBuffer`, :mod:`.framing`) and the protocol's fixed words
  (:mod:`.constants`).
* The log file (:mod:`.logfile`): its header, ``STATE`` and ``SCORE`` lines
  (:func:`state_fields` is the one parser of ``STATE`` lines); reading a log file is
  :mod:`acpcbot.logreader`'s (it does I/O).

>>> from acpcbot.game import bundled_game
>>> from acpcbot.protocol import parse_match_state, parse_state_line
>>> state = parse_match_state("MATCHSTATE:0:30:cc/r:9s8h|/8c8d5c", bundled_game())
>>> state.position, state.hand_number, state.round, state.betting_text()
(0, 30, 1, 'cc/r')
>>> parse_state_line("STATE:0:rc/cc/cc/cc:7d3d|2hAc/5sKs7s/9s/6h:20|-20:A|B").values
(20.0, -20.0)

Importing this package (or any module in it) costs nothing: each name below is imported from
its module when first used (:mod:`acpcbot.faces`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# `acpcbot --help` reads the client's defaults, which import the protocol's constants, so
# this file runs on every command's start (issue 37: under 0.3 s); two of the modules load
# numpy besides. So each is imported when one of its names is first used, the names read
# from this block (acpcbot.faces).
if TYPE_CHECKING:
    from acpcbot.protocol.cardsfield import CardsLayout as CardsLayout
    from acpcbot.protocol.constants import MATCHSTATE_PREFIX as MATCHSTATE_PREFIX
    from acpcbot.protocol.constants import VERSION as VERSION
    from acpcbot.protocol.constants import VERSION_LINE as VERSION_LINE
    from acpcbot.protocol.framing import MAX_LINE_BYTES as MAX_LINE_BYTES
    from acpcbot.protocol.framing import LineBuffer as LineBuffer
    from acpcbot.protocol.framing import LineTooLongError as LineTooLongError
    from acpcbot.protocol.lenient import Reply as Reply
    from acpcbot.protocol.lenient import ReplyKind as ReplyKind
    from acpcbot.protocol.lenient import Request as Request
    from acpcbot.protocol.lenient import read_reply as read_reply
    from acpcbot.protocol.lenient import read_version as read_version
    from acpcbot.protocol.logfile import LogHeader as LogHeader
    from acpcbot.protocol.logfile import ScoreRecord as ScoreRecord
    from acpcbot.protocol.logfile import StateFields as StateFields
    from acpcbot.protocol.logfile import StateRecord as StateRecord
    from acpcbot.protocol.logfile import format_score_line as format_score_line
    from acpcbot.protocol.logfile import format_state_line as format_state_line
    from acpcbot.protocol.logfile import parse_header as parse_header
    from acpcbot.protocol.logfile import parse_score_line as parse_score_line
    from acpcbot.protocol.logfile import parse_state_line as parse_state_line
    from acpcbot.protocol.logfile import state_fields as state_fields
    from acpcbot.protocol.logfile import state_record as state_record
    from acpcbot.protocol.matchstate import Betting as Betting
    from acpcbot.protocol.matchstate import MatchState as MatchState
    from acpcbot.protocol.matchstate import decode_match_state as decode_match_state
    from acpcbot.protocol.matchstate import format_match_state as format_match_state
    from acpcbot.protocol.matchstate import parse_betting as parse_betting
    from acpcbot.protocol.matchstate import parse_match_state as parse_match_state
    from acpcbot.protocol.matchstate import view_of as view_of
    from acpcbot.protocol.statelines import StateLines as StateLines
    from acpcbot.protocol.tracker import HandTracker as HandTracker
else:
    from acpcbot.faces import lazy_names

    __getattr__ = lazy_names(__name__)
