"""Every agent by name, and the *agent specs* that name agents on the command line.

An agent spec names an agent and, for agents that take them, options::

    spec     = target [":" options]
    target   = NAME | MODULE ":" CLASS
    options  = KEY "=" VALUE {"," KEY "=" VALUE}

``NAME`` is a built-in agent (:data:`AGENTS`) or a plug-in an installed distribution
declares (:mod:`agents.plugins`); ``MODULE:CLASS`` is any :class:`~agents.base.Agent`
subclass, e.g. ``mybot:MyBot`` or ``mypackage.bots:Careful``. A spec whose text before its
first ``:`` is not an agent's name and is followed by ``:`` and a Python identifier names a
class; otherwise what follows the first ``:`` are options (which always hold ``=``):
``plicas:dprc=off,bluff=off``, ``mybot:MyBot:aggression=2``. Names, modules, classes and
option keys are ASCII; a value is ASCII letters, digits and ``. _ + - / =``. Every command
that takes an agent takes a spec, because :func:`create_agent` parses it, and every way a
spec can be wrong is an :class:`~agents.errors.AgentSpecError` raised right there, before
any match starts. The dealer is handed agents as :func:`entrant` s (an
:class:`acpcbot.player.Entrant` each), never their names.

>>> sorted(AGENTS)[:3]
['always-call', 'always-raise', 'dpp']
>>> create_agent("always-call", seed=3).seed
3
>>> parse_agent_spec("plicas:dprc=off, bluff=off")
('plicas', {'dprc': 'off', 'bluff': 'off'})
>>> parse_agent_spec("agents.simple:AlwaysCall")
('agents.simple:AlwaysCall', {})
>>> entrant("plicas: dprc=off").name
'plicas+dprc=off'
>>> create_agent("plicas:samples=0")
Traceback (most recent call last):
agents.errors.AgentOptionError: PLICAS option samples=0: samples is an integer from 1 to 1000000
"""

from __future__ import annotations

import difflib
import importlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from acpcbot.errors import AcpcError
from acpcbot.game import Game
from acpcbot.player import MatchInfo, Strategy
from agents.base import Agent
from agents.errors import AgentOptionError, AgentPluginError, AgentSpecError, UnknownAgentError
from agents.plugins import construct, guarded, load_class, plugins

__all__ = [
    "AGENTS",
    "AgentEntry",
    "AgentOptionError",
    "AgentPluginError",
    "AgentSpecError",
    "RegistryEntrant",
    "UnknownAgentError",
    "agent_class",
    "check_agent",
    "create_agent",
    "entrant",
    "is_plugin",
    "known_strategies",
    "lbr_against",
    "listing",
    "nested_spec",
    "parse_agent_spec",
    "player_name",
]

AGENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*", re.ASCII)
"""What an agent's name may be (built-in or plug-in): no ``.``, ``:`` or ``,``."""
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*", re.ASCII)
_CLASS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)
_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_-]*", re.ASCII)
_VALUE = re.compile(r"[A-Za-z0-9._+/=-]+", re.ASCII)


@dataclass(frozen=True, slots=True)
class AgentEntry:
    """A built-in agent: where it lives and what it does."""

    name: str
    target: str
    """``module:Class`` of the agent."""
    description: str
    options: str = ""
    """The options it takes (``KEY=VALUE`` in the spec), one line; empty when none."""
    required: str = ""
    """The options it cannot play without, each with an example value (``KEY=VALUE,...``);
    empty when its defaults play."""

    @property
    def spec(self) -> str:
        """A spec that plays this agent: its name, with its required options' example values
        (what ``acpcbot agents --specs`` prints and the docker image's warm-up plays).

        >>> AGENTS["plicas"].spec, AGENTS["lbr"].spec
        ('plicas', 'lbr:opponent=dpp')
        """
        return f"{self.name}:{self.required}" if self.required else self.name

    def load(self) -> type[Agent]:
        module, _, cls = self.target.partition(":")
        agent_class: object = getattr(importlib.import_module(module), cls)
        if not (isinstance(agent_class, type) and issubclass(agent_class, Agent)):
            raise TypeError(f"{self.target} is not an Agent")
        return agent_class


