"""Tabular Q-learning over the game's real states, and the `q-learning` player that plays its table.

Values are from the Guesser's point of view: higher is better. Q(s, a) estimates the
return of guessing a in state s and playing greedily after: -1 for each guess, and a
further -loss_penalty when the game is lost, so -Q is the expected number of guesses
still to make (plus the penalty times the chance of losing).

- A state is keyed by a hash of what the best choice depends on (`Wordle.state_key`):
  the answers still possible, the guesses left and, in hard mode, the hints the rule imposes.
- Its actions are bounded: the `width` best legal guesses by the one-step cost prior
  (1 + the expected cost-to-go F of heuristics.cost over the reply's bins) plus the
  `width` best possible answers by the same prior; with one or two answers left, just those.
- Q starts at that prior (`init="prior"`), or at 0 (`init="zero"`, optimistic, since
  every true value is below 0); docs/learners.md gives the measurements that chose the prior.
- Training plays episodes against uniformly drawn answers, epsilon-greedy with epsilon
  = epsilon0 / (1 + episode / epsilon_half), and applies the Q-learning update
  Q += alpha (r + max Q(s') - Q) to the episode's steps last to first, with
  alpha = max(1 / (visits + prior_weight), alpha_min): the prior counts as prior_weight
  earlier samples (none with init="zero"). Undiscounted: the game always ends.
- Ties go to the action with the better prior, then the smaller guess index.

At play time the agent reads its table only: a state the table lacks (one training never
reached) is valued by the prior it would have started from, and the decision says so.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from heuristics.cost import guesses_to_go
from heuristics.evaluation import Cost
from wordle import ALL_GREEN, State, Wordle

from .base import Agent, Decision
from .models import ModelError, load_model, machine, model_path, save_model
from .registry import register

from .training import Progress, Recent, Reporter, TrainingBudget, curve_row

LEARNER = "q-learning"
#: Decisions list this many of the best actions as alternatives.
ALTERNATIVES = 10


@dataclass(frozen=True)
class QConfig:
    """The learner's fixed choices; recorded in the model file.

    Attributes:
        hard: hard mode.
        max_guesses: the guess limit.
        width: the best `width` guesses and `width` possible answers by the prior form a state's actions.
        loss_penalty: the reward of losing, beyond the last guess's -1.
        init: "prior" (the one-step cost estimate) or "zero".
        epsilon0, epsilon_half: exploration epsilon0 / (1 + episode / epsilon_half).
        prior_weight: with init "prior", how many samples the prior counts as.
        alpha_min: the step size never falls below this.
        eval_every: episodes between two greedy evaluations on every answer (the learning curve).
    """

    hard: bool = False
    max_guesses: int = 6
    width: int = 10
    loss_penalty: float = 5.0
    init: str = "prior"
    epsilon0: float = 0.3
    epsilon_half: float = 5000.0
    prior_weight: float = 50.0
    alpha_min: float = 0.0
    eval_every: int = 5000


def state_hash(game: Wordle, state: State) -> int:
    """A 64-bit key of the state: its possible answers, guesses left and (hard mode) hints."""
    digest = hashlib.blake2b(digest_size=8)
    digest.update(np.asarray(state.candidates, dtype=np.int32).tobytes())
    digest.update(state.guesses_left.to_bytes(2, "little"))
    if state.hard:
        hints = game.hints(state)
        digest.update(repr((hints.fixed, hints.at_least)).encode())
    return int.from_bytes(digest.digest(), "little")


class QTable:
    """Actions, values and visit counts per state, each state built on first sight from the prior."""

    def __init__(self, game: Wordle, config: QConfig):
        self.game = game
        self.config = config
        self.cost = Cost()
        #: state hash -> [guesses (int32), q (float64), visits (int64), prior (float64)]
        self.rows: dict[int, list[np.ndarray]] = {}

    def options(self, state: State) -> tuple[np.ndarray, np.ndarray]:
        """The state's bounded action set and each action's prior value, best prior first."""
        game, candidates = self.game, state.candidates
        pool = np.sort(game.words.answer_rows[candidates]) if len(candidates) <= 2 else game.legal_guesses(state)
        stats = self.cost.stats(game, candidates, pool)
        to_go = guesses_to_go(stats)
        order = np.lexsort((stats.guesses, ~stats.can_win, np.round(to_go, 9)))
        winners = order[stats.can_win[order]]
        chosen = np.unique(np.concatenate((order[: self.config.width], winners[: self.config.width])))
        chosen = chosen[np.lexsort((stats.guesses[chosen], ~stats.can_win[chosen], np.round(to_go[chosen], 9)))]
        prior = -to_go[chosen]
        if state.guesses_left == 1:  # the last guess: exact, it wins or it loses
            win = stats.can_win[chosen] / len(candidates)
            prior = -1.0 - self.config.loss_penalty * (1.0 - win)
        return stats.guesses[chosen].astype(np.int32), prior

    def row(self, state: State) -> list[np.ndarray]:
        """The state's row, built (with the initial values) if new."""
        key = state_hash(self.game, state)
        row = self.rows.get(key)
        if row is None:
            guesses, prior = self.options(state)
            start = prior.copy() if self.config.init == "prior" else np.zeros(len(prior))
            row = [guesses, start, np.zeros(len(guesses), dtype=np.int64), prior]
            self.rows[key] = row
        return row

    def best(self, row: list[np.ndarray]) -> int:
        """Position of the greedy action (first among equals: the better prior, listed first)."""
        return int(np.argmax(row[1]))

    # -- files -----------------------------------------------------------------------
    def arrays(self, keys: list[int] | None = None) -> dict[str, np.ndarray]:
        """The table (or the rows of `keys`) as flat arrays."""
        keys = sorted(self.rows) if keys is None else sorted(keys)
        rows = [self.rows[key] for key in keys]
        sizes = np.array([len(row[0]) for row in rows], dtype=np.int64)
        flat = [np.concatenate([row[i] for row in rows]) if rows else np.zeros(0) for i in range(4)]
        return {"keys": np.array(keys, dtype=np.uint64), "sizes": sizes, "guesses": flat[0].astype(np.int32),
                "q": flat[1].astype(np.float64), "visits": flat[2].astype(np.int64), "prior": flat[3].astype(np.float64)}

    def load_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        """Replace the table with one read from flat arrays."""
        ends = np.cumsum(arrays["sizes"])
        starts = ends - arrays["sizes"]
        self.rows = {int(key): [arrays["guesses"][a:b].copy(), arrays["q"][a:b].copy(), arrays["visits"][a:b].copy(),
                                arrays["prior"][a:b].copy()]
                     for key, a, b in zip(arrays["keys"], starts, ends)}


