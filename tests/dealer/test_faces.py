"""The dealer's public faces: each subpackage lists what it gives, and every name is the one
its module holds."""

from __future__ import annotations

import pytest

from tests.faces import check_face


@pytest.mark.parametrize(
    "package",
    ["dealer.referee", "dealer.analysis", "dealer.running", "dealer.web", "dealer.benchmark"],
)
def test_the_face_gives_what_it_lists(package: str) -> None:
    check_face(package)
