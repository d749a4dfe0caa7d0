"""Who is asking the benchmark server over HTTP (pure: no I/O; the API's middleware,
:mod:`.webapi`, asks the database and the service).

A user proves who they are with the secret ``acpcbot serve user add NAME`` printed (their
line logon's password), in one of two ways:

* a script sends it with every request, as a bearer token ``NAME:SECRET``
  (``Authorization: Bearer alice:...``) or by HTTP Basic (``curl -u alice:...``). The name
  is part of the token because the server keeps only an argon2id hash of each secret: it
  can check a secret against one user's hash, not find whose it is;
* a browser logs on once with the page's form, and gets a *session cookie*
  (:class:`WebSessions`): a random id, ``HttpOnly`` (no script reads it), ``SameSite=Strict``
  (no other site's page sends it), ``Secure`` over TLS, no expiry date (the browser forgets
  it when it closes).

argon2id costs tens of milliseconds and 64 MiB a check, which a script polling every second
should not pay each time: :class:`VerifiedSecrets` remembers, per user name, the last secret
that checked out, as an HMAC under a key drawn when the server starts (never the secret
itself, so the memory of the process holds nothing a secret can be read back from), with the
hash it was checked against. A request whose token matches it (compared in constant time) is
let in without argon2, as long as the user's hash in the database is still that one and the
user is not disabled: the middleware reads the user's row at every request, so ``user
reset`` (a new hash) and ``user disable`` take effect at the next request, whether done by
the admin view or by ``acpcbot serve user`` in another process. An entry is also forgotten
after :data:`VERIFIED_FOR_S`, and at most :data:`VERIFIED_USERS` users are remembered (the
least recently seen go first). A token that does not match goes to the argon2 check and the
lockout of the line logon (the same counters: five bad logons lock the name and the
address).

>>> remembered = VerifiedSecrets()
>>> remembered.remember("ann", "s3cret", "$argon2id$h1", now=0.0)
>>> remembered.known("ann", "s3cret", "$argon2id$h1", now=1.0)
True
>>> remembered.known("ann", "s3cret", "$argon2id$h2", now=1.0)  # reset since: checked again
False
>>> credentials("Bearer ann:s3cret")
Credentials(name='ann')
"""

from __future__ import annotations

import base64
import binascii
import collections
import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

__all__ = [
    "SESSION_COOKIE",
    "VERIFIED_FOR_S",
    "VERIFIED_USERS",
    "Credentials",
    "Session",
    "VerifiedSecrets",
    "WebSessions",
    "credentials",
]

SESSION_COOKIE = "acpcbot_session"
VERIFIED_FOR_S = 900.0
"""How long a verified secret is taken without argon2."""
VERIFIED_USERS = 4096
"""Users whose last verified secret is remembered."""
SESSION_IDLE_S = 12 * 3600.0
"""A session unused this long is over."""
SESSION_LIFE_S = 7 * 24 * 3600.0
"""A session is over this long after its logon, used or not."""
SESSIONS_PER_USER = 16
SESSIONS = 20_000
_LONGEST = 256
"""The longest name or secret read from a request (names are 32 characters, secrets 32)."""


@dataclass(frozen=True, slots=True)
class Credentials:
    name: str
    secret: str = field(repr=False)


