"""`assist`: suggestions for today's game from the guesses and replies so far."""

from __future__ import annotations

import argparse
import json
from typing import Any

import numpy as np
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from agents import agent_names, make_player, player_settings
from agents.answer_model import DEFAULT_MODEL
from agents.assistant import (ADVISOR, MAYBE_BETTER, Advice, advice_notes, advice_data, advise_model, make_advisor,
                              parse_step, read_step)
from agents.base import Agent
from agents.indicators import make_indicator
from agents.model_value import VALUE_BUDGET, Valuer, budget_text
from agents.params import flag
from plumbing.errors import UserError
from plumbing.numbers import fixed
from wordle.familiarity import NEAR_BEST, WORD_ORDERS
from variants import AnyGame, GameSpec
from wordle import Wordle
from wordle.words import load_guesses

from .games import game_over, load_spec_game
from .options import (
    MOST_GUESSES,
    MOST_SUGGESTIONS,
    add_agent_options,
    add_mode_options,
    add_model_options,
    add_palette_option,
    add_seed_option,
    add_shape_options,
    agent_options,
    answer_model,
    game_spec,
    player_guesses,
    ultra_answers,
    whole,
)
from .render import REPLY_LEGEND, advise_at_prompt, board_advice_view, chance_text, trace_table, waiting

#: Who advises against Absurdle: its reply is always the worst bucket, so the worst case is all that counts.
ABSURDLE_ADVISOR = "minimax"


def advice_view(game: Wordle, advice: Advice, palette: str = "default", legends: bool = True) -> list[RenderableType]:
    """What the assistant shows after each step: any widening of the answer model, the counts, the bits, the
    likeliest answers and the suggestions table (with what its columns and the reply's letters mean, unless
    `legends` is False: at the prompt they are said once)."""
    parts: list[RenderableType] = [Text(note, style="yellow") for note in advice.notes]
    if advice.steps:
        parts.append(trace_table(game, list(advice.steps), palette=palette))
        if legends:
            parts.append(Text(REPLY_LEGEND))
    if advice.solved:
        parts.append(Text(f"Solved in {len(advice.steps)}.", style="bold green"))
        return parts
    summary = f"{advice.remaining} possible answer{'s' if advice.remaining != 1 else ''} ({fixed(advice.bits_left, 2)} bits)"
    if advice.last_bits is not None:
        summary += f"; the last guess gained {fixed(advice.last_bits, 2)} bits"
    if advice.model is not None:
        summary += f"; answer model {advice.model.describe()}"
    parts.append(Text(summary, style="bold"))
    if advice.remaining <= POSSIBLE_SHOWN or (advice.model is not None and not advice.model.uniform
                                              and advice.remaining <= 100 * POSSIBLE_SHOWN):
        parts.append(Text(possible_line(game, advice)))
    if not advice.suggestions:
        parts.append(Text(f"No guesses left: the game allows {advice.state.max_guesses}.", style="bold red"))
        return parts
    by_solver = advice.proved is not None
    table = Table(title=f"suggestions ({advice.agent}{', ultra-hard mode' if advice.state.ultra else ', hard mode' if advice.state.hard else ''})",
                  header_style="bold", box=None, pad_edge=False, title_justify="left")
    for column in ("#", "guess", "worst", "left", "chance", "bits", "guesses (lower is better)"):
        table.add_column(column, justify="left" if column == "guess" else "right")
    for number, s in enumerate(advice.suggestions, start=1):
        value = s.value.text() if s.value is not None else f"{s.expected_guesses:.3f}"
        if advice.maybe_better(s):
            value += f" ({MAYBE_BETTER})"
        table.add_row(str(number), game.words.guesses[s.guess], str(s.worst), fixed(s.expected_left, 2),
                      f"{s.chance:.1%}", fixed(s.information, 2), value)
    parts.append(table)
    if legends:
        parts.append(Text(SOLVER_LEGEND if by_solver else SUGGESTION_LEGEND, style="dim"))
    parts.extend(Text(note, style="yellow") for note in advice_notes(advice))
    if advice.fallback:
        parts.append(Text(FALLBACK_NOTE.format(agent=advice.agent), style="yellow"))
    return parts


