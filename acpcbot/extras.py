"""The optional packages a command line option needs, checked before anything starts: a
clear one-line error naming the extra to install, never an ImportError midway.

>>> need("numpy", "--plot", "plot")
>>> need("no_such_package", "--mqtt", "mqtt")  # doctest: +ELLIPSIS
Traceback (most recent call last):
acpcbot.errors.AcpcError: --mqtt needs no_such_package, which is not installed: pip install ...
"""

from __future__ import annotations

import importlib.util

from acpcbot.errors import AcpcError

__all__ = ["need", "need_matplotlib", "need_mqtt"]


def need(package: str, option: str, extra: str) -> None:
    """Raise :class:`AcpcError` unless ``package`` (for ``option``, from ``extra``) is
    installed; nothing is imported."""
    if importlib.util.find_spec(package) is None:
        raise AcpcError(
            f"{option} needs {package}, which is not installed: pip install 'acpcbot[{extra}]'"
        )


def need_matplotlib() -> None:
    """For ``--plot``."""
    need("matplotlib", "--plot", "plot")


def need_mqtt(option: str = "--mqtt") -> None:
    """For ``--mqtt`` and ``acpcbot watch``."""
    need("aiomqtt", option, "mqtt")
