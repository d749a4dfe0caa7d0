"""``acpc-dealer``: the ACPC reference dealer's command line, on our dealer.

    acpc-dealer MATCHNAME GAMEDEF HANDS SEED NAME1 NAME2 [options]

Options may come anywhere (as with the reference's GNU getopt). stdout gets the ports,
space-separated in seat order, then the ``SCORE`` line; stderr gets the log header, the
messages sent and received (unless ``-q``), warnings and errors. The exit status is 0 for
a finished match and 1 otherwise. Differences from the reference: listening on 127.0.0.1
by default (``--host``), ports chosen by the operating system rather than derived from the
seed, a time limit on the ``VERSION`` line (``--t_response``), ``--strict``, and clean ends
(never a traceback, never death by SIGPIPE) when a seat disconnects.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

from acpcbot import eventloop
from acpcbot.errors import AcpcError, GameDefinitionError
from acpcbot.game import load_game
from dealer.config import MatchConfig, TimeLimits
from dealer.faults import MatchAbortedError
from dealer.listeners import Listeners
from dealer.matchlog import ExistingLog, MatchLog, read_existing_log
from dealer.referee import Referee
from dealer.server import referee_over_tcp
from dealer.tlog import Transaction, TransactionLog, TransactionLogError, read_transactions
from dealer.transcript import Transcript

MAX_UINT32 = 2**32 - 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="acpc-dealer",
        usage="%(prog)s MATCHNAME GAMEDEF HANDS SEED NAME1 NAME2 ... [options]",
        description="An ACPC dealer (protocol 2.0.0) with the reference dealer's command "
        "line, cards, logs and lenient rules.",
    )
    parser.add_argument("match_name", metavar="MATCHNAME", help="logs go to MATCHNAME.log/.tlog")
    parser.add_argument("game", metavar="GAMEDEF", help="the .game file (or a bundled name)")
    parser.add_argument("hands", metavar="HANDS", help="number of hands")
    parser.add_argument("seed", metavar="SEED", help="card seed (taken modulo 2^32)")
    parser.add_argument("names", metavar="NAME", nargs="+", help="player names in seat order")
    parser.add_argument("-f", dest="fixed", action="store_true", help="fixed seats: no rotation")
    parser.add_argument("-l", dest="log", action="store_false", default=True, help="no .log")
    parser.add_argument("-L", dest="log", action="store_true", help="write the .log (default)")
    parser.add_argument("-p", dest="ports", metavar="P1,P2", help="ports by seat (0: any)")
    parser.add_argument("-q", dest="quiet", action="store_true", help="quiet stderr")
    parser.add_argument("-t", dest="tlog", action="store_false", default=False, help="no .tlog")
    parser.add_argument("-T", dest="tlog", action="store_true", help="write the .tlog")
    parser.add_argument(
        "-a", dest="append", action="store_true", help="append; with -T resume from the .tlog"
    )
    for option, default, what in (
        ("--t_response", 600_000, "most milliseconds for one reply (and the VERSION line)"),
        ("--t_hand", 600_000, "most milliseconds of replies per seat in one hand"),
        ("--t_per_hand", 7_000, "average milliseconds of replies per hand over the match"),
        ("--start_timeout", -1, "most milliseconds to wait for the seats (<0: forever)"),
    ):
        parser.add_argument(option, type=int, default=default, metavar="MS", help=what)
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument(
        "--hold-idle",
        action="store_true",
        help="hold each state for a seat that is not to act until that seat's next write "
        "(same bytes, fewer wake-ups, faster) instead of sending it at once as the reference",
    )
    parser.add_argument(
        "--spin-us",
        type=_spin_us,
        default=DEFAULT_SPIN_US,
        metavar="US",
        help="microseconds each read of a reply polls before it sleeps: a fast player's "
        f"reply is taken without a wake-up (default {DEFAULT_SPIN_US}; 0 never spins, "
        "for machines shared by many matches)",
    )
    parser.add_argument(
        "--strict", action="store_true", help="end the match on any bad reply instead of a call"
    )
    return parser


DEFAULT_SPIN_US = 200
"""Long enough to catch an ``acpcbot play`` client's reply on loopback (50 catches only C
clients'), short enough to cost little when a player thinks."""


def _spin_us(text: str) -> int:
    if not text.isdigit() or int(text) > 1_000_000:
        raise argparse.ArgumentTypeError(f"expected 0..1000000 microseconds, got {text!r}")
    return int(text)


