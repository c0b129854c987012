"""Agents found by name, and the command-line options they take.

An agent module registers a factory with `@register(name, summary, options)`; the
factory is called as `factory(game, **options)` with only the options it declares.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from search import UserError, Wordle

from .base import Agent


class AgentError(UserError):
    """An unknown agent, or an option it does not take or cannot use."""


@dataclass(frozen=True)
class Option:
    """A command-line option that agents may declare.

    Attributes:
        name: the keyword the factory receives (the flag is --name with _ as -).
        parse: turns the flag's text into the value; raises ValueError with a message.
        help: the --help text.
        metavar: how --help shows the value.
        alias: a second, shorter flag, offered by commands that have no flag of that name.
    """

    name: str
    parse: Callable[[str], Any]
    help: str
    metavar: str = "VALUE"
    alias: str | None = None

    @property
    def flag(self) -> str:
        """The command-line flag."""
        return "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class AgentSpec:
    """A registered agent: its name, one-line summary, factory and the options it takes."""

    name: str
    summary: str
    factory: Callable[..., Agent]
    options: tuple[str, ...]


OPTIONS: dict[str, Option] = {}
AGENTS: dict[str, AgentSpec] = {}


def whole_number(text: str, what: str, least: int) -> int:
    """An option's whole number of at least `least`, or ValueError naming the option `what`.

    >>> whole_number("3", "--beam", 1)
    3
    """
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{what} must be a whole number, got '{text}'") from None
    if value < least:
        raise ValueError(f"{what} must be at least {least}, got {value}")
    return value


def add_option(option: Option) -> Option:
    """Declare an option; agents name it in `register`. Declaring the same name twice is an error."""
    if option.name in OPTIONS and OPTIONS[option.name] != option:
        raise ValueError(f"option '{option.name}' is declared twice")
    OPTIONS[option.name] = option
    return option


def register(name: str, summary: str, options: tuple[str, ...] = ()) -> Callable:
    """Class or function decorator adding an agent factory to the registry."""
    unknown = [option for option in options if option not in OPTIONS]
    if unknown:
        raise ValueError(f"agent '{name}' names undeclared options {unknown}")

    def decorate(factory: Callable[..., Agent]) -> Callable[..., Agent]:
        if name in AGENTS:
            raise ValueError(f"agent '{name}' is registered twice")
        AGENTS[name] = AgentSpec(name=name, summary=summary, factory=factory, options=tuple(options))
        return factory

    return decorate


def agent_names() -> list[str]:
    """Registered agent names, in registration order."""
    return list(AGENTS)


def spec(name: str) -> AgentSpec:
    """The registered agent called `name`, or AgentError listing the known ones."""
    try:
        return AGENTS[name]
    except KeyError:
        raise AgentError(f"unknown agent '{name}'; choose one of: {', '.join(AGENTS)}") from None


def make_agent(name: str, game: Wordle, strict: bool = True, **options: Any) -> Agent:
    """Build agent `name` for `game` with the given options (None values are left at the agent's default).

    Args:
        strict: if True an option the agent does not take is an AgentError; if False
            it is ignored (a tournament passes --depth to every agent, used by those that search).
    """
    agent_spec = spec(name)
    given = {key: value for key, value in options.items() if value is not None}
    foreign = [key for key in given if key not in agent_spec.options]
    if foreign and strict:
        flags = ", ".join(OPTIONS[key].flag if key in OPTIONS else key for key in foreign)
        raise AgentError(f"agent '{name}' does not take {flags}")
    agent = agent_spec.factory(game, **{key: value for key, value in given.items() if key in agent_spec.options})
    agent.name = name
    return agent
