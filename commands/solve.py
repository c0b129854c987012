"""`solve`: the value of a position (and of a guess at it) within a budget, proved or bounded."""

from __future__ import annotations

import argparse
import math
from typing import Any

from rich.console import Console
from rich.progress import Progress

from agents.assistant import parse_step, replay
from plumbing.errors import UserError, clip
from plumbing.storage import prepare_output
from wordle.tree import FORMATS as TREE_FORMATS
from wordle.tree import write_tree

from .budgets import budget_argument
from .games import load_game
from .options import MOST_BREADTH, add_game_options, add_mode_options, mode_name, path_text, whole
from .render import waiting


def command_value(args: argparse.Namespace, console: Console) -> int:
    """Value the position after the steps (and any --guess) within the budget; say proved or both bounds."""
    from search.limits import Budget
    from wordle.valuation import CAPPED_NOTE, SAFETY_SECONDS, default_budget, value_position

    if args.opener is not None or args.top is not None or args.out or args.prove:
        raise UserError("--opener, --top, --prove and --out solve the whole tree; with steps, --budget or --guess "
                        "leave them out")
    game = load_game(args, named=True)
    state, _ = replay(game, [parse_step(game, text) for text in args.steps], hard=args.hard,
                      max_guesses=args.max_guesses, ultra=args.ultra)
    if state.solved or state.guesses_left < 1:
        raise UserError("the game is over after these steps: there is no guess to value")
    asked = [game.words.guess_id(word.strip().lower()) for word in args.guess or ()]
    mode = mode_name(args)
    for guess in asked:
        if (broken := game.violation(state, guess)) is not None:
            raise UserError(f"{game.words.guesses[guess]}: {mode} mode: {broken}")
    given = args.budget or default_budget(args.hard or args.ultra)
    budget = Budget(nodes=given.nodes, seconds=given.seconds if given.seconds is not None else SAFETY_SECONDS)
    spend = budget.describe()
    with waiting(f"valuing the position ({len(state.candidates)} answers left, {mode} mode) within {spend}"):
        valuation = value_position(game, state, asked, budget)
    words = game.words.guesses
    where = " ".join(args.steps) if args.steps else "the start"
    console.print(f"after {where} ({len(state.candidates)} answers left, {mode} mode, {state.guesses_left} guesses "
                  f"left): {valuation.nodes} sub-problems in {valuation.seconds:.1f} s", markup=False, soft_wrap=True)
    if valuation.capped:
        console.print(f"The search was {CAPPED_NOTE}.", markup=False, soft_wrap=True)
    for guess, value in [(valuation.best, valuation.value),
                         *((guess, valuation.guesses[guess]) for guess in asked if guess != valuation.best)]:
        role = "best" if guess == valuation.best else "guess"
        if math.isinf(value.low) and value.losses_low >= 1:
            count = f"{value.losses_low:g} answer{'s are' if value.losses_low > 1 else ' is'}"
            lost = (f"{count} lost with best play after it (proved), then {value.losing_guesses:.3f} guesses per "
                    f"answer, a loss counted as {state.max_guesses + 1}" if value.losses_low == value.losses_high
                    else f"at least {count} lost with best play after it (how many more is not settled within the "
                         f"budget)")
            claim = f"no tree wins every game within the guess limit: {lost}; shown as {value.text()}"
        elif math.isinf(value.low):
            claim = "no tree wins every game within the guess limit"
        elif value.proved:
            claim = f"{value.text()} guesses per answer, proved" + (" optimal" if role == "best" else "")
        elif math.isfinite(value.high):
            claim = (f"between {value.low:.3f} and {value.high:.3f} guesses per answer "
                     f"(not proved within the budget; shown as {value.text()})")
        else:
            claim = f"at least {value.low:.3f} guesses per answer (no tree found within the budget; shown as {value.text()})"
        console.print(f"{role} {words[guess].upper()}: {claim}", markup=False, soft_wrap=True)
    return 0


