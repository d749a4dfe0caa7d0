"""Passwords hashed with argon2id and checked in constant time; lockouts after bad logons."""

from __future__ import annotations

from dealer.benchmark.passwords import (
    Lockout,
    LockoutPolicy,
    hash_password,
    needs_rehash,
    new_secret,
    verify_password,
)


def test_a_password_is_hashed_with_a_fresh_salt_and_checked() -> None:
    first, second = hash_password("pw"), hash_password("pw")
    assert first != second and first.startswith("$argon2id$")
    assert verify_password(first, "pw") and verify_password(second, "pw")
    assert not verify_password(first, "pw ")
    assert not needs_rehash(first)


def test_no_user_and_a_broken_hash_are_refused_not_raised() -> None:
    assert not verify_password(None, "anything")
    assert not verify_password("plain-text", "plain-text")
    assert needs_rehash("plain-text")


def test_generated_secrets_are_long_random_words() -> None:
    secrets = {new_secret() for _ in range(50)}
    assert len(secrets) == 50
    assert all(len(s) == 32 and " " not in s for s in secrets)


def test_a_lockout_grows_and_a_good_logon_clears_it() -> None:
    lockout = Lockout(LockoutPolicy(free=3, first_s=1.0, longest_s=5.0))
    for _ in range(3):
        lockout.failed("neil", "10.0.0.1", now=0.0)
    assert not lockout.locked("neil", "10.0.0.1", now=0.0)  # three free tries
    waits = []
    for _ in range(5):
        lockout.failed("neil", "10.0.0.9", now=100.0)
        now = 100.0
        while lockout.locked("neil", "10.0.0.1", now=now):
            now += 0.5
        waits.append(now - 100.0)
    assert waits == [1.0, 2.0, 4.0, 5.0, 5.0]  # doubling, to the longest
    assert lockout.locked("ann", "10.0.0.9", now=100.0)  # the address is locked too
    lockout.succeeded("neil", "10.0.0.9")
    assert not lockout.locked("neil", "10.0.0.9", now=100.0)


def test_a_lockout_remembers_a_bounded_number_of_names() -> None:
    lockout = Lockout(LockoutPolicy(free=0, first_s=60.0), capacity=10)
    for i in range(1000):
        lockout.failed(f"user{i}", "10.0.0.1", now=0.0)
    assert len(lockout._failures) == 10
    assert lockout.locked("user999", "10.0.0.2", now=1.0)
