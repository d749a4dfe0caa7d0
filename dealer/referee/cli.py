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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO

from acpcbot import eventloop
from acpcbot.errors import AcpcError, GameDefinitionError
from acpcbot.extras import need_mqtt
from acpcbot.game import Game, load_game
from acpcbot.options import (
    add_host,
    add_mqtt_options,
    add_progress_options,
    cut,
    digits,
    whole_number,
)
from acpcbot.protocol.constants import MAX_HANDS
from dealer.referee.config import MatchConfig, TimeLimits, logged_text
from dealer.referee.faults import MatchAbortedError
from dealer.referee.listeners import Listeners
from dealer.referee.livematch import LiveMatch
from dealer.referee.matchlog import MatchLog
from dealer.referee.referee import Referee
from dealer.referee.resume import Resumption
from dealer.referee.server import referee_over_tcp
from dealer.referee.tlog import TransactionLog
from dealer.referee.transcript import Transcript

MAX_MS = 2**31 - 1
"""The longest time limit, in milliseconds (about 24.8 days: what ``poll`` can wait)."""
MAX_PORTS = 10
"""Ports ``-p`` may list (the reference's ``MAX_PLAYERS``)."""


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
        kind = _signed_ms if option == "--start_timeout" else _ms
        parser.add_argument(option, type=kind, default=default, metavar="MS", help=what)
    add_host(parser, "0.0.0.0 for every interface", default="127.0.0.1")
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
        "reply is taken without a wake-up, and a seat whose replies keep missing the poll "
        f"is not polled for a while (default {DEFAULT_SPIN_US}; 0 never spins)",
    )
    parser.add_argument(
        "--strict", action="store_true", help="end the match on any bad reply instead of a call"
    )
    add_progress_options(parser)
    add_mqtt_options(parser, hands=True)
    return parser


DEFAULT_SPIN_US = 200
"""Long enough to catch an ``acpcbot play`` client's reply on loopback (50 catches only C
clients'), short enough to cost little when a player thinks."""


_spin_us = whole_number("a number of microseconds", 0, 1_000_000)
_ms = whole_number("a number of milliseconds", 0, MAX_MS)
_signed_ms = whole_number("a number of milliseconds", None, MAX_MS, why="<0: for ever")


def _hands(text: str) -> int:
    value = digits(text)
    if value is None or not 0 < value <= MAX_HANDS:
        raise AcpcError(f"invalid number of hands {cut(logged_text(text))}")
    return value


def _seed(text: str) -> int:
    """The reference takes the seed modulo 2^32."""
    value = digits(text)
    if value is None:
        raise AcpcError(f"invalid random number seed {cut(logged_text(text))}")
    return value % 2**32


def _ports(text: str | None) -> list[int]:
    if not text:
        return []
    parts = text.split(",", MAX_PORTS)
    ports = [digits(part) for part in parts]
    if len(parts) > MAX_PORTS or any(port is None or port > 65535 for port in ports):
        raise AcpcError(f"bad port string {cut(logged_text(text))}")
    return [port for port in ports if port is not None]


def _load_game(path: str) -> Game:
    """The game file (or bundled game) ``path``; errors name it as the log would."""
    try:
        return load_game(path)
    except GameDefinitionError as exc:
        raise GameDefinitionError(str(exc).replace(path, logged_text(path))) from None


def _open(path: Path, append: bool) -> BinaryIO:
    try:
        return path.open("ab" if append else "wb")
    except OSError as exc:
        kind = "transaction" if path.suffix == ".tlog" else "log"
        shown = logged_text(str(path))
        raise AcpcError(f"could not open {kind} file {shown}: {exc.strerror}") from None


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
        err.line(f"ERROR: could not read game {_game_error(logged_text(args.game), str(exc))}")
    except AcpcError as exc:
        err.line(f"ERROR: {exc}")
    except KeyboardInterrupt:
        err.line("ERROR: interrupted")
    err.flush()
    return 1


def _game_error(game: str, message: str) -> str:
    """The game file's error after the reference's ``could not read game``, naming the
    file once.

    >>> _game_error("g.game", "g.game: No such file or directory")
    'g.game: No such file or directory'
    >>> _game_error("g.game", "g.game:3: unknown key: 'x'")
    "g.game:3: unknown key: 'x'"
    """
    return message if message.startswith(game) else f"{game}: {message}"