#: Up to this many possible answers are listed by name (the likeliest first under a weighted model).
POSSIBLE_SHOWN = 12


def possible_line(game: Wordle, advice: Advice) -> str:
    """The possible answers, likeliest first with their chances under a weighted model, at most POSSIBLE_SHOWN."""
    candidates = advice.state.candidates
    if advice.model is None or advice.model.uniform:
        shown = [game.words.answers[a] for a in candidates[:POSSIBLE_SHOWN]]
    else:
        chances = advice.model.chances(candidates)
        order = np.argsort(-chances, kind="stable")[:POSSIBLE_SHOWN]
        shown = [f"{game.words.answers[candidates[i]]} {chance_text(chances[i])}" for i in order]
    more = len(candidates) - len(shown)
    return ("possible: " if more == 0 else "likeliest: ") + ", ".join(shown) + (f" and {more} more" if more else "")


#: What the suggestion columns mean, printed under them.
SUGGESTION_LEGEND = (
    "In the advising agent's order (with --only-answers, then the possible answers it did not rank, by guesses). worst: the most answers one reply can leave; left: answers left on average "
    "(0 if it is the answer); chance: that it is the answer; bits: expected information; guesses: expected "
    "guesses to finish, this one included (cost-to-go model, the same for every agent; lower is better).")


#: ... and for the default advisor, whose figure is the solver's.
SOLVER_LEGEND = (
    "Ordered by what a known tree achieves: the fewest games it may lose first (under a weighted model, the chance "
    "its tree loses), then guesses: expected guesses to finish, this one included, with best play after it, by the "
    "optimal solver under the answer model and its weights (lower is better); 'loses N': no tree wins every answer, "
    "N lost with best play; 'loses x%': the chance the tree found loses. A plain value is proved; '≤ x' has a "
    "tree reaching x; "
    "'≥ x' is a proved bound only, ranked below every guess with a tree ('maybe better' when x is below the first "
    "suggestion's value). worst: the most answers one reply can "
    "leave; left: answers left on average; chance: that it is the answer; bits: expected information.")


#: Said under advice that the shallower search gave.
FALLBACK_NOTE = ("{agent}'s full search needs more nodes here than its budget allows, so these are the suggestions "
                 "of its shallower search (2 guesses deep, no endgame search).")


def thinking(agent: Agent, state_hard: bool, max_guesses: int, number: int) -> str:
    """What the spinner says while `agent` chooses guess `number`."""
    if number == 1 and hasattr(agent, "opening_cached") and not agent.opening_cached(state_hard, max_guesses):
        return (f"{agent.name}: searching its first move for {'hard' if state_hard else 'normal'} mode and its "
                f"second for every reply, once (a minute or more on a busy machine); they are then kept on disk")
    return f"{agent.name}: choosing guess {number}"


def check_absurdle(game: Wordle, steps: list[tuple[int, int]], hard: bool, max_guesses: int) -> None:
    """UserError when a typed reply is not the one Absurdle gives (the largest bucket)."""
    from agents.indicators import reply_problems
    problems = reply_problems(game, make_indicator("absurdle", game), tuple(steps), hard, max_guesses)
    if problems:
        raise UserError(f"Absurdle would not answer so: {problems[0]}")


def board_adviser(args: argparse.Namespace, described: GameSpec, default: str = "entropy") -> tuple[AnyGame, Any]:
    """The game `described` and the player that advises on it (--agent, default entropy), its settings checked before
    the lists are loaded."""
    name = getattr(args, "agent", None) or default
    player_settings(name, described, **agent_options(args))
    _, game = load_spec_game(described, named=True)  # a list's name: review's --answers original
    return game, make_player(name, game, described, **agent_options(args))


def refuse_wordle_options(args: argparse.Namespace, described: GameSpec, names: tuple[str, ...]) -> None:
    """Refuse, in one line, an option of Wordle's own advice that a game of another shape does not take."""
    for name in names:
        if getattr(args, name, None) not in (None, False):
            raise UserError(f"--{name.replace('_', '-')} is not offered with {described.name} (its advice uses the "
                            "shipped lists of its length)")


