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

from acpcbot.faces import lazy_names

if TYPE_CHECKING:
    from acpcbot.protocol.cardsfield import CardsLayout
    from acpcbot.protocol.constants import MATCHSTATE_PREFIX, VERSION, VERSION_LINE
    from acpcbot.protocol.framing import MAX_LINE_BYTES, LineBuffer, LineTooLongError
    from acpcbot.protocol.lenient import Reply, ReplyKind, Request, read_reply, read_version
    from acpcbot.protocol.logfile import (
        LogHeader,
        ScoreRecord,
        StateFields,
        StateRecord,
        format_score_line,
        format_state_line,
        parse_header,
        parse_score_line,
        parse_state_line,
        state_fields,
        state_record,
    )
    from acpcbot.protocol.matchstate import (
        Betting,
        MatchState,
        decode_match_state,
        format_match_state,
        parse_betting,
        parse_match_state,
        view_of,
    )
    from acpcbot.protocol.statelines import StateLines
    from acpcbot.protocol.tracker import HandTracker

__all__ = [
    "MATCHSTATE_PREFIX",
    "MAX_LINE_BYTES",
    "VERSION",
    "VERSION_LINE",
    "Betting",
    "CardsLayout",
    "HandTracker",
    "LineBuffer",
    "LineTooLongError",
    "LogHeader",
    "MatchState",
    "Reply",
    "ReplyKind",
    "Request",
    "ScoreRecord",
    "StateFields",
    "StateLines",
    "StateRecord",
    "decode_match_state",
    "format_match_state",
    "format_score_line",
    "format_state_line",
    "parse_betting",
    "parse_header",
    "parse_match_state",
    "parse_score_line",
    "parse_state_line",
    "read_reply",
    "read_version",
    "state_fields",
    "state_record",
    "view_of",
]

_NAMES = {
    "acpcbot.protocol.cardsfield": ("CardsLayout",),
    "acpcbot.protocol.constants": ("MATCHSTATE_PREFIX", "VERSION", "VERSION_LINE"),
    "acpcbot.protocol.framing": ("MAX_LINE_BYTES", "LineBuffer", "LineTooLongError"),
    "acpcbot.protocol.lenient": ("Reply", "ReplyKind", "Request", "read_reply", "read_version"),
    "acpcbot.protocol.logfile": (
        "LogHeader",
        "ScoreRecord",
        "StateFields",
        "StateRecord",
        "format_score_line",
        "format_state_line",
        "parse_header",
        "parse_score_line",
        "parse_state_line",
        "state_fields",
        "state_record",
    ),
    "acpcbot.protocol.matchstate": (
        "Betting",
        "MatchState",
        "decode_match_state",
        "format_match_state",
        "parse_betting",
        "parse_match_state",
        "view_of",
    ),
    "acpcbot.protocol.statelines": ("StateLines",),
    "acpcbot.protocol.tracker": ("HandTracker",),
}
"""Where each name of ``__all__`` lives (imported when first used)."""

if not TYPE_CHECKING:  # the type checker sees the imports above, and catches a misspelt name
    __getattr__ = lazy_names(__name__, _NAMES)
