"""The benchmark server's HTTP API as a table (:data:`ROUTES`): each route's method and
path, who may ask (anyone, a user, an administrator), what it does, the JSON schema of its
body; and the OpenAPI description made from it (:func:`openapi`, served at
``/api/openapi.json``). :mod:`.webapi` adds the routes from the same table, so the
description cannot drift from what is served.

>>> described = openapi()
>>> described["paths"]["/api/my/requests/{id}/cancel"]["post"]["summary"]
'Cancel your request: no more runs start, a run playing stops after its hand'
>>> sorted(openapi()["paths"]["/api/admin/users"])
['get', 'post']
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from acpcbot import __version__
from dealer.benchmark.webaccess import SESSION_COOKIE

__all__ = ["ROUTES", "Access", "Route", "openapi"]


class Access(enum.Enum):
    PUBLIC = "anyone"
    USER = "a user"
    ADMIN = "an administrator"


@dataclass(frozen=True)
class Route:
    """One route of the API: its method and path, who may ask, what it does."""

    method: str
    path: str
    access: Access
    summary: str
    handler: str
    """The :class:`BenchmarkSite` method that answers."""
    body: Mapping[str, Any] | None = None
    """The JSON schema of its body (a POST's)."""
    stream: bool = False
    """It answers with server-sent events."""


_SUBMIT = {
    "type": "object",
    "required": ["game", "runs", "tag", "players"],
    "properties": {
        "game": {"type": "string", "description": "a game file GET /api/games lists"},
        "runs": {"type": "integer", "minimum": 0, "description": "at most the game's max_runs"},
        "tag": {"type": "string", "maxLength": 64, "description": "no spaces, '/', '\\' or '..'"},
        "seed": {"type": "integer", "minimum": 0, "maximum": 4294967295, "default": 0},
        "players": {
            "type": "array",
            "items": {"type": "string"},
            "description": "one a seat, in seat order: LOCAL for your bot, or a house bot",
        },
        "duplicate": {"type": ["boolean", "null"], "description": "null: the server's default"},
    },
}
_LOGON = {
    "type": "object",
    "required": ["name", "secret"],
    "properties": {"name": {"type": "string"}, "secret": {"type": "string"}},
}
_NEW_USER = {
    "type": "object",
    "required": ["name"],
    "properties": {"name": {"type": "string"}, "admin": {"type": "boolean", "default": False}},
}

ROUTES = (
    Route("GET", "/api/openapi.json", Access.PUBLIC, "This description", "describe"),
    Route("GET", "/api/games", Access.PUBLIC, "The games and their house bots", "games"),
    Route(
        "GET",
        "/api/leaderboard",
        Access.PUBLIC,
        "Per house bot: each user's best tag by duplicate result, its 95% CI and hands",
        "leaderboard",
    ),
    Route(
        "POST",
        "/api/logon",
        Access.PUBLIC,
        "Log a browser on with a name and secret: a session cookie",
        "logon",
        _LOGON,
    ),
    Route("POST", "/api/logoff", Access.PUBLIC, "End the browser's session", "logoff"),
    Route("GET", "/api/me", Access.USER, "Who you are, and whether your bot is present", "me"),
    Route("GET", "/api/queue", Access.USER, "The queue, as QSTAT shows it", "queue"),
    Route(
        "GET",
        "/api/my/requests",
        Access.USER,
        "Your latest requests and their runs (status, hands so far, mbb/g), and your results",
        "my_requests",
    ),
    Route(
        "POST",
        "/api/my/requests",
        Access.USER,
        "Submit a request (checked as RUNMATCHES is)",
        "submit",
        _SUBMIT,
    ),
    Route(
        "GET",
        "/api/my/requests/{id}",
        Access.USER,
        "One of your requests, with its runs",
        "my_request",
    ),
    Route(
        "POST",
        "/api/my/requests/{id}/cancel",
        Access.USER,
        "Cancel your request: no more runs start, a run playing stops after its hand",
        "cancel",
    ),
    Route(
        "GET",
        "/api/my/events",
        Access.USER,
        "What GET /api/my/requests says, pushed as server-sent events when it changes",
        "my_events",
        stream=True,
    ),
    Route(
        "GET",
        "/api/my/runs/{id}/log",
        Access.USER,
        "The .log of your run (as it is so far, if it is playing)",
        "my_log",
    ),
    Route(
        "GET",
        "/api/my/results",
        Access.USER,
        "Your results per tag and opponent: mbb/g with a 95% CI",
        "my_results",
    ),
    Route(
        "GET",
        "/api/my/bot",
        Access.USER,
        "Your bot's stream: while it is open you are present, and it says what a line "
        "client is told (# RUNNING, RUN HOST PORT, # ENDED), one event a line",
        "my_bot",
        stream=True,
    ),
    Route("GET", "/api/admin/users", Access.ADMIN, "Every user", "users"),
    Route(
        "POST",
        "/api/admin/users",
        Access.ADMIN,
        "Add a user: their secret, shown once",
        "add_user",
        _NEW_USER,
    ),
    Route(
        "POST",
        "/api/admin/users/{name}/disable",
        Access.ADMIN,
        "Refuse the user's logons and tokens",
        "disable_user",
    ),
    Route(
        "POST",
        "/api/admin/users/{name}/enable",
        Access.ADMIN,
        "Accept the user's logons again",
        "enable_user",
    ),
    Route(
        "POST",
        "/api/admin/users/{name}/reset",
        Access.ADMIN,
        "Give the user a new secret (shown once); the old one stops working",
        "reset_user",
    ),
    Route(
        "GET",
        "/api/admin/queue",
        Access.ADMIN,
        "Everyone's open requests and the runs playing",
        "all_requests",
    ),
    Route(
        "POST",
        "/api/admin/requests/{id}/cancel",
        Access.ADMIN,
        "Cancel anyone's request",
        "cancel_any",
    ),
)


def openapi(routes: Sequence[Route] = ROUTES) -> dict[str, Any]:
    """An OpenAPI 3.1 description of ``routes``."""
    paths: dict[str, dict[str, Any]] = {}
    for route in routes:
        operation: dict[str, Any] = {
            "summary": route.summary,
            "description": f"For {route.access.value}.",
            "security": [] if route.access is Access.PUBLIC else [{"token": []}, {"cookie": []}],
            "responses": _responses(route),
        }
        parameters = [
            {"name": word[1:-1], "in": "path", "required": True, "schema": {"type": "string"}}
            for word in route.path.split("/")
            if word.startswith("{")
        ]
        if parameters:
            operation["parameters"] = parameters
        if route.body is not None:
            operation["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": route.body}},
            }
        paths.setdefault(route.path, {})[route.method.lower()] = operation
    return {
        "openapi": "3.1.0",
        "info": {"title": "acpcbot serve", "version": __version__},
        "paths": paths,
        "components": {
            "securitySchemes": {
                "token": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "NAME:SECRET, the secret `acpcbot serve user add` printed "
                    "(HTTP Basic with the same name and secret works too)",
                },
                "cookie": {"type": "apiKey", "in": "cookie", "name": SESSION_COOKIE},
            }
        },
    }


def _responses(route: Route) -> dict[str, Any]:
    kind = "text/event-stream" if route.stream else "application/json"
    if route.handler == "my_log":
        kind = "text/plain"
    said: dict[str, Any] = {"200": {"description": "done", "content": {kind: {}}}}
    if route.body is not None:
        said["400"] = {"description": "a body that is not what the schema says"}
    if route.access is not Access.PUBLIC:
        said["401"] = {"description": "no user logged on (no token, or a wrong one)"}
    if route.access is Access.ADMIN:
        said["403"] = {"description": "the user is not an administrator"}
    if "{id}" in route.path:
        said["404"] = {"description": "no such request or run of yours"}
    return said