_PLICAS_OPTIONS = (
    "dprc, dpac, case-base, bluff, fold-equity, model, river-search, exploit, "
    "fitted-prior, detect = on|off; dprc-hands 0..1000000000, case-threshold "
    "1..1000000000, samples 1..1000000, ahead 0..46, memory 0..1000000000, freeze-after "
    "0..1000000000, train-hands 1..1000000000, train-seed 0..2147483647 = N; static-range "
    "0.01..1, case-weight 0..100, exploit-evidence 0..1000000, forget 0.0001..1 = X; "
    "train = AGENT (played before the match, learning)"
)
"""PLICAS's options with their ranges (:func:`agents.plicas.config.options_help`, written
out so that listing the agents imports no agent)."""

_LOKI2_OPTIONS = (
    "cutoff = on|off; trials 1..100000, min-trials 2..100000, check-every 1..100000, "
    "strength-samples 1..1081 = N"
)
"""loki2's options (:func:`agents.loki2.config.options_help`, written out likewise)."""

AGENTS: dict[str, AgentEntry] = {
    spec.name: spec
    for spec in (
        AgentEntry("always-call", "agents.simple:AlwaysCall", "checks or calls every time"),
        AgentEntry(
            "always-raise",
            "agents.simple:AlwaysRaise",
            "bets or raises whenever the cap allows, otherwise calls",
        ),
        AgentEntry(
            "example",
            "agents.simple:ExamplePlayer",
            "the ACPC example player: fold 6% / call 47% / raise 47% over legal actions",
        ),
        AgentEntry(
            "dpp",
            "agents.dpp.agent:Dpp",
            "dpp-like static ε-equilibrium: CFR+ on 169-256-256-128 E[HS²] buckets",
        ),
        AgentEntry(
            "dpp-coarse",
            "agents.dpp.agent:DppCoarse",
            "dpp-like, weaker: the same CFR+ method on 169-4-4-4 buckets",
        ),
        AgentEntry(
            "hash",
            "agents.scripted:HashPlayer",
            "the deterministic scripted policy the reference-dealer corpus was recorded with",
        ),
        AgentEntry(
            "plicas",
            "agents.plicas.agent:Plicas",
            "PLICAS with every dynamic unit on (DPRC, DPAC, case base, bluff, fold equity, model, "
            "exploitation)",
            _PLICAS_OPTIONS,
        ),
        AgentEntry(
            "plicas-static",
            "agents.plicas.agent:PlicasStatic",
            "PLICAS without adaptation: fixed rules against a frozen, sound opponent",
            _PLICAS_OPTIONS,
        ),
        AgentEntry(
            "lbr",
            "agents.lbr:LocalBestResponse",
            "local best response to an agent with a fixed strategy (a lower bound on what it "
            "can lose): greedy check-down values against its range",
            "opponent = NAME (the agent to exploit, required); from = preflop|flop|turn|river",
            required="opponent=dpp",
        ),
        AgentEntry(
            "switch",
            "agents.switching:Switching",
            "a trap: changes style during the match, one agent for the first hands, then "
            "another (and another)",
            "phases = AGENT/AGENT[/...] (with options as a log names an agent: "
            "NAME+KEY=VALUE+...), at = hands/hands[/...] (where each later phase starts, "
            "1..10^9); or first = AGENT, then = AGENT, after = hands",
            required="phases=loose-passive/dpp-coarse,at=10000",
        ),
        AgentEntry(
            "river-bluffer",
            "agents.riverbluffer:RiverBluffer",
            "a trap: plays its base but bluffs the river with weak hands at a rate that jumps "
            "at one hand",
            "base = AGENT (dpp-coarse); rate, jump 0..1 (0.05, 1: how often a weak river hand "
            "bets or raises before hand at, and from it); at = hands (10000); weak 0..1 (0.3: "
            "the river strength below which a hand is weak)",
        ),
        AgentEntry(
            "reshuffler",
            "agents.reshuffler:Reshuffler",
            "a trap: plays its base's frequencies but, from one hand on, each action with "
            "other hands",
            "base = AGENT with a fixed strategy (dpp-coarse); at = hands (10000); shift 0..1 "
            "(0.5: how far round the order of strength each holding's place moves)",
        ),
        AgentEntry(
            "loose-passive",
            "agents.kendall:LoosePassive",
            "Kendall's loose-passive style: plays most hands, rarely raises",
        ),
        AgentEntry(
            "loose-aggressive",
            "agents.kendall:LooseAggressive",
            "Kendall's loose-aggressive style: plays most hands, raises often",
        ),
        AgentEntry(
            "tight-passive",
            "agents.kendall:TightPassive",
            "Kendall's tight-passive style: plays few hands, rarely raises",
        ),
        AgentEntry(
            "tight-aggressive",
            "agents.kendall:TightAggressive",
            "Kendall's tight-aggressive style: plays few hands, raises often",
        ),
        AgentEntry(
            "kendall-learner",
            "agents.kendall:KendallLearner",
            "Kendall's adaptive player: a learning value per starting hand, moved by results",
        ),
        AgentEntry(
            "loki2",
            "agents.loki2.agent:Loki2",
            "Loki-2: selective-sampling simulation (call vs raise EV) over a Bayesian weight table",
            _LOKI2_OPTIONS,
        ),
    )
}