def command_start(args: argparse.Namespace, console: Console) -> int:
    """A fixed start's proved total: its words, then best play, over every answer (normal, hard or ultra-hard)."""
    from agents.optimal import make_solver
    from wordle.fixed_starts import StartError, parse_start, start_violation, value_start

    if args.steps or args.budget is not None or args.guess or args.opener is not None or args.out:
        raise UserError("--start values a fixed start from the beginning; it takes no steps, --budget, --guess, "
                        "--opener or --out")
    if args.top is not None or args.objective != "total":
        raise UserError("--start proves the fewest total guesses (it takes no --top or --objective)")
    game = load_game(args, named=True)
    mode = mode_name(args)
    try:
        words = parse_start(game, args.start)
    except StartError as error:
        raise UserError(f"--start: {error}") from None
    state = game.initial_state(hard=args.hard, max_guesses=args.max_guesses, ultra=args.ultra)
    if len(words) >= args.max_guesses:
        raise UserError(f"--start: {len(words)} fixed words leave no guess under a limit of {args.max_guesses}")
    if (broken := start_violation(game, state, words)) is not None:
        raise UserError(f"--start: not playable in {mode} mode: {broken}")
    named = ",".join(game.words.guesses[w].upper() for w in words)
    solver = make_solver(game, args.hard, args.max_guesses, None, ultra=args.ultra)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{named} ({mode} mode): the positions it leaves", total=None)
        value = value_start(solver, words,
                            on_position=lambda done, count: progress.update(task, completed=done, total=count))
    answers = len(game.words.answers)
    if value.total < 0:
        claim = f"no win: some position it leaves cannot be won within {args.max_guesses} guesses (proved)"
    else:
        claim = (f"total {value.total} over {answers} answers (average {value.average:.4f}), {value.long_games} "
                 f"games over 5 guesses, proved optimal after the fixed words")
    console.print(f"{named} then best play ({mode} mode): {claim}; {value.positions} positions after the fixed "
                  f"words, {value.nodes} sub-problems in {value.seconds:.1f} s", markup=False, soft_wrap=True)
    return 0


def command_solve(args: argparse.Namespace, console: Console) -> int:
    """Solve the optimal tree (a proof, or an upper bound over the best K guesses a node); show it, save it."""
    from agents.optimal import opener_index, solve_tree, tree_cache, tree_payload
    from wordle.solver import Objective

    if args.nodes is not None:
        raise UserError(f"solve takes its node budget as --budget N (here --budget {clip(args.nodes, 40)}); it has "
                        "no --nodes")
    if args.start is not None:
        return command_start(args, console)
    if args.steps or args.budget is not None or args.guess:
        if args.objective != "total":
            raise UserError("--objective goes with the whole tree (no steps, --budget or --guess)")
        return command_value(args, console)
    objective = Objective(args.objective)
    game = load_game(args, named=True)
    opener = opener_index(game, args.opener.strip().lower()) if args.opener is not None else None
    if args.out:
        prepare_output(args.out, TREE_FORMATS)
    breadth = args.top
    mode = mode_name(args)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"solving ({mode} mode)", total=None)

        def report(stats: Any) -> None:
            unpack = Objective.TOTAL.unpack if objective is Objective.WORST else objective.unpack
            best = f"best {unpack(stats.best).total}" if stats.best is not None else "no tree yet"
            replies = f"replies {stats.replies_done}/{stats.replies}, " if stats.replies else ""
            progress.update(task, description=f"solving ({mode} mode): {replies}{stats.nodes} sub-problems, "
                                              f"{stats.remembered} remembered, {best}, bound {unpack(stats.bound).total}")

        solution, graph = solve_tree(game, args.hard, args.max_guesses, opener, breadth, report, objective,
                                     ultra=args.ultra)
    word = game.words.guesses[solution.guess]
    goal = {Objective.TOTAL: "", Objective.LOSSES: " for fewest losses, then fewest guesses",
            Objective.WORST: " for the least worst case, then fewest guesses"}[objective]
    claim = (f"proved optimal{goal}" if solution.proved
             else f"an upper bound{goal} (best {args.top} guesses a node)")
    lost = f"{solution.losses} lost (counted as {args.max_guesses + 1} guesses), " if objective is Objective.LOSSES else ""
    console.print(f"{word.upper()} ({mode} mode): total {solution.total} over {graph.graph['answers']} answers "
                  f"(average {graph.graph['average']:.4f}), {lost}{solution.long_games} games over 5 guesses, "
                  f"worst {graph.graph['worst']}; {claim}; {solution.nodes} sub-problems in {solution.seconds:.1f} s")
    try:  # the optimal agent reads it back
        tree_cache(game, args.hard, args.max_guesses, word if opener is not None else "best", breadth,
                   objective, ultra=args.ultra).write(tree_payload(graph))
    except OSError:
        pass
    if args.out:
        console.print(f"wrote {write_tree(graph, args.out)}", markup=False, soft_wrap=True)
    return 0


