"""``acpcbot match``: duplicate matches end to end, and their logs against the corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from acpcbot.cli import main
from acpcbot.game import bundled_game
from acpcbot.player import Player
from agents.registry import create_agent, entrant
from dealer.analysis.playedlog import read_log
from dealer.analysis.results import duplicate_result
from dealer.running import MatchRequest, Transport, run_match
from dealer.running.duplicate import DuplicatePlan
from dealer.running.halves import play_half


def _as_corpus(text: str, names: dict[str, str], match_name: str) -> str:
    """Our log with the corpus's player names and match name."""
    lines = text.splitlines()
    header = lines[0].split()
    header[2] = match_name
    lines[0] = " ".join(header)
    for ours, theirs in names.items():
        lines = [line.replace(f":{ours}|", f":{theirs}|").replace(f"|{ours}", f"|{theirs}")
                 for line in lines]  # fmt: skip
    return "\n".join(lines) + "\n"


@pytest.mark.e2e
def test_inprocess_duplicate_match_reproduces_the_corpus_pair(
    tmp_path: Path, vectors: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m"
    args = ["match", "hash", "always-raise", "--hands", "1000", "--seed", "42", "--out", str(out)]
    assert main([*args, "--transport", "inprocess", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    summary = json.loads((out / "summary.json").read_text())
    assert printed == summary
    assert summary["agents"] == ["hash", "always-raise"] and summary["seed"] == 42
    assert summary["hands_per_half"] == 1000 and summary["samples"] == "pairs"
    # the corpus: hash lost 4120 in half 1 and 21070 in half 2
    assert [h["chips"] for h in summary["halves"]] == [-4120, -21070]
    assert summary["mbb_per_game"] == pytest.approx(100 * (-4120 - 21070) / 2 / 1000)
    assert summary["ci95"] > 0 and summary["pair_sd_mbb"] > 0
    names = {"hash": "Alice", "always-raise": "Bob"}
    corpus = vectors / "logs" / "deterministic"
    for half, file in zip(summary["halves"], ("Alice_hash-Bob_raiser", "Bob_raiser-Alice_hash"),
                          strict=True):  # fmt: skip
        reference = corpus / f"limit2p.seed42.n1000.{file}.log"
        ours = (out / half["log"]).read_text()
        assert _as_corpus(ours, names, reference.stem) == reference.read_text()
    # acpcbot results on the two logs agrees with the summary
    first, second = (read_log(out / h["log"]) for h in summary["halves"])
    pair = duplicate_result(first, second, big_blind=10)
    assert pair.estimate.mbb_per_game == pytest.approx(summary["mbb_per_game"])
    assert pair.estimate.ci95_mbb == pytest.approx(summary["ci95"], abs=1e-3)


@pytest.mark.e2e
def test_defaults_text_output_and_single_half(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    base = ["match", "example", "always-call", "--hands", "200", "--transport", "inprocess"]
    assert main([*base, "--seed", "5"]) == 0
    text = capsys.readouterr().out
    folder = tmp_path / "example-vs-always-call.seed5.n200"
    assert f"files in {folder.name}: summary.json" in text
    assert "duplicate pairs" in text and "hands/s" in text
    summary = json.loads((folder / "summary.json").read_text())
    seeds = summary["agent_seeds"]
    assert seeds[0] != seeds[1] and len(summary["halves"]) == 2
    # same seeds, same match; other agent seeds, another match
    assert main([*base, "--seed", "5", "--out", "again", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mbb_per_game"] == summary["mbb_per_game"]
    assert main([*base, "--seed", "5", "--seed-a", "1", "--out", "other", "--json"]) == 0
    other = json.loads(capsys.readouterr().out)
    assert other["agent_seeds"] == [1, seeds[1]]
    assert other["mbb_per_game"] != summary["mbb_per_game"]
    assert main([*base, "--no-duplicate", "--out", "single", "--json"]) == 0
    single = json.loads(capsys.readouterr().out)
    assert single["samples"] == "hands" and len(single["halves"]) == 1
    assert len(list((tmp_path / "single").glob("*.log"))) == 1


@pytest.mark.e2e
def test_self_play_gets_distinct_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["match", "hash", "hash", "--hands", "10", "--transport", "inprocess"]
    assert main([*args, "--out", str(tmp_path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["names"] == ["hash-A", "hash-B"]
    assert summary["mbb_per_game"] == 0  # the same deterministic agent in both seats


def test_unknown_agent_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "nobody", "hash", "--out", str(tmp_path / "x")]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


@pytest.mark.e2e
def test_tcp_and_inprocess_write_byte_identical_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["match", "hash", "always-raise", "--hands", "300", "--seed", "9", "--json"]
    assert main([*base, "--transport", "tcp", "--out", str(tmp_path / "tcp")]) == 0
    over_tcp = json.loads(capsys.readouterr().out)
    assert main([*base, "--transport", "inprocess", "--out", str(tmp_path / "mem")]) == 0
    in_memory = json.loads(capsys.readouterr().out)
    assert over_tcp["transport"] == "tcp" and in_memory["transport"] == "inprocess"
    for half in over_tcp["halves"]:
        assert (tmp_path / "tcp" / half["log"]).read_bytes() == (
            tmp_path / "mem" / half["log"]
        ).read_bytes()
    assert over_tcp["mbb_per_game"] == in_memory["mbb_per_game"]
    # example draws from its seeded RNG: also identical, since both see the same states
    base[1] = "example"
    assert main([*base, "--transport", "tcp", "--out", str(tmp_path / "tcp2")]) == 0
    assert main([*base, "--transport", "inprocess", "--out", str(tmp_path / "mem2")]) == 0
    for log in (tmp_path / "tcp2").glob("*.log"):
        assert log.read_bytes() == (tmp_path / "mem2" / log.name).read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize(("agent_a", "agent_b"), [("plicas", "dpp"), ("loki2", "kendall-learner")])
def test_learning_and_threaded_agents_write_the_same_files_in_process_and_over_tcp(
    tmp_path: Path, agent_a: str, agent_b: str
) -> None:
    """PLICAS and loki2 decide on a worker thread over TCP; PLICAS, loki2 and kendall-learner
    learn from every hand; dpp draws from its strategy: each sees the same states either
    way, and the logs and the probabilities recorded beside them are byte-identical."""
    files = {}
    for transport in (Transport.INPROCESS, Transport.TCP):
        out = tmp_path / transport.value
        request = MatchRequest(
            entrant(agent_a), entrant(agent_b), hands=150, seed=5, jobs=1, transport=transport,
            aivat=True, out=out,
        )  # fmt: skip
        run_match(request)
        files[transport] = {f.name: f.read_bytes() for f in out.iterdir() if f.suffix != ".json"}
    assert sorted(files[Transport.INPROCESS]) == sorted(
        f"{name}.seed5.n150{suffix}"
        for name in (f"{agent_a}-{agent_b}", f"{agent_b}-{agent_a}")
        for suffix in (".log", ".probs")
    )
    assert files[Transport.INPROCESS] == files[Transport.TCP]


def test_an_agent_that_raises_ends_an_inprocess_match_with_a_clear_error() -> None:
    from acpcbot.actions import Action
    from acpcbot.game import bundled_game
    from acpcbot.player import BettingView
    from acpcbot.protocol.matchstate import MatchState
    from agents.simple import AlwaysCall
    from dealer.referee.config import MatchConfig
    from dealer.referee.inprocess import PlayerFailedError, play_in_process
    from dealer.referee.referee import Referee

    class Broken(AlwaysCall):
        def act(self, state: MatchState, betting: BettingView) -> Action:
            if state.hand_number == 3:
                raise ZeroDivisionError("oops")
            return super().act(state, betting)

    referee = Referee(MatchConfig("m", bundled_game(), "g", 10, 1, ("A", "B")))
    with pytest.raises(PlayerFailedError, match=r"failed in hand 3: ZeroDivisionError: oops"):
        play_in_process(referee, [Broken(), AlwaysCall()])


def test_every_finished_hand_is_in_the_files_before_the_next_begins(tmp_path: Path) -> None:
    """A match killed (SIGKILL) loses no hand it finished: each hand's line is handed to
    the system (not kept in a buffer) before the next hand is dealt, in the log and in the
    decisions file."""
    plan = DuplicatePlan(("example", "always-call"), 40, 3, (1, 2))
    log, probs = tmp_path / plan.log_name(0), tmp_path / plan.decisions_name(0)
    on_disk: list[tuple[int, int]] = []

    def on_hand(hands: int, chips: float) -> None:
        del hands, chips
        header = 2  # the decisions file's two comment lines
        on_disk.append(
            (log.read_bytes().count(b"\nSTATE:"), probs.read_bytes().count(b"\n") - header)
        )

    def make_player(which: int, seed: int) -> Player:
        return create_agent(plan.agents[which], seed)

    outcome = play_half(
        plan, 0, bundled_game(), tmp_path, make_player, on_hand=on_hand, record_decisions=True
    )
    assert outcome.finished
    assert on_disk == [(hand, hand) for hand in range(1, 41)]