def parse_agent_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split a spec into its target (an agent's name, or ``module:Class``) and its options.

    Raises :class:`AgentSpecError` for a spec that breaks the grammar; whether the name
    exists and the agent takes the options is :func:`create_agent`'s to check.
    """
    text = spec.strip()
    if not text:
        raise AgentSpecError("the agent spec is empty; `acpcbot agents` lists the agents")
    head, colon, rest = (part.strip() for part in text.partition(":"))
    second, second_colon, after = (part.strip() for part in rest.partition(":"))
    if colon and _names_class(head, second):
        target, options, colon = f"{head}:{second}", after, second_colon
    else:
        target, options = head, rest
        if not AGENT_NAME.fullmatch(head):
            raise AgentSpecError(
                f"agent spec {spec!r}: {head!r} is neither an agent's name nor module:Class"
            )
    if ":" in options:
        raise AgentSpecError(
            f"agent spec {spec!r}: one ':' comes before the options (KEY=VALUE,KEY=VALUE)"
        )
    if colon and not options:
        raise AgentOptionError(f"agent spec {spec!r}: no options after ':' (KEY=VALUE,...)")
    return target, _parse_options(spec, options)


def _names_class(head: str, second: str) -> bool:
    """Whether ``head:second`` is ``module:Class`` rather than a name and its options."""
    if not (_MODULE.fullmatch(head) and _CLASS.fullmatch(second)):
        return False
    return "." in head or not _is_agent_name(head)


def _is_agent_name(name: str) -> bool:
    return name in AGENTS or name in plugins()


def _parse_options(spec: str, text: str) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in text.split(",") if text else ():
        if not item.strip():
            raise AgentOptionError(f"agent spec {spec!r} has an empty option (a ',' too many)")
        key, equals, value = (part.strip() for part in item.partition("="))
        if not equals or not key:
            raise AgentOptionError(f"agent option {item.strip()!r} in {spec!r} is not KEY=VALUE")
        if not _KEY.fullmatch(key):
            raise AgentOptionError(
                f"agent option {key!r} in {spec!r}: an option's name is ASCII letters, "
                "digits, '-' and '_'"
            )
        if not value:
            raise AgentOptionError(f"agent option {key} in {spec!r} has no value")
        if not _VALUE.fullmatch(value):
            raise AgentOptionError(
                f"agent option {key}={value!r} in {spec!r}: a value is ASCII letters, digits "
                "and . _ + - / ="
            )
        if key in options:
            raise AgentOptionError(f"agent option {key} is given twice in {spec!r}")
        options[key] = value
    return options


def player_name(spec: str) -> str:
    """A spec as a player name an ACPC log can hold (no ``:``, ``|`` or spaces) and the
    log's file name too (a ``/`` of a value, as in a switch's phases, becomes ``~``).

    >>> player_name("plicas: dprc=off, bluff=off")
    'plicas+dprc=off+bluff=off'
    >>> player_name("mybot:MyBot:level=2")
    'mybot.MyBot+level=2'
    >>> player_name("switch:phases=always-call/dpp,at=5")
    'switch+phases=always-call~dpp+at=5'
    """
    target, options = parse_agent_spec(spec)
    named = "".join(f"+{key}={value.replace('/', '~')}" for key, value in options.items())
    return target.replace(":", ".") + named


def nested_spec(text: str) -> str:
    """The spec of an agent written inside another agent's option, as a log names it
    (:func:`player_name`): ``NAME+KEY=VALUE+KEY=VALUE`` (``module.Class`` for a class of
    yours), since an option's value cannot hold ``:`` or ``,``. The traps' phases and bases,
    LBR's opponent and PLICAS's training opponent are written so; their own option values
    cannot hold ``+`` or ``/`` then.

    >>> nested_spec("river-bluffer+rate=0.05+at=20000")
    'river-bluffer:rate=0.05,at=20000'
    >>> nested_spec("dpp-coarse"), nested_spec("mybot.MyBot+level=2")
    ('dpp-coarse', 'mybot:MyBot:level=2')
    >>> nested_spec(player_name("plicas:freeze-after=0,train=dpp-coarse"))
    'plicas:freeze-after=0,train=dpp-coarse'
    """
    head, *options = text.strip().split("+")
    if "." in head:
        module, _, cls = head.rpartition(".")
        head = f"{module}:{cls}"
    for option in options:
        if "=" not in option:
            raise AgentOptionError(
                f"agent {text!r}: each option after its name is +KEY=VALUE (as a log names an "
                "agent: plicas+dprc=off)"
            )
    return f"{head}:{','.join(options)}" if options else head


def is_plugin(spec: str) -> bool:
    """Whether ``spec`` names code from outside the built-in agents: a class
    (``module:Class``) or a plug-in an installed distribution declares (the code ``--isolate``
    plays in a process of its own). Nothing is imported.

    >>> is_plugin("plicas:dprc=off"), is_plugin("mybot:MyBot:level=2")
    (False, True)
    """
    target, _ = parse_agent_spec(spec)
    return ":" in target or target not in AGENTS


def create_agent(spec: str, seed: int = 0) -> Agent:
    """A fresh agent from its spec (see the module's docstring); raises
    :class:`AgentSpecError` when the spec gives no agent."""
    named = _named(spec)
    if named.users:
        return construct(named.agent_class, seed, named.options, named.what)
    if not named.options and not named.required:  # (an agent that cannot play without
        return named.agent_class(seed)  # options says which, in from_options, before any match)
    agent: Agent = named.from_options()(seed, named.options)
    return agent


def check_agent(spec: str, game: Game) -> None:
    """Raise :class:`AgentSpecError` when ``spec`` gives no agent, and an
    :class:`~acpcbot.errors.AcpcError` when its agent cannot play ``game``, beginning no
    match (:meth:`Agent.check <agents.base.Agent.check>` asks a built-in agent's class: no
    agent is made).

    >>> from acpcbot.game import bundled_game
    >>> check_agent("plicas:dprc=off", bundled_game())
    >>> check_agent("lbr:opponent=plicas", bundled_game())
    Traceback (most recent call last):
    agents.errors.NoFixedStrategyError: plicas has no fixed strategy LBR can query for every \
holding (it adapts, or does not say what it plays); LBR needs one
    """
    named = _named(spec)
    if named.users:
        # A user's constructor and from_options are its own code: made (never begun), the
        # agent shows it can be.
        construct(named.agent_class, 0, named.options, named.what)
        guarded(lambda: named.agent_class.check(named.options, game), named.what)
        return
    if named.options:
        named.from_options()
    named.agent_class.check(named.options, game)


@dataclass(frozen=True, slots=True)
class _Named:
    """What a spec names: an agent's class (imported; no agent made) and its options."""

    spec: str
    agent_class: type[Agent]
    options: dict[str, str]
    what: str
    """How messages name it."""
    users: bool
    """A user's class (``module:Class`` or a plug-in), whose errors are made one-line."""
    required: bool = False
    """A built-in agent that cannot play without options."""

    def from_options(self) -> Callable[[int, dict[str, str]], Agent]:
        """The class's ``from_options`` (a built-in agent's: it has one if it takes options)."""
        from_options: Callable[[int, dict[str, str]], Agent] | None = getattr(
            self.agent_class, "from_options", None
        )
        if from_options is None:
            raise AgentOptionError(f"agent {self.what!r} takes no options (got {self.spec!r})")
        return from_options


def agent_class(spec: str) -> type[Agent]:
    """The class of the agent ``spec`` names (imported; no agent made)."""
    return _named(spec).agent_class


def _named(spec: str) -> _Named:
    target, options = parse_agent_spec(spec)
    if ":" in target:
        what = f"agent {target}"
        return _Named(spec, load_class(target, what), options, what, users=True)
    entry = AGENTS.get(target)
    if entry is None:
        plugin = plugins().get(target)
        if plugin is None:
            raise UnknownAgentError(_unknown(target))
        what = plugin.describe()
        return _Named(spec, load_class(plugin.target, what), options, what, users=True)
    return _Named(spec, entry.load(), options, target, users=False, required=bool(entry.required))


def _unknown(name: str) -> str:
    """No agent is called ``name``: the names close to it (a misspelling), else every name."""
    known = sorted({*AGENTS, *plugins()})
    if close := difflib.get_close_matches(name, known, n=3):
        return (
            f"unknown agent {name!r}; did you mean {' or '.join(close)}? (acpcbot agents lists "
            "them all, or a class of yours: module:Class)"
        )
    known_list = ", ".join(known)
    return f"unknown agent {name!r}; known agents: {known_list} (or a class of yours: module:Class)"


@dataclass(frozen=True, slots=True)
class RegistryEntrant:
    """An agent entered in a match by its spec (an :class:`acpcbot.player.Entrant`): it
    pickles as its spec, and each player it creates is :func:`create_agent`'s."""

    spec: str
    name: str
    """Its name in the logs (:func:`player_name`)."""

    def create(self, seed: int) -> Agent:
        return create_agent(self.spec, seed)

    def check(self, game: Game) -> None:
        check_agent(self.spec, game)

    def strategy(self, game: Game) -> Strategy | None:
        """A fresh copy of the agent, asked without being played, when its strategy is fixed
        (its seed does not matter then); ``None`` for an agent that adapts or cannot play
        ``game``."""
        try:
            agent = create_agent(self.spec, 0)
            if not agent.fixed_strategy:
                return None
            agent.begin_match(MatchInfo(game, name=self.name))
        except AcpcError:
            return None
        return agent.strategy_at


def entrant(spec: str, *, classes: bool = True) -> RegistryEntrant:
    """The agent ``spec`` names, to hand to the dealer; a spec that breaks the grammar raises
    :class:`AgentSpecError` here (whether it makes an agent, when the match is checked).

    With ``classes`` false only the agents :func:`listing` lists are entered (built-in, or
    plug-ins that installed distributions declare): a spec naming ``module:Class`` is refused
    before anything is imported (importing a module runs its code; where the spec comes from
    someone else, the web page's form, that is theirs to choose only when allowed).

    >>> entrant("agents.simple:AlwaysCall", classes=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    agents.errors.AgentSpecError: agent spec 'agents.simple:AlwaysCall' names a Python class ...
    >>> entrant("always-call", classes=False).name
    'always-call'
    """
    if not classes and ":" in parse_agent_spec(spec)[0]:
        raise AgentSpecError(
            f"agent spec {spec!r} names a Python class (module:Class): only the agents "
            "`acpcbot agents` lists are allowed here"
        )
    return RegistryEntrant(spec, player_name(spec))


def known_strategies(names: Iterable[str], game: Game) -> dict[str, Strategy]:
    """The fixed strategies of a log's players, by their names: a built-in agent's name (or
    one made distinct by ``-A``/``-B``, as a match of an agent against itself names them). A
    name that is no agent, or an agent that adapts, has none.

    >>> from acpcbot.game import bundled_game
    >>> sorted(known_strategies(["always-call-A", "plicas", "Alice"], bundled_game()))
    ['always-call-A']
    """
    found = {}
    for name in names:
        base = name[:-2] if name.endswith(("-A", "-B")) else name
        try:
            strategy = entrant(base).strategy(game)
        except AcpcError:
            continue
        if strategy is not None:
            found[name] = strategy
    return found


def listing() -> list[tuple[str, str, str]]:
    """Every agent as ``acpcbot agents`` lists it: (name, what it does, its options). The
    built-in agents first, then the plug-ins installed distributions declare (one hidden by a
    built-in agent, or broken, says so)."""
    rows = [
        (
            name,
            entry.description,
            entry.options + (f" (e.g. {entry.spec})" if entry.required else ""),
        )
        for name, entry in sorted(AGENTS.items())
    ]
    for name, plugin in sorted(plugins().items()):
        origin = f"{plugin.target} from {plugin.distribution}" if plugin.distribution else ""
        if name in AGENTS:
            rows.append((name, f"plug-in ({origin}), hidden by the built-in agent", ""))
            continue
        try:
            doc = load_class(plugin.target, plugin.describe()).__doc__ or ""
        except AgentPluginError as error:
            problem = str(error).removeprefix(f"{plugin.describe()}: ")
            rows.append((name, f"plug-in ({origin}), broken: {problem}", ""))
            continue
        summary = doc.strip().split("\n\n")[0]
        rows.append((name, f"plug-in ({origin}): {' '.join(summary.split())}", ""))
    return rows


def playable_specs() -> list[str]:
    """One spec per agent that plays as it is: each built-in agent's name with the options
    it cannot play without (:attr:`AgentEntry.spec`), then the plug-ins' names (a plug-in
    declares no required options: it plays by its name, or fails to)."""
    specs = [entry.spec for _, entry in sorted(AGENTS.items())]
    return specs + sorted(name for name in plugins() if name not in AGENTS)


def lbr_against(opponent: str, first_round: str = "preflop") -> RegistryEntrant:
    """The ``lbr`` agent against ``opponent`` (a spec: its options go in as a log names
    the agent), acting greedily from ``first_round`` on (it checks or calls before);
    :class:`AgentSpecError` unless ``opponent`` names an agent with a fixed strategy LBR can
    query.

    >>> lbr_against("dpp").spec, lbr_against("dpp", "turn").spec
    ('lbr:opponent=dpp', 'lbr:opponent=dpp,from=turn')
    >>> lbr_against("plicas-static:freeze-after=0").spec
    'lbr:opponent=plicas-static+freeze-after=0'
    >>> lbr_against("lbr")
    Traceback (most recent call last):
    agents.errors.AgentSpecError: LBR cannot play against itself
    """
    name, _ = parse_agent_spec(opponent)
    if name == "lbr":
        raise AgentSpecError("LBR cannot play against itself")
    if not create_agent(opponent).fixed_strategy:
        fixed = sorted(n for n, entry in AGENTS.items() if entry.load().fixed_strategy)
        raise AgentSpecError(
            f"{opponent} has no fixed strategy LBR can query for every holding (it adapts or "
            f"does not say what it plays); agents that have one: {', '.join(fixed)}, and "
            "plicas or plicas-static frozen from the first hand (freeze-after=0)"
        )
    spec = f"lbr:opponent={player_name(opponent)}"
    return entrant(spec if first_round == "preflop" else f"{spec},from={first_round}")
