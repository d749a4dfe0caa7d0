"""MT19937 exactly as the reference dealer seeds and draws it (``rng.c``).

The reference calls ``init_genrand(seed)`` once per match and ``genrand_int32()`` for every
card. Python's :class:`random.Random` runs the same generator but seeds it differently
(``init_by_array``), so :func:`mersenne_twister` builds the ``init_genrand`` state and hands
it to a :class:`random.Random`; ``getrandbits(32)`` then returns exactly ``genrand_int32()``,
at C speed.

>>> draw = mersenne_twister(5489).getrandbits
>>> draw(32)  # the textbook MT19937 check value
3499211612
"""

from __future__ import annotations

import random

STATE_WORDS = 624
_MULTIPLIER = 1812433253
_MASK32 = 0xFFFFFFFF


def init_genrand(seed: int) -> tuple[int, ...]:
    """The 624-word MT19937 state after the reference's ``init_genrand(seed)``.

    The seed is reduced to 32 bits first, as the reference's ``uint32_t`` does.

    >>> init_genrand(2**32)[:2] == init_genrand(0)[:2]
    True
    """
    word = seed & _MASK32
    state = [word]
    for i in range(1, STATE_WORDS):
        word = (_MULTIPLIER * (word ^ (word >> 30)) + i) & _MASK32
        state.append(word)
    return tuple(state)


def mersenne_twister(seed: int) -> random.Random:
    """A :class:`random.Random` whose ``getrandbits(32)`` is ``genrand_int32()`` after
    ``init_genrand(seed)``. Only ``getrandbits(32)`` follows the reference; the other methods
    of :class:`random.Random` combine draws in their own way."""
    rng = random.Random()
    # The trailing 624 is the position in the state: "regenerate before the next draw",
    # which is where init_genrand leaves the reference generator too.
    rng.setstate((3, (*init_genrand(seed), STATE_WORDS), None))
    return rng