def _run(args: argparse.Namespace, err: Transcript) -> int:
    game = _load_game(args.game)
    config = MatchConfig(
        match_name=logged_text(args.match_name),
        game=game,
        game_path=logged_text(args.game),
        hands=_hands(args.hands),
        seed=_seed(args.seed),
        names=tuple(logged_text(name) for name in args.names),
        fixed_seats=args.fixed,
        limits=TimeLimits(args.t_response, args.t_hand, args.t_per_hand),
        strict=args.strict,
    )
    ports = _ports(args.ports)
    if args.mqtt_hands and args.mqtt is None:
        raise AcpcError("--mqtt-hands needs --mqtt URL")
    if args.mqtt is not None:
        need_mqtt()
    log_path = Path(f"{args.match_name}.log")
    tlog_path = Path(f"{args.match_name}.tlog")
    live = LiveMatch.from_args(config, args, err)
    status, error = "failed", None
    try:
        if args.append and args.tlog:
            code = _resume(config, args, err, ports=ports, paths=(log_path, tlog_path), live=live)
        else:
            code = _play(config, args, err, ports=ports, paths=(log_path, tlog_path), live=live)
        status = "finished"
        return code
    except KeyboardInterrupt:
        status = "interrupted"
        raise
    except MatchAbortedError as exc:
        error = exc.lines[0].removeprefix("ERROR: ") if exc.lines else str(exc)
        raise
    except AcpcError as exc:
        error = str(exc)
        raise
    finally:
        if live.active:
            live.close(status, error)


def _play(
    config: MatchConfig,
    args: argparse.Namespace,
    err: Transcript,
    *,
    ports: list[int],
    paths: tuple[Path, Path],
    live: LiveMatch,
) -> int:
    log_path, tlog_path = paths
    log = MatchLog(_open(log_path, args.append)) if args.log else None
    tlog = None
    try:
        tlog = TransactionLog(_open(tlog_path, args.append)) if args.tlog else None
        if log is not None:
            log.header(config.header)
        lines = live.log(log)

        def referee() -> Referee:
            return Referee(config, log=lines, tlog=tlog, reporter=err, on_hand=live.on_hand)

        return eventloop.run(_serve(config, referee, args=args, ports=ports, err=err))
    finally:
        if log is not None:
            log.close()
        if tlog is not None:
            tlog.close()


def _resume(
    config: MatchConfig,
    args: argparse.Namespace,
    err: Transcript,
    *,
    ports: list[int],
    paths: tuple[Path, Path],
    live: LiveMatch,
) -> int:
    """``-T -a``: replay the ``.tlog`` (see :mod:`dealer.referee.resume`), then play the rest; a
    match that is over already is not played again."""
    log_path, tlog_path = paths
    resumption = Resumption(config, log_path, tlog_path, write_log=args.log)
    try:
        unchecked = resumption.unchecked
        with _open(tlog_path, append=True) as tlog_file:
            referee = Referee(
                config,
                log=live.log(resumption),
                tlog=TransactionLog(tlog_file),
                reporter=err,
                on_hand=live.on_hand,
            )
            score = resumption.replay(referee)
            if unchecked:
                err.warning(
                    f"{log_path} has no header to check {tlog_path} against: its seed, "
                    "game and names are taken on trust"
                )
            if score is None:
                return eventloop.run(
                    _serve(config, lambda: referee, args=args, ports=ports, err=err)
                )
            for line in config.header.lines():
                err.line(line)
            err.line(
                f"{config.match_name} was over already ({config.hands} hands in "
                f"{logged_text(str(tlog_path))}): nothing to play"
            )
            _print(score)
            err.line(score)
            err.flush()
            return 0
    finally:
        resumption.close()


async def _serve(
    config: MatchConfig,
    make_referee: Callable[[], Referee],
    *,
    args: argparse.Namespace,
    ports: list[int],
    err: Transcript,
) -> int:
    """Listen, print the ports and the header, referee the match (made by ``make_referee``
    once the ports are out: the clients start while the first cards are dealt)."""
    listeners = await Listeners.open(args.host, ports, config.game.num_players)
    _print(" ".join(str(port) for port in listeners.ports))
    for line in config.header.lines():
        err.line(line)
    err.flush()
    try:
        referee = make_referee()
    except BaseException:
        listeners.close()
        raise
    score = await referee_over_tcp(
        referee,
        listeners,
        err,
        start_timeout_ms=args.start_timeout,
        spin_s=args.spin_us / 1e6,
        hold_idle=args.hold_idle,
    )
    _print(score)
    err.line(score)
    err.flush()
    return 0


def _print(line: str) -> None:
    """A line on stdout, as bytes (names are the bytes they were given)."""
    try:
        sys.stdout.buffer.write(line.encode("latin-1") + b"\n")
        sys.stdout.flush()
    except BrokenPipeError:  # whoever read the ports has gone; the match goes on
        pass


if __name__ == "__main__":
    sys.exit(main())
