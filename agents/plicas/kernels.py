"""Numba kernels of PLICAS's exploitation unit: the action model's smoothed probabilities
(:meth:`agents.plicas.actionmodel.ActionModel.probabilities`) and the walk of a betting
round against the opponent's range (:func:`round_walk`).

The model recomputes its probabilities at every betting history a hand's walks reach, each
hand (its counts fade between hands); in numpy that was a score of calls on arrays of 10
to 169 rows, their overhead most of a decision's cost. The kernel does the same
arithmetic, element by element in numpy's order (a row's three numbers summed left to
right), so its answers are the same to the last bit.

The round walk was a Python recursion with a few numpy calls at each node. The kernel takes
the same steps; its sums over the 1,326 holdings are numpy's pairwise summation, reproduced
(:func:`pairwise_sum`), so its values too are the same to the last bit. The dot products
at the round's ends stay with numpy (BLAS sums in an order of its own): the kernel walks
twice, once to hand over the range left at each end, then with their dot products.

This module imports numba; import it only where kernels run.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from acpcbot.handeval.jitcache import cache_enabled
from agents.common.bettingtree import NodeKind

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


_PAIRWISE_BLOCK = 128
"""numpy's ``PW_BLOCKSIZE``: runs up to this long are summed in eight interleaved partial
sums, longer ones split in two (at a multiple of eight)."""
_SPLITS = 64
"""Room for the halves waiting to be summed (a run of ``128 · 2**63`` holds fewer)."""


@njit(cache=CACHE, error_model="numpy")
def _block_sum(values, start, count):  # type: ignore[no-untyped-def]
    """A run of at most :data:`_PAIRWISE_BLOCK`, summed as numpy sums it."""
    if count < 8:
        total = 0.0
        for i in range(count):
            total += values[start + i]
        return total
    r0, r1 = values[start], values[start + 1]
    r2, r3 = values[start + 2], values[start + 3]
    r4, r5 = values[start + 4], values[start + 5]
    r6, r7 = values[start + 6], values[start + 7]
    i = start + 8
    end = start + count - count % 8
    while i < end:
        r0 += values[i]
        r1 += values[i + 1]
        r2 += values[i + 2]
        r3 += values[i + 3]
        r4 += values[i + 4]
        r5 += values[i + 5]
        r6 += values[i + 6]
        r7 += values[i + 7]
        i += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < start + count:
        total += values[i]
        i += 1
    return total


@njit(cache=CACHE, error_model="numpy")
def pairwise_sum(values):  # type: ignore[no-untyped-def]
    """The sum of ``values`` (contiguous float64) in the order numpy's ``sum`` adds them
    (``pairwise_sum`` of its ``loops_utils.h``: a long run is the sum of its two halves,
    the first a multiple of eight long), so the same bits. Without recursion, which numba
    cannot load from its cache: the halves wait on a stack, and each sum as soon as both
    of its halves are known."""
    count = values.shape[0]
    if count <= _PAIRWISE_BLOCK:
        return _block_sum(values, 0, count)
    starts = np.empty(_SPLITS, np.int64)
    counts = np.empty(_SPLITS, np.int64)
    halves_done = np.empty(_SPLITS, np.int64)
    sums = np.empty(_SPLITS)
    starts[0], counts[0], halves_done[0] = 0, count, 0
    top, known = 1, 0
    while top > 0:
        here = top - 1
        run = counts[here]
        if run <= _PAIRWISE_BLOCK:
            sums[known] = _block_sum(values, starts[here], run)
            known += 1
            top -= 1
            continue
        half = run // 2
        half -= half % 8
        if halves_done[here] == 2:  # both halves summed: they make this run's sum
            sums[known - 2] = sums[known - 2] + sums[known - 1]
            known -= 1
            top -= 1
            continue
        first = halves_done[here] == 0
        starts[top] = starts[here] if first else starts[here] + half
        counts[top] = half if first else run - half
        halves_done[top] = 0
        halves_done[here] += 1
        top += 1
    return sums[0]


_DECISION = int(NodeKind.DECISION)


@njit(cache=CACHE, error_model="numpy")
def _spread(here, likelihoods, buckets, nodes, node, taken, masses):  # type: ignore[no-untyped-def]  # noqa: PLR0917  (numba kernels take positional arguments)
    """The range ``here`` split by the opponent's action at ``node`` into ``taken``, and
    each share's mass into ``masses``: summed holding by holding, numpy's order along the
    strided rows the Python walk summed (the three sums side by side, each in its order)."""
    slot = 0
    while nodes[slot] != node:
        slot += 1
    folds, calls, raises = likelihoods[slot, 0], likelihoods[slot, 1], likelihoods[slot, 2]
    folded, called, raised = taken[0], taken[1], taken[2]
    fold = call = raise_ = 0.0
    for h in range(here.shape[0]):
        bucket = buckets[h]
        weight = here[h]
        share = weight * folds[bucket]
        folded[h] = share
        fold += share
        share = weight * calls[bucket]
        called[h] = share
        call += share
        share = weight * raises[bucket]
        raised[h] = share
        raise_ += share
    masses[0], masses[1], masses[2] = fold, call, raise_


@njit(cache=CACHE, error_model="numpy")
def round_walk(  # type: ignore[no-untyped-def]  # noqa: PLR0917  (numba kernels take positional arguments)
    roots,
    weights,
    kind,
    player,
    children,
    spent,
    me,
    nodes,
    likelihoods,
    buckets,
    dots,
    ends,
    shared,
    taken,
    seen,
    values,
):
    """The values of our (``me``) actions' ``roots`` (-1: none, valued 0) against
    ``weights`` into ``values``: :meth:`agents.plicas.exploitation._RoundWalk.value`
    without the river's walk, step for step and bit for bit. The rest of the betting round
    is walked: our choices take the best action, the opponent's spread its range by
    ``likelihoods`` (``[slot, action, bucket]``, node ``nodes[slot]``'s; each holding's
    ``buckets``), its ends valued by ``dots``.

    The ends are numbered in the walk's order. With no ``dots``, each end's range is handed
    back (the values are then meaningless): ``shared[end]`` says whether it is a share of
    the opponent's range, copied into ``ends[end, :, 0]``, or ``weights`` themselves; else
    ``dots`` holds each end's range times our equity, as numpy takes it: the dot product
    is BLAS's, which sums in an order of its own, and in another along a strided row (a
    share's, as the Python walk held it: a row of a (3, holdings) array in column order).
    ``taken``: room for each depth's share of the range per action ``[depth, action,
    holding]``; ``seen``: the range's total and its shares' masses at each of the
    opponent's nodes in the walk's order, which the first walk writes and the second reads
    (it does not spread the range again). Without recursion (numba cannot load a
    recursive kernel from its cache): each node on the path is a frame of the arrays
    below, which takes its children's values as they come. Returns the number of ends
    walked."""
    depth = taken.shape[0]
    node_at = np.empty(depth, np.int64)
    source = np.empty(depth, np.int64)  # whose share is its range (-1: ``weights``) ...
    row = np.empty(depth, np.int64)  # ... which action's row of it
    total = np.empty(depth)
    step = np.empty(depth, np.int64)  # 0: not started; else the child awaited + 1
    best = np.empty(depth)
    masses = np.empty((depth, 3))
    end = visit = 0
    column = 0
    for r in range(roots.shape[0]):
        if roots[r] < 0:
            values[r] = 0.0
            continue
        node_at[0], source[0], row[0], total[0], step[0] = roots[r], -1, 0, -1.0, 0
        top = 1
        answer = 0.0  # the value of the frame popped last
        while top > 0:
            d = top - 1
            node = node_at[d]
            here = weights if source[d] < 0 else taken[source[d], row[d]]
            if kind[node] != _DECISION:  # the round is over: checked down
                if total[d] < 0:
                    total[d] = pairwise_sum(here)
                if dots.shape[0] == 0:
                    shared[end] = source[d] >= 0
                    if shared[end]:
                        # Element by element: numba's slice assignment compiles its
                        # broadcasting and its errors' string code, seconds on a cold cache.
                        for holding in range(here.shape[0]):
                            ends[end, holding, 0] = here[holding]
                    answer = 0.0
                else:
                    won = dots[end] / total[d] if total[d] > 0 else 0.5
                    answer = (2 * won - 1) * spent[node, me]
                end += 1
                top -= 1
                continue
            child = -1  # the child to walk next, if any
            if player[node] == me:
                if step[d] == 0:
                    child = 1
                else:
                    if step[d] == 2 or answer > best[d]:  # the call's, then the raise's if more
                        best[d] = answer
                    if step[d] == 2 and children[node, 2] >= 0:
                        child = 2
                if child < 0:
                    if children[node, 0] >= 0:
                        folded = -float(spent[node, me])
                        if folded > best[d]:  # noqa: PLR1730  (Python's max: the first of equals)
                            best[d] = folded
                    answer = best[d]
                    top -= 1
                    continue
            else:
                if step[d] == 0:
                    if dots.shape[0] > 0:  # the first walk's sums
                        total[d] = seen[visit, 0]
                        # Element by element, as above.
                        for share in range(3):
                            masses[d, share] = seen[visit, 1 + share]
                    else:
                        if total[d] < 0:
                            total[d] = pairwise_sum(here)
                        if total[d] > 0:
                            _spread(here, likelihoods, buckets, nodes, node, taken[d], masses[d])
                        seen[visit, 0] = total[d]
                        for share in range(3):
                            seen[visit, 1 + share] = masses[d, share]
                    visit += 1
                    if total[d] <= 0:  # nothing left to spread: its call's value
                        step[d] = -1
                        child = 1
                    else:
                        best[d] = 0.0
                        column = 0
                elif step[d] == -1:  # the call's value is its own
                    top -= 1
                    continue
                else:
                    column = step[d] - 1
                    best[d] += masses[d, column] / total[d] * answer
                    column += 1
                if step[d] >= 0 and child < 0:
                    while column < 3:
                        below = children[node, column]
                        mass = masses[d, column]
                        if below >= 0 and not mass <= 0:
                            if column > 0:
                                child = column
                                break
                            best[d] += mass / total[d] * float(spent[below, 1 - me])
                        column += 1
                    if child < 0:
                        answer = best[d]
                        top -= 1
                        continue
            # walk ``child``: with this frame's range (ours) or the share that took it
            if player[node] == me or step[d] == -1:
                node_at[top], source[top], row[top] = children[node, child], source[d], row[d]
                total[top] = total[d]
            else:
                node_at[top], source[top], row[top] = children[node, child], d, child
                total[top] = masses[d, child]
            if step[d] != -1:
                step[d] = child + 1
            step[top] = 0
            top += 1
        values[r] = answer
    return end