def credentials(header: str) -> Credentials | None:
    """The name and secret of an ``Authorization`` header: ``Bearer NAME:SECRET`` or
    ``Basic`` with ``NAME:SECRET`` in base 64; ``None`` for anything else.

    >>> credentials("Basic " + base64.b64encode(b"ann:s3cret").decode()).name
    'ann'
    >>> credentials("Bearer s3cret"), credentials("Token ann:s3cret")
    (None, None)
    """
    scheme, _, value = header.strip().partition(" ")
    value = value.strip()
    if len(value) > 2 * _LONGEST:
        return None
    if scheme.lower() == "basic":
        try:
            value = base64.b64decode(value, validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            return None
    elif scheme.lower() != "bearer":
        return None
    name, colon, secret = value.partition(":")
    if not colon or not name or not secret or len(name) > _LONGEST or len(secret) > _LONGEST:
        return None
    return Credentials(name, secret)


class VerifiedSecrets:
    """The secrets checked lately, per user (see the module)."""

    def __init__(self, capacity: int = VERIFIED_USERS, lifetime_s: float = VERIFIED_FOR_S):
        self._key = secrets.token_bytes(32)
        self._capacity = capacity
        self._lifetime = lifetime_s
        self._entries: collections.OrderedDict[str, tuple[bytes, str, float]] = (
            collections.OrderedDict()
        )
        """Per name: the secret's HMAC, the hash it was checked against, when."""

    def _mac(self, secret: str) -> bytes:
        return hmac.new(self._key, secret.encode(), hashlib.sha256).digest()

    def known(self, name: str, secret: str, password_hash: str, *, now: float) -> bool:
        """Whether ``secret`` is the one last checked for ``name`` against
        ``password_hash`` (the user's hash now), not too long ago."""
        entry = self._entries.get(name)
        if entry is None:
            return False
        mac, checked_against, when = entry
        if checked_against != password_hash or now - when > self._lifetime:
            del self._entries[name]
            return False
        self._entries.move_to_end(name)
        return hmac.compare_digest(mac, self._mac(secret))

    def remember(self, name: str, secret: str, password_hash: str, *, now: float) -> None:
        """``secret`` was checked against ``password_hash`` (argon2) and is right."""
        self._entries.pop(name, None)
        self._entries[name] = (self._mac(secret), password_hash, now)
        while len(self._entries) > self._capacity:
            self._entries.popitem(last=False)

    def forget(self, name: str) -> None:
        self._entries.pop(name, None)

    def __len__(self) -> int:
        return len(self._entries)


@dataclass(frozen=True, slots=True)
class Session:
    """A browser's logon."""

    user_id: int
    name: str
    password_hash: str = field(repr=False)
    """The user's hash at the logon: a reset (a new hash) ends the session."""
    started: float
    used: float


class WebSessions:
    """The page's logons, by the random id in their cookie; in memory (a restart of the
    server logs every page off). Bounded: at most :data:`SESSIONS_PER_USER` a user (a new
    logon ends their oldest) and :data:`SESSIONS` in all (the least recently used go first);
    a session ends after :data:`SESSION_IDLE_S` unused or :data:`SESSION_LIFE_S` in all.

    >>> sessions = WebSessions()
    >>> key = sessions.start(7, "ann", "$argon2id$h1", now=0.0)
    >>> sessions.get(key, now=60.0).name, sessions.get("forged", now=60.0)
    ('ann', None)
    >>> sessions.get(key, now=60.0 + SESSION_IDLE_S + 1)  # idle too long
    """

    def __init__(self, capacity: int = SESSIONS, per_user: int = SESSIONS_PER_USER) -> None:
        self._capacity = capacity
        self._per_user = per_user
        self._sessions: collections.OrderedDict[str, Session] = collections.OrderedDict()

    def start(self, user_id: int, name: str, password_hash: str, *, now: float) -> str:
        """A new session for the user: the id its cookie carries."""
        theirs = [key for key, s in self._sessions.items() if s.user_id == user_id]
        for key in theirs[: max(0, len(theirs) - self._per_user + 1)]:
            del self._sessions[key]
        key = secrets.token_urlsafe(32)
        self._sessions[key] = Session(user_id, name, password_hash, now, now)
        while len(self._sessions) > self._capacity:
            self._sessions.popitem(last=False)
        return key

    def get(self, key: str, *, now: float) -> Session | None:
        """The session of a cookie's id, if it is one and is not over (its use noted)."""
        session = self._sessions.get(key)
        if session is None:
            return None
        if now - session.used > SESSION_IDLE_S or now - session.started > SESSION_LIFE_S:
            del self._sessions[key]
            return None
        self._sessions[key] = Session(
            session.user_id, session.name, session.password_hash, session.started, now
        )
        self._sessions.move_to_end(key)
        return self._sessions[key]

    def end(self, key: str) -> None:
        self._sessions.pop(key, None)

    def __len__(self) -> int:
        return len(self._sessions)
