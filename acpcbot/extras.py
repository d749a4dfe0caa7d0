"""The optional packages a command line option needs, checked before anything starts: a
clear one-line error naming the extra to install, never an ImportError midway.

How to install it depends on how acpcbot was installed: run from a checkout (an editable
install, with ``dev.sh`` beside the package), ``./dev.sh extras EXTRA``, with
``ACPCBOT_VENV=PREFIX`` before it when the Python running is not the ``.venv`` dev.sh would
install into (pip would install into whatever Python is first on the PATH); installed from a
wheel, ``pip install 'acpcbot[EXTRA]'``.

>>> need("numpy", "--plot", "plot")
>>> need("no_such_package", "--mqtt", "mqtt")  # doctest: +ELLIPSIS
Traceback (most recent call last):
acpcbot.errors.AcpcError: --mqtt needs no_such_package, which is not installed: ... mqtt...
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import sys
from pathlib import Path

from acpcbot.errors import AcpcError

__all__ = ["install_hint", "need", "need_matplotlib", "need_mqtt"]

_CHECKOUT = Path(__file__).resolve().parents[1]
"""The checkout this package runs from, when it is installed editable (as ``./dev.sh``
does)."""


def install_hint(extra: str) -> str:
    """How to install ``extra`` here (see the module's description)."""
    dev_sh = _CHECKOUT / "dev.sh"
    if not dev_sh.is_file():  # installed from a wheel, not run from a checkout
        return f"pip install 'acpcbot[{extra}]'"
    try:
        shown = f"./{dev_sh.relative_to(Path.cwd().resolve())}"
    except (OSError, ValueError):  # elsewhere than under this folder
        shown = str(dev_sh)
    # dev.sh installs into .venv, or the environment ACPCBOT_VENV names: this one?
    venv = Path(os.environ.get("ACPCBOT_VENV") or _CHECKOUT / ".venv")
    if not venv.is_absolute():
        venv = _CHECKOUT / venv
    here = "" if _same(venv, Path(sys.prefix)) else f"ACPCBOT_VENV={shlex.quote(sys.prefix)} "
    return f"{here}{shown} extras {extra}"


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def need(package: str, option: str, extra: str) -> None:
    """Raise :class:`AcpcError` unless ``package`` (for ``option``, from ``extra``) is
    installed; nothing is imported."""
    if importlib.util.find_spec(package) is None:
        raise AcpcError(f"{option} needs {package}, which is not installed: {install_hint(extra)}")


def need_matplotlib() -> None:
    """For ``--plot``."""
    need("matplotlib", "--plot", "plot")


def need_mqtt(option: str = "--mqtt") -> None:
    """For ``--mqtt`` and ``acpcbot watch``."""
    need("aiomqtt", option, "mqtt")
