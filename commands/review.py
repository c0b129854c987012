"""`review`: a finished game, each guess's value beside the best, with skill and luck."""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table
from rich.text import Text

from agents.answer_model import DEFAULT_MODEL
from agents.model_value import VALUE_BUDGET, budget_text
from agents.params import flag
from agents import players_of
from agents.review import Review, grid_answer, grid_score, known_best_note, parse_game, read_game, review_data, review_game, share_text
from plumbing.errors import UserError
from variants import GameSpec
from wordle import ALL_GREEN, Playthrough, Wordle, format_pattern
from wordle.nyt import puzzle_number
from wordle.screenshot import MOST_IMAGE_BYTES, ReadBoard, ScreenshotError, board_data, read_board
from wordle.words import NAMED_ANSWERS, load_guesses

from .games import game_over
from .options import (
    MOST_GUESSES,
    WEIGHTED_MODELS,
    add_agent_options,
    add_mode_options,
    add_model_options,
    add_palette_option,
    add_shape_options,
    agent_options,
    answer_model,
    game_spec,
    player_guesses,
    ultra_answers,
    whole,
)
from .render import reply_cells, tiles, waiting

if TYPE_CHECKING:
    from wordle.fixed_starts import StartCost

#: What a review's columns mean, printed under it.
REVIEW_LEGEND = (
    "left: answers possible before the guess -> after its reply; yours and best: expected guesses to finish, that "
    "guess included, with best play after it (lower is better), the best guess named; skill: 99 for the best guess, "
    "down to 0 for one that costs 1.75 guesses (NYT WordleBot's scale, fitted to its published reviews; '≈': a value "
    "it compares is not proved); the game's skill is the "
    "mean of its scored guesses'; luck: how the reply ranks among those the guess could get (99: it left the fewest "
    "answers). A plain value is proved; '≤ x' has a tree reaching x (under a weighted model, every value has one, "
    "but a guess at over 2,500 answers that the weighted opening book lacks, whose bounded search completed none); "
    "'≥ x' is a proved bound only; skill '—': the guess has no tree, so it is not scored; 'loses x%': the chance "
    "the tree found loses.")


def review_table(game: Wordle, review: Review, palette: str = "default") -> Table:
    """One row per guess: tiles, reply, answers left, your guess's value, the best guess and its value, skill, luck."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in ("#", "guess", "reply", "left", "yours", "best", "skill", "luck"):
        table.add_column(column, justify="left" if column in ("guess", "reply", "best") else "right")
    for step in review.steps:
        best = "same" if step.best_guess == step.guess else game.words.guesses[step.best_guess]
        table.add_row(str(step.number), tiles(game.words.guesses[step.guess], step.pattern, palette),
                      format_pattern(step.pattern), f"{step.before} -> {step.after}", step.played.text(),
                      f"{best}{'†' if step.best_known is not None else ''} {step.best.text()}", step.skill_text(),
                      str(step.luck))
    return table


def review_lines(review: Review) -> list[str]:
    """The game's verdict under the table: skill, luck, how it ended, the model, and how many values are proved."""
    ending = review.ending_text()
    proved = sum(v.proved for v in review.values)
    words = review.model.game.words.guesses
    lines = [f"Skill {review.skill_text()}/99, luck {review.luck}/99: {ending}{', ultra-hard mode' if review.ultra else ', hard mode' if review.hard else ''}; "
             f"{review.lost_text()}.",
             f"Answer model {review.model.describe()}; {proved} of {len(review.values)} values proved "
             f"({review.seconds:.1f} s)."]
    lines += [known_best_note(words, s) for s in review.steps if s.best_known is not None]
    return lines


#: What the board review's columns mean.
BOARD_REVIEW_LEGEND = (
    "left: each board's possible answers before -> after the guess (0: solved); expected: the information the guess "
    "was expected to give, in bits, summed over the open boards (higher is better); gained: what the reply gave; "
    "best: the advising agent's own guess there and its expected bits. No exact value is known for these games, so "
    "no skill or luck is scored.")


