"""Hand evaluation and equity: the value every showdown is decided by, and the numba engine.

:func:`rank_hand` returns an ``int`` where higher wins and equal means a tie. For 5 to 7
cards (hold'em) it is the hand's equivalence class from 1 (7-5-4-3-2 of mixed suits) to 7462
(a royal flush), found by the table-driven engine (:mod:`.evaluator`, loaded on the first
call), and :func:`category_of` names its :class:`Category`. Hands of other sizes (games such
as Leduc hold'em) are ranked by :func:`~.reference.rank_hand_reference`; those values compare
with hands of the same size only.

Importing this package is free: numba is imported by the modules that compile
(:mod:`.evaluator`, :mod:`.enumeration`, :mod:`.montecarlo`, :mod:`.strength`,
:mod:`.equity`), and nothing compiles at import time — each kernel is compiled on its first
call and cached on disk (:mod:`.jitcache` decides where: ``NUMBA_CACHE_DIR``, numba's own
places, or a private temporary folder on a read-only install). :mod:`.combos`,
:mod:`.categories`, :mod:`.lookup` (the evaluator's tables, and many hands ranked with numpy
alone: what the dealer uses) and :mod:`.reference` are plain Python and numpy.

Caching caveat: numba freezes global arrays (the evaluator's tables) into each cached
kernel and re-validates a cache entry only against its own source file. After editing
the tables (:mod:`.lookup`; :mod:`.evaluator` names them by their hash), delete the cache
(``.numba-cache`` under ``./dev.sh test``) so kernels in the other modules are rebuilt too.

>>> from acpcbot.cards import parse_cards
>>> category_of(rank_hand(parse_cards("AsKsQsJsTs2c3d"))).name
'STRAIGHT_FLUSH'
>>> rank_hand(parse_cards("AhAd2c3c4d9s8s")) > rank_hand(parse_cards("KhKd2c3c4d9s8s"))
True
>>> rank_hand(parse_cards("2c2d")) > rank_hand(parse_cards("AcKc"))  # two-card hands
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from acpcbot.cards import NUM_CARDS, Card, shown_cards
from acpcbot.errors import CardError
from acpcbot.handeval.categories import Category, category_of
from acpcbot.handeval.reference import rank_hand_reference

__all__ = ["Category", "category_of", "rank_hand", "rank_hand_reference"]

_engine_rank: Callable[[Sequence[Card]], int] | None = None


def rank_hand(cards: Sequence[Card]) -> int:
    """Value of the best five-card hand among ``cards`` (distinct); higher wins.

    Raises :class:`CardError` for no cards, a repeated card or a code outside 0..51.
    """
    global _engine_rank  # noqa: PLW0603 - the engine is loaded on first use only
    if len(cards) == 0 or len(set(cards)) != len(cards):
        raise CardError(f"a hand needs distinct cards, not {shown_cards(cards) or 'none'}")
    if min(cards) < 0 or max(cards) >= NUM_CARDS:
        raise CardError(f"a hand holds a code that is no card: {shown_cards(cards)}")
    if not 5 <= len(cards) <= 7:
        return rank_hand_reference(cards)
    if _engine_rank is None:
        # numba: the engine is compiled and loaded on the first 5-7 card hand
        from acpcbot.handeval.evaluator import rank_hand as engine_rank

        _engine_rank = engine_rank
    return _engine_rank(cards)
