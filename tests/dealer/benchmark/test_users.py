"""The users managed from the command line (``acpcbot serve user ...``), in a real SQLite
database: a password shown once and only its hash stored, the flags listed, names checked."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dealer.benchmark.config import ConfigError
from dealer.benchmark.database import DatabaseError, Store, database_url
from dealer.benchmark.users import manage_users


def test_users_are_added_listed_disabled_and_reset(tmp_path: Path) -> None:
    data = tmp_path / "data"  # made with the database
    url = database_url(None, data)
    [said] = manage_users(url, data, "add", "bob", admin=True)
    secret = said.split(": ")[-1]
    assert said.startswith("user bob's password (shown once, keep it): ") and len(secret) == 32
    store = Store.open(url)
    bob = store.user("bob")
    store.close()
    assert bob is not None and bob.admin and secret not in bob.password_hash
    assert manage_users(url, data, "disable", "bob") == ["user bob disabled"]
    [listed] = manage_users(url, data, "list", None)
    assert re.fullmatch(r"bob  from command, added .* UTC  admin disabled", listed)
    assert manage_users(url, data, "enable", "bob") == ["user bob enabled"]
    assert manage_users(url, data, "list", None)[0].endswith("UTC  admin")  # not disabled
    assert secret not in manage_users(url, data, "reset", "bob")[0]
    with pytest.raises(DatabaseError, match="there is a user bob already"):
        manage_users(url, data, "add", "bob")
    with pytest.raises(ConfigError, match=r"user name '\.\./x' is not allowed"):
        manage_users(url, data, "add", "../x")