def _uint32(text: str, what: str, *, wrap: bool) -> int:
    if not text.isdigit():
        raise AcpcError(f"invalid {what} {text}")
    value = int(text)
    if wrap:
        return value % 2**32
    if not 0 < value <= MAX_UINT32:
        raise AcpcError(f"invalid {what} {text}")
    return value


def _ports(text: str | None) -> list[int]:
    if not text:
        return []
    ports = []
    for part in text.split(","):
        if not part.isdigit() or int(part) > 65535:
            raise AcpcError(f"bad port string {text}")
        ports.append(int(part))
    return ports


def _open(path: Path, append: bool) -> BinaryIO:
    try:
        return path.open("ab" if append else "wb")
    except OSError as exc:
        kind = "transaction" if path.suffix == ".tlog" else "log"
        raise AcpcError(f"could not open {kind} file {path}: {exc.strerror}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``acpc-dealer``."""
    parser = build_parser()
    try:
        args = parser.parse_intermixed_args(argv)
    except SystemExit as exc:  # the reference exits 1 on any usage error
        return 0 if exc.code == 0 else 1
    err = Transcript(sys.stderr.buffer, quiet=args.quiet)
    try:
        return _run(args, err)
    except MatchAbortedError as exc:
        for line in exc.lines:
            err.line(line)
    except GameDefinitionError as exc:
        err.line(f"ERROR: could not read game {args.game}: {exc}")
    except AcpcError as exc:
        err.line(f"ERROR: {exc}")
    except KeyboardInterrupt:
        err.line("ERROR: interrupted")
    err.flush()
    return 1


def _run(args: argparse.Namespace, err: Transcript) -> int:
    game = load_game(args.game)
    if len(args.names) != game.num_players:
        raise AcpcError(f"{game.num_players} player names needed, {len(args.names)} given")
    config = MatchConfig(
        match_name=args.match_name,
        game=game,
        game_path=args.game,
        hands=_uint32(args.hands, "number of hands", wrap=False),
        seed=_uint32(args.seed, "random number seed", wrap=True),
        names=tuple(args.names),
        fixed_seats=args.fixed,
        limits=TimeLimits(args.t_response, args.t_hand, args.t_per_hand),
        strict=args.strict,
    )
    ports = _ports(args.ports)
    log_path = Path(f"{args.match_name}.log")
    tlog_path = Path(f"{args.match_name}.tlog")
    try:
        transactions = (
            read_transactions(tlog_path, is_limit=game.is_limit)
            if args.append and args.tlog
            else []
        )
    except TransactionLogError as exc:
        raise AcpcError(str(exc)) from None
    existing = read_existing_log(log_path) if args.append and args.log and transactions else None
    log = MatchLog(_open(log_path, args.append)) if args.log else None
    tlog = TransactionLog(_open(tlog_path, args.append)) if args.tlog else None
    try:
        return eventloop.run(
            _serve(
                config,
                args=args,
                ports=ports,
                err=err,
                log=log,
                tlog=tlog,
                transactions=transactions,
                existing=existing,
            )
        )
    finally:
        if log is not None:
            log.close()
        if tlog is not None:
            tlog.close()


async def _serve(
    config: MatchConfig,
    *,
    args: argparse.Namespace,
    ports: list[int],
    err: Transcript,
    log: MatchLog | None,
    tlog: TransactionLog | None,
    transactions: Sequence[Transaction],
    existing: ExistingLog | None,
) -> int:
    listeners = await Listeners.open(args.host, ports, config.game.num_players)
    _print(" ".join(str(port) for port in listeners.ports))
    for line in config.header.lines():
        err.line(line)
    err.flush()
    if log is not None and not (existing is not None and existing.has_header):
        log.header(config.header)
    if existing is not None and existing.has_score:
        log = None  # resuming a match that had finished: its log is complete already
    engine = Referee(config, log=log, tlog=tlog, reporter=err)
    score = await referee_over_tcp(
        engine,
        listeners,
        err,
        start_timeout_ms=args.start_timeout,
        transactions=transactions,
        logged_hands=sorted(existing.hands) if existing is not None else (),
        spin_s=args.spin_us / 1e6,
        hold_idle=args.hold_idle,
    )
    _print(score)
    err.line(score)
    err.flush()
    return 0


def _print(line: str) -> None:
    try:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # whoever read the ports has gone; the match goes on
        pass


if __name__ == "__main__":
    sys.exit(main())