def review_boards(args: argparse.Namespace, console: Console, described: GameSpec) -> int:
    """`review` of a game of another shape than Wordle's: each guess's expected and gained information beside the
    advising agent's guess."""
    from agents.board_advice import answered_steps, parse_board_step, review_boards as review_steps, review_data as data

    from .assist import board_adviser, refuse_wordle_options

    if args.grid is not None or args.puzzle is not None:
        raise UserError(f"--grid and --puzzle read one board's Wordle share grid, not {described.name}'s: give the "
                        "steps as WORD:PATTERNS, or --answer and the words")
    if args.answers in WEIGHTED_MODELS and args.answers != DEFAULT_MODEL:
        raise UserError(f"--answers {args.answers} weighs the answers; {described.name}'s review takes every answer "
                        "of a list alike: give a list's name (" + ", ".join(NAMED_ANSWERS) + ") or a file")
    refuse_wordle_options(args, described, ("exclude",))
    described = replace(described, answers=None if args.answers in (None, DEFAULT_MODEL) else args.answers,
                        guesses=args.guesses)  # the lists the game was played on (`play` offers them)
    for step in args.steps if args.answer is None else ():
        parse_board_step(step, described.boards, described.length)  # its form refused before the lists are loaded
    game, player = board_adviser(args, described)
    answers = None
    if args.answer is not None:
        answers = tuple(word for word in args.answer.replace(",", " ").split() if word)
        steps = answered_steps(described, game, list(args.steps), list(answers))
    else:
        steps = list(args.steps)
    if not steps:
        raise UserError("review needs the game's steps: WORD:PATTERNS each, or --answer and the words")
    with waiting(f"{player.name}: reviewing {len(steps)} guesses"):
        review = review_steps(described, game, player, steps, answers)
    if args.json:
        print(json.dumps(data(game, review)))
        return 0
    words = game.words
    console.print(described.describe(), markup=False)
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in ("#", "guess", "reply", "left", "expected", "gained", "best"):
        table.add_column(column, justify="left" if column in ("guess", "reply", "left", "best") else "right")
    for s in review.steps:
        best = "same" if s.best_guess == s.guess else words.guesses[s.best_guess]
        table.add_row(str(s.number), words.guesses[s.guess].upper(), reply_cells(described, s.reply, args.palette),
                      f"{'/'.join(map(str, s.before))} -> {'/'.join(map(str, s.after))}", f"{s.expected_bits:.2f}",
                      f"{s.gained_bits:.2f}", f"{best} {s.best_bits:.2f}")
    console.print(table)
    used = len(review.steps)
    ending = f"solved in {used}/{described.max_guesses}" if review.won else f"not solved after {used} guesses"
    same = sum(s.best_guess == s.guess for s in review.steps)
    console.print(f"{ending}; {same} of {used} guesses were {review.agent}'s own; expected "
                  f"{sum(s.expected_bits for s in review.steps):.2f} bits in all, gained "
                  f"{sum(s.gained_bits for s in review.steps):.2f}"
                  + (f"; the answers: {', '.join(a.upper() for a in review.answers)}" if review.answers else ""),
                  markup=False)
    console.print(BOARD_REVIEW_LEGEND, style="dim", markup=False)
    return 0


