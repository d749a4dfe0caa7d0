"""The line protocol's codec against what bm_server.c answers, byte for byte."""

from __future__ import annotations

import pytest

from dealer.benchmark.lineprotocol import (
    HELP,
    CommandKind,
    Logon,
    MatchSpec,
    OfferedGame,
    QueueEntry,
    games_text,
    parse_command,
    parse_logon,
    parse_runmatches,
    queue_text,
    running_text,
)

LIMIT = "holdem.limit.2p.reverse_blinds.game"
GAMES = {LIMIT: OfferedGame(2, ("dpp", "plicas"), 10)}
L = ("LOCAL", "dpp")


def test_help_is_the_references_text() -> None:
    # writeHelpMessage's lines and counts: 20, 41, 31, 68, 39 and 58 (of the 60 it writes).
    lines = HELP.split(b"\n")[:-1]
    assert [len(line) + 1 for line in lines] == [20, 41, 31, 68, 39, 58]
    assert lines[3] == b"RUNMATCHES game #runs tag rngSeed player ... - submit match request"


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        (b"HELP", CommandKind.HELP),
        (b"help", CommandKind.HELP),
        (b"helpme please", CommandKind.HELP),
        (b"Games", CommandKind.GAMES),
        (b"qstatus", CommandKind.QSTAT),
        (b"runmatches x", CommandKind.RUNMATCHES),
        (b" HELP", CommandKind.UNKNOWN),  # a prefix of the line, with no space skipped
        (b"HEL", CommandKind.UNKNOWN),
        (b"", CommandKind.UNKNOWN),
    ],
)
def test_commands_are_case_insensitive_prefixes(line: bytes, kind: CommandKind) -> None:
    assert parse_command(line).kind is kind


@pytest.mark.parametrize(
    ("line", "logon"),
    [
        (b"neil test", Logon("neil", "test")),
        (b"  neil\ttest  more", Logon("neil", "test")),
        (b"neil", None),
        (b"", None),
        (b"neil\0 test", None),  # a C string ends at its NUL
    ],
)
def test_a_logon_is_two_words(line: bytes, logon: Logon | None) -> None:
    assert parse_logon(line) == logon


@pytest.mark.parametrize(
    ("rest", "spec"),
    [
        (f" {LIMIT} 2 t1 7 LOCAL dpp", MatchSpec(LIMIT, 2, "t1", 7, L)),
        (f"   {LIMIT}\t2 t1 7 dpp plicas", MatchSpec(LIMIT, 2, "t1", 7, ("dpp", "plicas"))),
        (f" {LIMIT} 2t1 7 LOCAL dpp", MatchSpec(LIMIT, 2, "t1", 7, L)),  # %d then %s
        (f" {LIMIT} 0 t1 0 LOCAL dpp", MatchSpec(LIMIT, 0, "t1", 0, L)),
        (f" {LIMIT} 10 t 4294967295 LOCAL LOCAL", MatchSpec(LIMIT, 10, "t", 2**32 - 1, L[:1] * 2)),
        (f" {LIMIT} 1 t1 7 LOCAL dpp DUPLICATE", MatchSpec(LIMIT, 1, "t1", 7, L, True)),
        (f" {LIMIT} 1 t1 7 LOCAL dpp single", MatchSpec(LIMIT, 1, "t1", 7, L, False)),
        (f" {LIMIT} 1 a.b-c_d 7 LOCAL dpp", MatchSpec(LIMIT, 1, "a.b-c_d", 7, L)),
    ],
)  # fmt: skip
def test_runmatches_is_read_as_the_cs_sscanf_reads_it(rest: str, spec: MatchSpec) -> None:
    assert parse_runmatches(rest, GAMES) == spec


@pytest.mark.parametrize(
    "rest",
    [
        "",
        " no-such.game 1 t1 7 LOCAL dpp",  # not a game of the server's
        f" {LIMIT} 11 t1 7 LOCAL dpp",  # more runs than maxMatchRuns
        f" {LIMIT} -1 t1 7 LOCAL dpp",
        f" {LIMIT} x t1 7 LOCAL dpp",
        f" {LIMIT} 1 t1 x LOCAL dpp",
        f" {LIMIT} 1 t1 -7 LOCAL dpp",  # the C wraps it around; we refuse
        f" {LIMIT} 1 t1 4294967296 LOCAL dpp",
        f" {LIMIT} 1 a/b 7 LOCAL dpp",  # the C's one check of a tag
        f" {LIMIT} 1 a\\b 7 LOCAL dpp",
        f" {LIMIT} 1 a..b 7 LOCAL dpp",
        f" {LIMIT} 1 {'t' * 65} 7 LOCAL dpp",
        f" {LIMIT} 1 t\x01 7 LOCAL dpp",
        f" {LIMIT} 1 t\xe9 7 LOCAL dpp",
        f" {LIMIT} 1 t1 7 LOCAL",  # a seat missing
        f" {LIMIT} 1 t1 7 LOCAL nobody",  # not a bot of the game
        f" {LIMIT} 1 t1 7 local dpp",  # LOCAL is compared with strcmp
        f" {LIMIT} 1 t1 7 LOCAL dpp TRIPLICATE",  # not an option of ours
    ],
)
def test_a_bad_runmatches_is_refused(rest: str) -> None:
    assert parse_runmatches(rest, GAMES) is None


def test_games_are_listed_as_the_c_lists_them() -> None:
    # The C's lists are built by adding at the head: the last game and bot come first.
    assert games_text([("a.game", ("x", "y")), ("b.game", ("z",))]) == (
        b"\nb.game\n z\n\na.game\n y\n x\n"
    )


def test_the_queue_is_shown_as_the_c_shows_it() -> None:
    assert queue_text([]) == b"Queue empty\n"
    entries = [QueueEntry("neil", "t1", LIMIT, 2, True), QueueEntry("ann", "t2", LIMIT, 5, False)]
    assert queue_text(entries) == (f"ann t2 {LIMIT} * 5 Q\nneil t1 {LIMIT} * 2 R\n".encode())


def test_a_client_is_told_to_run_its_bot_as_bm_server_tells_it() -> None:
    assert running_text("neil.t1", "bench.example.org", 40001) == (
        b"# RUNNING neil.t1\nRUN bench.example.org 40001\n"
    )
