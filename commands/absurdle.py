"""`absurdle`: search for a guaranteed win against Absurdle within a guess limit."""

from __future__ import annotations

import argparse

from rich.console import Console

from .games import load_game
from .options import add_word_list_options, whole
from .render import waiting


def command_absurdle(args: argparse.Namespace, console: Console) -> int:
    """Prove that Absurdle cannot be beaten in 3 guesses, and search for a 4-guess win in each mode."""
    from agents.absurdle_bounds import four_guess_win, no_three_guess_win

    game = load_game(args)
    with waiting("proving that 3 guesses never beat Absurdle"):
        proof = no_three_guess_win(game)
    if proof.holds:
        console.print(f"3 guesses never beat Absurdle (normal and hard mode): every one of {proof.openers} openers "
                      f"leaves a bucket of at least {proof.smallest_first_bucket} answers, and no second guess "
                      f"gets more than {proof.most_distinct_replies} different patterns, so none leaves a single "
                      f"answer for guess 3 ({proof.settled_by_bound} openers settled by that bound, "
                      f"{proof.searched_exactly} searched over every second guess; {proof.seconds:.1f} s).",
                      markup=False, soft_wrap=True)
    else:
        first, second = proof.counterexample
        console.print(f"Absurdle can be beaten in 3 guesses on these lists: {game.words.guesses[first]}, then "
                      f"{game.words.guesses[second]} leaves one answer ({proof.seconds:.1f} s).", markup=False)
    for hard in (False, True):
        with waiting(f"searching a 4-guess win ({'hard' if hard else 'normal'} mode)"):
            win = four_guess_win(game, hard=hard, beam=args.beam)
        mode = "hard" if hard else "normal"
        if win.guesses:
            words = " ".join(game.words.guesses[g].upper() for g in win.guesses)
            console.print(f"{mode} mode: {words} beats Absurdle in 4 (answers kept: "
                          f"{', '.join(map(str, win.kept))}); found after {win.examined} pairs of first guesses "
                          f"in {win.seconds:.1f} s.", markup=False, soft_wrap=True)
        else:
            console.print(f"{mode} mode: no 4-guess win within a beam of {args.beam} ({win.examined} pairs, "
                          f"{win.seconds:.1f} s).", markup=False)
    return 0


def add_absurdle_command(commands: argparse._SubParsersAction) -> None:
    """`absurdle`: the 3-guess proof and the 4-guess search against Absurdle."""
    parser = commands.add_parser(
        "absurdle", help="prove Absurdle needs 4 guesses and find a 4-guess win",
        description="Prove by search that no Guesser beats Absurdle in 3 guesses, and search for a 4-guess win in "
                    "normal and hard mode.")
    parser.add_argument("--beam", type=whole(1, 12972), default=50, metavar="N",
                        help="first and second guesses tried in the 4-guess search, each (default 50)")
    add_word_list_options(parser)
    parser.set_defaults(handler=command_absurdle)
