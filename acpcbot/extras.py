"""The optional packages a command line option needs, checked before anything starts: a
clear one-line error naming the extra to install, never an ImportError midway.

How to install it depends on how acpcbot was installed: in the ``.venv`` that ``./dev.sh``
made in a checkout (the quick start's), ``./dev.sh extras EXTRA`` (pip would install into
whatever Python is first on the PATH); anywhere else, ``pip install 'acpcbot[EXTRA]'``.

>>> need("numpy", "--plot", "plot")
>>> need("no_such_package", "--mqtt", "mqtt")  # doctest: +ELLIPSIS
Traceback (most recent call last):
acpcbot.errors.AcpcError: --mqtt needs no_such_package, which is not installed: ... mqtt...
"""

from __future__ import annotations

import importlib.util
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
    made_by_dev_sh = any(Path(sys.prefix).glob(".acpcbot-*"))  # its install stamps
    if made_by_dev_sh and dev_sh.is_file():
        try:
            shown = f"./{dev_sh.relative_to(Path.cwd().resolve())}"
        except (OSError, ValueError):  # elsewhere than under this folder
            shown = str(dev_sh)
        return f"{shown} extras {extra}"
    return f"pip install 'acpcbot[{extra}]'"


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
