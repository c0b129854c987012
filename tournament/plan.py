"""What a tournament plays: which agents, modes and answers, under which seed, options and word lists.

A Plan is the whole of what decides the games; two runs with equal `settings()` play
the same games, which is what `--resume` checks before it continues a folder.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agents import all_params, default_agents, resolve, spec
from agents.params import flag
from agents.base import SAMPLE_STREAM
from plumbing.errors import UserError
from wordle import Wordle
from plumbing.storage import WORD_LISTS_KEY

MODES = ("normal", "hard")
MODE_CHOICES = ("normal", "hard", "both")


class TournamentError(UserError):
    """A tournament that cannot be run or continued as asked; the message says why."""


@dataclass(frozen=True)
class Plan:
    """Everything that decides a tournament's games.

    Attributes:
        agents: agent names, in the order the tables list them.
        modes: "normal" and/or "hard", in that order.
        answers: answer indices played, ascending (all of them, or the seeded sample).
        seed: run seed; game g of an agent uses `game_rng(seed, g)`.
        options: agent parameters given (name, value), sorted; each agent uses those it takes.
        agent_settings: every parameter of every agent, defaults included, as each is built
            (`agents.make_agent(name, game, **agent_settings[name])`).
        sample: the --sample size, or None for every answer.
        max_guesses: the guess limit.
        checksum: the word lists' checksum.
        answers_file: absolute path of the answer list, or None for the shipped one.
        guesses_file: absolute path of the guess list, or None for the shipped one.
        command_line: the command that plays exactly these games, as the caller writes it
            (the command line's business; empty when none was given).
    """

    agents: tuple[str, ...]
    modes: tuple[str, ...]
    answers: tuple[int, ...]
    seed: int
    options: tuple[tuple[str, Any], ...]
    sample: int | None
    max_guesses: int
    checksum: str
    answers_file: str | None = None
    guesses_file: str | None = None
    agent_settings: dict[str, dict[str, Any]] = field(default_factory=dict, compare=False)
    command_line: str = field(default="", compare=False)

    @property
    def failure_score(self) -> int:
        """What an unsolved game counts as in averages: one more than the guess limit."""
        return self.max_guesses + 1

    def game_count(self) -> int:
        """How many games the plan holds."""
        return len(self.agents) * len(self.modes) * len(self.answers)

    def settings(self) -> dict[str, Any]:
        """The plan as plain JSON data (answers as a count; the sample is re-drawn from seed and size)."""
        return {
            "agents": list(self.agents),
            "modes": list(self.modes),
            "seed": self.seed,
            "options": {name: _plain(value) for name, value in self.options},
            "agent_settings": {name: {key: _plain(value) for key, value in settings.items()}
                               for name, settings in self.agent_settings.items()},
            "sample": self.sample,
            "answers_played": len(self.answers),
            "max_guesses": self.max_guesses,
            "words": {WORD_LISTS_KEY: self.checksum, "answers_file": self.answers_file, "guesses_file": self.guesses_file},
        }

    def command(self) -> str:
        """The command that plays exactly these games, as the caller recorded it."""
        return self.command_line


def _plain(value: Any) -> Any:
    """An option value as JSON data: numbers, text and booleans as they are, sequences as lists, else text."""
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    return value if isinstance(value, (int, float, str, bool)) or value is None else str(value)


def value_text(name: str, value: Any) -> str:
    """A parameter's value as its parameter writes it (yes/no, numbers separated by commas, else str)."""
    return all_params()[name][0].text(value) if name in all_params() else str(value)


def parse_agents(text: str | None) -> tuple[str, ...]:
    """The agents to play: a comma-separated list of registered names, or every agent `default_agents` lists.

    Raises:
        AgentError: an unknown name. TournamentError: an empty or repeated name.
    """
    if text is None:
        return tuple(default_agents())
    names = [name.strip() for name in text.split(",")]
    if any(not name for name in names):
        raise TournamentError(f"--agents '{text}' has an empty name; write names separated by commas")
    for name in names:
        spec(name)
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise TournamentError(f"--agents names '{repeated[0]}' more than once")
    return tuple(names)


def parse_modes(mode: str) -> tuple[str, ...]:
    """The modes for --mode normal|hard|both."""
    if mode not in MODE_CHOICES:
        raise TournamentError(f"unknown mode '{mode}'; choose one of: {', '.join(MODE_CHOICES)}")
    return MODES if mode == "both" else (mode,)


def sample_answers(answer_count: int, sample: int | None, seed: int) -> tuple[int, ...]:
    """Answer indices played: all, or `sample` of them drawn without replacement from the seed, ascending.

    >>> sample_answers(5, None, 0)
    (0, 1, 2, 3, 4)
    >>> len(sample_answers(100, 10, 3)) == 10 and sample_answers(100, 10, 3) == sample_answers(100, 10, 3)
    True
    """
    if sample is None:
        return tuple(range(answer_count))
    if sample < 1:
        raise TournamentError(f"--sample must be at least 1, got {sample}")
    if sample > answer_count:
        raise TournamentError(f"--sample {sample} is more than the {answer_count} answers")
    rng = np.random.default_rng([seed, SAMPLE_STREAM])
    return tuple(int(i) for i in np.sort(rng.choice(answer_count, size=sample, replace=False)))


def make_plan(game: Wordle, agents: str | None = None, mode: str = "both", seed: int = 0,
              options: dict[str, Any] | None = None, sample: int | None = None, max_guesses: int = 6,
              answers_file: str | Path | None = None, guesses_file: str | Path | None = None) -> Plan:
    """Check a tournament request and turn it into a Plan.

    Args:
        game: the game over the chosen word lists.
        agents: comma-separated agent names, or None for every registered agent.
        mode: "normal", "hard" or "both".
        seed: run seed (at least 0).
        options: agent options by name; None values are left at each agent's default.
        sample: play this many seeded random answers instead of all of them.
        max_guesses: the guess limit.
        answers_file, guesses_file: the word list files the game was built from (None: shipped lists).

    Returns:
        The Plan. Raises TournamentError or AgentError (both UserError) on bad input.
    """
    if seed < 0:
        raise TournamentError(f"--seed must not be negative, got {seed}")
    if max_guesses < 1:
        raise TournamentError(f"--max-guesses must be at least 1, got {max_guesses}")
    given = sorted((name, value) for name, value in (options or {}).items() if value is not None)
    chosen = parse_agents(agents)
    for name, _ in given:
        if not any(spec(agent).param(name) is not None for agent in chosen):
            raise TournamentError(f"none of the agents played takes {flag(name)}")
    return Plan(
        agents=chosen,
        modes=parse_modes(mode),
        answers=sample_answers(len(game.words.answers), sample, seed),
        seed=seed,
        options=tuple(given),
        sample=sample,
        max_guesses=max_guesses,
        checksum=game.words.checksum,
        answers_file=None if answers_file is None else str(Path(answers_file).resolve()),
        guesses_file=None if guesses_file is None else str(Path(guesses_file).resolve()),
        agent_settings={name: resolve(name, strict=False, **dict(given)) for name in chosen},
    )


def default_folder(plan: Plan, base: str | Path = "results") -> Path:
    """The run folder a plan writes to unless --out says otherwise.

    `results/tournament`, then `-NAME-VALUE` for each agent option given (so
    `--depth 2` gives `results/tournament-depth-2`), `-sample-N` when sampling and
    `-seed-S` for a seed other than 0. Agents and modes are not in the name: a folder
    holding other settings is refused, and `--out` picks another.
    """
    parts = ["tournament"]
    for name, value in plan.options:
        parts.append(f"{name.replace('_', '-')}-{value_text(name, value)}")
    if plan.sample is not None:
        parts.append(f"sample-{plan.sample}")
    if plan.seed != 0:
        parts.append(f"seed-{plan.seed}")
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", "-".join(parts))
    return Path(base) / name


def settings_difference(recorded: dict[str, Any], wanted: dict[str, Any]) -> str | None:
    """The first way two plans' settings differ, in words, or None when they are the same plan."""
    labels = [("seed", "seed"), ("options", "agent options"), ("agent_settings", "agent settings"),
              ("sample", "sample"), ("agents", "agents"),
              ("modes", "modes"), ("max_guesses", "guess limit"), ("answers_played", "answers played")]
    there_words, here_words = recorded.get("words", {}).get(WORD_LISTS_KEY), wanted["words"][WORD_LISTS_KEY]
    if there_words != here_words:
        return f"word lists differ (checksum {str(there_words)[:12]} there, {here_words[:12]} here)"
    for key, label in labels:
        there, here = recorded.get(key), wanted[key]
        if json.dumps(there, sort_keys=True) != json.dumps(here, sort_keys=True):
            return f"{label} differ ({_show(there)} there, {_show(here)} here)"
    return None


def _show(value: Any) -> str:
    """A settings value in a message."""
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items()) or "none"
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return "none" if value is None else str(value)
