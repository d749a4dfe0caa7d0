"""The core's public faces: ``acpcbot``, ``acpcbot.protocol`` and ``acpcbot.client`` list what
they give, and every name is the one its module holds."""

from __future__ import annotations

import pytest

from tests.faces import check_face


@pytest.mark.parametrize(
    "package",
    ["acpcbot", "acpcbot.protocol", "acpcbot.client", "acpcbot.progress", "acpcbot.telemetry"],
)
def test_the_face_gives_what_it_lists(package: str) -> None:
    check_face(package)


def test_a_name_that_is_not_there_is_an_attribute_error() -> None:
    import acpcbot

    with pytest.raises(AttributeError, match="has no attribute 'Referee'"):
        _ = acpcbot.Referee  # type: ignore[attr-defined]
