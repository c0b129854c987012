"""`absurdle`: search for a guaranteed win against Absurdle within a guess limit, and Absurdle's challenge mode
(`--target WORD`: force that word to be the one Absurdle keeps; `--prove`: the fewest guesses that do, proved)."""

from __future__ import annotations

import argparse

from rich.console import Console

from plumbing.errors import UserError
from wordle import format_pattern

from .games import load_game
from .options import add_word_list_options, whole
from .render import plain_console, tiles, waiting


def command_absurdle(args: argparse.Namespace, console: Console) -> int:
    """Prove that Absurdle cannot be beaten in 3 guesses, and search for a 4-guess win in each mode; with --target,
    play (or, with --prove, prove) Absurdle's challenge for that word."""
    from agents.absurdle_bounds import four_guess_win, no_three_guess_win

    if args.target is None:
        for flag, value in (("--prove", args.prove), ("--nodes", args.nodes), ("--seconds", args.seconds)):
            if value not in (None, False):
                raise UserError(f"{flag} belongs to the challenge: add --target WORD")
    elif args.beam is not None:
        raise UserError("--beam belongs to the 4-guess search, not the challenge (--target)")
    game = load_game(args)
    if args.target is not None:
        return challenge(args, game, console)
    args.beam = 50 if args.beam is None else args.beam
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
        "absurdle", help="prove Absurdle needs 4 guesses and find a 4-guess win; its challenge mode (--target)",
        description="Prove by search that no Guesser beats Absurdle in 3 guesses, and search for a 4-guess win in "
                    "normal and hard mode. With --target WORD, Absurdle's challenge mode (qntm.org/challenge): "
                    "Absurdle plays as always, and the Guesser must leave WORD as the one word it keeps, then guess "
                    "it; a guess after which Absurdle's bucket no longer holds WORD loses. Counts include the final "
                    "guess.")
    parser.add_argument("--beam", type=whole(1, 12972), metavar="N",
                        help="first and second guesses tried in the 4-guess search, each (default 50)")
    parser.add_argument("--target", metavar="WORD",
                        help="challenge mode: force WORD (one of the answers) to be the word Absurdle keeps; shows a "
                             "good Guesser's game")
    parser.add_argument("--prove", action="store_true",
                        help="with --target: prove the fewest guesses that force it, by exhaustive search (or the "
                             "interval proved when the budget runs out)")
    parser.add_argument("--nodes", type=whole(1, 10**9), metavar="N",
                        help=f"with --prove: sets the search may expand (default {DEFAULT_NODES})")
    parser.add_argument("--seconds", type=whole(1, 10**7), metavar="S",
                        help="with --prove: a cap on the wall clock, in seconds (default none)")
    add_word_list_options(parser)
    parser.set_defaults(handler=command_absurdle)


#: The node budget of `absurdle --target WORD --prove` unless --nodes says.
DEFAULT_NODES = 20_000


def show_line(console: Console, challenge_search, target: int, line: list[int]) -> None:
    """A challenge game, a guess a line: the tiles, the reply in letters, and how many answers Absurdle kept."""
    game = challenge_search.game
    for number, step in enumerate(challenge_search.play(line), start=1):
        text = tiles(game.words.guesses[step.guess], step.pattern)
        kept = len(step.kept)
        holds = "the target alone" if kept == 1 and step.kept[0] == target else \
            f"{kept} answers kept, the target among them" if target in step.kept else f"{kept} answers kept, not the target"
        if number == len(line) and step.guess == int(game.words.answer_rows[target]) and kept == 1:
            holds = "won"
        text.append(f"  {number}. {game.words.guesses[step.guess].upper()} {format_pattern(step.pattern)}  {holds}")
        console.print(text, soft_wrap=True)


def challenge(args: argparse.Namespace, game, console: Console) -> int:
    """`absurdle --target WORD [--prove]`: a good Guesser's game for the challenge, or the proof of its fewest guesses."""
    from agents.absurdle_challenge import Challenge, ChallengeLimit

    target = game.words.answer_id(args.target)
    word = game.words.answers[target].upper()
    search = Challenge(game)
    if not args.prove:
        with waiting(f"playing the challenge for {word}"):
            line = search.greedy_line(target)
        if line is None:
            console.print(f"The greedy Guesser did not force {word} within its guesses.", markup=False)
            return 1
        console.print(f"Absurdle's challenge, target {word}: a greedy Guesser (the guess with the smallest bucket that "
                      f"keeps the target; two-guess endings searched exactly) wins in {len(line)}:", markup=False,
                      soft_wrap=True)
        show_line(console, search, target, line)
        console.print("Not proved fewest: add --prove to search every shorter line.", markup=False)
        return 0
    limit = ChallengeLimit(nodes=args.nodes or DEFAULT_NODES, seconds=args.seconds)
    with waiting(f"finding a line for {word}"):
        known = search.greedy_line(target)
    status = plain_console(stderr=True).status(f"proving {word}", spinner="dots")
    with status:
        proof = search.prove(target, limit, line=known,
                             progress=lambda guesses: status.update(
                                 f"proving {word}: searching every line of {guesses} guesses ({search.nodes} nodes so "
                                 f"far)"))
    spent = f"{proof.nodes} nodes, {proof.seconds:.1f} s"
    if proof.proved:
        console.print(f"{word}: proved, the fewest guesses that force it is {proof.low} ({spent}); every line of "
                      f"{proof.low - 1} guesses was searched and none leaves {word} alone. A line of {proof.low}:",
                      markup=False, soft_wrap=True)
    elif proof.high is None and not proof.cut:
        console.print(f"{word}: no line of guesses forces it ({spent}): every line of up to {proof.low - 1} guesses was "
                      f"searched, and a shortest line never needs more (each of its guesses keeps fewer answers).",
                      markup=False, soft_wrap=True)
    else:
        best = f"a line of {proof.high} is known" if proof.high is not None else "no line is known yet"
        console.print(f"{word}: between {proof.low} and {proof.high if proof.high is not None else '?'} guesses, "
                      f"proved at least {proof.low} ({spent}; the {proof.cut} ran out while lines of {proof.low} "
                      f"were searched); {best}" + (":" if proof.line else "."), markup=False, soft_wrap=True)
    if proof.line:
        show_line(console, search, target, list(proof.line))
    return 0