def assist_boards(args: argparse.Namespace, console: Console, described: GameSpec) -> int:
    """`assist` on a game of another shape than Wordle's: the board player's advice once for the steps given, or step
    by step at the prompt."""
    from agents.board_advice import advice_data, advise_boards, parse_board_step

    refuse_wordle_options(args, described, ("answers", "guesses", "exclude", "only_answers"))
    for step in args.steps:
        parse_board_step(step, described.boards, described.length)  # its form refused before the lists are loaded
    game, player = board_adviser(args, described)

    def consult(steps: list[str]) -> Any:
        """The advice after `steps`, under a spinner."""
        with waiting(f"{player.name}: weighing guess {len(steps) + 1}{player.cost_text()}"):
            return advise_boards(described, game, player, steps, top=args.top)

    if args.steps or args.json:
        advice = consult(list(args.steps))
        if args.json:
            print(json.dumps(advice_data(game, advice)))
        else:
            board_advice_view(console, game, advice, args.palette)
        return 0
    length = described.length
    example = ",".join(["--g-y" + "-" * (length - 5) if length >= 5 else "-g-y"] * described.boards)
    console.print(f"Type each guess and the colours the game showed, e.g. '{'crane'[:length]}"
                  f"{'s' * max(0, length - 5)}:{example}'" + (
                      " (one pattern a board in order, ',' between them, '.' for a board already solved)"
                      if described.boards > 1 else "") + "; 'undo' takes the last one back; end with Ctrl-D.",
                  markup=False)
    advise_at_prompt(console, consult, lambda advice: board_advice_view(console, game, advice, args.palette))
    return 0


def command_assist(args: argparse.Namespace, console: Console) -> int:
    """Advise on a real game of the game the options describe: once for the steps given, or step by step at the
    prompt."""
    described = game_spec(args, lists=False)
    if not described.is_wordle:
        return assist_boards(args, console, described)
    if args.ultra and (args.agent is not None or args.indicator != "honest"):
        raise UserError("--ultra is advised by the solver's values against an honest game (no --agent, no "
                        "--indicator): the agents and the other indicators have no ultra-hard mode yet")
    ultra_answers(args)
    if args.answers is None:
        args.answers = "original" if args.indicator == "absurdle" else DEFAULT_MODEL
    player_guesses(args)
    if args.indicator == "absurdle":
        args.agent = args.agent or ABSURDLE_ADVISOR
    options = agent_options(args)
    if args.agent is None and (given := [flag(name) for name, value in options.items() if value is not None]):
        raise UserError(f"{given[0]} is an agent's setting: name the agent with --agent (the default advisor, the "
                        f"{ADVISOR} solver's values, takes none)")
    guess_words = load_guesses(args.guesses)
    for text in args.steps:  # each step read before a matrix is loaded or built: a typo costs nothing
        read_step(guess_words, text)
    model = answer_model(args)
    game = model.game
    agent, chosen = None, None
    if args.agent is not None:
        chosen = make_advisor(args.agent, game, **options)  # its settings checked before any step is replayed
        agent = lambda over: chosen if over is game else make_advisor(args.agent, over, **options)  # noqa: E731
    valuer = Valuer(model)
    if args.indicator == "absurdle" and not args.json:
        console.print(f"Against Absurdle only the worst case matters: {args.agent} advises.", markup=False)

    def consult(steps: list[tuple[int, int]]) -> Advice:
        """The advice after `steps`, under a spinner."""
        nonlocal valuer
        if args.indicator == "absurdle":
            check_absurdle(game, steps, args.hard, args.max_guesses)
        what = (f"{ADVISOR}: valuing guesses (up to {budget_text(VALUE_BUDGET, args.hard or args.ultra)})"
                if agent is None else
                thinking(chosen, args.hard, args.max_guesses, len(steps) + 1))
        with waiting(what):
            advice = advise_model(model, steps, agent, hard=args.hard, top=args.top, seed=args.seed,
                                  max_guesses=args.max_guesses, only_answers=args.only_answers, valuer=valuer,
                                  make_game=game_over, ultra=args.ultra, words=args.words)
        if advice.model is not None and advice.model is not valuer.model:
            valuer = Valuer(advice.model)
        return advice

    if args.steps or args.json:
        advice = consult([parse_step(game, text) for text in args.steps])
        if args.json:
            console.print_json(json.dumps(advice_data(advice.model.game, advice)))
        else:
            for part in advice_view(advice.model.game, advice, args.palette):
                console.print(part)
        return 0
    console.print("Type each guess and the colours the game showed, e.g. 'tares:-y--g' (g green, y yellow, "
                  "- grey; a space may stand for the colon); 'undo' takes the last one back; end with Ctrl-D.")

    said: set[bool] = set()  # whether the legends have been said (once, at the first table that has them)

    def show(advice: Advice) -> None:
        for part in advice_view(advice.model.game, advice, args.palette, legends=not said):
            console.print(part)
        if advice.steps and advice.suggestions:
            said.add(True)

    advise_at_prompt(console, consult, show, lambda line: parse_step(game, line))
    return 0


