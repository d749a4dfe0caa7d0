"""An agent's fingerprint: the same for the same play, another for other play."""

from __future__ import annotations

from acpcbot.game import bundled_game
from agents.fingerprint import fingerprint


def test_the_same_agent_has_the_same_fingerprint() -> None:
    game = bundled_game()
    assert fingerprint("dpp-coarse", game) == fingerprint("dpp-coarse", game)


def test_an_agent_that_plays_otherwise_has_another() -> None:
    """Styles of one player that differ in how often they raise, and PLICAS with a unit
    off that acts within the probe's hands (bluffing)."""
    game = bundled_game()
    assert fingerprint("tight-aggressive", game) != fingerprint("tight-passive", game)
    assert fingerprint("plicas", game) != fingerprint("plicas:bluff=off", game)