def command_review(args: argparse.Namespace, console: Console) -> int:
    """Review a finished or abandoned game of the game the options describe: on Wordle's own shape each guess's value,
    the best guess, skill and luck; on the others each guess's information beside the advising agent's."""
    described = game_spec(args, lists=False)
    if not described.is_wordle:
        if args.screenshot is not None:
            raise UserError(f"--screenshot reads one board of Wordle, not {described.name}'s")
        return review_boards(args, console, described)
    if given := [flag(name) for name, value in agent_options(args).items() if value is not None] + (
            ["--agent"] if args.agent is not None else []):
        raise UserError(f"{given[0]} goes with a game of several boards, another length or fibble (--boards, "
                        "--length, --indicator fibble): one board of Wordle is reviewed by the solver's values")
    player_guesses(args)
    ultra_answers(args)
    board = screenshot_board(args) if args.screenshot is not None else None
    grid = sys.stdin.read() if args.grid == "-" else args.grid
    read_game(load_guesses(args.guesses), args.steps, answer=args.answer, grid=grid)  # a typo costs no matrix build
    model = answer_model(args)
    steps = parse_game(model.game, args.steps, answer=args.answer, grid=grid)
    answer = grid_answer(grid, args.answer)  # a pasted grid's day gives its answer
    score = grid_score(grid)
    hard = (args.hard or bool(score and score.hard)) and not args.ultra  # a score line ending in *: hard mode
    puzzle = args.puzzle if args.puzzle is not None else (score.puzzle if score else None)
    status = Console(stderr=True, highlight=False).status("reviewing", spinner="dots")

    def progress(done: int, total: int) -> None:
        status.update(f"reviewing guess {done + 1} of {total} (up to {budget_text(VALUE_BUDGET, hard or args.ultra)} "
                      "each)")

    with status:
        review = review_game(model, steps, hard=hard, max_guesses=args.max_guesses, answer=answer,
                             make_game=game_over, progress=progress, puzzle=puzzle, ultra=args.ultra)
    start = fixed_start(review, steps, args.ultra)
    if args.json:
        console.print_json(json.dumps(review_data(review) | ({"screenshot": board_data(board)} if board else {})
                                      | ({"fixed_start": start.data()} if start is not None else {})))
        return 0
    if board is not None:
        console.print(Text(screenshot_line(args.screenshot, board), style="yellow"))
    for note in review.notes:
        console.print(Text(note, style="yellow"))
    console.print(review_table(review.model.game, review, args.palette))
    for line in review_lines(review):
        console.print(Text(line, style="bold"))
    if start is not None:
        console.print(Text(start.text(), style="bold"))
    console.print(Text(REVIEW_LEGEND, style="dim"))
    if (share := share_text(review)) is not None:
        console.print(share, markup=False)
    return 0


def fixed_start(review: Review, steps: list[tuple[int, int]], ultra: bool) -> StartCost | None:
    """What the game's first two guesses cost as a fixed start beside the best opener (None for a game of fewer than
    two guesses, or won by its first); not computed, said why, under a model that weighs the answers."""
    from wordle.fixed_starts import StartCost, start_against_best
    from wordle.valuation import SAFETY_SECONDS

    if len(steps) < 2 or steps[0][1] == ALL_GREEN or steps[0][0] == steps[1][0]:
        return None
    game = review.model.game
    if not review.model.uniform:
        return StartCost(tuple(game.words.guesses[g] for g, _ in steps[:2]),
                         reason=f"a fixed start's total is over every answer equally likely; the {review.model.name} "
                                "model weighs them (--answers nyt or original values it)")
    with waiting("valuing the first two guesses as a fixed start"):
        return start_against_best(game, [g for g, _ in steps[:2]], hard=review.hard, max_guesses=review.max_guesses,
                                  ultra=ultra, seconds=SAFETY_SECONDS)


def screenshot_board(args: argparse.Namespace) -> ReadBoard:
    """The board of `--screenshot FILE`, its rows put in args.steps (the steps review reads).

    Raises:
        UserError: steps, --grid or --answer given beside it, a file that cannot be read, or an image that is not a
            Wordle board (wordle/screenshot.py says how one is read).
    """
    if args.steps or args.grid is not None or args.answer is not None:
        raise UserError("--screenshot reads the guesses and their colours from the image: give no steps, --grid "
                        "or --answer with it")
    try:
        with open(args.screenshot, "rb") as file:
            data = file.read(MOST_IMAGE_BYTES + 1)
    except OSError as error:
        raise UserError(f"{args.screenshot}: {error.strerror or error}") from None
    try:
        board = read_board(data, load_guesses("nyt").guesses)  # the widest list: the review's own checks each word
    except ScreenshotError as error:
        raise UserError(f"{args.screenshot}: {error}") from None
    args.steps = board.steps
    return board


def screenshot_line(path: str, board: ReadBoard) -> str:
    """What was read from a screenshot, one line, for the player to check."""
    theme = f"{board.theme} theme{', high contrast' if board.contrast else ''}"
    return (f"Read from {path} ({theme}, tiles {board.tile_pixels} px): "
            + " ".join(f"{row.word.upper()} {format_pattern(row.pattern)}" for row in board.rows))


