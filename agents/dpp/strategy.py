"""Strategy files: an average strategy per information set, compact and quick to load.

A strategy file is a zip of ``.npy`` arrays (``numpy.load`` reads it) written byte for byte
deterministically, so equal strategies give equal files and a checksum:

* ``game``: the game definition text; ``abstraction``: the name of the card abstraction
  whose buckets the rows are indexed by; ``metadata``: JSON (trainer, iterations,
  exploitability, ...);
* ``betting``: the betting text of every decision node, in preorder; ``legal``: a bit mask
  per node (1 fold, 2 call, 4 raise); ``buckets``: the number of buckets in each round —
  together the :class:`~agents.dpp.infoset.InfoSetLayout` of the rows;
* ``probabilities``: float16, for every row the probabilities of its legal actions (in the
  order fold, call, raise) except the last, which is one minus their sum;
* ``checksum``: SHA-256 of everything above, checked on loading.

>>> import io
>>> from agents.dpp.chance import LEDUC_TEXT
>>> layout = InfoSetLayout(("", "c"), (2,))
>>> legal = np.array([[False, True, True], [True, True, False]])
>>> probs = np.array([[0, .25, .75], [0, 1, 0], [.5, .5, 0], [.125, .875, 0]])
>>> strategy = Strategy(parse_game(LEDUC_TEXT), layout, legal, probs, "example", {})
>>> buffer = io.BytesIO(); strategy.save(buffer); _ = buffer.seek(0)
>>> Strategy.load(buffer).triple("c", 1)
Triple(fold=0.125, call=0.875, raise_=0.0)
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import dataclass, field
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from acpcbot.errors import AcpcError
from acpcbot.game import Game, parse_game
from agents.dpp.infoset import InfoSetKey, InfoSetLayout
from agents.triple import Triple

FORMAT = "acpcbot-dpp-strategy/1"
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


class StrategyFileError(AcpcError):
    """A strategy file is unreadable, corrupt, or does not fit the game."""


@dataclass(frozen=True, eq=False)
class Strategy:
    """Action probabilities for every information set of an abstract game."""

    game: Game
    layout: InfoSetLayout
    legal: npt.NDArray[np.bool_]
    """``legal[node, action]`` for every decision node."""
    probabilities: npt.NDArray[np.floating[Any]]
    """``[row, action]``, zero for illegal actions, rows summing to 1."""
    abstraction: str
    metadata: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.legal.shape != (self.layout.num_nodes, 3):
            raise StrategyFileError("one legal-action mask per decision node is needed")
        if self.probabilities.shape != (self.layout.num_rows, 3):
            raise StrategyFileError("one probability row per information set is needed")

    def row_legal(self) -> npt.NDArray[np.bool_]:
        """The legal mask of every row."""
        sizes = np.diff(np.append(self.layout.base, self.layout.num_rows))
        return np.repeat(self.legal, sizes, axis=0)

    def triple(self, betting: str, bucket: int) -> Triple:
        """The probabilities at the information set ``betting:bucket``."""
        fold, call, raise_ = self.probabilities[self.layout.row_of(InfoSetKey(betting, bucket))]
        return Triple(float(fold), float(call), float(raise_))

    def legal_at(self, betting: str) -> tuple[bool, bool, bool]:
        fold, call, raise_ = self.legal[self.layout.node_of(betting)]
        return bool(fold), bool(call), bool(raise_)

    # -- the file --------------------------------------------------------------------

    def _arrays(self) -> dict[str, npt.NDArray[Any]]:
        mask = self.legal @ np.array([1, 2, 4])
        row_legal = self.row_legal()
        last = 2 - np.argmax(row_legal[:, ::-1], axis=1)
        stored = row_legal.copy()
        stored[np.arange(len(stored)), last] = False
        return {
            "format": np.array(FORMAT),
            "game": np.array(self.game.to_text()),
            "abstraction": np.array(self.abstraction),
            "metadata": np.array(json.dumps(self.metadata, sort_keys=True)),
            "betting": np.array(self.layout.betting, dtype=np.str_),
            "legal": mask.astype(np.uint8),
            "buckets": np.array(self.layout.buckets, dtype=np.int64),
            "probabilities": self.probabilities[stored].astype(np.float16),
        }

    def checksum(self) -> str:
        """SHA-256 of the file's contents (independent of how the zip is laid out)."""
        return _checksum(self._arrays())

    def save(self, target: str | IO[bytes]) -> None:
        """Write the strategy file (deterministic bytes)."""
        arrays = self._arrays()
        arrays["checksum"] = np.array(_checksum(arrays))
        write_arrays(target, arrays)

    @classmethod
    def load(cls, source: str | IO[bytes]) -> Strategy:
        """Read and check a strategy file."""
        try:
            with np.load(source, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile) as exc:
            raise StrategyFileError(f"cannot read strategy file: {exc}") from None
        if str(arrays.get("format")) != FORMAT:
            raise StrategyFileError(f"not a {FORMAT} file")
        expected = str(arrays.pop("checksum"))
        if _checksum(arrays) != expected:
            raise StrategyFileError("strategy file checksum mismatch (corrupt file)")
        betting = tuple(str(b) for b in arrays["betting"])
        layout = InfoSetLayout(betting, tuple(int(b) for b in arrays["buckets"]))
        legal = (arrays["legal"][:, None] & np.array([1, 2, 4])) > 0
        strategy = cls(
            game=parse_game(str(arrays["game"]), source="strategy file"),
            layout=layout,
            legal=legal,
            probabilities=np.zeros((layout.num_rows, 3), dtype=np.float32),
            abstraction=str(arrays["abstraction"]),
            metadata=json.loads(str(arrays["metadata"])),
        )
        strategy._unpack(arrays["probabilities"])
        return strategy

    def _unpack(self, packed: npt.NDArray[np.float16]) -> None:
        # What is left out and what is stored found node by node, then repeated for the
        # node's rows (its buckets); the rows' sums added column by column, in the order
        # numpy's sum of each row adds them: numpy's per-row reductions took most of a dpp's
        # start (a process that plays it loads this as it starts).
        sizes = np.diff(np.append(self.layout.base, self.layout.num_rows))
        node_last = 2 - np.argmax(self.legal[:, ::-1], axis=1)
        node_stored = self.legal.copy()
        node_stored[np.arange(len(node_stored)), node_last] = False
        if int(node_stored.sum(axis=1) @ sizes) != packed.size:
            raise StrategyFileError("probabilities do not match the legal actions")
        probs = self.probabilities
        probs[np.repeat(node_stored, sizes, axis=0)] = np.clip(packed.astype(np.float32), 0.0, 1.0)
        left = np.maximum(1.0 - _row_sums(probs), 0.0)
        probs[np.arange(len(probs)), np.repeat(node_last, sizes)] = left
        probs /= _row_sums(probs)[:, None]


def _row_sums(rows: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """``rows.sum(axis=1)`` of three columns, bit for bit: ``(a + b) + c``."""
    return (rows[:, 0] + rows[:, 1]) + rows[:, 2]


def write_arrays(target: str | IO[bytes], arrays: dict[str, npt.NDArray[Any]]) -> None:
    """Write ``arrays`` as an ``.npz`` zip with fixed timestamps (deterministic bytes)."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, array in arrays.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, array, allow_pickle=False)
            archive.writestr(info, buffer.getvalue())


def _checksum(arrays: dict[str, npt.NDArray[Any]]) -> str:
    digest = hashlib.sha256()
    for name in sorted(arrays):
        digest.update(name.encode())
        array = np.ascontiguousarray(arrays[name])
        digest.update(str(array.dtype).encode() + str(array.shape).encode())
        digest.update(array.tobytes())
    return digest.hexdigest()
