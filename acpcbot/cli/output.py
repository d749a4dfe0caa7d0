"""What the commands print on stdout: a JSON document with ``--json``, else lines of text,
fitted to the terminal's width (a line too long is wrapped at its spaces, never cut)."""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import sys
import textwrap
from collections.abc import Iterable


def width() -> int | None:
    """The columns text is fitted to: ``$COLUMNS`` when set, else the terminal's when stdout
    is one; ``None`` elsewhere (a pipe, a file: whole lines, for the programs that read them).
    """
    if "COLUMNS" not in os.environ and not sys.stdout.isatty():
        return None
    return max(shutil.get_terminal_size().columns, 40)


def fit(line: str, columns: int | None, indent: str | None = None) -> list[str]:
    """``line`` wrapped at its spaces into lines of at most ``columns`` (a word longer than
    that stays whole), each continuation indented by ``indent`` (by default 4 more than the
    line).

    >>> fit("  half 1: example +48.8 mbb/g ± 132.3 (95% CI)", 30)
    ['  half 1: example +48.8 mbb/g', '      ± 132.3 (95% CI)']
    """
    if columns is None or len(line) <= columns:
        return [line]
    if indent is None:
        indent = " " * (len(line) - len(line.lstrip(" ")) + 4)
    wrap = textwrap.TextWrapper(
        columns, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    )
    return wrap.wrap(line)


def show(
    args: argparse.Namespace, data: object, lines: Iterable[str], indent: int | None = 2
) -> None:
    """Print ``data`` as JSON with ``--json`` (``indent`` ``None``: on one line), else
    ``lines`` fitted to :func:`width`. Names and paths come from files and the command line:
    any of them prints, whatever the terminal's encoding (as on stderr). A reader that has
    gone (``acpcbot ... | head -1``) is no error: nothing more goes to it, and the command
    goes on (a plot, the warnings)."""
    if isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.errors == "strict":
        sys.stdout.reconfigure(errors="backslashreplace")
    columns = width()
    text = [part for line in lines for part in fit(line, columns)]
    try:
        print(json.dumps(data, indent=indent) if getattr(args, "json", False) else "\n".join(text))
        sys.stdout.flush()
    except BrokenPipeError:
        reader_gone()


def reader_gone() -> None:
    """Point stdout at nothing, its reader having gone, so that nothing more fails on it
    (the interpreter's last flush included)."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
