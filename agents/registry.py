"""Agents found by name, with the typed parameters each declares.

An agent module registers a factory with `@register(name, summary, params, advice)`. The
factory is called as `factory(game, **settings)` with a value for every parameter it
declares, defaults included, and the agent remembers those settings, so that
`make_agent(name, game, **agent.settings())` builds an agent that plays the same games.
Its advice parameters are set only by code that makes it an advisor (`assist`, the web
assistant): they are no flags or tournament options, and a setting records them only when given.

Each registration also says which games the agent plays (`plays`): Wordle's own shape only (one
honest board of five-letter words, any lists, either mode: the default), or every game a
`variants.GameSpec` describes, the other shapes (several boards, other lengths, a lying Indicator)
played by its player in `agents.board_players`. `make_player(name, game, spec)` builds whichever the
description needs, and `players_of(spec)` lists who plays it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from plumbing.errors import UserError
from variants import GameSpec
from wordle import Wordle

from .base import Agent
from .params import Param


class AgentError(UserError):
    """An unknown agent, or a parameter it does not take or cannot use."""


class ForeignParameters(AgentError):
    """Parameters a player does not take; `say` spells them as the caller names them (a flag, a field)."""

    def __init__(self, who: str, names: list[str]):
        self.who, self.names = who, tuple(names)
        super().__init__(self.say(str))

    def say(self, spell: Callable[[str], str]) -> str:
        """The one-line message with each parameter written by `spell`."""
        return f"{self.who} does not take {', '.join(spell(name) for name in self.names)}"


#: What an agent plays: Wordle's own shape only, or every game a GameSpec describes.
PLAYS_WORDLE, PLAYS_EVERY_GAME = "wordle", "every game"


@dataclass(frozen=True)
class AgentSpec:
    """A registered agent: its name, one-line summary, factory, the parameters it takes and its advice parameters.

    `named_only`: a tournament plays it only when named (`--agents`), not among "all".
    `plays`: PLAYS_WORDLE (Wordle's own shape only) or PLAYS_EVERY_GAME (every description; see the module docstring).
    """

    name: str
    summary: str
    factory: Callable[..., Agent]
    params: tuple[Param, ...]
    advice: tuple[Param, ...] = ()
    named_only: bool = False
    plays: str = PLAYS_WORDLE

    def plays_game(self, game: GameSpec) -> bool:
        """Whether the agent plays the game `game` describes."""
        return game.is_wordle or self.plays == PLAYS_EVERY_GAME

    def param(self, name: str) -> Param | None:
        """The parameter called `name`, or None when this agent does not take it."""
        return next((param for param in self.params if param.name == name), None)

    def advises(self, name: str) -> bool:
        """Whether the agent takes the advice parameter called `name`."""
        return any(param.name == name for param in self.advice)


#: The modules that register agents, in the order their agents are listed: imported the first time the registry
#: is read, so that importing `agents` (or any small module of it) costs no agent's imports.
AGENT_MODULES = ("random_guesser", "letter_frequency", "demarcate", "entropy", "entropy_prior", "two_step",
                 "searchers", "optimal", "advisor", "qlearning", "ppo.agent")


class Registry(dict):
    """The agents by name: reading it first imports every module of AGENT_MODULES (each registers its agents).

    It lists them in AGENT_MODULES order whichever module was imported first.
    """

    loaded = False

    def load(self) -> None:
        """Import every agent module once, then keep the registration order of AGENT_MODULES."""
        if Registry.loaded:
            return
        Registry.loaded = True
        import importlib
        for module in AGENT_MODULES:
            importlib.import_module(f"{__package__}.{module}")
        rank = {f"{__package__}.{module}": number for module, number in zip(AGENT_MODULES, range(len(AGENT_MODULES)))}
        ordered = sorted(dict.items(self), key=lambda item: rank.get(item[1].factory.__module__, len(rank)))
        dict.clear(self)
        dict.update(self, ordered)

    def __getitem__(self, name: str) -> AgentSpec:
        """The agent called `name` (KeyError if none)."""
        self.load()
        return dict.__getitem__(self, name)

    def __contains__(self, name: object) -> bool:
        """Whether an agent is called `name`."""
        self.load()
        return dict.__contains__(self, name)

    def __iter__(self):
        """The names, in order."""
        self.load()
        return dict.__iter__(self)

    def __len__(self) -> int:
        """How many agents there are."""
        self.load()
        return dict.__len__(self)

    def get(self, name: str, default: Any = None) -> Any:
        """The agent called `name`, or `default`."""
        self.load()
        return dict.get(self, name, default)

    def keys(self):
        """The names, in order."""
        self.load()
        return dict.keys(self)

    def values(self):
        """The specs, in order."""
        self.load()
        return dict.values(self)

    def items(self):
        """(name, spec) pairs, in order."""
        self.load()
        return dict.items(self)


AGENTS: Registry = Registry()


def register(name: str, summary: str, params: tuple[Param, ...] = (), advice: tuple[Param, ...] = (),
             named_only: bool = False, plays: str = PLAYS_WORDLE) -> Callable:
    """Class or function decorator adding an agent factory to the registry.

    A parameter name that another agent declares too must have the same kind and range
    there (its default may differ), so that one command-line flag serves both. `plays` says
    which games it plays (PLAYS_WORDLE or PLAYS_EVERY_GAME).
    """
    if plays not in (PLAYS_WORDLE, PLAYS_EVERY_GAME):
        raise ValueError(f"agent '{name}' plays '{plays}', which is neither of {PLAYS_WORDLE}, {PLAYS_EVERY_GAME}")
    for param in params:
        declared = [found.param(param.name) for found in dict.values(AGENTS)]
        for other in (declaration for declaration in declared if declaration is not None):
            if (other.kind, other.least, other.most, other.choices, other.count) != (
                    param.kind, param.least, param.most, param.choices, param.count):
                raise ValueError(f"agent '{name}' declares parameter '{param.name}' unlike another agent does")

    def decorate(factory: Callable[..., Agent]) -> Callable[..., Agent]:
        if dict.__contains__(AGENTS, name):
            raise ValueError(f"agent '{name}' is registered twice")
        AGENTS[name] = AgentSpec(name=name, summary=summary, factory=factory, params=tuple(params), advice=tuple(advice),
                                 named_only=named_only, plays=plays)
        return factory

    return decorate


def agent_names() -> list[str]:
    """Registered agent names, in registration order."""
    return list(AGENTS)


def default_agents() -> list[str]:
    """The agents a tournament plays when none is named: every registered one but those played only by name."""
    return [name for name, found in AGENTS.items() if not found.named_only]


def all_params() -> dict[str, list[Param]]:
    """Every parameter name any agent declares, with each agent's declaration of it, in registration order."""
    found: dict[str, list[Param]] = {}
    for agent_spec in AGENTS.values():
        for param in agent_spec.params:
            found.setdefault(param.name, []).append(param)
    return found


def spec(name: str) -> AgentSpec:
    """The registered agent called `name`, or AgentError listing the known ones."""
    try:
        return AGENTS[name]
    except KeyError:
        raise AgentError(f"unknown agent '{name}'; choose one of: {', '.join(AGENTS)}") from None


def resolve(name: str, strict: bool = True, **given: Any) -> dict[str, Any]:
    """Every parameter of agent `name` with its value: the one given, else its default.

    Args:
        strict: if True a parameter the agent does not take is an AgentError; if False
            it is ignored (a tournament passes --depth to every agent, used by those that search).
        given: values by parameter name; None means "the default".

    Raises:
        AgentError: an unknown agent, a foreign parameter (strict), or a value out of range.
    """
    found = spec(name)
    return settle(f"agent '{name}'", name, found.params, given, strict, found.advice)


def settle(who: str, name: str, params: tuple[Param, ...], given: dict[str, Any], strict: bool = True,
           advice: tuple[Param, ...] = ()) -> dict[str, Any]:
    """Every parameter in `params` with its value: the one given (None: not given), else its default.

    Args:
        who: how a foreign-parameter error names the player ("agent 'entropy'").
        name: how an out-of-range error names it.
        advice: parameters settled only when given (an advisor's).

    Raises:
        AgentError: a parameter `params` lacks (when strict), or a value out of range.
    """
    given = {key: value for key, value in given.items() if value is not None}
    known = {param.name for param in (*params, *advice)}
    foreign = [key for key in given if key not in known]
    if foreign and strict:
        raise ForeignParameters(who, foreign)
    try:
        settled = {param.name: param.check(given.get(param.name, param.default)) for param in params}
        return {**settled, **{param.name: param.check(given[param.name]) for param in advice if param.name in given}}
    except ValueError as error:
        raise AgentError(f"{name}: {error}") from None


def make_agent(name: str, game: Wordle, strict: bool = True, **given: Any) -> Agent:
    """Build agent `name` for `game` with the given parameters (the others at their defaults); see `resolve`.

    A factory refuses a combination of values (or a file) it cannot use with a UserError, which
    comes back as an AgentError naming the agent; any other error it raises is a bug, and propagates.
    """
    settings = resolve(name, strict=strict, **given)
    try:
        agent = spec(name).factory(game, **settings)
    except UserError as error:
        raise AgentError(f"{name}: {error}") from None
    agent.name = name
    agent.params = {**settings, **agent.params}
    return agent


def players_of(game: GameSpec) -> list[str]:
    """The agents that play the game `game` describes, in registration order."""
    return [name for name, found in AGENTS.items() if found.plays_game(game)]


def player_settings(name: str, game: GameSpec, strict: bool = True, **given: Any) -> dict[str, Any]:
    """Every parameter of agent `name` for a game of `game`'s description, checked before any game is built.

    Args:
        strict: refuse a parameter the agent does not take (False: ignore it, as a tournament does).
        given: values by parameter name; None means "the default".

    Raises:
        AgentError: an unknown agent, one that does not play this game, a foreign parameter (strict), or a value
            the game cannot use.
    """
    found = spec(name)
    if not found.plays_game(game):
        raise AgentError(f"agent '{name}' plays one honest board of five-letter words only; {game.name} is played "
                         f"by {', '.join(players_of(game))}")
    if game.is_wordle:
        return resolve(name, strict=strict, **given)
    from .board_players import board_settings
    return board_settings(name, game, strict=strict, **given)


def make_player(name: str, game: Any, described: GameSpec, strict: bool = True, **given: Any) -> Agent:
    """The agent `name` for `game` (`variants.game_of(described, rules)`), with the parameters given (None: the
    default); Wordle's shape by the agent's own factory (`make_agent`), the others by its board player.

    Raises:
        AgentError: as `player_settings`.
    """
    if described.is_wordle:
        return make_agent(name, game, strict=strict, **given)
    from .board_players import BoardPlayer
    return BoardPlayer(name, game, player_settings(name, described, strict=strict, **given))
