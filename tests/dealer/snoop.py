"""A hostile plug-in agent: it plays as the ACPC example player and, on every call, walks
everything it is handed looking for cards it should not know.

The walk is the ordinary introspection any Python plug-in can do: the attributes (``dir``,
``vars``, ``__dict__``) and slots of every object reachable from its arguments, the items of
every container, the cells of closures, the ``__self__`` of bound methods, and
``gc.get_referents`` of each, recursively (bounded). A card is an ``int`` in 0..51 under an
attribute whose name speaks of cards (``hole_cards``, ``board``, ``deal``, ...; not a count
such as ``num_hole_cards``), or a card in a protocol line (``MATCHSTATE:``/``STATE:`` text).
A card it finds that the state it was handed does not show (the opponent's hole cards
before a showdown, a board card not yet dealt) is a *leak*.

It keeps what it found on itself (:attr:`Snoop.leaks`, :attr:`Snoop.cards_found`), and when
the environment names a file (:data:`REPORT`) also appends it there, one line each, so that
a test can read what an agent in another process found: ``pid N`` as a match begins,
``found N`` (the cards it was allowed to see and found, at the end of each hand) and
``leak ...`` lines.
"""

from __future__ import annotations

import contextlib
import gc
import os
import re
import types
from collections import deque
from collections.abc import Iterator
from typing import Any

from acpcbot.actions import Action
from acpcbot.cards import Card, parse_cards
from acpcbot.player import BettingView, HandResult, MatchInfo
from acpcbot.protocol.matchstate import MatchState
from agents.simple import ExamplePlayer

REPORT = "ACPCBOT_SNOOP_REPORT"
"""The environment variable naming the file the agent appends its findings to."""

MOST_OBJECTS = 5000
"""Objects visited per call at most."""

_CARDISH = re.compile(r"card|board|hole|deal", re.IGNORECASE)
_COUNT = re.compile(r"^num_|_count$|^count", re.IGNORECASE)
_LINE = re.compile(r"(?:MATCH)?STATE:[^:]*:[^:]*:[^:]*:([^:\s]*)")
_SKIPPED = (
    type,
    types.ModuleType,
    types.CodeType,
    types.FrameType,
    types.BuiltinFunctionType,
    bool,
    float,
    complex,
    bytes,
    type(None),
)
"""The program rather than its data (walking a module or a class reaches everything), and
values that hold no card."""


def _cardish(name: str) -> bool:
    return bool(_CARDISH.search(name)) and not _COUNT.search(name)


def _named_parts(obj: Any) -> Iterator[tuple[str, Any]]:
    """An object's attributes, by name: ``vars``, its slots along the MRO, and ``dir``."""
    seen: set[str] = set()
    try:
        namespace = dict(vars(obj))
    except TypeError:
        namespace = {}
    for name, value in namespace.items():
        seen.add(name)
        yield name, value
    for klass in type(obj).__mro__:
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name in seen or name in ("__dict__", "__weakref__"):
                continue
            seen.add(name)
            with contextlib.suppress(AttributeError):
                yield name, object.__getattribute__(obj, name)
    for name in dir(obj):
        if name in seen or (name.startswith("__") and name.endswith("__")):
            continue
        seen.add(name)
        try:
            value = getattr(obj, name)
        except Exception:  # a property that refuses: nothing found there
            continue
        yield name, value


def _parts(obj: Any, cardish: bool) -> Iterator[tuple[Any, bool, str]]:
    """What can be reached from ``obj`` in one step: (object, under a card name, step)."""
    if isinstance(obj, types.FunctionType):
        # Its cells and defaults; not its globals (the module: the program, not its data).
        for index, cell in enumerate(obj.__closure__ or ()):
            with contextlib.suppress(ValueError):  # an empty cell
                yield cell.cell_contents, False, f".<cell {index}>"
        yield obj.__defaults__, False, ".__defaults__"
        yield obj.__kwdefaults__, False, ".__kwdefaults__"
        return
    if isinstance(obj, types.MethodType):
        yield obj.__self__, False, ".__self__"
        yield obj.__func__, False, ".__func__"
        return
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield key, cardish, "key"
            named = isinstance(key, str)
            yield value, _cardish(key) if named else cardish, f"[{key!r}]"
    elif isinstance(obj, tuple | list | set | frozenset | deque):
        for index, item in enumerate(obj):
            yield item, cardish, f"[{index}]"
    else:
        for name, value in _named_parts(obj):
            if callable(value) and not isinstance(value, types.MethodType | types.FunctionType):
                continue
            yield value, _cardish(name), f".{name}"
    for referent in gc.get_referents(obj):
        yield referent, cardish, ".<referent>"


def cards_within(roots: dict[str, Any]) -> Iterator[tuple[str, Card]]:
    """Every card reachable from ``roots`` (by name), with the path it was found along."""
    queue: deque[tuple[Any, bool, str]] = deque((obj, False, name) for name, obj in roots.items())
    visited: set[tuple[int, bool]] = set()
    kept: list[Any] = []  # (objects made by getattr stay alive, so that ids are not reused)
    while queue and len(visited) < MOST_OBJECTS:
        obj, cardish, path = queue.popleft()
        if isinstance(obj, int) and not isinstance(obj, bool):
            if cardish and 0 <= obj < 52:
                yield path, obj
            continue
        if isinstance(obj, str):
            for match in _LINE.finditer(obj):
                for group in re.split(r"[|/]", match.group(1)):
                    try:
                        for card in parse_cards(group):
                            yield f"{path} (text)", card
                    except Exception:  # not cards after all
                        pass
            continue
        if isinstance(obj, _SKIPPED):
            continue
        key = (id(obj), cardish)
        if key in visited:
            continue
        visited.add(key)
        kept.append(obj)
        try:
            parts = list(_parts(obj, cardish))
        except Exception:  # an object that refuses to be looked at hides nothing from it
            continue
        for part, part_cardish, step in parts:
            queue.append((part, part_cardish, path + step))


def shown(state: MatchState) -> set[Card]:
    """The cards ``state`` shows its viewer."""
    return {card for cards in state.hole_cards for card in cards} | set(state.board_cards)


class Snoop(ExamplePlayer):
    """The example player, walking everything it is handed for cards (see the module)."""

    name = "snoop"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.leaks: list[str] = []
        """What it found and should not have: ``hand call path card`` each."""
        self.cards_found = 0
        """Cards found that it was allowed to see (the walk works)."""
        self.calls = 0

    def _look(self, call: str, hand: int, allowed: set[Card], **handed: Any) -> None:
        self.calls += 1
        for path, card in cards_within(handed):
            if card in allowed:
                self.cards_found += 1
                continue
            leak = f"{hand} {call} {path} {card}"
            if len(self.leaks) < 100:
                self.leaks.append(leak)
                _report(f"leak {leak}")

    def begin_match(self, info: MatchInfo) -> None:
        super().begin_match(info)
        _report(f"pid {os.getpid()}")
        self._look("begin_match", -1, set(), info=info)

    def observe(self, state: MatchState, betting: BettingView) -> None:
        self._look("observe", state.hand_number, shown(state), state=state, betting=betting)

    def act(self, state: MatchState, betting: BettingView) -> Action:
        self._look("act", state.hand_number, shown(state), state=state, betting=betting)
        return super().act(state, betting)

    def end_hand(self, result: HandResult) -> None:
        self._look("end_hand", result.state.hand_number, shown(result.state), result=result)
        _report(f"found {self.cards_found}")


def _report(line: str) -> None:
    path = os.environ.get(REPORT)
    if path:
        with open(path, "a", encoding="ascii") as file:
            file.write(line + "\n")
