"""The learners by name, and one training run of either: resume, train, checkpoint, save the model and its curve.

Files of a learner L in mode M (under the models folder, results/models/ by default):
`L-M.npz` the model the players load, `checkpoints/L-M.npz` the whole training state
(resumed by the next `train` unless --fresh), `L-M-curve.csv` / `.png` the learning curve.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plumbing.errors import UserError
from wordle import Wordle

from .models import model_path, train_command
from .training import Reporter, TrainingBudget, write_curve

LEARNERS = ("q-learning", "ppo")
#: The budget a `train` run gets when it names none.
DEFAULT_BUDGET = {"q-learning": TrainingBudget(episodes=100_000), "ppo": TrainingBudget(seconds=60 * 60)}


@dataclass(frozen=True)
class TrainingOutcome:
    """What a run did and wrote."""

    episodes: int
    seconds: float
    curve: list[dict]
    written: list[Path]
    #: The evaluation whose weights the model file holds, where that is not the last (ppo keeps its best).
    selected: dict | None = None


def checkpoint_path(learner: str, hard: bool, folder: str | Path | None = None) -> Path:
    """Where the resumable training state of `learner` in one mode lives."""
    model = model_path(learner, hard, folder)
    return model.parent / "checkpoints" / model.name


def curve_path(learner: str, hard: bool, folder: str | Path | None = None) -> Path:
    """The learning curve's path (its .csv and .png)."""
    model = model_path(learner, hard, folder)
    return model.with_name(model.stem + "-curve.csv")


def use_device(learner: str, device: str) -> None:
    """Check that `device` can train `learner` here; UserError in one line otherwise."""
    if learner == "q-learning":
        if device != "cpu":
            raise UserError("q-learning is tabular and trains on the CPU; leave out --device cuda")
        return
    try:
        import jax
    except ImportError:
        raise UserError("ppo training needs the learn extra: pip install -e '.[learn]'") from None
    if device == "cpu":
        jax.config.update("jax_platforms", "cpu")
        return
    try:
        jax.devices("gpu")
    except RuntimeError:
        raise UserError("--device cuda: JAX sees no CUDA GPU here; train with --device cpu") from None


def file_name(learner: str, init: str) -> str:
    """The name a learner's files go by: the learner, or the learner and its named variant (ppo-imitation)."""
    return learner if init == "scratch" else f"{learner}-{init}"


def start(learner: str, game: Wordle, hard: bool, max_guesses: int, seed: int, fresh: bool,
          folder: str | Path | None, init: str = "scratch") -> Any:
    """A new run, or the one saved in the checkpoint (else the model) when there is one and not `fresh`."""
    name = file_name(learner, init)
    if learner == "q-learning":
        from .qlearning import QConfig, QTable, Trainer as Run
        new = lambda: Run(QTable(game, QConfig(hard=hard, max_guesses=max_guesses)), seed=seed)  # noqa: E731
        load = lambda path: Run.load(game, path, hard)  # noqa: E731
    else:
        from .ppo.learn import Learner as Run, PPOConfig
        new = lambda: Run(game, PPOConfig(hard=hard, max_guesses=max_guesses, init=init), seed)  # noqa: E731
        load = lambda path: Run.load(game, path, hard, name)  # noqa: E731
    if not fresh:
        for path in (checkpoint_path(name, hard, folder), model_path(name, hard, folder)):
            if path.is_file():
                return load(path)
    return new()


def train(learner: str, game: Wordle, hard: bool, budget: TrainingBudget, seed: int, command: str, max_guesses: int = 6,
          fresh: bool = False, folder: str | Path | None = None, report: Reporter | None = None,
          every_s: float = 60.0, init: str = "scratch") -> TrainingOutcome:
    """Train `learner` within `budget`, checkpointing every `every_s` seconds and on Ctrl-C, then save everything.

    Raises:
        UserError: an unusable checkpoint or model; KeyboardInterrupt after saving the checkpoint.
    """
    if learner not in LEARNERS:
        raise UserError(f"unknown learner '{learner}'; choose one of: {', '.join(LEARNERS)}")
    if init != "scratch" and learner != "ppo":
        raise UserError(f"--init {init} is a variant of ppo only")
    run = start(learner, game, hard, max_guesses, seed, fresh, folder, init)
    learner = file_name(learner, init)
    if run.config.max_guesses != max_guesses:
        raise UserError(f"the saved {learner} run plays {run.config.max_guesses} guesses; "
                        f"use --fresh to start over with {max_guesses}")
    checkpoint = checkpoint_path(learner, hard, folder)
    save = lambda: run.save(checkpoint, command)  # noqa: E731
    try:
        run.train(budget, report=report, checkpoint=save, every_s=every_s)
    except KeyboardInterrupt:
        save()
        raise
    save()
    written = [checkpoint]
    model = model_path(learner, hard, folder)
    if learner == "q-learning":  # ship the states greedy play reaches on this answer list: small, and all it needs
        from .qlearning import evaluate
        run.save(model, command, keys=sorted(evaluate(run.table)[2]))
    else:  # the weights that played best on every answer at any evaluation (the header names which)
        run.save(model, command, best=True)
    written.append(model)
    written += write_curve(run.curve, curve_path(learner, hard, folder),
                           f"{learner}, {'hard' if hard else 'normal'} mode")
    best = getattr(run, "best", None)
    return TrainingOutcome(episodes=run.episodes, seconds=run.seconds, curve=run.curve, written=written,
                           selected=best[1] if best is not None and best[1] is not run.curve[-1] else None)


__all__ = ["DEFAULT_BUDGET", "LEARNERS", "TrainingOutcome", "checkpoint_path", "curve_path", "train", "train_command",
           "use_device"]