def add_assist_command(commands: argparse._SubParsersAction) -> None:
    """`assist`: advice for a game played elsewhere, from its guesses and colours."""
    parser = commands.add_parser(
        "assist", help="advice for a real game: type your guesses and the colours you saw",
        description="Advice for a game played elsewhere. Give the steps as WORD:PATTERN (e.g. tares:-y--g) to "
                    "print the advice once, or none to type them one by one at the prompt. With --boards K, a step "
                    "has one pattern a board in order, ',' between them and '.' for a board already solved "
                    "(e.g. crane:--g-y,g----), or one pattern for each open board.",
    )
    parser.add_argument("steps", nargs="*", metavar="WORD:PATTERN",
                        help="guesses with the colours shown: letters (g y -), digits (2 1 0) or emoji squares")
    parser.add_argument("--agent", choices=agent_names(), default=None, metavar="NAME",
                        help=f"who advises: {', '.join(agent_names())} (default: the {ADVISOR} solver's values "
                             f"within {budget_text(VALUE_BUDGET, False)} a position in normal mode, "
                             f"{budget_text(VALUE_BUDGET, True)} in hard mode: the same advice on any machine; "
                             "proved wherever they settle, else "
                             f"marked as bounds; {ABSURDLE_ADVISOR} against --indicator absurdle; a searching "
                             "agent's first move is searched once and kept on disk; past it, a state whose full "
                             "search needs more nodes than its budget gets a shallower search's advice, and is "
                             "told so)")
    parser.add_argument("--words", choices=WORD_ORDERS, default="known",
                        help=f"known (default): among the guesses whose real trees are within {NEAR_BEST} expected "
                             "guesses of the best, the commonest words first (wordfreq's frequency), a note naming "
                             "the exact best; all: the exact order by value")
    parser.add_argument("--only-answers", action="store_true",
                        help="suggest only words that can still be the answer")
    parser.add_argument("--indicator", choices=("honest", "absurdle", "fibble"), default="honest", metavar="NAME",
                        help="who replies in the game advised on: honest (default: a hidden answer), absurdle "
                             "(only the worst case matters, so the advice is minimax's, and each reply typed is "
                             "checked to be Absurdle's) or fibble (one lie in every row but a winning one; 9 "
                             "guesses; type the row as shown)")
    add_mode_options(parser, "hard mode: typed guesses are checked, suggestions are legal")
    parser.add_argument("--top", type=whole(1, MOST_SUGGESTIONS), default=10, metavar="N",
                        help=f"suggestions to show, at most as many as the agent ranks (default 10, at most {MOST_SUGGESTIONS})")
    parser.add_argument("--json", action="store_true", help="print the advice once as JSON")
    add_palette_option(parser)
    add_seed_option(parser, "seed for the agent's random choices (default 0)")
    parser.add_argument("--max-guesses", type=whole(1, MOST_GUESSES), default=6, metavar="N",
                        help=f"guess limit (default 6, at most {MOST_GUESSES})")
    add_model_options(parser, default=None)
    add_agent_options(parser)
    add_shape_options(parser)
    parser.set_defaults(handler=command_assist)