def add_review_command(commands: argparse._SubParsersAction) -> None:
    """`review`: a finished game scored guess by guess."""
    parser = commands.add_parser(
        "review", help="review a finished game: each guess's skill and luck, and the best guess at each turn",
        description="Review a game: give its steps as WORD:PATTERN (e.g. crane:--gg-), or --answer and the words "
                    "played, or --grid with the share grid and the words, or --screenshot with a picture of the "
                    "board. Each guess gets its expected guesses "
                    "to finish and the best guess's, a skill and a luck figure (0-99), and so does the game.")
    parser.add_argument("steps", nargs="*", metavar="WORD[:PATTERN]",
                        help="the guesses, each with the colours shown (letters g y -, digits 2 1 0 or emoji "
                             "squares); with --answer or --grid, the words alone")
    parser.add_argument("--answer", metavar="WORD", help="the answer: the colours follow from it")
    parser.add_argument("--grid", metavar="TEXT|-",
                        help="the share grid as pasted (its score line, then one row of squares a guess), or - to "
                             "read it from stdin; the words are given beside it, one a row")
    parser.add_argument("--screenshot", metavar="FILE",
                        help="a screenshot of the board (PNG, JPEG, ...; the Times' light, dark or high-contrast "
                             "theme): its guesses and colours are read from it, and no steps are given")
    add_mode_options(parser, "the game was played in hard mode (a pasted score line ending in * says so too)")
    parser.add_argument("--puzzle", type=puzzle_argument, metavar="N|today",
                        help="the game was that day's Wordle (today: today's number): its share grid names it "
                             "(default: the number on a pasted grid's score line, if any)")
    parser.add_argument("--max-guesses", type=whole(1, MOST_GUESSES), default=6, metavar="N",
                        help=f"guess limit (default 6, at most {MOST_GUESSES})")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument("--indicator", choices=("honest", "fibble"), default="honest", metavar="NAME",
                        help="who replied: honest (default) or fibble (one lie in every row but a winning one; give "
                             "the rows as shown)")
    boards = players_of(GameSpec(boards=2))
    parser.add_argument("--agent", choices=tuple(boards), default=None, metavar="NAME",
                        help="with several boards, another length or fibble, whose guess each one is set beside: "
                             f"{', '.join(boards)} (default entropy)")
    add_palette_option(parser)
    add_model_options(parser)
    add_shape_options(parser)
    add_agent_options(parser)
    parser.set_defaults(handler=command_review)


def puzzle_argument(text: str) -> int:
    """--puzzle: a Wordle number, or `today` for today's (days since 19 June 2021)."""
    if text == "today":
        return puzzle_number(datetime.date.today())
    if text.isdigit():
        return int(text)
    raise argparse.ArgumentTypeError(f"'{text}' is not a Wordle number nor 'today'")


def review_offer(game: Wordle, playthrough: Playthrough, args: argparse.Namespace) -> str:
    """The one line `play` ends with: the review command for the game just played."""
    words = " ".join(game.words.guesses[turn.guess] for turn in playthrough.turns)
    if playthrough.answer is not None:
        given = f"--answer {game.words.answers[playthrough.answer]} {words}"
    else:
        given = " ".join(f"{game.words.guesses[t.guess]}:{format_pattern(t.pattern)}" for t in playthrough.turns)
    extra = (" --hard" if args.hard else "") + (" --ultra" if getattr(args, "ultra", False) else "") + (f" --max-guesses {args.max_guesses}" if args.max_guesses != 6 else "")
    extra += f" --answers {quoted(args.answers or 'original')} --guesses {quoted(args.guesses or 'original')}"
    return f"Review this game: python cli.py review {given}{extra}"


def quoted(text: str) -> str:
    """A word or path as the shell reads it back (quoted only where it must be).

    >>> quoted("nyt"), quoted("my lists/guesses.txt")
    ('nyt', "'my lists/guesses.txt'")
    """
    import shlex
    return shlex.quote(str(text))
