"""The page served in the foreground of a command (``acpcbot web``): its token, what it says
once it listens, and how it ends (Ctrl-C or SIGTERM: its play sessions ended and recorded
first; the process leaves at once any that would still wait out a person's clock)."""

from __future__ import annotations

import contextlib
import os
import secrets
import sys
from urllib.parse import urlsplit

from acpcbot.eventloop import run as run_async
from acpcbot.extras import need_mqtt
from dealer.web.app import WebSite, is_loopback, serve, serving_lines

__all__ = ["run_site", "site_token"]


def site_token(given: str | None, host: str) -> str | None:
    """The token a browser must give: ``given``, else on ``host`` other than the loopback a
    random one (printed in the URL), else none."""
    if given is None and not is_loopback(host):
        return secrets.token_urlsafe(18)
    return given


def run_site(site: WebSite) -> None:
    """Serve ``site`` until Ctrl-C or SIGTERM, its URLs printed once it listens (and on
    stderr the port taken when its first choice, the default, was in use); its broker's
    client, if it has a broker, checked installed first."""
    if site.mqtt is not None:
        need_mqtt()

    def ready(url: str) -> None:
        print("\n".join(serving_lines(url, site.host, site.token)), flush=True)
        if site.next_ports and (port := urlsplit(url).port) != site.port:
            print(
                f"acpcbot web: port {site.port} is in use, so {port} instead (--port N chooses)",
                file=sys.stderr,
                flush=True,
            )

    left: list[int] = []
    # Ctrl-C cancels the server (asyncio's runner), SIGTERM ends it (serve): either way its
    # play sessions are ended and recorded first.
    with contextlib.suppress(KeyboardInterrupt):
        run_async(serve(site, ready, left.append), uvloop=False)
    print("acpcbot web: stopped", file=sys.stderr, flush=True)
    if left and left[0]:
        # Their dealers would wait out the person's clock: leave them where they are.
        print(
            f"acpcbot web: {left[0]} match(es) being played were left; every hand they "
            "finished is in their logs",
            file=sys.stderr,
            flush=True,
        )
        sys.stdout.flush()
        os._exit(0)
