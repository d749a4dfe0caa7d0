"""Single runs that pair the reference's way, found in a real database file (the same user,
game, tag and seed, the players reversed, not yet paired, not of a duplicate request); and
the leaderboard pooled from its grouped sums (each user's best tag per house bot, disabled
users left out)."""

from __future__ import annotations

from pathlib import Path

from dealer.benchmark.database import ResultRecord, RunRecord, Store, database_url
from dealer.benchmark.schema import ResultKind, RunState
from dealer.benchmark.standings import leaderboard, reference_partner

GAME = "holdem.limit.2p.reverse_blinds.game"


def single(
    store: Store, user: str, tag: str, players: list[str], seed: int = 7, duplicate: bool = False
) -> RunRecord:
    """A request of one run (two for a duplicate one), played to its end."""
    who = store.user(user)
    assert who is not None
    request = store.add_request(
        who.id, game=GAME, tag=tag, runs=1, rng_seed=seed, seed=seed, players=players,
        duplicate=duplicate, now=0.0, address=None,
    )  # fmt: skip
    runs = []
    for half in (0, 1) if duplicate else (None,):
        seats = [user if p == "LOCAL" else p for p in players]
        if half == 1:
            seats.reverse()
        run = store.start_run(
            request.id, seed=seed, seats=seats, half=half, now=0.0, log_folder=f"logs/{user}"
        )
        store.end_run(run.id, RunState.FINISHED, hands=10, error=None, now=1.0)
        runs.append(store.run(run.id))
    return runs[-1]


def test_single_runs_pair_the_reference_way_once(tmp_path: Path) -> None:
    store = Store.open(database_url(None, tmp_path))
    for name in ("ann", "bob"):
        store.add_user(name, "$argon2id$x", source="command", now=0.0)
    first = single(store, "ann", "t1", ["LOCAL", "dpp"])
    single(store, "ann", "t2", ["dpp", "LOCAL"])  # another tag
    single(store, "ann", "t1", ["dpp", "LOCAL"], seed=8)  # another seed
    single(store, "bob", "t1", ["dpp", "LOCAL"])  # another user
    single(store, "ann", "t1", ["dpp", "LOCAL"], duplicate=True)  # a duplicate request's
    second = single(store, "ann", "t1", ["dpp", "LOCAL"])
    candidates = store.pair_candidates(second)
    assert [c.id for c in candidates] == [first.id]
    assert reference_partner(second, candidates) == first
    ann = store.user("ann")
    assert ann is not None
    store.add_results(
        second.id, [ResultRecord(ResultKind.PAIRS, "ann", ann.id, "dpp", 10, 5.0, 9.0, 0, first.id)]
    )  # (as the service records the pair)
    again = single(store, "ann", "t1", ["LOCAL", "dpp"])
    assert store.pair_candidates(again) == []  # the pair's runs are taken
    assert reference_partner(again, []) is None
    third = single(store, "ann", "t1", ["dpp", "LOCAL"])
    assert reference_partner(third, store.pair_candidates(third)) == again
    also = single(store, "ann", "t1", ["LOCAL", "dpp"])  # the same order as again: no pair
    assert reference_partner(also, [again]) is None
    store.close()


def test_the_board_pools_each_tag_and_shows_each_users_best(tmp_path: Path) -> None:
    store = Store.open(database_url(None, tmp_path))
    for name in ("ann", "bob"):
        store.add_user(name, "$argon2id$x", source="command", now=0.0)
    users = {name: store.user(name) for name in ("ann", "bob")}

    def pair(user: str, tag: str, samples: int, total: float, squares: float) -> None:
        run = single(store, user, tag, ["LOCAL", "dpp"], duplicate=True)
        who = users[user]
        assert who is not None
        row = ResultRecord(ResultKind.PAIRS, user, who.id, "dpp", samples, total, squares)
        store.add_results(run.id, [row])

    pair("ann", "a", 100, 100.0, 1000.0)  # +100 mbb/g
    pair("ann", "a", 100, 300.0, 2000.0)  # pooled: +200 mbb/g over 200 pairs
    pair("ann", "b", 2, 40.0, 1000.0)  # a few lucky pairs: not her best
    pair("bob", "x", 400, -400.0, 4000.0)
    (board,) = leaderboard(store.pair_totals(), [(GAME, ["dpp"])], {GAME: 10})
    assert [(r.user, r.tag, r.pairs, r.sums.count, r.hands) for r in board.rows] == [
        ("ann", "a", 2, 200, 400), ("bob", "x", 1, 400, 800)
    ]  # fmt: skip
    assert board.rows[0].sums.estimate(10).mbb_per_game == 200.0
    store.set_disabled("ann", True)
    (board,) = leaderboard(store.pair_totals(), [(GAME, ["dpp"])], {GAME: 10})
    assert [r.user for r in board.rows] == ["bob"]
    store.close()