def play_greedy(table: QTable, answer: int, visited: set[int] | None = None) -> tuple[int, bool]:
    """One greedy game through the table: (guesses used, solved); the state keys passed are added to `visited`."""
    game = table.game
    state = game.initial_state(hard=table.config.hard, max_guesses=table.config.max_guesses)
    while not game.is_terminal(state):
        row = table.row(state)
        if visited is not None:
            visited.add(state_hash(game, state))
        guess = int(row[0][table.best(row)])
        state = game.step(state, guess, game.reply(guess, answer))
    return state.guesses_used, state.solved


def evaluate(table: QTable) -> tuple[np.ndarray, np.ndarray, set[int]]:
    """Greedy play on every answer: guesses per game (a loss counts max_guesses + 1), solved, the states passed."""
    visited: set[int] = set()
    guesses, solved = [], []
    for answer in range(len(table.game.words.answers)):
        used, won = play_greedy(table, answer, visited)
        guesses.append(used if won else table.config.max_guesses + 1)
        solved.append(won)
    return np.array(guesses), np.array(solved), visited


def episode(table: QTable, answer: int, epsilon: float, rng: np.random.Generator) -> tuple[int, bool]:
    """One epsilon-greedy training game and its Q-learning updates (last step first): (guesses, solved)."""
    game, config = table.game, table.config
    state = game.initial_state(hard=config.hard, max_guesses=config.max_guesses)
    steps: list[tuple[list[np.ndarray], int, float]] = []
    while not game.is_terminal(state):
        row = table.row(state)
        action = int(rng.integers(len(row[0]))) if rng.random() < epsilon else table.best(row)
        guess = int(row[0][action])
        pattern = game.reply(guess, answer)
        state = game.step(state, guess, pattern)
        lost = pattern != ALL_GREEN and state.guesses_left == 0
        steps.append((row, action, -1.0 - (config.loss_penalty if lost else 0.0)))
    follow = 0.0
    weight = config.prior_weight if config.init == "prior" else 0.0
    for row, action, reward in reversed(steps):
        row[2][action] += 1
        alpha = max(1.0 / (row[2][action] + weight), config.alpha_min)
        row[1][action] += alpha * (reward + follow - row[1][action])
        follow = float(row[1].max())
    return state.guesses_used, state.solved


