"""Passwords: hashed with argon2id (``argon2-cffi``, the RFC 9106 parameters it defaults to),
checked in constant time, generated with :mod:`secrets`; and the lockout after repeated bad
logons.

A password is never kept, logged or written in clear: the configuration's are hashed as it is
read, a generated one is printed once by ``acpcbot serve user add``. Checking a logon for a
user that does not exist costs the same as for one that does (a hash of a throwaway secret
is checked instead), so the answer's timing does not tell which names exist.

>>> stored = hash_password("s3cret")
>>> stored.startswith("$argon2id$"), verify_password(stored, "s3cret"), verify_password(stored, "x")
(True, True, False)
>>> len(new_secret())
32
"""

from __future__ import annotations

import collections
import functools
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from argon2 import PasswordHasher

__all__ = [
    "Lockout",
    "LockoutPolicy",
    "hash_password",
    "needs_rehash",
    "new_secret",
    "verify_password",
]


@functools.cache
def _hasher() -> PasswordHasher:
    from argon2 import PasswordHasher

    return PasswordHasher()


def hash_password(secret: str) -> str:
    """The argon2id hash of ``secret`` (a fresh salt each time)."""
    return _hasher().hash(secret)


@functools.cache
def _decoy() -> str:
    """A hash to check when there is no user: the same work as for a real one."""
    return hash_password(secrets.token_urlsafe(24))


def verify_password(stored: str | None, secret: str) -> bool:
    """Whether ``secret`` is the password hashed in ``stored`` (``None``: no such user,
    checked against a decoy all the same, and false). Never raises for a bad hash."""
    from argon2.exceptions import Argon2Error, InvalidHashError

    try:
        right = _hasher().verify(stored if stored is not None else _decoy(), secret)
    except (Argon2Error, InvalidHashError):
        return False
    return right and stored is not None


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` was hashed with other parameters than today's."""
    from argon2.exceptions import InvalidHashError

    try:
        return _hasher().check_needs_rehash(stored)
    except InvalidHashError:
        return True


def new_secret() -> str:
    """A generated password: 32 URL-safe characters (192 bits), no spaces (a logon line is
    ``NAME PASSWORD``)."""
    return secrets.token_urlsafe(24)


@dataclass(frozen=True, slots=True)
class LockoutPolicy:
    """After ``free`` bad logons in a row, a name or an address is locked for ``first_s``
    seconds, twice as long at each further bad logon, at most ``longest_s``."""

    free: int = 5
    first_s: float = 2.0
    longest_s: float = 900.0


class Lockout:
    """Bad logons in a row, per user name and per address, and until when each is locked.
    Bounded: it remembers at most ``capacity`` names and addresses (the least recently
    failed are forgotten first). A good logon clears its name and address.

    >>> lockout = Lockout(LockoutPolicy(free=2, first_s=10))
    >>> for _ in range(3):
    ...     lockout.failed("bob", "10.0.0.1", now=0.0)
    >>> lockout.locked("bob", "10.0.0.2", now=5.0), lockout.locked("eve", "10.0.0.1", now=5.0)
    (True, True)
    >>> lockout.locked("bob", "10.0.0.2", now=11.0)  # the third failure locked them 10 s
    False
    """

    def __init__(self, policy: LockoutPolicy | None = None, capacity: int = 100_000) -> None:
        self.policy = policy or LockoutPolicy()
        self._capacity = capacity
        self._failures: collections.OrderedDict[str, tuple[int, float]] = collections.OrderedDict()
        """Per key (``user:NAME`` or ``addr:ADDRESS``): failures in a row, locked until."""

    def locked(self, name: str, address: str, *, now: float) -> bool:
        """Whether a logon as ``name`` from ``address`` is refused unchecked."""
        return any(self._failures.get(key, (0, 0.0))[1] > now for key in _keys(name, address))

    def failed(self, name: str, address: str, *, now: float) -> None:
        policy = self.policy
        for key in _keys(name, address):
            count, _ = self._failures.pop(key, (0, 0.0))
            count += 1
            until = 0.0
            if count > policy.free:
                doubling = min(count - policy.free - 1, 30)
                until = now + min(policy.first_s * 2**doubling, policy.longest_s)
            self._failures[key] = (count, until)
        while len(self._failures) > self._capacity:
            self._failures.popitem(last=False)

    def succeeded(self, name: str, address: str) -> None:
        for key in _keys(name, address):
            self._failures.pop(key, None)


def _keys(name: str, address: str) -> tuple[str, str]:
    return (f"user:{name}", f"addr:{address}")