def add_solve_command(commands: argparse._SubParsersAction) -> None:
    """`solve`: the optimal decision tree, proved or bounded."""
    parser = commands.add_parser(
        "solve", help="solve the decision tree with the fewest total guesses (then fewest games over 5)",
        description="Branch and bound over every reply: the tree with the fewest total guesses over the answers, "
                    "and within that total the fewest games over 5 guesses, within the guess limit (and in hard "
                    "or ultra-hard mode the rule). --prove tries every allowed guess at every node, so its total is proved; "
                    "--top K tries the best K by their lower bound, so its total is an upper bound. The tree is "
                    "cached for the optimal agent. Given steps (as assist takes them), --budget or --guess, it "
                    "values that position instead: the best guess and its expected guesses per answer, proved, "
                    "or bounded on both sides when the budget runs out.",
    )
    parser.add_argument("steps", nargs="*", metavar="STEP",
                        help="the game so far, each as guess:colours (e.g. crane:-y--g; g green, y yellow, - grey)")
    parser.add_argument("--budget", type=budget_argument, metavar="NODES|TIME",
                        help="with steps: solver nodes to spend (5000, 200k, 1.5M; default: assist's and review's "
                             "budget, so that solve shows the same values; the same result on any machine) or a time "
                             "cap (500ms, 5s; a result it cuts says so)")
    parser.add_argument("--nodes", help=argparse.SUPPRESS)  # --budget N says it: refused in one line, saying so
    parser.add_argument("--guess", action="append", metavar="WORD",
                        help="with steps: also value this guess (repeatable)")
    parser.add_argument("--opener", metavar="WORD", help="the first guess (default: solve for it too; with --prove that "
                                                         "proves or refutes every opener, far longer than one)")
    parser.add_argument("--start", metavar="W1,W2[,W3]",
                        help="a fixed start: these words first (the next unless one is the answer, whatever the "
                             "replies), then best play; prints the proved total over every answer")
    add_mode_options(parser, "hard mode")
    breadth = parser.add_mutually_exclusive_group()
    breadth.add_argument("--prove", action="store_true", help="try every allowed guess at every node (default)")
    breadth.add_argument("--top", type=whole(1, MOST_BREADTH), metavar="K",
                         help=f"try only the best K guesses a node (an upper bound; at most {MOST_BREADTH})")
    parser.add_argument("--objective", choices=("total", "losses", "worst"), default="total",
                        help="total: every answer within the limit, then fewest guesses (default); losses: fewest "
                             "answers lost, then fewest guesses (a loss counts max-guesses + 1); worst: the least "
                             "maximum number of guesses, then fewest guesses")
    parser.add_argument("--out", type=path_text, metavar="FILE.json|FILE.graphml", help="also write the tree there")
    add_game_options(parser, named=True)
    parser.set_defaults(handler=command_solve)
