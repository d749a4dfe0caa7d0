"""The HTTP API's route table: the OpenAPI description made from it says every route and who
may ask, and the serve page's table of routes is the same table."""

from __future__ import annotations

import re
from pathlib import Path

from dealer.benchmark.webroutes import ROUTES, Access, openapi

PAGE = Path(__file__).parents[3] / "docs/commands/serve.md"


def test_the_description_says_every_route_and_who_may_ask() -> None:
    described = openapi()
    assert described["openapi"].startswith("3.1")
    for route in ROUTES:
        operation = described["paths"][route.path][route.method.lower()]
        responses = operation["responses"]
        assert ("401" in responses) == (route.access is not Access.PUBLIC), route.path
        assert ("403" in responses) == (route.access is Access.ADMIN), route.path
        assert (operation["security"] == []) == (route.access is Access.PUBLIC)
        assert ("requestBody" in operation) == (route.body is not None)
    submit = described["paths"]["/api/my/requests"]["post"]["requestBody"]
    schema = submit["content"]["application/json"]["schema"]
    assert schema["required"] == ["game", "runs", "tag", "players"]


def test_the_serve_page_lists_every_route_for_whom_it_is() -> None:
    listed = re.findall(r"^\| `(GET|POST) (/api/\S+)` \| (anyone|a user|an administrator) \|",
                        PAGE.read_text(), re.MULTILINE)  # fmt: skip
    assert sorted(listed) == sorted((r.method, r.path, r.access.value) for r in ROUTES)
