"""MT19937 exactly as the reference dealer seeds and draws it (``rng.c``).

The reference calls ``init_genrand(seed)`` once per match and ``genrand_int32()`` for every
card. numpy's :class:`~numpy.random.MT19937` runs the same generator but seeds it
differently, so :func:`mt19937` builds the ``init_genrand`` state and hands it over;
``random_raw(n)`` then returns the next ``n`` outputs of ``genrand_int32()``, in bulk.

>>> mt19937(5489).random_raw(2).tolist()  # the textbook MT19937 check value first
[3499211612, 581869302]
"""

from __future__ import annotations

import numpy as np

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


def mt19937(seed: int) -> np.random.MT19937:
    """numpy's MT19937 in the state ``init_genrand(seed)`` leaves the reference's in."""
    generator = np.random.MT19937()
    # pos 624: "regenerate before the next draw", where init_genrand leaves it too.
    key = np.array(init_genrand(seed), dtype=np.uint32)
    generator.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": STATE_WORDS}}
    return generator
