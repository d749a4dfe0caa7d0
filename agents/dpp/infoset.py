"""Information-set keys and the row layout of strategy tables.

An information set of an abstract game is a decision node (its betting, as the protocol
prints it) together with the acting player's bucket in that node's round. Its key prints as
``<betting>:<bucket>`` — ``":17"`` is the first decision with preflop bucket 17, ``"cc/r:3"``
the flop decision after a check and a bet with flop bucket 3 — and parses back.

Strategy and regret tables have one row per information set: decision nodes in preorder,
each owning ``buckets[round]`` consecutive rows. :class:`InfoSetLayout` maps keys to rows and
back; it needs only the decision nodes' betting texts and the bucket counts, so an agent can
rebuild it from a strategy file without enumerating the tree.

>>> layout = InfoSetLayout(("", "c", "cc/"), (2, 3))
>>> layout.num_rows, layout.row_of(InfoSetKey("cc/", 2)), layout.key_of(3)
(7, 6, InfoSetKey(betting='c', bucket=1))
>>> InfoSetKey.parse("cc/r:3")
InfoSetKey(betting='cc/r', bucket=3)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

_KEY_RE = re.compile(r"^([fcr/]*):(0|[1-9][0-9]*)$")


@dataclass(frozen=True, slots=True, order=True)
class InfoSetKey:
    """A decision node (by its betting) and the acting player's bucket."""

    betting: str
    bucket: int

    @property
    def round(self) -> int:
        return self.betting.count("/")

    def __str__(self) -> str:
        return f"{self.betting}:{self.bucket}"

    @classmethod
    def parse(cls, text: str) -> InfoSetKey:
        """The key printed as ``text``."""
        match = _KEY_RE.match(text)
        if match is None:
            raise ValueError(f"not an information-set key: {text!r}")
        return cls(match.group(1), int(match.group(2)))


class InfoSetLayout:
    """Rows of the information sets of decision nodes listed in preorder."""

    def __init__(self, betting: tuple[str, ...], buckets: tuple[int, ...]) -> None:
        self.betting = betting
        self.buckets = buckets
        rounds = np.array([b.count("/") for b in betting], dtype=np.int64)
        if rounds.size and rounds.max() >= len(buckets):
            raise ValueError("a decision node lies beyond the rounds that have buckets")
        sizes = np.array(buckets, dtype=np.int64)[rounds]
        self.base: npt.NDArray[np.int64] = np.concatenate(([0], np.cumsum(sizes)[:-1]))
        self.num_rows = int(sizes.sum())
        self._node = {b: i for i, b in enumerate(betting)}
        if len(self._node) != len(betting):
            raise ValueError("two decision nodes share a betting text")
        self._rounds = rounds

    @property
    def num_nodes(self) -> int:
        return len(self.betting)

    def node_of(self, betting: str) -> int:
        """Index (in preorder among decision nodes) of the node with this betting."""
        try:
            return self._node[betting]
        except KeyError:
            raise KeyError(f"no decision node with betting {betting!r}") from None

    def row_of(self, key: InfoSetKey) -> int:
        node = self.node_of(key.betting)
        if not 0 <= key.bucket < self.buckets[int(self._rounds[node])]:
            raise KeyError(f"bucket {key.bucket} out of range for {key.betting!r}")
        return int(self.base[node]) + key.bucket

    def key_of(self, row: int) -> InfoSetKey:
        if not 0 <= row < self.num_rows:
            raise IndexError(f"row {row} out of range")
        node = int(np.searchsorted(self.base, row, side="right")) - 1
        return InfoSetKey(self.betting[node], row - int(self.base[node]))
