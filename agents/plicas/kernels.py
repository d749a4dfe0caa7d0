"""Numba kernels of PLICAS's exploitation unit: the action model's smoothed probabilities
(:meth:`agents.plicas.actionmodel.ActionModel.probabilities`).

The model recomputes its probabilities at every betting history a hand's walks reach, each
hand (its counts fade between hands); in numpy that was a score of calls on arrays of 10
to 169 rows, their overhead most of a decision's cost. The kernel does the same
arithmetic, element by element in numpy's order (a row's three numbers summed left to
right), so its answers are the same to the last bit.

This module imports numba; import it only where kernels run.
"""

from __future__ import annotations

from numba import njit

from acpcbot.handeval.jitcache import cache_enabled

CACHE = cache_enabled(__file__)
"""Whether this module's kernels are cached on disk (:mod:`acpcbot.handeval.jitcache`)."""


@njit(cache=CACHE, error_model="numpy")
def _shrink(probs, counts, inverse, k):  # type: ignore[no-untyped-def]
    """Each row of ``probs`` shrunk towards the observed ``counts`` (times ``inverse``) with
    ``k`` pseudo-observations: ``(seen + k p) / (sum(seen) + k)``, in place."""
    for i in range(probs.shape[0]):
        s0 = counts[i, 0] * inverse
        s1 = counts[i, 1] * inverse
        s2 = counts[i, 2] * inverse
        total = s0 + s1 + s2 + k
        probs[i, 0] = (s0 + k * probs[i, 0]) / total
        probs[i, 1] = (s1 + k * probs[i, 1]) / total
        probs[i, 2] = (s2 + k * probs[i, 2]) / total


@njit(cache=CACHE, error_model="numpy")
def smoothed_probabilities(  # type: ignore[no-untyped-def]  # noqa: PLR0917  (numba kernels take positional arguments)
    usual,
    departure,
    coarse,
    local,
    full,
    fine,
    coarse_of,
    inverse,
    strengths,
    legal,
    out,
):
    """``out[fine bucket]``: (fold, call, raise), the hierarchy's estimate: ``usual`` (the
    coarse context's prior, 10 × 3) moved by the local history's ``departure`` from it (when
    it has more than zero rows), shrunk towards the ``coarse``, ``local`` and ``full``
    counts (10 × 3 each, the coarse buckets), spread to the fine buckets (``coarse_of``),
    shrunk towards their ``fine`` counts, the actions not ``legal`` zeroed, renormalised.
    ``strengths``: the pseudo-observations at the fine, full, local and coarse levels."""
    probs = usual.copy()
    _shrink(probs, coarse, inverse, strengths[3])
    if departure.shape[0] > 0:
        for i in range(probs.shape[0]):
            m0 = probs[i, 0] * (departure[i, 0] / usual[i, 0] if usual[i, 0] > 0 else 1.0)
            m1 = probs[i, 1] * (departure[i, 1] / usual[i, 1] if usual[i, 1] > 0 else 1.0)
            m2 = probs[i, 2] * (departure[i, 2] / usual[i, 2] if usual[i, 2] > 0 else 1.0)
            total = m0 + m1 + m2
            if total > 0:
                probs[i, 0] = m0 / total
                probs[i, 1] = m1 / total
                probs[i, 2] = m2 / total
    _shrink(probs, local, inverse, strengths[2])
    _shrink(probs, full, inverse, strengths[1])
    for b in range(out.shape[0]):
        row = coarse_of[b]
        for a in range(3):
            out[b, a] = probs[row, a]
    _shrink(out, fine, inverse, strengths[0])
    for b in range(out.shape[0]):
        for a in range(3):
            if not legal[a]:
                out[b, a] = 0.0
        total = out[b, 0] + out[b, 1] + out[b, 2]
        out[b, 0] = out[b, 0] / total
        out[b, 1] = out[b, 1] / total
        out[b, 2] = out[b, 2] / total
