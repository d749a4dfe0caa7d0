"""PLICAS's configuration: which dynamic units run, and their few numeric knobs.

The four dynamic units of the paper's ablation (DPRC, DPAC, the case base, the bluff unit),
our fold-equity unit and the opponent model's part in reading hands can each be switched
off. With the model and the paper's four units off (:data:`STATIC`) the agent plays the
*static* PLICAS, "a static playing style without adaptation to the opponent's strategy"
(PLICAS §5.1): fixed expert rules against a fixed, sound opponent
(:mod:`agents.plicas.generic`).
Options come from the agent spec on the command line (``NAME:KEY=VALUE,...``, see
:func:`agents.registry.parse_agent_spec`), e.g. ``plicas:dprc=off,dpac=off`` for the paper's
literal ablation (the learned opponent model still reads the hands).

>>> PlicasConfig().dynamic_units()
('dprc', 'dpac', 'case-base', 'bluff', 'fold-equity', 'model', 'exploit', 'fitted-prior', 'detect')
>>> STATIC.dynamic_units()
('fold-equity',)
>>> PlicasConfig().with_options({"dprc": "off", "case-threshold": "30"}).case_threshold
30
>>> PlicasConfig().with_options({"case-weight": "nan"})
Traceback (most recent call last):
agents.errors.AgentOptionError: PLICAS option case-weight=nan: case-weight is a number from 0 to 100
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from agents.common import options as agent_options
from agents.common.options import agent_field
from agents.common.options import bounds as _bounds
from agents.errors import AgentOptionError

__all__ = ["DYNAMIC", "REHEARSED", "STATIC", "PlicasConfig"]

_MAX_HANDS = 1_000_000_000


@dataclass(frozen=True, slots=True)
class PlicasConfig:
    """Switches and knobs of one PLICAS agent (all dynamic units on by default)."""

    dprc: bool = True
    """Dynamic preflop range control: own range r_p from the opponent's range."""
    dpac: bool = True
    """Dynamic postflop aggression control: the own bucket is shifted from the opponent's
    postflop aggression and preflop range."""
    case_base: bool = True
    """The case-based unit (showdown cases of the opponent's betting patterns)."""
    bluff: bool = True
    """The bluff unit at the first flop action with an unplayable hand."""
    fold_equity: bool = True
    """The fold-equity unit: after the flop, bet or raise whenever the opponent's fold rate
    makes it pay, whatever the hand (:mod:`agents.plicas.foldequity`)."""
    dprc_hands: int = field(default=50, metadata=_bounds(0, _MAX_HANDS))
    """Hands the opponent model must have seen before DPRC moves r_p (the paper's n)."""
    static_range: float = field(default=0.85, metadata=_bounds(0.01, 1.0))
    """r_p while DPRC is off or has not seen enough hands."""
    case_threshold: int = field(default=20, metadata=_bounds(1, _MAX_HANDS))
    """Similar cases the case base needs before it returns a triple (the paper's n)."""
    case_weight: float = field(default=0.5, metadata=_bounds(0.0, 100.0))
    """Merge weight of the case-based triple at full confidence (the rule unit has 1)."""
    model: bool = True
    """The learned opponent model (and the showdown calibration of its weight table) drives
    the hand readings (the weight table's likelihoods, fold rates, the steal and bluff
    spots); off, they read the frozen generic opponent of :mod:`agents.plicas.generic`
    and nothing the opponent does changes how PLICAS plays."""
    river_search: bool = False
    """On the river, search the rest of the betting against the learned model
    (:mod:`agents.plicas.riversearch`) instead of the postflop rule and fold-equity units.
    Off by default: it lost against dpp (docs/results/plicas.md, "A river search, measured
    and left off")."""
    samples: int = field(default=600, metadata=_bounds(1, 1_000_000))
    """Monte Carlo samples per equity estimate on the flop and turn."""
    exploit: bool = True
    """The exploitation unit: a best response to the learned action model, merged with the
    rule units by the evidence behind it (:mod:`agents.plicas.exploitation`)."""
    exploit_evidence: float = field(default=3.0, metadata=_bounds(0.0, 1_000_000.0))
    """Observations of the opponent's decisions at which the exploitation unit's triple
    weighs as much as the rule units' (0: trusted from the first hand)."""
    ahead: int = field(default=0, metadata=_bounds(0, 46))
    """River cards over which the exploitation unit's walk of the turn looks into the
    river's betting (0: the turn's walk ends in a check-down)."""
    memory: int = field(default=10_000, metadata=_bounds(0, _MAX_HANDS))
    """Hands everything it learns remembers: every count decays by 1 - 1/memory a hand (0:
    never; :mod:`agents.plicas.memory`)."""
    fitted_prior: bool = True
    """Start from what the field does (:mod:`agents.plicas.actionprior`; the opponent model
    from the generic opponent, :mod:`agents.plicas.generic`) instead of a vague guess."""
    detect: bool = True
    """The change detector (:mod:`agents.plicas.change`): on a change of the opponent's
    play, everything learned so far is discounted to ``forget`` of its weight."""
    forget: float = field(default=0.01, metadata=_bounds(0.0001, 1.0))
    """The weight the evidence keeps when the opponent is seen to change."""
    freeze_after: int = field(default=_MAX_HANDS, metadata=_bounds(0, _MAX_HANDS))
    """Hands of the match after which PLICAS learns nothing more and plays one fixed
    strategy, which it gives for every holding (:mod:`agents.plicas.frozen`); 0: from the
    first hand (after ``train``), so that ``acpcbot lbr`` can measure it."""
    train: str = field(default="", metadata=agent_field("played before the match, learning"))
    """An agent (written as a log names it) that PLICAS plays ``train-hands`` hands against
    before the match starts, learning as in a match."""
    train_hands: int = field(default=50_000, metadata=_bounds(1, _MAX_HANDS))
    """Hands of the training against ``train``."""
    train_seed: int = field(default=0, metadata=_bounds(0, 2**31 - 1))
    """The seed of the training's cards and choices (the same for every seat and process,
    so that every copy of a trained PLICAS learns the same)."""

    @property
    def freezes(self) -> bool:
        """Whether it freezes in a match (``freeze-after`` given: by default it never does)."""
        return self.freeze_after < _MAX_HANDS

    def dynamic_units(self) -> tuple[str, ...]:
        """Names of the dynamic units that are on, in option spelling."""
        on = (
            ("dprc", self.dprc),
            ("dpac", self.dpac),
            ("case-base", self.case_base),
            ("bluff", self.bluff),
            ("fold-equity", self.fold_equity),
            ("model", self.model),
            ("river-search", self.river_search),
            ("exploit", self.exploit),
            ("fitted-prior", self.fitted_prior),
            ("detect", self.detect),
        )
        return tuple(name for name, enabled in on if enabled)

    def with_options(self, options: Mapping[str, str]) -> PlicasConfig:
        """A copy with ``options`` applied (keys in option or field spelling, any case);
        raises :class:`AgentOptionError` for an unknown, repeated or out-of-range one."""
        config = agent_options.apply_options(self, options, "PLICAS")
        if config.train:
            # the registry lists PLICAS, whose agent imports this module: only here
            from agents.registry import create_agent, nested_spec

            create_agent(nested_spec(config.train))  # a spec that gives no agent says so now
        if config.river_search and config.freezes:
            raise AgentOptionError("PLICAS option freeze-after does not go with river-search")
        return config


