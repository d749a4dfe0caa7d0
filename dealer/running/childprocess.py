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


def die_with_parent() -> None:
    """On Linux, have this process killed when its parent dies."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() == 1:  # the parent died before that: go now
        os._exit(1)
