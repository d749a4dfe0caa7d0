"""The benchmark server's users managed from the command line (``acpcbot serve user
add|list|disable|enable|reset``), in the database a running server uses too: the lines each
action prints. A new password is shown once; only its hash is stored."""

from __future__ import annotations

import time
from pathlib import Path

from dealer.benchmark.config import check_name
from dealer.benchmark.database import Store, UserRecord
from dealer.benchmark.passwords import hash_password, new_secret

__all__ = ["manage_users"]


def manage_users(
    database: str, data: Path, action: str, name: str | None, *, admin: bool = False
) -> list[str]:
    """Carry out ``action`` (``add``, ``list``, ``disable``, ``enable`` or ``reset``) on the
    user ``name`` (``list``: none), an administrator if ``admin`` (``add``)."""
    if database.startswith("sqlite"):
        data.mkdir(parents=True, exist_ok=True)
    store = Store.open(database)
    try:
        if action == "list":
            return [_listed(user) for user in store.users()]
        name = check_name(name or "", "user")
        if action not in ("add", "reset"):
            store.set_disabled(name, action == "disable")
            return [f"user {name} {action}d"]
        secret = new_secret()
        if action == "add":
            store.add_user(
                name, hash_password(secret), source="command", now=time.time(), admin=admin
            )
        else:
            store.set_password(name, hash_password(secret))
        return [f"user {name}'s password (shown once, keep it): {secret}"]
    finally:
        store.close()


def _listed(user: UserRecord) -> str:
    flags = [f for f, on in (("admin", user.admin), ("disabled", user.disabled)) if on]
    added = time.strftime("%Y-%m-%d %H:%M", time.gmtime(user.created))
    return f"{user.name}  from {user.source}, added {added} UTC  {' '.join(flags)}".rstrip()