@dataclass
class Trainer:
    """A Q-learning run that can stop and resume: the table, the episodes so far, the rng and the curve."""

    table: QTable
    seed: int
    episodes: int = 0
    seconds: float = 0.0
    curve: list = field(default_factory=list)
    rng_state: dict | None = None

    @property
    def config(self) -> QConfig:
        """The learner's fixed choices."""
        return self.table.config

    def train(self, budget: TrainingBudget, report: Reporter | None = None, checkpoint=None, every_s: float = 60.0) -> None:
        """Train until the budget is spent; on Ctrl-C the work so far is kept (the caller saves it).

        `checkpoint()` is called every `every_s` seconds.
        """
        config = self.table.config
        rng = np.random.default_rng(self.seed)
        if self.rng_state is not None:
            rng.bit_generator.state = self.rng_state
        started = time.monotonic()
        if not self.curve:
            self.evaluate()
        recent = Recent()
        first, last_save, seconds0 = self.episodes, started, self.seconds
        answers = len(self.table.game.words.answers)
        try:
            while not budget.done(self.episodes, started):
                epsilon = config.epsilon0 / (1.0 + self.episodes / config.epsilon_half)
                used, won = episode(self.table, int(rng.integers(answers)), epsilon, rng)
                recent.add(used if won else config.max_guesses + 1, won)
                self.episodes += 1
                self.seconds = seconds0 + time.monotonic() - started
                if self.episodes % config.eval_every == 0:
                    self.evaluate()
                if report is not None and (self.episodes % 200 == 0 or budget.done(self.episodes, started)):
                    average, solved = recent.summary()
                    report(Progress(self.episodes, budget.fraction(self.episodes, started, first),
                                    (self.episodes - first) / max(1e-9, time.monotonic() - started), average, solved,
                                    self.curve[-1]))
                if checkpoint is not None and time.monotonic() - last_save >= every_s:
                    self.rng_state = rng.bit_generator.state
                    checkpoint()
                    last_save = time.monotonic()
        finally:
            self.rng_state = rng.bit_generator.state
        if self.curve[-1]["episodes"] != self.episodes:
            self.evaluate()

    def evaluate(self) -> set[int]:
        """Add a learning-curve row from greedy play on every answer; the states that play passed."""
        guesses, solved, visited = evaluate(self.table)
        self.curve.append(curve_row(self.episodes, self.seconds, guesses, solved))
        return visited

    # -- files -----------------------------------------------------------------------
    def header(self, command: str) -> dict:
        """The model file's header: how, from what and for what the table was made."""
        return {"learner": LEARNER, "hard": self.table.config.hard, "max_guesses": self.table.config.max_guesses,
                "words_checksum": self.table.game.words.checksum, "config": asdict(self.table.config),
                "seed": self.seed, "episodes": self.episodes, "seconds": round(self.seconds, 1), "command": command,
                "machine": machine(), "curve": self.curve, "rng_state": self.rng_state}

    def save(self, path, command: str, keys: list[int] | None = None) -> None:
        """Write the table (or just the rows of `keys`) atomically."""
        save_model(path, self.table.arrays(keys), self.header(command))

    @classmethod
    def load(cls, game: Wordle, path, hard: bool) -> Trainer:
        """A run resumed from a checkpoint or model file (ModelError when unusable)."""
        arrays, header = load_model(path, LEARNER, hard, game.words.checksum)
        table = QTable(game, QConfig(**header["config"]))
        table.load_arrays(arrays)
        return cls(table=table, seed=header["seed"], episodes=header["episodes"], seconds=header["seconds"],
                   curve=header["curve"], rng_state=header["rng_state"])


@register(LEARNER, "tabular Q-learning over game states (trained model in results/models/)", params=())
class QLearningAgent(Agent):
    """Plays the greedy action of its trained Q-table; states the table lacks are valued by the prior."""

    def __init__(self, game: Wordle):
        super().__init__(game)
        self._tables: dict[tuple[bool, int], QTable] = {}

    def prepare(self, hard: bool, max_guesses: int) -> None:
        """Load the model for this mode (ModelError, one line naming `train`, when it cannot be used)."""
        self.table(hard, max_guesses)

    def table(self, hard: bool, max_guesses: int) -> QTable:
        """The trained table for a mode, loaded once."""
        key = (hard, max_guesses)
        if key not in self._tables:
            arrays, header = load_model(model_path(LEARNER, hard), LEARNER, hard, self.game.words.checksum,
                                        max_guesses)
            table = QTable(self.game, QConfig(**header["config"]))
            table.load_arrays(arrays)
            self._tables[key] = table
        return self._tables[key]

    def decide(self, state: State, rng: np.random.Generator) -> Decision:
        """The table's best action here (value: -expected guesses still needed, this one included)."""
        table = self.table(state.hard, state.max_guesses)
        key = state_hash(self.game, state)
        row = table.rows.get(key)
        if row is None:  # never reached in training: the prior, as training would have started
            guesses, prior = table.options(state)
            row = [guesses, prior]
        order = np.argsort(-row[1], kind="stable")[:ALTERNATIVES]
        top = tuple((int(row[0][i]), float(row[1][i])) for i in order)
        return Decision(guess=top[0][0], value=top[0][1], alternatives=top)


__all__ = ["LEARNER", "QConfig", "QLearningAgent", "QTable", "Trainer", "ModelError", "episode", "evaluate",
           "state_hash"]
