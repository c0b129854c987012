"""`train`: train the learning Guessers (Q-learning, PPO)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import Progress

from plumbing.storage import check_outputs

from .games import load_game
from .options import EXIT_INTERRUPTED, add_game_options, add_seed_option, canonical_command, path_text, whole
from .render import plain_console, worst_text

if TYPE_CHECKING:
    from agents.training import Progress as TrainingProgress
    from agents.training import TrainingBudget

#: Upper limits of train's budget: past them a run means days.
MOST_EPISODES = 100_000_000


MOST_MINUTES = 10_000


def training_budget(episodes: int | None, minutes: float | None) -> TrainingBudget:
    """The budget of a training run of `episodes` in all, or `minutes` of this run, whichever comes first."""
    from agents.training import TrainingBudget
    return TrainingBudget(episodes=episodes, seconds=None if minutes is None else minutes * 60)


def train_line(args: argparse.Namespace) -> str:
    """The canonical command of a training run (recorded in the model file)."""
    return canonical_command(
        f"train {args.learner}", ("--init", None if args.init == "scratch" else args.init), ("--hard", args.hard),
        ("--episodes", args.episodes), ("--minutes", args.minutes), ("--seed", args.seed),
        ("--max-guesses", None if args.max_guesses == 6 else args.max_guesses), ("--fresh", args.fresh),
        ("--answers", args.answers or None), ("--guesses", args.guesses or None))


def command_train(args: argparse.Namespace, console: Console) -> int:
    """Train a learner (resuming its checkpoint), with progress; save its model, checkpoint and learning curve."""
    from agents.learners import DEFAULT_BUDGET, checkpoint_path, curve_path, file_name, train, use_device
    from agents.models import model_path

    use_device(args.learner, args.device)
    if args.episodes is None and args.minutes is None:
        minutes = DEFAULT_BUDGET[args.learner].minutes
        args.episodes = DEFAULT_BUDGET[args.learner].episodes
        args.minutes = int(minutes) if minutes is not None and minutes == int(minutes) else minutes
    game = load_game(args)
    mode = "hard" if args.hard else "normal"
    name = file_name(args.learner, args.init)
    curve = curve_path(name, args.hard, args.out)
    check_outputs((model_path(name, args.hard, args.out), checkpoint_path(name, args.hard, args.out),
                   curve.with_suffix(".csv"), curve.with_suffix(".png")),
                  "remove it, or choose another --out")  # before training, not when saving it
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"training {args.learner} ({mode})", total=1.0)

        def report(state: TrainingProgress) -> None:
            last = state.last_eval or {}
            progress.update(task, completed=state.fraction, description=(
                f"{args.learner} ({mode}): {state.episodes} episodes, {state.games_per_second:.0f} games/s, "
                f"recent {state.recent_average:.3f} avg {state.recent_solved:.1%} solved; "
                f"greedy {last.get('average', float('nan')):.4f} avg {last.get('solved', float('nan')):.2%}"))

        try:
            outcome = train(args.learner, game, args.hard, training_budget(args.episodes, args.minutes), args.seed,
                            train_line(args), max_guesses=args.max_guesses, fresh=args.fresh, folder=args.out,
                            report=report, init=args.init)
        except KeyboardInterrupt:
            progress.stop()
            plain_console(stderr=True).print(
                f"interrupted: the training so far is saved in "
                f"{checkpoint_path(file_name(args.learner, args.init), args.hard, args.out)}; "
                "run the same command to continue", markup=False, soft_wrap=True)
            return EXIT_INTERRUPTED
    last, name = outcome.curve[-1], file_name(args.learner, args.init)
    console.print(f"{name} ({mode}): {outcome.episodes} episodes in {outcome.seconds:.0f} s of training; "
                  f"greedy on all {len(game.words.answers)} answers: average {last['average']:.4f}, "
                  f"solved {last['solved']:.2%}, worst {worst_text(last['worst'], args.max_guesses)}")
    if outcome.selected is not None:
        chosen = outcome.selected
        console.print(f"the model keeps the weights that played best, after {chosen['episodes']} episodes: "
                      f"average {chosen['average']:.4f}, solved {chosen['solved']:.2%}")
    console.print("wrote " + ", ".join(str(path) for path in outcome.written), soft_wrap=True)
    return 0


def add_train_command(commands: argparse._SubParsersAction) -> None:
    """`train`: a learning Guesser, trained here."""
    from agents.learners import LEARNERS
    parser = commands.add_parser(
        "train", help="train a learning Guesser (q-learning, ppo) and save its model",
        description="Train q-learning or ppo against every answer, resuming the saved checkpoint unless --fresh; "
                    "Ctrl-C saves the work so far. Writes the model under results/models/ (or --out), a checkpoint "
                    "and a learning curve (CSV, and PNG with matplotlib). ppo needs pip install -e '.[learn]'.",
    )
    parser.add_argument("learner", choices=LEARNERS, metavar="|".join(LEARNERS), help="which learner to train")
    parser.add_argument("--hard", action="store_true", help="train for hard mode")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--episodes", type=whole(1, MOST_EPISODES), metavar="N",
                        help=f"train until N episodes (games) in all, resumed ones included (default: q-learning "
                             f"100000; at most {MOST_EPISODES})")
    budget.add_argument("--minutes", type=whole(1, MOST_MINUTES), metavar="M",
                        help=f"train for M minutes in this run (default: ppo 60; at most {MOST_MINUTES})")
    add_seed_option(parser, "seed of a fresh run (default 0)")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help="where ppo trains (default cpu)")
    parser.add_argument("--init", choices=("scratch", "imitation"), default="scratch",
                        help="ppo only: learn from scratch (default), or first imitate expectimax's choices (a variant "
                             "kept in its own files, ppo-imitation-MODE.npz, and reported apart)")
    parser.add_argument("--fresh", action="store_true", help="start over instead of resuming the checkpoint")
    parser.add_argument("--out", type=path_text, metavar="DIR", help="models folder (default results/models/)")
    add_game_options(parser)
    parser.set_defaults(handler=command_train)
