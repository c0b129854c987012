"""What a tournament plays: which game, agents, modes and games, under which seed, options and word lists.

A Plan is the whole of what decides the games; two runs with equal `settings()` play
the same games, which is what `--resume` checks before it continues a folder.

The game is a `variants.GameSpec`. Wordle's own shape plays the answer list (every answer, or a
seeded sample of them): a game is named by its answer, and its Guesser draws from
`game_rng(seed, answer)`. Every other shape deals its games from the seed by number (game k's
answers, one a board, its Guesser's stream and its Indicator's lies all from (seed, k) alone,
`agents.base.deal_answers`), so `play --seed S` plays game 0 of a run of seed S.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from agents import all_params, default_agents, player_settings, players_of, spec
from agents.base import DEFAULT_DEALT_GAMES, SAMPLE_STREAM, deal_answers, dealt_rng, game_rng, lie_rng
from agents.params import flag
from plumbing.errors import UserError
from plumbing.storage import WORD_LISTS_KEY
from variants import GameSpec
from wordle import Words

MODES = ("normal", "hard")
MODE_CHOICES = ("normal", "hard", "both")
#: The most games a run may play per agent and mode.
MOST_GAMES = 100_000


class TournamentError(UserError):
    """A tournament that cannot be run or continued as asked; the message says why."""


@dataclass(frozen=True)
class Plan:
    """Everything that decides a tournament's games.

    Attributes:
        agents: agent names, in the order the tables list them.
        modes: "normal" and/or "hard", in that order.
        games: the games played, ascending: answer indices (Wordle's shape: all of them, or the seeded sample),
            or game numbers 0 to n - 1 (dealt games).
        seed: run seed; each game's random choices come from it and the game alone.
        options: agent parameters given (name, value), sorted; each agent uses those it takes.
        sample: the --sample size, or None for every answer.
        game: the game played (its mode aside: `modes` say which are played), its guess limit and word lists.
        checksum: the word lists' checksum.
        agent_settings: every parameter of every agent, defaults included, as each is built
            (`agents.make_player(name, game, spec, **agent_settings[name])`).
        command_line: the command that plays exactly these games, as the caller writes it
            (the command line's business; empty when none was given).
    """

    agents: tuple[str, ...]
    modes: tuple[str, ...]
    games: tuple[int, ...]
    seed: int
    options: tuple[tuple[str, Any], ...]
    sample: int | None
    game: GameSpec
    checksum: str
    agent_settings: dict[str, dict[str, Any]] = field(default_factory=dict, compare=False)
    command_line: str = field(default="", compare=False)

    @property
    def max_guesses(self) -> int:
        """The guess limit."""
        return self.game.max_guesses  # type: ignore[return-value]

    @property
    def answers_file(self) -> str | None:
        """Absolute path of the answer list, or None for the shipped one."""
        return self.game.answers

    @property
    def guesses_file(self) -> str | None:
        """Absolute path of the guess list, or None for the shipped one."""
        return self.game.guesses

    @property
    def dealt(self) -> bool:
        """Whether the games are dealt from the seed by number (every shape but Wordle's)."""
        return not self.game.is_wordle

    @property
    def failure_score(self) -> int:
        """What an unsolved game counts as in averages: one more than the guess limit."""
        return self.max_guesses + 1

    def game_count(self) -> int:
        """How many games the plan holds."""
        return len(self.agents) * len(self.modes) * len(self.games)

    def answers_of(self, number: int, words: Words) -> tuple[int, ...]:
        """Game `number`'s answers, one a board (Wordle's shape: the answer `number` itself)."""
        if not self.dealt:
            return (number,)
        return deal_answers(self.game.boards, len(words.answers), self.seed, number)

    def label(self, number: int, words: Words) -> str:
        """What names game `number` in the files: its answer (Wordle's shape), or its number."""
        return str(number) if self.dealt else words.answers[number]

    def number_of(self, label: str, words: Words) -> int:
        """The game a label names (see `label`); KeyError or ValueError when it names none."""
        return int(label) if self.dealt else words.answer_index[label]

    def agent_rng(self, number: int) -> np.random.Generator:
        """The generator game `number`'s Guesser draws from."""
        return dealt_rng(self.seed, number) if self.dealt else game_rng(self.seed, number)

    def lies_rng(self, number: int) -> np.random.Generator | None:
        """The generator game `number`'s lying Indicator draws from, or None where it tells no lie."""
        return lie_rng(self.seed, number) if self.game.lies else None

    def settings(self) -> dict[str, Any]:
        """The plan as plain JSON data (answers as a count; the sample is re-drawn from seed and size); the game's
        shape where it is not Wordle's."""
        settings = {
            "agents": list(self.agents),
            "modes": list(self.modes),
            "seed": self.seed,
            "options": {name: _plain(value) for name, value in self.options},
            "agent_settings": {name: {key: _plain(value) for key, value in settings.items()}
                               for name, settings in self.agent_settings.items()},
            "sample": self.sample,
            "answers_played": len(self.games),
            "max_guesses": self.max_guesses,
            "words": {WORD_LISTS_KEY: self.checksum, "answers_file": self.answers_file, "guesses_file": self.guesses_file},
        }
        if self.dealt:
            settings["game"] = self.game.shape()
        return settings

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


def parse_agents(text: str | None, game: GameSpec | None = None) -> tuple[str, ...]:
    """The agents to play: a comma-separated list of registered names, or every agent `default_agents` lists (that
    plays `game`).

    Raises:
        AgentError: an unknown name. TournamentError: an empty or repeated name.
    """
    if text is None:
        playing = players_of(game) if game is not None else None
        return tuple(name for name in default_agents() if playing is None or name in playing)
    names = [name.strip() for name in text.split(",")]
    if any(not name for name in names):
        raise TournamentError(f"--agents '{text}' has an empty name; write names separated by commas")
    for name in names:
        spec(name)
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise TournamentError(f"--agents names '{repeated[0]}' more than once")
    return tuple(names)


def parse_modes(mode: str, game: GameSpec | None = None) -> tuple[str, ...]:
    """The modes for --mode normal|hard|both (a game hard mode does not bind: normal only)."""
    if mode not in MODE_CHOICES:
        raise TournamentError(f"unknown mode '{mode}'; choose one of: {', '.join(MODE_CHOICES)}")
    if game is not None and mode != "normal" and (game.boards > 1 or game.lies):
        raise TournamentError(f"--mode {mode}: {game.name} is played in normal mode only")
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


def planned_numbers(game: GameSpec, answer_count: int, sample: int | None, seed: int) -> tuple[int, ...]:
    """The games a plan of `game` plays: Wordle's shape its answers (`sample_answers`), else dealt games 0 to
    `sample` - 1.

    Raises:
        TournamentError: a sample out of range, or more boards than answers.
    """
    if game.is_wordle:
        return sample_answers(answer_count, sample, seed)
    if sample is None or not 1 <= sample <= MOST_GAMES:
        raise TournamentError(f"--sample must be 1 to {MOST_GAMES} dealt games, got {sample}")
    if game.boards > answer_count:
        raise TournamentError(f"{game.name} deals {game.boards} different answers; the list has {answer_count}")
    return tuple(range(sample))


def check_request(game: GameSpec, agents: str | None, mode: str | None,
                  options: dict[str, Any] | None) -> tuple[tuple[str, ...], tuple[str, ...], list[tuple[str, Any]],
                                                           dict[str, dict[str, Any]]]:
    """What a request plays that needs no word list: its agents, modes, options given and every agent's settings,
    each checked (so a bad request is refused before a matrix is built).

    Raises:
        TournamentError, AgentError: bad input, in one line.
    """
    if mode is None:
        mode = "both" if game.boards == 1 and not game.lies else "normal"
    given = sorted((name, value) for name, value in (options or {}).items() if value is not None)
    chosen = parse_agents(agents, game)
    modes = parse_modes(mode, game)
    for name, _ in given:
        if not any(spec(agent).param(name) is not None for agent in chosen):
            raise TournamentError(f"none of the agents played takes {flag(name)}")
    settings = {name: player_settings(name, game, strict=False, **dict(given)) for name in chosen}
    return chosen, modes, given, settings


def make_plan(words: Words, game: GameSpec | None = None, agents: str | None = None, mode: str | None = None,
              seed: int = 0, options: dict[str, Any] | None = None, sample: int | None = None) -> Plan:
    """Check a tournament request and turn it into a Plan.

    Args:
        words: the game's word lists.
        game: the game played (default: Wordle); its lists' files are recorded as given (made absolute).
        agents: comma-separated agent names, or None for every registered agent that plays the game.
        mode: "normal", "hard" or "both"; default both where hard mode binds (one honest board), else normal.
        seed: run seed (at least 0).
        options: agent options by name; None values are left at each agent's default.
        sample: play this many seeded random answers instead of all of them (dealt games: this many games,
            default DEFAULT_DEALT_GAMES).

    Returns:
        The Plan. Raises TournamentError or AgentError (both UserError) on bad input.
    """
    game = GameSpec() if game is None else game
    if seed < 0:
        raise TournamentError(f"--seed must not be negative, got {seed}")
    if not game.is_wordle and sample is None:
        sample = DEFAULT_DEALT_GAMES
    chosen, modes, given, settings = check_request(game, agents, mode, options)
    absolute = {kind: None if given_file is None else str(Path(given_file).resolve())
                for kind, given_file in (("answers", game.answers), ("guesses", game.guesses))}
    return Plan(
        agents=chosen,
        modes=modes,
        games=planned_numbers(game, len(words.answers), sample, seed),
        seed=seed,
        options=tuple(given),
        sample=sample,
        game=replace(game, hard=False, **absolute),
        checksum=words.checksum,
        agent_settings=settings,
    )


def plan_from_settings(settings: dict[str, Any], words: Words) -> Plan:
    """The plan a run folder's settings record (already checked by `verify.check_settings`), over `words`.

    Raises:
        TournamentError: settings no plan over these lists can have (a sample larger than the answers).
    """
    files = settings["words"]
    game = GameSpec.from_shape(settings.get("game"), max_guesses=settings["max_guesses"],
                               answers=files.get("answers_file"), guesses=files.get("guesses_file"))
    full = settings.get("agent_settings")
    return Plan(agents=tuple(settings["agents"]), modes=tuple(settings["modes"]),
                games=planned_numbers(game, len(words.answers), settings.get("sample"), settings["seed"]),
                seed=settings["seed"], options=tuple(sorted((settings.get("options") or {}).items())),
                sample=settings.get("sample"), game=game, checksum=words.checksum,
                agent_settings=dict(full) if isinstance(full, dict) else {})


def default_folder(plan: Plan, base: str | Path = "results") -> Path:
    """The run folder a plan writes to unless --out says otherwise.

    `results/tournament`, then the game's name where it is not Wordle (`-dordle`, `-6-letter-wordle`),
    `-NAME-VALUE` for each agent option given (so `--depth 2` gives `results/tournament-depth-2`),
    `-sample-N` when sampling and `-seed-S` for a seed other than 0 (dealt games: always). Agents
    and modes are not in the name: a folder holding other settings is refused, and `--out` picks another.
    """
    parts = ["tournament"] + ([plan.game.name.replace(" ", "-")] if plan.dealt else [])
    for name, value in plan.options:
        parts.append(f"{name.replace('_', '-')}-{value_text(name, value)}")
    if plan.sample is not None:
        parts.append(f"sample-{plan.sample}")
    if plan.seed != 0 or plan.dealt:
        parts.append(f"seed-{plan.seed}")
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", "-".join(parts))
    return Path(base) / name


def settings_difference(recorded: dict[str, Any], wanted: dict[str, Any]) -> str | None:
    """The first way two plans' settings differ, in words, or None when they are the same plan."""
    labels = [("game", "games"), ("seed", "seed"), ("options", "agent options"), ("agent_settings", "agent settings"),
              ("sample", "sample"), ("agents", "agents"),
              ("modes", "modes"), ("max_guesses", "guess limit"), ("answers_played", "answers played")]
    there_words, here_words = recorded.get("words", {}).get(WORD_LISTS_KEY), wanted["words"][WORD_LISTS_KEY]
    if there_words != here_words:
        return f"word lists differ (checksum {str(there_words)[:12]} there, {here_words[:12]} here)"
    for key, label in labels:
        there, here = recorded.get(key), wanted.get(key)
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
