"""The ``STATE`` lines of a log, streamed as text, for readers that need the whole hand
(betting and cards), not only its result (:mod:`dealer.analysis.playedlog` reads those).

Read the log with :func:`dealer.analysis.playedlog.read_log` first, which checks every line and the
file itself; this only streams it again, line by line (bounded), leaving out a last line cut
while it was written.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from acpcbot.errors import AcpcError
from acpcbot.smallfile import open_to_read, shown_path
from dealer.analysis.playedlog import MAX_LINE_BYTES

__all__ = ["state_lines"]


def state_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Each ``STATE`` line of the log at ``path`` with its line number."""
    fd = open_to_read(path, lambda why: AcpcError(f"cannot read {shown_path(path)}: {why}"))
    with os.fdopen(fd, "rb") as file:
        number = 0
        while raw := file.readline(MAX_LINE_BYTES + 1):
            number += 1
            if not raw.endswith(b"\n"):
                return
            if raw.startswith(b"STATE:"):
                yield number, raw.decode("latin-1").rstrip("\r\n")
