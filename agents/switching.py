"""An opponent that changes its style during a match: one agent for the first hands, then
another, then another.

``switch:phases=loose-passive/dpp-coarse,at=10000`` plays ``loose-passive`` for its first
10,000 hands, then ``dpp-coarse`` for the rest of the match; ``phases`` lists two or more
agents (separated by ``/``) and ``at`` the hand each phase after the first starts at (one
fewer, increasing, also separated by ``/``). A phase's agent may carry options, written as a
log names such an agent (:func:`agents.registry.nested_spec`):
``switch:phases=dpp-coarse/river-bluffer+rate=0.05+at=1/always-raise,at=10000/20000``. The
two-phase form of before, ``first=NAME,then=NAME,after=N``, is the same as
``phases=NAME/NAME,at=N``. It tests a learning agent that must notice a change (a model that
never forgets keeps exploiting the style that is gone). Each agent is made with the
switcher's seed and sees only the hands it plays.

>>> from agents.registry import create_agent
>>> switcher = create_agent("switch:first=always-call,then=always-raise,after=2", 7)
>>> switcher.name, switcher.starts, [a.name for a in switcher.agents]
('switch', (0, 2), ['always-call', 'always-raise'])
>>> three = create_agent("switch:phases=always-call/example/always-raise,at=5/9", 7)
>>> three.starts, [a.name for a in three.agents]
((0, 5, 9), ['always-call', 'example', 'always-raise'])
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Mapping, Sequence

from agents.base import Agent
from agents.delegating import Delegating, hand_count, inner_agent, options_of
from agents.errors import AgentOptionError

__all__ = ["Switching"]


class Switching(Delegating):
    """Plays each phase's agent from the hand its phase starts at (see the module's
    docstring)."""

    name = "switch"

    def __init__(self, seed: int, agents: Sequence[Agent], starts: Sequence[int]) -> None:
        super().__init__(seed, agents)
        self.starts = tuple(starts)
        """The hand each phase starts at (0 for the first)."""
        if len(self.starts) != len(self.agents) or self.starts[0] != 0:
            raise ValueError("one start per phase, the first at hand 0")

    @property
    def after(self) -> int:
        """The hand the second phase starts at."""
        return self.starts[1]

    @classmethod
    def from_options(cls, seed: int, options: Mapping[str, str]) -> Switching:
        """``phases=A/B[/...],at=N[/...]`` or ``first=A,then=B,after=N``."""
        given = set(options)
        takes = options_of(cls.name)
        if given & {"first", "then", "after"}:
            unknown = sorted(given - {"first", "then", "after"})
            if unknown:
                raise AgentOptionError(
                    f"switch option {unknown[0]!r} does not go with first/then/after ({takes})"
                )
            missing = [key for key in ("first", "then", "after") if key not in options]
            if missing:
                raise AgentOptionError(f"switch needs {missing[0]}= ({takes})")
            phases = [("first", options["first"]), ("then", options["then"])]
            starts = [hand_count("switch", "after", options["after"])]
        else:
            unknown = sorted(given - {"phases", "at"})
            if unknown:
                raise AgentOptionError(f"unknown switch option {unknown[0]!r}; it takes: {takes}")
            missing = [key for key in ("phases", "at") if key not in options]
            if missing:
                raise AgentOptionError(f"switch needs {missing[0]}= ({takes})")
            phases = [("phases", text) for text in options["phases"].split("/")]
            starts = [hand_count("switch", "at", text) for text in options["at"].split("/")]
            if len(phases) < 2 or len(starts) != len(phases) - 1:
                raise AgentOptionError(
                    f"switch: {len(phases)} phases need {max(1, len(phases) - 1)} start(s) in "
                    f"at= (got {len(starts)}; {takes})"
                )
            if any(b <= a for a, b in itertools.pairwise(starts)):
                raise AgentOptionError(f"switch option at={options['at']}: starts must increase")
        agents = [inner_agent("switch", key, text, seed) for key, text in phases]
        return cls(seed, agents, (0, *starts))

    @property
    def playing(self) -> Agent:
        """The agent of the phase the next hand belongs to."""
        return self.agents[bisect.bisect_right(self.starts, self.hands) - 1]
