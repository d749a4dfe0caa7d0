"""Whether two logs are the two halves of one duplicate match: seat-reversed twins.

The second log is the first's twin when it is another log (not the same file, not the same
content) of the same deal with the seats reversed:

* the same two players, seat 1 of one being seat 2 of the other;
* when both logs have a header: the same seed, the same game (named alike, or read as one by
  :func:`acpcbot.logreader.game_of_log`) and the same number of hands (the match names
  differ by design);
* in every hand number both logs hold, the same hole cards at the same positions (the same
  seed deals the same cards), which also settles logs without a header.

:func:`twin_differences` lists every way a second log falls short, in words.

>>> import io
>>> from pathlib import Path
>>> from dealer.analysis.playedlog import read_log_stream
>>> one = read_log_stream(Path("a.log"), io.BytesIO(b"STATE:0:rf:9h6s|3d3h:10|-10:A|B\\n"))
>>> two = read_log_stream(Path("b.log"), io.BytesIO(b"STATE:0:cc:9h6s|3d3h:0|0:B|A\\n"))
>>> twin_differences(one, two)
[]
>>> twin_differences(one, one)
['the same log twice (the same content)']
"""

from __future__ import annotations

from acpcbot.errors import AcpcError
from acpcbot.logreader import game_of_log
from acpcbot.protocol.matchstate import clip_line
from dealer.analysis.playedlog import PlayedLog

__all__ = ["labels", "twin_differences"]


def twin_differences(first: PlayedLog, second: PlayedLog) -> list[str]:
    """Why ``second`` is not ``first``'s seat-reversed twin (empty: it is)."""
    a, b = labels(first, second)
    if first.file_id is not None and first.file_id == second.file_id:
        return ["the same log twice (the same file)"]
    if first.digest == second.digest:
        return ["the same log twice (the same content)"]
    why = _header_differences(first, second)
    seats, other = first.seat_names, second.seat_names
    if len(seats) != 2 or len(other) != 2:
        why.append(f"a duplicate pair is heads-up; {a} has {len(seats)} players, {b} {len(other)}")
    elif set(seats) != set(other):
        why.append(f"players differ: {_players(seats)} in {a}, {_players(other)} in {b}")
    elif seats == other:
        why.append(f"seats are not reversed: {seats[0]} in seat 1 of both")
    why.extend(_deal_differences(first, second))
    return why


def labels(first: PlayedLog, second: PlayedLog) -> tuple[str, str]:
    """How messages name two logs: by file name, or by path when the names are the same."""
    if first.name != second.name:
        return first.name, second.name
    return first.where, second.where


def _players(names: tuple[str, ...]) -> str:
    return " and ".join(names)


def _header_differences(first: PlayedLog, second: PlayedLog) -> list[str]:
    one, two = first.header, second.header
    if one is None or two is None:
        return []  # the cards decide
    a, b = labels(first, second)
    why = []
    if one.seed != two.seed:
        why.append(f"seeds differ: {one.seed} in {a}, {two.seed} in {b}")
    if one.game_path != two.game_path and not _same_game(first, second):
        games = clip_line(one.game_path, 80), clip_line(two.game_path, 80)
        why.append(f"games differ: {games[0]!r} in {a}, {games[1]!r} in {b}")
    if one.hands != two.hands:
        why.append(f"hand counts differ: {one.hands} in {a}, {two.hands} in {b}")
    return why


def _same_game(first: PlayedLog, second: PlayedLog) -> bool:
    """Whether the games two headers name by different paths read as one game."""
    try:
        return game_of_log(first.path, first.header) == game_of_log(second.path, second.header)
    except AcpcError:
        return False


def _deal_differences(first: PlayedLog, second: PlayedLog) -> list[str]:
    """The first hand both logs hold that was dealt other cards, or no hand in common."""
    hands, others = first.hand_numbers, second.hand_numbers
    i = j = 0
    common = 0
    while i < len(hands) and j < len(others):
        if hands[i] == others[j]:
            if first.deals[i] != second.deals[j]:
                return [f"hand {hands[i]} was dealt other cards (not the same seed)"]
            common += 1
            i += 1
            j += 1
        elif hands[i] < others[j]:
            i += 1
        else:
            j += 1
    if not common:
        return ["no hand number in common"]
    return []