def option_names() -> list[str]:
    """Every option's name in spec spelling, sorted."""
    return agent_options.option_names(PlicasConfig)


def options_help() -> str:
    """The options in one line, with each knob's range (``acpcbot agents`` shows it).

    >>> options_help().split("; ")[-1]
    'train = AGENT (played before the match, learning)'
    """
    return agent_options.options_help(PlicasConfig)


DYNAMIC = PlicasConfig()
"""``plicas``: every dynamic unit on."""
STATIC = PlicasConfig(
    dprc=False,
    dpac=False,
    case_base=False,
    bluff=False,
    model=False,
    exploit=False,
    fitted_prior=False,
    detect=False,
)
"""``plicas-static``: the paper's four dynamic units off (DPRC, DPAC, the case base, the
bluff unit) and hands read against the frozen generic opponent. The fold-equity unit stays
on: with the model off it reads the generic opponent's fold rates, so it is a fixed rule
(bet where a sound opponent folds often enough) that nothing the opponent does changes."""
REHEARSED = (
    replace(DYNAMIC, river_search=True),
    replace(STATIC, river_search=True),
)
"""The configurations a throwaway PLICAS plays before a match so that every kernel is
compiled (:meth:`agents.plicas.agent.Plicas.begin_match`): between them every unit, with
the model on and off."""
