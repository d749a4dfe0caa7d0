"""What the commands print on stdout: a JSON document with ``--json``, else lines of text."""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Iterable


def show(args: argparse.Namespace, data: object, lines: Iterable[str]) -> None:
    """Print ``data`` as JSON with ``--json``, else ``lines``. Names and paths come from
    files and the command line: any of them prints, whatever the terminal's encoding (as on
    stderr). A reader that has gone (``acpcbot ... | head -1``) is no error: nothing more
    goes to it, and the command goes on (a plot, the warnings)."""
    if isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.errors == "strict":
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        print(
            json.dumps(data, indent=2) if getattr(args, "json", False) else "\n".join(lines),
            flush=True,
        )
    except BrokenPipeError:  # (and the interpreter must not fail again flushing at exit)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
