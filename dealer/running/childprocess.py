"""What a process the dealer starts to play for it does first: tie its life to its parent's.

A half played in a process of its own (:mod:`dealer.running.halves`), an agent played in a
process of its own (:mod:`dealer.running.isolation`) or a benchmark server's run
(:mod:`dealer.benchmark.pool`) must not play on for nobody when the process that runs it dies
(say, by SIGKILL), nor keep open what it inherited (the match's broker connection, whose
last will says the match was aborted).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys

__all__ = ["die_with_parent"]

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> None:
    """On Linux, have this process killed when its parent dies. ``parent`` is the parent's
    process id when known (it may be 1: the dealer as a container's first process);
    otherwise a parent that is init is taken for one that died already."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    died = os.getppid() == 1 if parent is None else os.getppid() != parent
    if died:  # before that: go now
        os._exit(1)
