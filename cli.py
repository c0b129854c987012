"""wordle-arena's command line: argument parsing and rich rendering; the library returns data.

Every command reports bad input (a word, a pattern, a file, a flag) as one line on
stderr with a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import errno
import json
import math
import os
import signal
import sys
import threading
import warnings
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from agents import AGENTS, Decision, Param, agent_names, all_params, game_rng, make_agent
from agents.registry import ForeignParameters
from agents.base import draw_answer, fresh_seed, state_rng
from agents.params import WHOLE, flag
from agents.indicators import Choice, against_rngs, indicator_names, make_indicator, play_with
from agents.answer_model import DEFAULT_MODEL, MODELS, AnswerModel, load_model, read_exclusions
from agents.assistant import (ADVISOR, Advice, advice_data, advise_model, guess_stats, make_advisor, parse_step,
                              replay)
from agents.model_value import VALUE_BUDGET, Valuer
from agents.review import Review, parse_game, review_data, review_game
from agents.two_step import rank_openers
from search import (IllegalMove, Playthrough, State, Turn, UserError, Wordle, Words, clip, decode_colours,
                    format_pattern, load_matrix, load_words)
from search.matrix import cache_path, read_cache
from search.patterns import share_grid
from search.storage import check_outputs, prepare_output, write_atomically
from search.words import NAMED_ANSWERS, named_words
from search.tree import FORMATS as TREE_FORMATS, build_tree, write_tree

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_BUG = 70  # sysexits' EX_SOFTWARE: an internal error
#: Output width when stdout is not a terminal (rich would otherwise assume 80 and squeeze tables).
PIPED_WIDTH = 160
#: Tile styles by colour code (2 green, 1 yellow, 0 grey) for each --palette; `contrast` is the real game's
#: high-contrast mode (orange for the right place, blue for the wrong place). The reply column and the
#: keyboard's marks carry the same feedback as text, so nothing depends on colour (piped output, NO_COLOR).
PALETTES = {
    "default": {2: "bold white on #538d4e", 1: "bold white on #b59f3b", 0: "bold white on #3a3a3c"},
    "contrast": {2: "bold white on #f5793a", 1: "bold black on #85c0f9", 0: "bold white on #3a3a3c"},
}
REPLY_LEGEND = "reply: g right letter, right place; y in the word, elsewhere; - not in the word"
#: What a played game's trace shows beyond the reply, printed under it.
TRACE_LEGEND = ("guesses: expected guesses to finish from that turn, that guess included, by the cost-to-go model "
                "(one scale for every agent and for you; lower is better)")
#: ... and for a searching agent.
SEARCH_LEGEND = ("; top alternatives: the agent's next choices in its own order, with the same figure; "
                 "nodes: positions searched")


class ArgumentParser(argparse.ArgumentParser):
    """argparse that reports a bad flag or value in one line, not usage plus message."""

    def error(self, message: str) -> None:  # type: ignore[override]
        """Print `prog: error: message` and exit 2."""
        sys.stderr.write(f"{self.prog}: error: {clip(message)}\n")
        raise SystemExit(EXIT_USAGE)


    def parse_args(self, args: Any = None, namespace: Any = None) -> argparse.Namespace:  # type: ignore[override]
        """Parse, naming an unknown flag before asking for a missing command."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras and isinstance(getattr(parsed, "steps", None), list):  # assist's steps on both sides of an option
            parsed.steps += [extra for extra in extras if not extra.startswith("-")]
            extras = [extra for extra in extras if extra.startswith("-")]
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        if getattr(parsed, "handler", None) is None:
            self.error(f"choose a command: {', '.join(COMMANDS)} (see --help)")
        return parsed


# -- shared options ------------------------------------------------------------------
#: The commands, in the order --help lists them.
COMMANDS = ("play", "tournament", "verify", "tree", "assist", "review", "openers", "solve", "train", "serve", "absurdle")
#: Upper limits of the commands' own numbers: past them a run takes hours or means nothing.
MOST_GUESSES = 20
MOST_SEED = 2**32 - 1
MOST_JOBS = 64
#: Default most worker processes of `serve` (each holds the game and its agents: a few hundred MB).
MOST_WEB_WORKERS = 4
MOST_PROBLEMS = 10_000
MOST_OPENERS = 500
MOST_SUGGESTIONS = 100
MOST_SAMPLE = 100_000
MOST_BREADTH = 12972
MOST_TOTAL = 10**7


def whole(least: int, most: int) -> Any:
    """argparse type: a whole number from `least` to `most`, both included (read as agents' parameters are)."""
    number = Param("the value", WHOLE, None, "", least=least, most=most, optional=True)

    def read(text: str) -> int:
        try:
            return number.parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error).removeprefix("the value ")) from None
    return read


def path_text(text: str) -> str:
    """argparse type: a path, refused when empty (an empty --out would write into the current folder or the default)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path; name a file or folder")
    return text


def add_seed_option(parser: argparse.ArgumentParser, help: str, default: int | None = 0) -> None:
    """--seed: a whole number from 0 to MOST_SEED."""
    parser.add_argument("--seed", type=whole(0, MOST_SEED), default=default, metavar="S",
                        help=f"{help} (0 to {MOST_SEED})")


def add_word_list_options(parser: argparse.ArgumentParser, named: bool = False) -> None:
    """--answers and --guesses: other word lists than the shipped official ones (`named`: answer lists by name too)."""
    if named:
        parser.add_argument("--answers", metavar="|".join(NAMED_ANSWERS) + "|FILE",
                            help="the answers: " + "; ".join(f"{name}, {what}" for name, what in NAMED_ANSWERS.items())
                                 + "; or a file, one word a line (default original)")
    else:
        parser.add_argument("--answers", metavar="FILE",
                            help="answer list, one word a line (default: the 2315 official answers)")
    parser.add_argument("--guesses", metavar="FILE", help="allowed-guess list (default: the 12972 official guesses)")


def add_game_options(parser: argparse.ArgumentParser, named: bool = False) -> None:
    """--max-guesses and the word lists: the rules a game is played under."""
    parser.add_argument("--max-guesses", type=whole(1, MOST_GUESSES), default=6, metavar="N",
                        help=f"guess limit (default 6, at most {MOST_GUESSES})")
    add_word_list_options(parser, named)


def param_help(name: str, declarations: list[Param]) -> tuple[str, str]:
    """The metavar and --help text of a parameter: who takes it, what it does, its range and default(s)."""
    first = declarations[0]
    takers = [agent for agent, spec in AGENTS.items() if spec.param(name) is not None]
    defaults: dict[str, list[str]] = {}
    for agent in takers:
        default = AGENTS[agent].param(name).default  # type: ignore[union-attr]
        defaults.setdefault(first.none_means if default is None else first.text(default), []).append(agent)
    common = max(defaults, key=lambda text: len(defaults[text]))
    default_text = "; ".join([f"default {common}"] + [f"{', '.join(agents)} {text}"
                                                      for text, agents in defaults.items() if text != common])
    who = "search agents" if len(takers) > 1 and "expectimax" in takers else ", ".join(takers)
    if first.kind == "whole number":
        metavar, extra = "N", f"; {first.least} to {first.most}"
    elif first.kind == "choice":
        metavar, extra = "|".join(first.choices), ""
    elif first.kind == "switch":
        metavar, extra = "yes|no", ""
    elif first.kind == "word":
        metavar, extra = "|".join(["WORD", *first.choices]), ""
    else:
        metavar, extra = ",".join(["X"] * first.count), ""
    return metavar, f"{who}: {first.help} ({default_text}{extra})"


def add_agent_options(parser: argparse.ArgumentParser) -> None:
    """One flag per parameter any registered agent declares; each agent says which it takes."""
    for name, declarations in all_params().items():
        def convert(text: str, param: Param = declarations[0]) -> Any:
            try:
                return param.parse(text)
            except ValueError as error:
                raise argparse.ArgumentTypeError(str(error)) from None
        metavar, help_text = param_help(name, declarations)
        parser.add_argument(flag(name), dest=name, type=convert, default=None, metavar=metavar, help=help_text)


def agent_options(args: argparse.Namespace) -> dict[str, Any]:
    """The agent parameters given on the command line (unset ones are None)."""
    return {name: getattr(args, name, None) for name in all_params()}


#: A pattern matrix above this many bytes is announced before it is written to the cache.
ANNOUNCE_BYTES = 50_000_000


def load_game(args: argparse.Namespace, named: bool = False) -> Wordle:
    """The game over the chosen word lists (`named`: --answers may name a list), with its pattern matrix
    from the disk cache, or built under a spinner, and announced on stderr when it is large."""
    answers, guesses = getattr(args, "answers", None), getattr(args, "guesses", None)
    if named and answers in NAMED_ANSWERS:
        words = named_words(answers, guesses)
    elif named and answers is not None and not Path(answers).exists():
        raise UserError(f"{answers}: no such file, nor an answer list's name ({', '.join(NAMED_ANSWERS)})")
    else:
        words = load_words(answers=answers, guesses=guesses)
    return game_over(words)


def game_over(words: Words) -> Wordle:
    """The game over `words` with its pattern matrix from the disk cache, or built under a spinner (announced on
    stderr when it is large)."""
    path = cache_path(words)
    if (matrix := read_cache(path, words)) is not None:
        return Wordle(words, matrix)
    size = len(words.guesses) * len(words.answers)
    what = f"the pattern matrix of {len(words.guesses)} guesses x {len(words.answers)} answers ({size / 1e6:.0f} MB)"
    if size > ANNOUNCE_BYTES:
        plain_console(stderr=True).print(
            f"wordle-arena: building {what} once; it is kept in {path} (delete it to free the space)",
            markup=False, soft_wrap=True)
    with waiting(f"building {what}"):
        return Wordle(words, load_matrix(words))


@contextmanager
def waiting(what: str) -> Iterator[None]:
    """A spinner on stderr saying what the program is doing while it works (drawn on a terminal only)."""
    with plain_console(stderr=True).status(Text(what), spinner="dots"):
        yield


# -- rendering -----------------------------------------------------------------------
def tiles(word: str, pattern: int, palette: str = "default") -> Text:
    """A guess as coloured tiles."""
    text = Text()
    for letter, colour in zip(word.upper(), decode_colours(pattern)):
        text.append(f" {letter} ", style=PALETTES[palette][colour])
        text.append(" ")
    return text


#: Alternatives a trace shows for each guess.
TRACE_ALTERNATIVES = 4


def expected_guesses(game: Wordle, turns: list[Turn], decisions: list[Decision] | None = None) -> list[list[float]]:
    """Each turn's expected guesses to finish: of the guess played, then of the agent's top alternatives.

    They come from agents.assistant.guess_stats over the answers possible before the turn.
    """
    candidates = game.initial_state().candidates
    rated = []
    for number, turn in enumerate(turns):
        others = [g for g, _ in decisions[number].alternatives[:TRACE_ALTERNATIVES]] if decisions else []
        rated.append([float(x) for x in guess_stats(game, candidates, np.array([turn.guess, *others]))[1]])
        candidates = candidates[game.matrix[turn.guess, candidates] == turn.pattern]
    return rated


def trace_table(game: Wordle, turns: list[Turn], decisions: list[Decision] | None = None,
                palette: str = "default") -> Table:
    """One row per guess: tiles, the reply as text, answers left, bits gained, expected guesses to finish and,
    for searching agents, the alternatives weighed (with their expected guesses) and the nodes searched."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column("guess")
    table.add_column("reply")
    table.add_column("left", justify="right")
    table.add_column("bits", justify="right")
    table.add_column("guesses", justify="right")
    show_search = bool(decisions) and any(d.alternatives or d.nodes for d in decisions)
    if show_search:
        table.add_column("top alternatives (guesses)")
        table.add_column("nodes", justify="right")
    rated = expected_guesses(game, turns, decisions if show_search else None)
    for number, turn in enumerate(turns, start=1):
        played, *others = rated[number - 1]
        row: list[Any] = [str(number), tiles(game.words.guesses[turn.guess], turn.pattern, palette),
                          format_pattern(turn.pattern), str(turn.remaining_after), f"{turn.bits:.2f}", f"{played:.3f}"]
        if show_search and decisions is not None:
            decision = decisions[number - 1]
            row.append(", ".join(f"{game.words.guesses[g]} {x:.3f}" for (g, _), x in zip(decision.alternatives, others)))
            nodes = str(decision.nodes) if decision.nodes else ""
            row.append(f"{nodes} ({'shallower search' if decision.fallback else 'budget reached'})"
                       if decision.budget_reached else nodes)
        table.add_row(*row)
    return table


def worst_text(worst: int, max_guesses: int) -> str:
    """The worst game as the tournament prints it: its guess count, or X when some game was not solved."""
    return "X" if worst > max_guesses else str(worst)


def outcome_line(game: Wordle, playthrough: Playthrough, max_guesses: int) -> Text:
    """How the game ended, in one line."""
    used = len(playthrough.turns)
    if playthrough.answer is None:  # an Indicator that holds no answer
        left = len(playthrough.final.candidates)
        return Text(f"Not solved in {max_guesses} guesses: the Indicator held no answer; {left} were still possible.",
                    style="bold red")
    answer = game.words.answers[playthrough.answer].upper()
    if playthrough.solved:
        return Text(f"Solved {answer} in {used}/{max_guesses}.", style="bold green")
    return Text(f"Not solved in {max_guesses} guesses: the answer was {answer}.", style="bold red")


# -- play ----------------------------------------------------------------------------
class Abandoned(Exception):
    """The person at the prompt ended the game (Ctrl-D)."""


def pick_answer(game: Wordle, word: str | None, seed: int) -> int:
    """The answer column: the word given, or the answer drawn from the seed."""
    if word is not None:
        return game.words.answer_id(word)
    return draw_answer(seed, len(game.words.answers))


def command_play(args: argparse.Namespace, console: Console) -> int:
    """Play one game: an agent's trace, or a person at the terminal when no agent is named."""
    play_indicator_checked(args)
    game = load_game(args, named=True)
    seed = fresh_seed() if args.seed is None else args.seed
    answer = pick_answer(game, args.answer, seed)
    mode = "hard" if args.hard else "normal"
    board = plain_console(stderr=True) if args.json else console  # --json: stdout holds the JSON alone
    decisions: list[Decision] = []
    choices: list[Choice] = []
    run = indicated_run(game, args, answer, seed, choices)
    if args.agent is None:
        playthrough = play_person(game, answer, args, board, run)
    else:
        options = agent_options(args)
        if args.indicator == "adversary" and AGENTS[args.agent].param("depth") is None:
            options["depth"] = None  # --depth is the adversary's alone here
        # Its first move kept on disk if it searches, and every move the full search's, as in the tournament.
        agent = make_advisor(args.agent, game, bounded=False, **options)
        rng = game_rng(seed, answer) if run is None else against_rngs(seed)[0]

        def choose(state: State) -> int:
            with waiting(thinking(agent, state.hard, state.max_guesses, state.guesses_used + 1)):
                decisions.append(agent.decide(state, rng))
            return decisions[-1].guess

        if not args.json:
            against = (f"against {args.indicator}" if args.indicator != "honest"
                       else game.words.answers[answer].upper())
            if args.indicator == "adversary":
                against += f" (searching {depth_of(args)} deep)"
            console.print(Text(f"{args.agent} playing {against} ({mode} mode, seed {seed})", style="bold"))
        playthrough = run(choose) if run is not None else game.play(choose, answer, hard=args.hard,
                                                                    max_guesses=args.max_guesses)
    if playthrough is None:
        return 1
    if args.json:
        console.print_json(json.dumps(play_data(game, playthrough, args, seed, decisions)))
    else:
        if args.agent is not None:
            console.print(trace_table(game, list(playthrough.turns), decisions, args.palette))
            console.print(REPLY_LEGEND)
            searched = any(d.alternatives or d.nodes for d in decisions)
            console.print(TRACE_LEGEND + (SEARCH_LEGEND if searched else ""), markup=False)
        for line in choice_lines(game, playthrough, choices, args.indicator):
            console.print(line, markup=False, soft_wrap=True)
        console.print(outcome_line(game, playthrough, args.max_guesses))
        if args.agent is None and args.answer is None and args.indicator == "honest":
            console.print(f"The answer was drawn with seed {seed}: play it again with --seed {seed}.")
        console.print(share_grid_of(playthrough, args.max_guesses, args.palette), markup=False)
        if playthrough.turns:
            console.print(review_offer(game, playthrough, args), markup=False, soft_wrap=True)
    return 0 if playthrough.solved else 1


def play_data(game: Wordle, playthrough: Playthrough, args: argparse.Namespace, seed: int,
              decisions: list[Decision]) -> dict:
    """A played game as plain data (for --json): who played, the rules, every turn, the outcome."""
    words = game.words
    turns = []
    rated = expected_guesses(game, list(playthrough.turns))
    for number, turn in enumerate(playthrough.turns):
        decision = decisions[number] if decisions else None
        turns.append({"guess": words.guesses[turn.guess], "pattern": format_pattern(turn.pattern),
                      "remaining_before": turn.remaining_before, "remaining_after": turn.remaining_after,
                      "bits": round(turn.bits, 6), "expected_guesses": round(rated[number][0], 6),
                      "agent_value": None if decision is None or decision.value is None else round(decision.value, 6)})
    return {"agent": args.agent, "indicator": args.indicator,
            "answer": None if playthrough.answer is None else words.answers[playthrough.answer], "seed": seed, "hard": args.hard,
            "max_guesses": args.max_guesses, "solved": playthrough.solved, "guesses": len(playthrough.turns),
            "turns": turns, "share": share_grid_of(playthrough, args.max_guesses, args.palette)}


def share_grid_of(playthrough: Playthrough, max_guesses: int, palette: str = "default") -> str:
    """A played game's share grid (search.patterns.share_grid)."""
    return share_grid([turn.pattern for turn in playthrough.turns], playthrough.solved, max_guesses,
                      playthrough.final.hard, palette)


#: The keyboard's rows, as on the game's screen.
KEY_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
KEY_STATES = {2: "right place", 1: "elsewhere", 0: "not in the word"}


def letter_states(game: Wordle, history: tuple[tuple[int, int], ...]) -> dict[str, int]:
    """The best colour each guessed letter has shown (2 green, 1 yellow, 0 grey); unused letters are absent."""
    best: dict[str, int] = {}
    for guess, pattern in history:
        for letter, colour in zip(game.words.guesses[guess], decode_colours(pattern)):
            best[letter] = max(best.get(letter, 0), colour)
    return best


def keyboard(game: Wordle, history: tuple[tuple[int, int], ...], palette: str = "default") -> list[Text]:
    """The keyboard with each used letter coloured, then the same in words (readable without colour)."""
    best = letter_states(game, history)
    lines = []
    for indent, row in enumerate(KEY_ROWS):
        line = Text(" " * indent)
        for letter in row:
            style = PALETTES[palette][best[letter]] if letter in best else ""
            line.append(f" {letter.upper()} ", style=style)
            line.append(" ")
        lines.append(line)
    groups = [f"{label}: {' '.join(sorted(l.upper() for l, c in best.items() if c == colour)) or '(none)'}"
              for colour, label in KEY_STATES.items()]
    unused = " ".join(sorted(set("".join(KEY_ROWS)) - set(best))).upper()
    lines.append(Text("; ".join(groups) + f"; unused: {unused or '(none)'}"))
    return lines


def play_indicator_checked(args: argparse.Namespace) -> None:
    """Refuse, in one line, a --answer or --seed that the chosen --indicator would ignore."""
    if args.indicator != "honest" and args.answer is not None:
        raise UserError(f"--answer goes with --indicator honest: {args.indicator} holds no answer")
    if args.indicator in ("absurdle", "adversary") and args.agent is None and args.seed is not None:
        raise UserError(f"--seed: you against {args.indicator} draws nothing (its replies follow from your guesses); "
                        "leave it out")
    if args.indicator == "honest" and args.agent is None and args.answer is not None and args.seed is not None:
        raise UserError("--seed: you against the --answer given draws nothing; leave it out")


def depth_of(args: argparse.Namespace) -> int:
    """How deep --indicator adversary searches: --depth, else its own default."""
    from agents.indicators import INDICATORS
    return args.depth or next(p.default for p in INDICATORS["adversary"].params if p.name == "depth")


class Announced:
    """An Indicator whose every reply is searched under a spinner saying so."""

    def __init__(self, indicator: Any, what: str):
        self.indicator, self.what = indicator, what

    def reply(self, state: State, rng: Any) -> Choice:
        """The Indicator's reply, with the spinner on."""
        with waiting(self.what):
            return self.indicator.reply(state, rng)


def indicated_run(game: Wordle, args: argparse.Namespace, answer: int, seed: int, choices: list[Choice]):
    """How a game against --indicator is played (a function of the chooser), or None for today's honest game.

    Each of the Indicator's choices is appended to `choices`. The Indicator draws from its own
    stream of the seed (`against_rngs`), so `--seed S` replays the matrix's random game of seed S.
    """
    if args.indicator == "honest":
        return None
    indicator = make_indicator(args.indicator, game, **({"depth": depth_of(args)} if args.indicator == "adversary"
                                                          else {}))
    if args.indicator == "adversary":
        indicator = Announced(indicator, f"the adversary searches its reply {depth_of(args)} deep")
    rng = against_rngs(seed)[1]
    return lambda choose: play_with(game, choose, indicator, rng, hard=args.hard, max_guesses=args.max_guesses,
                                    seen=lambda state, choice: choices.append(choice))


def choice_lines(game: Wordle, playthrough: Playthrough, choices: list[Choice], name: str) -> list[str]:
    """One line per reply of an Indicator other than honest: what it kept and the largest replies it rejected."""
    lines = []
    for turn, choice in zip(playthrough.turns, choices):
        shown = ", ".join(f"{format_pattern(p)} {kept}" for p, kept in choice.rejected[:4])
        more = len(choice.rejected) - 4
        lines.append(f"{name} on {game.words.guesses[turn.guess].upper()}: kept {choice.kept} with "
                     f"{format_pattern(choice.pattern)}; rejected {shown or 'nothing'}"
                     + (f" and {more} smaller" if more > 0 else ""))
    return lines


def play_person(game: Wordle, answer: int, args: argparse.Namespace, console: Console,
                run=None) -> Playthrough | None:
    """A person guesses at the prompt; unknown words, repeats and hard-mode breaches are refused with the reason.

    Returns:
        The finished game, or None when the person ended it (Ctrl-D); the board and the outcome
        go to `console`.
    """
    mode = "hard mode" if args.hard else "normal mode"
    console.print(f"Guess the word in {args.max_guesses} tries ({mode}). End with Ctrl-D.")
    console.print(REPLY_LEGEND)
    turns: list[Turn] = []

    def ask(state: State) -> int:
        if state.history:
            guess, pattern = state.history[-1]
            before = turns[-1].remaining_after if turns else len(game.all_answers)
            turns.append(Turn(guess, pattern, before, len(state.candidates)))
            console.print(trace_table(game, turns, palette=args.palette))
            for line in keyboard(game, state.history, args.palette):
                console.print(line)
        while True:
            try:
                word = console.input(f"guess {state.guesses_used + 1}/{state.max_guesses}> ").strip().lower()
            except EOFError:
                raise Abandoned from None
            if not word:
                continue
            if word not in game.words.guess_index:
                console.print(Text(f"'{word}' is not in the list of allowed guesses", style="yellow"))
                continue
            guess = game.words.guess_index[word]
            if (earlier := next((n for n, (g, _) in enumerate(state.history, 1) if g == guess), None)) is not None:
                console.print(Text(f"'{word}' was already guessed (guess {earlier}); it would tell you nothing new",
                                   style="yellow"))
                continue
            if (broken := game.violation(state, guess)) is not None:
                console.print(Text(f"hard mode: {broken}", style="yellow"))
                continue
            return guess

    try:
        playthrough = run(ask) if run is not None else game.play(ask, answer, hard=args.hard,
                                                                 max_guesses=args.max_guesses)
    except Abandoned:
        held = (f"the answer was {game.words.answers[answer].upper()}" if run is None
                else f"{args.indicator} held no answer")
        console.print(f"\nGame abandoned; {held}.")
        return None
    console.print(trace_table(game, list(playthrough.turns), palette=args.palette))
    console.print(TRACE_LEGEND, markup=False)
    if args.json:
        console.print(outcome_line(game, playthrough, args.max_guesses))
    return playthrough


def add_palette_option(parser: argparse.ArgumentParser) -> None:
    """--palette: the tiles' colours (the reply column says the same in text; NO_COLOR turns colour off)."""
    parser.add_argument("--palette", choices=tuple(PALETTES), default="default", metavar="|".join(PALETTES),
                        help="tile colours: default (green, yellow) or contrast (orange, blue, as the game's "
                             "high-contrast mode); the reply column spells the feedback out either way, and "
                             "the NO_COLOR environment variable turns colour off")


def add_play_command(commands: argparse._SubParsersAction) -> None:
    """`play`: one game, by an agent or by a person."""
    parser = commands.add_parser(
        "play", help="play one game: an agent's trace, or you at the prompt",
        description="Play one game. With --agent, show that agent's game as a trace; without it, you guess at the prompt.",
    )
    parser.add_argument("--agent", choices=agent_names(), metavar="NAME",
                        help=f"the Guesser: {', '.join(agent_names())} (default: you play)")
    parser.add_argument("--answer", metavar="WORD", help="the hidden word (default: a seeded random answer)")
    parser.add_argument("--indicator", choices=indicator_names(), default="honest", metavar="NAME",
                        help=f"who replies: {', '.join(indicator_names())} (default honest: today's game; the others "
                             "hold no answer, so --answer goes with honest only, and the trace shows what each reply "
                             "kept and rejected; the adversary searches --depth deep, default 1)")
    parser.add_argument("--hard", action="store_true", help="hard mode: revealed hints must be used in every later guess")
    add_seed_option(parser, "seed for the answer drawn and the agent's random choices (default: a fresh one, printed "
                            "so the game can be replayed)", default=None)
    parser.add_argument("--json", action="store_true",
                        help="print the finished game as JSON on stdout (your board, when you play, goes to stderr)")
    add_palette_option(parser)
    add_game_options(parser, named=True)
    add_agent_options(parser)
    parser.set_defaults(handler=command_play)


# -- absurdle ------------------------------------------------------------------------
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


# -- tournament and verify -------------------------------------------------------------
def command_tournament(args: argparse.Namespace, console: Console) -> int:
    """Play the tournament into its run folder, show the tables and the verdict."""
    from tournament import default_folder, make_plan
    from tournament.runner import holds_run
    from tournament.report import comparison_table, results_table

    if args.indicators is not None:
        return command_indicator_matrix(args, console)
    if given := [option for option, value in (("--games", args.games), ("--honest", args.honest), ("--cap", args.cap))
                 if value is not None]:
        raise UserError(f"{given[0]} goes with --indicators")
    game = load_game(args)
    plan = make_plan(game, agents=args.agents, mode=args.mode, seed=args.seed, options=agent_options(args),
                     sample=args.sample, max_guesses=args.max_guesses, answers_file=args.answers,
                     guesses_file=args.guesses)
    plan = replace(plan, command_line=tournament_command(plan))
    folder = Path(args.out if args.out is not None else default_folder(plan))
    if args.resume and not holds_run(folder) and not os.path.lexists(Path(folder) / ".lock"):  # a run begun: its own say
        raise UserError(f"{folder} holds no tournament to resume; leave out --resume to start one there")
    outcome = play_tournament(args, console, game, plan, folder, args.resume)
    if outcome is None:
        return EXIT_INTERRUPTED
    console.print(results_table(outcome.summary))
    if outcome.summary.comparisons:
        console.print(comparison_table(outcome.summary))
    console.print(outcome.summary.verdict, markup=False)
    tournament_epilogue(console, outcome, folder)
    return 0


def play_tournament(args: argparse.Namespace, console: Console, game: Wordle, plan: Any, folder: str | Path,
                    resume: bool, again: str = "run the same command with --resume to continue") -> Any:
    """Run a tournament's plan into `folder` with progress bars; its outcome, or None after Ctrl-C (said on stderr, with `again`)."""
    from tournament import run_tournament
    from tournament.report import ProgressDisplay

    display = ProgressDisplay(console)
    typed = sys.argv and (sys.argv[0].endswith("cli.py") or sys.argv[0].endswith("wordle-arena"))
    argv = ["python cli.py" if sys.argv[0].endswith("cli.py") else "wordle-arena", *sys.argv[1:]] if typed else None
    try:
        outcome = run_tournament(plan, game, folder, jobs=args.jobs or os.cpu_count(), resume=resume,
                                 argv=argv, on_start=display.start, on_game=display.advance,
                                 on_prepare=lambda agent, mode: console.print(
                                     f"{agent}: preparing for {mode} mode once, before its games (what it keeps on "
                                     f"disk is read back by later runs)", markup=False, soft_wrap=True))
    except KeyboardInterrupt:
        display.stop()
        plain_console(stderr=True).print(
            f"interrupted: every finished game is saved in {folder}; {again}",
            markup=False, soft_wrap=True)
        return None
    finally:
        display.stop()
    return outcome


def tournament_epilogue(console: Console, outcome: Any, folder: str | Path) -> None:
    """What a tournament run repaired, and how many games it played or found already played."""
    for note in outcome.notes:
        console.print(f"repaired: {note}", markup=False, soft_wrap=True)
    if outcome.played == 0 and outcome.resumed and not outcome.notes:
        console.print(f"All {outcome.resumed} games were already played; nothing was rewritten in {folder}.")
    else:
        console.print(f"{outcome.played} games played, {outcome.resumed} resumed; results in {folder}/ "
                      "(games.csv, timings.csv, summary.json, report.md)")


def matrix_progress(console: Console, total: int | None, verb: str, shown: bool = True) -> tuple[Progress, Any, Any]:
    """A started progress bar over a matrix's games, its advance(rows) callback naming the group just done, and
    its on_prepare(agent, mode, limit) callback naming the Guesser preparing before the games."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    progress = Progress(TextColumn("{task.description:<44}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        TimeRemainingColumn(), console=console, transient=False, disable=not shown)
    bar = progress.add_task(f"{verb} (each Guesser and mode, hard first)", total=total)
    progress.start()

    def advance(rows: list[dict]) -> None:
        first = rows[0]
        progress.update(bar, advance=len(rows), description=f"{verb}: {first['agent']} {first['mode']} done")

    def preparing(agent: str, mode: str, limit: int) -> None:
        progress.update(bar, description=f"preparing {agent} ({mode}, {limit} guesses)")
    return progress, advance, preparing


def command_indicator_matrix(args: argparse.Namespace, console: Console) -> int:
    """tournament --indicators: every Guesser against each Indicator, kept in the run folder."""
    from agents.params import DEPTH
    from tournament import make_plan
    from tournament.indicators import (DEFAULT_CAP, DEFAULT_GAMES, HONEST_FOLDER, MATRIX_FILE, TABLE_FILE,
                                       MatrixSettings, play_matrix)
    from tournament.plan import parse_agents, parse_modes

    names = list(dict.fromkeys(name.strip() for name in args.indicators.split(",") if name.strip()))
    ignored = [flag for flag, given in (("--sample", args.sample is not None), ("--resume", args.resume)) if given]
    if ignored:
        raise UserError(f"--indicators plays every answer against honest and a fixed set of games against the "
                        f"others; it takes no {', '.join(ignored)}")
    if unknown := [name for name in names if name not in indicator_names()]:
        raise UserError(f"unknown indicator '{unknown[0]}'; choose among: {', '.join(indicator_names())}")
    if not names:
        raise UserError(f"--indicators names no Indicator; choose among: {', '.join(indicator_names())}")
    if args.games is not None and "random" not in names:
        raise UserError("--games is the random Indicator's game count; add random to --indicators")
    if args.honest is not None and "honest" not in names:
        raise UserError("--honest names the honest column's tournament; add honest to --indicators")
    if args.cap is not None and args.cap < args.max_guesses:
        raise UserError(f"--cap {args.cap} is below the guess limit ({args.max_guesses}); the cap of the 'unlimited' "
                        "games is at least --max-guesses")
    game = load_game(args)
    options = agent_options(args)
    agents, modes = list(parse_agents(args.agents)), list(parse_modes(args.mode))
    depth = options.get("depth") or DEPTH.default
    folder = Path(args.out) if args.out is not None else Path("results") / f"indicators-depth-{depth}"
    if (folder / MATRIX_FILE).exists():
        raise UserError(f"{folder} already holds a Guesser x Indicator matrix; choose another folder with --out")
    if "honest" in names:
        plan = make_plan(game, agents=args.agents, mode=args.mode, seed=args.seed, options=options, sample=None,
                         max_guesses=args.max_guesses, answers_file=args.answers, guesses_file=args.guesses)
        plan = replace(plan, command_line=tournament_command(plan))
        honest = Path(args.honest) if args.honest is not None else folder / HONEST_FOLDER
        console.print(f"honest: the ordinary tournament, every answer, in {honest}/ (continued, or used as it is "
                      "when it holds these settings' games)", markup=False, soft_wrap=True)
        outcome = play_tournament(args, console, game, plan, honest, resume=True,
                                  again="run the same command again to continue them")
        if outcome is None:
            return EXIT_INTERRUPTED
        tournament_epilogue(console, outcome, honest)
    settings = MatrixSettings(agents=agents, indicators=names, modes=modes, max_guesses=args.max_guesses,
                              cap=args.cap or DEFAULT_CAP, depth=depth, seed=args.seed,
                              games=(args.games or DEFAULT_GAMES) if "random" in names else 0, settings=options,
                              words={"answers_file": args.answers, "guesses_file": args.guesses},
                              honest_folder=str(honest) if "honest" in names else None)
    argv = " ".join(["python cli.py", *sys.argv[1:]]) if sys.argv and sys.argv[0].endswith("cli.py") else ""
    progress, advance, preparing = matrix_progress(console, len(settings.keys()), "playing",
                                                   shown=bool(settings.keys()))
    try:
        rows = play_matrix(game, settings, folder, argv, jobs=args.jobs or os.cpu_count() or 1, on_games=advance,
                           on_prepare=preparing)
    finally:
        progress.stop()
    for line in (folder / TABLE_FILE).read_text(encoding="utf-8").splitlines():
        console.print(line, markup=False, soft_wrap=True)
    console.print(f"results in {folder}/ (indicators.json: {len(rows)} games; {TABLE_FILE})", markup=False)
    return 0


def canonical_command(words: str, *options: tuple[str, Any]) -> str:
    """`python cli.py WORDS`, then each (flag, value): the flag alone for True, `flag value`, or nothing for None or False.

    >>> canonical_command("openers", ("--top", 5), ("--hard", True), ("--out", None))
    'python cli.py openers --top 5 --hard'
    """
    parts = [f"python cli.py {words}"]
    for option, value in options:
        if value is not None and value is not False:
            parts.append(option if value is True else f"{option} {value}")
    return " ".join(parts)


def tournament_command(plan: Any) -> str:
    """The canonical command that plays exactly a plan's games (--out and --jobs change no game)."""
    return canonical_command(
        "tournament", ("--agents", ",".join(plan.agents)), ("--mode", "both" if len(plan.modes) == 2 else plan.modes[0]),
        ("--seed", plan.seed), ("--max-guesses", plan.max_guesses), ("--sample", plan.sample),
        *((flag(name), all_params()[name][0].text(value)) for name, value in plan.options),
        ("--answers", plan.answers_file), ("--guesses", plan.guesses_file))


def add_tournament_command(commands: argparse._SubParsersAction) -> None:
    """`tournament`: every agent on every answer, normal and hard mode, with results files."""
    parser = commands.add_parser(
        "tournament", help="compare the agents on every answer, in normal and hard mode",
        description="Play every agent (or those named) on every answer (or a seeded sample), in normal and/or "
                    "hard mode, on all cores; show a table and a hard-versus-normal verdict, and write games.csv, "
                    "timings.csv, summary.json and report.md to the run folder. Unsolved games count as the guess "
                    "limit plus one in averages.",
    )
    parser.add_argument("--agents", metavar="A,B,...",
                        help=f"comma-separated agents (default: all of {', '.join(agent_names())})")
    parser.add_argument("--indicators", metavar="A,B,...",
                        help=f"play a Guesser x Indicator matrix instead ({', '.join(indicator_names())}): honest is "
                             "the ordinary tournament (every answer, kept in DIR/honest/ or --honest); absurdle and adversary play "
                             "one game per Guesser and mode, within --max-guesses and again capped at --cap guesses "
                             "(Absurdle has no limit of its own); random plays --games seeded games; the adversary "
                             "searches --depth deep (default 2, the search Guessers' default); the table is written "
                             "to DIR/matrix.md (default DIR: results/indicators-depth-D)")
    parser.add_argument("--cap", type=whole(1, MOST_GUESSES), metavar="N",
                        help="with --indicators: the guess cap of the 'unlimited' games (default 20)")
    parser.add_argument("--honest", metavar="DIR",
                        help="with --indicators honest,...: the honest column's tournament folder, used as it is when "
                             "it holds these settings' games, continued otherwise (default: the run folder's honest/)")
    parser.add_argument("--games", type=whole(1, MOST_SAMPLE), metavar="N",
                        help="with --indicators ...,random: seeded games per Guesser and mode against the random "
                             "Indicator, drawn from --seed (default 200)")
    parser.add_argument("--mode", choices=("normal", "hard", "both"), default="both",
                        help="which modes to play (default both)")
    parser.add_argument("--sample", type=whole(1, MOST_SAMPLE), metavar="N",
                        help="play N answers drawn from --seed instead of all of them")
    add_seed_option(parser, "run seed: the sample and each game's random choices (default 0)")
    parser.add_argument("--jobs", type=whole(1, MOST_JOBS), metavar="N",
                        help=f"worker processes (default: the number of CPUs, at most {MOST_JOBS})")
    parser.add_argument("--out", type=path_text, metavar="DIR",
                        help="run folder (default: results/tournament[-OPTION-VALUE...][-sample-N][-seed-S], "
                             "e.g. results/tournament-depth-2)")
    parser.add_argument("--resume", action="store_true",
                        help="continue the run in the folder, playing only the games it lacks")
    add_game_options(parser)
    add_agent_options(parser)
    parser.set_defaults(handler=command_tournament)


def command_verify(args: argparse.Namespace, console: Console) -> int:
    """Replay a run folder through the rules; exit 1 with one line per problem on any mismatch."""
    from tournament import verify_folder
    from tournament.indicators import MATRIX_FILE

    if args.sample is not None and not args.replay:
        raise UserError("--sample goes with --replay (it is how many games to replay)")
    if (Path(args.folder) / MATRIX_FILE).is_file():
        return verify_indicator_matrix(args, console)
    if args.jobs is not None:
        raise UserError("--jobs is for a Guesser x Indicator matrix's folder (tournament --indicators)")
    with Progress(console=console, transient=True, disable=not (args.replay and console.is_terminal)) as progress:
        bar = progress.add_task("replaying the recorded agents", total=None)
        result = verify_folder(args.folder, answers=args.answers, guesses=args.guesses, limit=args.limit,
                               replay=args.replay, replay_sample=args.sample,
                               on_replay=lambda _: progress.advance(bar))
    if result.ok:
        replayed = f"; {result.replayed} games replayed move for move" if result.replayed else ""
        console.print(f"{args.folder}: all {result.games} games follow the rules and the summary agrees with them"
                      f"{replayed}", markup=False, soft_wrap=True)
        return 0
    errors = plain_console(stderr=True)
    for problem in result.problems:
        errors.print(f"wordle-arena: verify: {clip(problem)}", markup=False, soft_wrap=True)
    errors.print(f"wordle-arena: verify: {args.folder} FAILED ({len(result.problems)} problems shown, "
                 f"at most {args.limit})", markup=False, soft_wrap=True)
    return 1


def verify_indicator_matrix(args: argparse.Namespace, console: Console) -> int:
    """verify on a Guesser x Indicator matrix: its honest tournament by the rules, every other game replayed."""
    from tournament import verify_folder
    from tournament.indicators import read_matrix, verify_matrix

    folder = Path(args.folder)
    stored, plan = read_matrix(folder)  # a file that is no matrix is refused before anything is checked
    problems: list[str] = []
    if plan.honest_folder is not None and Path(plan.honest_folder).is_dir():
        with waiting(f"checking the honest column's tournament in {plan.honest_folder}"):
            honest = verify_folder(plan.honest_folder, limit=args.limit, replay=args.replay,
                                   replay_sample=args.sample)
        problems += [f"{plan.honest_folder}: {problem}" for problem in honest.problems]
        console.print(f"{plan.honest_folder}: {honest.games} honest games checked by the rules"
                      + (f", {honest.replayed} replayed move for move" if honest.replayed else ""), markup=False)
    if args.answers is None and args.guesses is None:
        args.answers, args.guesses = plan.words.get("answers_file"), plan.words.get("guesses_file")
    game = load_game(args)
    total = len(stored["games"])
    progress, advance, preparing = matrix_progress(console, total, "replaying", shown=total > 0)
    try:
        games, found = verify_matrix(game, folder, jobs=args.jobs or os.cpu_count() or 1, on_games=advance,
                                     on_prepare=preparing)
    finally:
        progress.stop()
    problems += found
    for problem in problems[: args.limit]:
        console.print(f"wordle-arena: verify: {clip(problem)}", markup=False, soft_wrap=True)
    console.print(f"{args.folder}: {games} Guesser x Indicator games replayed move for move, every reply checked "
                  f"against its Indicator's rule: {'FAILED' if problems else 'all agree'}", markup=False)
    return 1 if problems else 0


def add_verify_command(commands: argparse._SubParsersAction) -> None:
    """`verify`: re-check a tournament's run folder."""
    parser = commands.add_parser(
        "verify", help="replay a tournament's results through the rules and re-derive its summary",
        description="Replay every recorded game (allowed words, reference patterns, hard-mode legality, solved "
                    "flag, guess limit), check the word-list checksum, and recompute the summary from the "
                    "per-game lines. Exits 1 with one line per problem on any mismatch.",
    )
    parser.add_argument("folder", metavar="DIR", help="the run folder, e.g. results/tournament-depth-2")
    parser.add_argument("--limit", type=whole(1, MOST_PROBLEMS), default=20, metavar="N",
                        help=f"report at most N problems (default 20, at most {MOST_PROBLEMS})")
    parser.add_argument("--replay", action="store_true",
                        help="also play every game again with the recorded agents and settings and compare move for move")
    parser.add_argument("--sample", type=whole(1, MOST_SAMPLE), metavar="N",
                        help=f"with --replay: replay N games drawn from the run seed instead of all (at most {MOST_SAMPLE})")
    parser.add_argument("--jobs", type=whole(1, MOST_JOBS), metavar="N",
                        help="for a Guesser x Indicator matrix (tournament --indicators): processes replaying its "
                             "games (default: the number of CPUs)")
    add_word_list_options(parser)
    parser.set_defaults(handler=command_verify)


# -- assist --------------------------------------------------------------------------
#: Who advises against Absurdle: its reply is always the worst bucket, so the worst case is all that counts.
ABSURDLE_ADVISOR = "minimax"


def advice_view(game: Wordle, advice: Advice, palette: str = "default") -> list[Any]:
    """What the assistant shows after each step: any widening of the answer model, the counts, the bits, the
    likeliest answers and the suggestions table."""
    parts: list[Any] = [Text(note, style="yellow") for note in advice.notes]
    if advice.steps:
        parts.append(trace_table(game, list(advice.steps), palette=palette))
        parts.append(Text(REPLY_LEGEND))
    if advice.solved:
        parts.append(Text(f"Solved in {len(advice.steps)}.", style="bold green"))
        return parts
    summary = f"{advice.remaining} possible answer{'s' if advice.remaining != 1 else ''} ({advice.bits_left:.2f} bits)"
    if advice.last_bits is not None:
        summary += f"; the last guess gained {advice.last_bits:.2f} bits"
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
    table = Table(title=f"suggestions ({advice.agent}{', hard mode' if advice.state.hard else ''})",
                  header_style="bold", box=None, pad_edge=False, title_justify="left")
    for column in ("#", "guess", "worst", "left", "chance", "bits", "guesses (lower is better)"):
        table.add_column(column, justify="left" if column == "guess" else "right")
    for number, s in enumerate(advice.suggestions, start=1):
        value = s.value.text() if s.value is not None else f"{s.expected_guesses:.3f}"
        table.add_row(str(number), game.words.guesses[s.guess], str(s.worst), f"{s.expected_left:.2f}",
                      f"{s.chance:.1%}", f"{s.information:.2f}", value)
    parts.append(table)
    parts.append(Text(SOLVER_LEGEND if by_solver else SUGGESTION_LEGEND, style="dim"))
    if by_solver and not advice.proved:
        parts.append(Text(UNSETTLED_NOTE.format(seconds=VALUE_BUDGET.seconds), style="yellow"))
    if advice.fallback:
        parts.append(Text(FALLBACK_NOTE.format(agent=advice.agent), style="yellow"))
    return parts


#: Up to this many possible answers are listed by name (the likeliest first under a weighted model).
POSSIBLE_SHOWN = 12


def chance_text(chance: float) -> str:
    """A chance as a percentage, with two significant digits below 10% (so a small chance never reads 0%).

    >>> chance_text(0.5), chance_text(0.0968), chance_text(0.00094)
    ('50%', '9.7%', '0.094%')
    """
    return f"{chance:.0%}" if chance >= 0.1 or chance == 0 else f"{chance * 100:.2g}%"


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
    "Ordered by guesses: expected guesses to finish, this one included, with best play after it, by the optimal "
    "solver under the answer model (lower is better). A plain value is proved; '≤ x' has a tree reaching x; "
    "'≥ x' is a proved bound only; '≈ x' is the answer model's estimate. worst: the most answers one reply can "
    "leave; left: answers left on average; chance: that it is the answer; bits: expected information.")
#: Said under advice that the shallower search gave.
FALLBACK_NOTE = ("{agent}'s full search needs more nodes here than its budget allows, so these are the suggestions "
                 "of its shallower search (2 guesses deep, no endgame search).")
#: Said when the first suggestion is not proved optimal.
UNSETTLED_NOTE = ("Not settled within {seconds:g} s: the first suggestion is the best found so far, not proved "
                  "optimal, and values marked ≤, ≥ or ≈ are bounds or estimates.")


def thinking(agent: Any, state_hard: bool, max_guesses: int, number: int) -> str:
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


def command_assist(args: argparse.Namespace, console: Console) -> int:
    """Advise on a real game: once for the steps given, or step by step at the prompt."""
    if args.answers is None:
        args.answers = "original" if args.indicator == "absurdle" else DEFAULT_MODEL
    model = answer_model(args)
    game = model.game
    if args.indicator == "absurdle":
        args.agent = args.agent or ABSURDLE_ADVISOR
    options = agent_options(args)
    agent, chosen = None, None
    if args.agent is not None:
        chosen = make_advisor(args.agent, game, **options)  # its settings checked before any step is replayed
        agent = lambda over: chosen if over is game else make_advisor(args.agent, over, **options)  # noqa: E731
    elif given := [flag(name) for name, value in options.items() if value is not None]:
        raise UserError(f"{given[0]} is an agent's setting: name the agent with --agent (the default advisor, the "
                        f"{ADVISOR} solver's values, takes none)")
    valuer = Valuer(model)
    if args.indicator == "absurdle" and not args.json:
        console.print(f"Against Absurdle only the worst case matters: {args.agent} advises.", markup=False)

    def consult(steps: list[tuple[int, int]]) -> Advice:
        """The advice after `steps`, under a spinner."""
        nonlocal valuer
        if args.indicator == "absurdle":
            check_absurdle(game, steps, args.hard, args.max_guesses)
        what = (f"{ADVISOR}: valuing guesses (up to {VALUE_BUDGET.seconds:g} s)" if agent is None else
                thinking(chosen, args.hard, args.max_guesses, len(steps) + 1))
        with waiting(what):
            advice = advise_model(model, steps, agent, hard=args.hard, top=args.top, seed=args.seed,
                                  max_guesses=args.max_guesses, only_answers=args.only_answers, valuer=valuer,
                                  make_game=game_over)
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
    steps: list[tuple[int, int]] = []
    console.print("Type each guess and the colours the game showed, e.g. 'tares:-y--g' (g green, y yellow, "
                  "- grey; a space may stand for the colon); 'undo' takes the last one back; end with Ctrl-D.")
    advice = consult(steps)
    for part in advice_view(advice.model.game, advice, args.palette):
        console.print(part)
    while True:
        try:
            line = console.input(f"step {len(steps) + 1}> ").strip()
        except EOFError:
            console.print()
            return 0
        if not line:
            continue
        if line.lower() == "undo":
            steps = steps[:-1]
            advice = consult(steps)
        else:
            try:
                attempt = steps + [parse_step(game, line)]
                advice = consult(attempt)
            except UserError as error:
                console.print(Text(str(error), style="yellow"))
                continue
            steps = attempt
        for part in advice_view(advice.model.game, advice, args.palette):
            console.print(part)


def add_assist_command(commands: argparse._SubParsersAction) -> None:
    """`assist`: advice for a game played elsewhere, from its guesses and colours."""
    parser = commands.add_parser(
        "assist", help="advice for a real game: type your guesses and the colours you saw",
        description="Advice for a game played elsewhere. Give the steps as WORD:PATTERN (e.g. tares:-y--g) to "
                    "print the advice once, or none to type them one by one at the prompt.",
    )
    parser.add_argument("steps", nargs="*", metavar="WORD:PATTERN",
                        help="guesses with the colours shown: letters (g y -), digits (2 1 0) or emoji squares")
    parser.add_argument("--agent", choices=agent_names(), default=None, metavar="NAME",
                        help=f"who advises: {', '.join(agent_names())} (default: the {ADVISOR} solver's values "
                             f"within {VALUE_BUDGET.seconds:g} s a position, proved wherever they settle, else "
                             f"marked as bounds; {ABSURDLE_ADVISOR} against --indicator absurdle; a searching "
                             "agent's first move is searched once and kept on disk; past it, a state whose full "
                             "search needs more nodes than its budget gets a shallower search's advice, and is "
                             "told so)")
    parser.add_argument("--only-answers", action="store_true",
                        help="suggest only words that can still be the answer")
    parser.add_argument("--indicator", choices=("honest", "absurdle"), default="honest", metavar="NAME",
                        help="who replies in the game advised on: honest (default: a hidden answer) or absurdle "
                             "(only the worst case matters, so the advice is minimax's, and each reply typed is "
                             "checked to be Absurdle's)")
    parser.add_argument("--hard", action="store_true", help="hard mode: typed guesses are checked, suggestions are legal")
    parser.add_argument("--top", type=whole(1, MOST_SUGGESTIONS), default=10, metavar="N",
                        help=f"suggestions to show, at most as many as the agent ranks (default 10, at most {MOST_SUGGESTIONS})")
    parser.add_argument("--json", action="store_true", help="print the advice once as JSON")
    add_palette_option(parser)
    add_seed_option(parser, "seed for the agent's random choices (default 0)")
    parser.add_argument("--max-guesses", type=whole(1, MOST_GUESSES), default=6, metavar="N",
                        help=f"guess limit (default 6, at most {MOST_GUESSES})")
    add_model_options(parser, default=None)
    add_agent_options(parser)
    parser.set_defaults(handler=command_assist)


# -- answer models and review -----------------------------------------------------
def add_model_options(parser: argparse.ArgumentParser, default: str | None = DEFAULT_MODEL) -> None:
    """--answers (an answer model by name, or a file), --exclude and --guesses: which words may be today's answer."""
    parser.add_argument("--answers", metavar="|".join(MODELS) + "|FILE", default=default,
                        help="the answer model: " + "; ".join(f"{name}, {what}" for name, what in MODELS.items())
                             + f"; or a file of answers, one word a line (default {DEFAULT_MODEL}, since today's "
                               "answer may be a word the original list lacks; original against --indicator "
                               "absurdle); a game that contradicts it widens it, saying so")
    parser.add_argument("--exclude", metavar="FILE",
                        help="words that cannot be the answer today, one a line (for instance past answers you keep)")
    parser.add_argument("--guesses", metavar="FILE", help="allowed-guess list (default: the 12972 official guesses)")


def answer_model(args: argparse.Namespace) -> AnswerModel:
    """The answer model the options name, its matrix from the cache or built under a spinner."""
    exclude = read_exclusions(args.exclude) if getattr(args, "exclude", None) else ()
    with waiting(f"loading the {args.answers} answer model"):
        return load_model(args.answers, args.guesses, exclude, make_game=game_over)


#: What a review's columns mean, printed under it.
REVIEW_LEGEND = (
    "left: answers possible before the guess -> after its reply; yours and best: expected guesses to finish, that "
    "guess included, with best play after it (lower is better), the best guess named; skill: 99 for the best guess, "
    "down to 0 for one that costs a whole guess (≈: from values not all proved); luck: how the reply ranks among "
    "those the guess could get (99: it left the fewest answers). A plain value is proved; '≤ x' has a tree reaching x; '≥ x' is a proved bound only; "
    "'≈ x' is the answer model's estimate (its less likely words valued by the cost-to-go model).")


def review_table(game: Wordle, review: Review, palette: str = "default") -> Table:
    """One row per guess: tiles, reply, answers left, your guess's value, the best guess and its value, skill, luck."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in ("#", "guess", "reply", "left", "yours", "best", "skill", "luck"):
        table.add_column(column, justify="left" if column in ("guess", "reply", "best") else "right")
    for step in review.steps:
        best = "same" if step.best_guess == step.guess else game.words.guesses[step.best_guess]
        table.add_row(str(step.number), tiles(game.words.guesses[step.guess], step.pattern, palette),
                      format_pattern(step.pattern), f"{step.before} -> {step.after}", step.played.text(),
                      f"{best} {step.best.text()}", ("" if step.settled else "≈") + str(step.skill), str(step.luck))
    return table


def review_lines(review: Review) -> list[str]:
    """The game's verdict under the table: skill, luck, how it ended, the model, and how many values are proved."""
    used = len(review.steps)
    ending = (f"solved {review.answer.upper()} in {used}/{review.max_guesses}" if review.solved
              else f"not solved after {used} guesses" + (f" (the answer: {review.answer.upper()})"
                                                         if review.answer else ""))
    proved = sum(v.proved for v in review.values)
    skill = ("" if review.settled else "≈") + str(review.skill)
    return [f"Skill {skill}/99, luck {review.luck}/99: {ending}{', hard mode' if review.hard else ''}.",
            f"Answer model {review.model.describe()}; {proved} of {len(review.values)} values proved "
            f"({review.seconds:.1f} s)."]


def command_review(args: argparse.Namespace, console: Console) -> int:
    """Review a finished or abandoned game: each guess's value, the best guess, skill and luck."""
    model = answer_model(args)
    grid = sys.stdin.read() if args.grid == "-" else args.grid
    steps = parse_game(model.game, args.steps, answer=args.answer, grid=grid)
    status = Console(stderr=True, highlight=False).status("reviewing", spinner="dots")

    def progress(done: int, total: int) -> None:
        status.update(f"reviewing guess {done + 1} of {total} (up to {VALUE_BUDGET.seconds:g} s each)")

    with status:
        review = review_game(model, steps, hard=args.hard, max_guesses=args.max_guesses, answer=args.answer,
                             make_game=game_over, progress=progress)
    if args.json:
        console.print_json(json.dumps(review_data(review)))
        return 0
    for note in review.notes:
        console.print(Text(note, style="yellow"))
    console.print(review_table(review.model.game, review, args.palette))
    for line in review_lines(review):
        console.print(Text(line, style="bold"))
    console.print(Text(REVIEW_LEGEND, style="dim"))
    return 0


def add_review_command(commands: argparse._SubParsersAction) -> None:
    """`review`: a finished game scored guess by guess."""
    parser = commands.add_parser(
        "review", help="review a finished game: each guess's skill and luck, and the best guess at each turn",
        description="Review a game: give its steps as WORD:PATTERN (e.g. crane:--gg-), or --answer and the words "
                    "played, or --grid with the share grid and the words. Each guess gets its expected guesses "
                    "to finish and the best guess's, a skill and a luck figure (0-99), and so does the game.")
    parser.add_argument("steps", nargs="*", metavar="WORD[:PATTERN]",
                        help="the guesses, each with the colours shown (letters g y -, digits 2 1 0 or emoji "
                             "squares); with --answer or --grid, the words alone")
    parser.add_argument("--answer", metavar="WORD", help="the answer: the colours follow from it")
    parser.add_argument("--grid", metavar="TEXT|-",
                        help="the share grid as pasted (its score line, then one row of squares a guess), or - to "
                             "read it from stdin; the words are given beside it, one a row")
    parser.add_argument("--hard", action="store_true", help="the game was played in hard mode")
    parser.add_argument("--max-guesses", type=whole(1, MOST_GUESSES), default=6, metavar="N",
                        help=f"guess limit (default 6, at most {MOST_GUESSES})")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    add_palette_option(parser)
    add_model_options(parser)
    parser.set_defaults(handler=command_review)


def review_offer(game: Wordle, playthrough: Playthrough, args: argparse.Namespace) -> str:
    """The one line `play` ends with: the review command for the game just played."""
    words = " ".join(game.words.guesses[turn.guess] for turn in playthrough.turns)
    if playthrough.answer is not None:
        given = f"--answer {game.words.answers[playthrough.answer]} {words}"
    else:
        given = " ".join(f"{game.words.guesses[t.guess]}:{format_pattern(t.pattern)}" for t in playthrough.turns)
    extra = (" --hard" if args.hard else "") + (f" --max-guesses {args.max_guesses}" if args.max_guesses != 6 else "")
    extra += f" --answers {args.answers or 'original'}"
    return f"Review this game: python cli.py review {given}{extra}"


# -- openers -------------------------------------------------------------------------
def openers_command(args: argparse.Namespace) -> str:
    """The command line that reproduces an openers run, written out from its arguments."""
    return canonical_command("openers", ("--top", args.top), ("--hard", args.hard), ("--max-guesses", args.max_guesses),
                             ("--answers", args.answers), ("--guesses", args.guesses), ("--out", args.out))


def command_exact_openers(args: argparse.Namespace, console: Console) -> int:
    """Prove each opener's optimal total or reject it above a cut-off, on Dask, saving each as it finishes."""
    import time

    from search.storage import provenance
    from tournament.exact_openers import JobSettings, quick_cut, ranked_openers, run_job, summary

    game = load_game(args)
    mode = "hard" if args.hard else "normal"
    if args.all and args.top is not None:
        raise UserError("--all proves every opener; it takes no --top (give one or the other)")
    ranked = ranked_openers(game, args.hard, args.max_guesses)
    openers = ranked if args.all else ranked[:args.top or 20]
    scope = "all" if args.all else f"top{len(openers)}"
    out = prepare_output(args.out or Path("results") / f"openers-exact-{mode}-{scope}.jsonl")
    jobs = args.cluster or args.jobs or os.cpu_count() or 1
    cut = args.against
    if cut is None and args.all:
        with waiting(f"a cut-off: the best tree over the best 10 guesses a node ({mode} mode)"):
            cut_opener, cut = quick_cut(game, args.hard, args.max_guesses)
        console.print(f"cut-off {cut}: {cut_opener.upper()}'s tree over the best 10 guesses a node (a real tree, "
                      f"so the best total is at most {cut}); openers above it are rejected with a bound",
                      markup=False, soft_wrap=True)
    command = canonical_command("openers --exact", ("--all", args.all), ("--top", None if args.all else len(openers)),
                                ("--hard", args.hard), ("--max-guesses", args.max_guesses), ("--against", args.against),
                                ("--scheduler", args.scheduler or None), ("--cluster", None if args.scheduler else jobs))
    counts = {"done": 0, "rejected": 0, "solved": 0}
    best: list[Any] = [None]
    started = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"proving openers ({mode} mode, dask)", total=len(openers))

        def note(result: Any) -> None:
            """Count one result in (exact or rejected) and keep the best."""
            counts["done"] += 1
            counts["solved" if result.exact else "rejected"] += 1
            if result.exact and result.total >= 0 and (best[0] is None or (result.total, result.long_games)
                                                        < (best[0].total, best[0].long_games)):
                best[0] = result

        def describe(fresh: int) -> str:
            """Done, rejected, solved, best and the time left at this session's rate."""
            left = len(openers) - counts["done"]
            rate = (time.perf_counter() - started) / fresh if fresh else None
            eta = f", about {left * rate / 60:.0f} min left" if rate and left else ""
            leader = f"best {best[0].opener.upper()} {best[0].total}" if best[0] else "no exact total yet"
            return (f"openers ({mode}): {counts['done']}/{len(openers)} done, {counts['rejected']} rejected, "
                    f"{counts['solved']} solved, {leader}{eta}")

        def resumed(results: list[Any]) -> None:
            for result in results:
                note(result)
            progress.update(task, completed=counts["done"], description=describe(0))

        def arrived(result: Any) -> None:
            note(result)
            arrived.fresh += 1
            progress.update(task, completed=counts["done"], description=describe(arrived.fresh))
        arrived.fresh = 0
        results = run_job(game, args.hard, args.max_guesses, openers, out, command, engine="dask", jobs=jobs,
                          address=args.scheduler, on_result=arrived, cut=cut, on_resume=resumed)
    settings = JobSettings(hard=args.hard, max_guesses=args.max_guesses, word_lists_sha256=game.words.checksum, cut=cut)
    proved = summary(results, settings, openers)
    shown = [r for r in results if r.exact] if args.all else results
    table = Table(title=f"{len(openers)} openers ({mode} mode): {proved['solved']} solved exactly"
                        + (f", {proved['rejected']} rejected above {cut}" if cut is not None else ""),
                  header_style="bold", box=None, pad_edge=False, title_justify="left")
    for column in ("#", "opener", "total", "average", "over 5", "sub-problems", "seconds"):
        table.add_column(column, justify="left" if column == "opener" else "right")
    for rank, r in enumerate(shown, start=1):
        if not r.exact:
            table.add_row(str(rank), r.opener, f"≥ {r.total} (> {cut})", "-", "-", str(r.nodes), f"{r.seconds:.1f}")
            continue
        won = r.total >= 0  # else no tree wins every game within the guess limit
        table.add_row(str(rank), r.opener, str(r.total) if won else f"no win in {args.max_guesses}",
                      f"{r.average:.4f}" if won else "-", str(r.long_games) if won else "-", str(r.nodes), f"{r.seconds:.1f}")
    console.print(table)
    if proved["best"] is not None:
        claim = "proved best over every opener" if proved["proved_best_over_all"] and args.all else "best of these"
        console.print(f"{proved['best']['opener'].upper()}: {proved['best']['total']} ({claim})", markup=False)
    digest = out.with_name(out.name.removesuffix(".jsonl") + ".summary.json")
    try:
        write_atomically(digest, json.dumps({"command": command, **proved, **provenance()}, indent=1) + "\n")
    except OSError as error:
        raise UserError(f"{digest}: cannot write there ({error.strerror or error.__class__.__name__})") from None
    console.print(f"saved {out} and {digest}", markup=False, soft_wrap=True)
    return 0


def command_openers(args: argparse.Namespace, console: Console) -> int:
    """Rank the top openers by two-step lookahead and measured average; show and save the table."""
    from search.storage import results_record

    if args.exact:
        return command_exact_openers(args, console)
    if args.all or args.scheduler or args.cluster or args.against is not None:
        raise UserError("--all, --against, --scheduler and --cluster go with --exact")
    args.top = args.top or 50
    game = load_game(args)
    mode = "hard" if args.hard else "normal"
    count = min(args.top, len(game.words.guesses))
    out = prepare_output(args.out or Path("results") / f"openers-{mode}-top{count}.json")
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"openers ({mode} mode)", total=count)
        results = rank_openers(game, count, args.hard, jobs=args.jobs or os.cpu_count() or 1,
                               on_result=lambda _: progress.advance(task), max_guesses=args.max_guesses)
    by_bits = {r.opener: rank for rank, r in enumerate(sorted(results, key=lambda r: (-r.two_step_bits, r.opener)), 1)}
    table = Table(title=f"top {count} openers by entropy, ranked by measured average ({mode} mode)",
                  header_style="bold", box=None, pad_edge=False, title_justify="left")
    for column in ("#", "opener", "bits", "two-step bits", "two-step rank", "average", "worst", "failures"):
        table.add_column(column, justify="left" if column == "opener" else "right")
    for rank, r in enumerate(results, start=1):
        table.add_row(str(rank), game.words.guesses[r.opener], f"{r.entropy:.4f}", f"{r.two_step_bits:.4f}",
                      str(by_bits[r.opener]), f"{r.average:.4f}", worst_text(r.worst, args.max_guesses),
                      str(r.failures))
    console.print(table)
    words = game.words
    record = {
        **results_record(openers_command(args), None, game.words.checksum),
        "seed_note": "the ranking makes no random choice",
        "worst_note": "worst counts an unsolved game as max_guesses + 1, as the tournament does (shown as X)",
        "mode": mode,
        "top": count,
        "max_guesses": args.max_guesses,
        "ranking": [
            {"rank": rank, "opener": words.guesses[r.opener], "entropy": round(r.entropy, 6),
             "two_step_bits": round(r.two_step_bits, 6), "two_step_rank": by_bits[r.opener],
             "average": round(r.average, 6), "total": r.total, "worst": r.worst, "failures": r.failures,
             "seconds": {format_pattern(p): words.guesses[g] for p, g in sorted(r.seconds.items())}}
            for rank, r in enumerate(results, start=1)
        ],
    }
    try:
        write_atomically(out, json.dumps(record, indent=1) + "\n")
    except OSError as error:
        raise UserError(f"{out}: cannot write there ({error.strerror or error.__class__.__name__})") from None
    console.print(f"saved {out}", markup=False, soft_wrap=True)
    return 0


def add_openers_command(commands: argparse._SubParsersAction) -> None:
    """`openers`: the two-step ranking of the best first guesses."""
    parser = commands.add_parser(
        "openers", help="rank the top openers by two-step lookahead and by their measured average",
        description="For each of the top-N openers by entropy: the best second guess for every reply, the expected "
                    "information of both guesses together, and the average over every answer playing greedy "
                    "entropy after them. Prints the ranking and saves it to results/.",
    )
    parser.add_argument("--top", type=whole(1, MOST_OPENERS), default=None, metavar="N",
                        help=f"openers to judge (default 50; with --exact 20, the first by their lower bound; "
                             f"at most {MOST_OPENERS})")
    parser.add_argument("--hard", action="store_true", help="hard mode for the second and later guesses")
    parser.add_argument("--jobs", type=whole(1, MOST_JOBS), default=None, metavar="N",
                        help=f"worker processes (default: all cores, at most {MOST_JOBS})")
    parser.add_argument("--out", type=path_text, metavar="FILE", help="where to save the ranking (default results/openers-MODE-topN.json, "
                                                      "with --exact results/openers-exact-MODE-topN.jsonl)")
    parser.add_argument("--exact", action="store_true",
                        help="prove each opener's optimal total instead (saved as each finishes; a rerun resumes)")
    parser.add_argument("--all", action="store_true", help="with --exact: every allowed guess as an opener, each "
                                                           "solved exactly or rejected above the cut-off")
    parser.add_argument("--against", type=whole(1, MOST_TOTAL), metavar="TOTAL",
                        help="with --exact: solve exactly only openers whose total is at most TOTAL and reject the "
                             "rest with a proved bound (default with --all: the total of the best tree over the "
                             "best 10 guesses a node, found first)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="with --exact: run on the Dask cluster at this scheduler "
                                                                "address (e.g. tcp://10.0.0.5:8786; default: a local "
                                                                "Dask cluster of --jobs worker processes)")
    parser.add_argument("--cluster", type=whole(1, MOST_JOBS), metavar="N",
                        help=f"with --exact: run on a Dask cluster of N worker processes started on this machine "
                             f"(at most {MOST_JOBS})")
    add_game_options(parser)
    parser.set_defaults(handler=command_openers)


# -- tree ----------------------------------------------------------------------------
def command_tree(args: argparse.Namespace, console: Console) -> int:
    """Build an agent's whole decision tree over every answer and write it as JSON or GraphML."""
    game = load_game(args)
    agent = make_agent(args.agent, game, **agent_options(args))

    def choose(state: State) -> int:
        return agent.decide(state, state_rng(args.seed, state)).guess

    prepare_output(args.out, TREE_FORMATS, make_folder=False)
    with waiting(f"{args.agent}: following every reply over {len(game.words.answers)} answers"):
        graph = build_tree(game, game.initial_state(hard=args.hard, max_guesses=args.max_guesses), choose)
    path = write_tree(graph, args.out)
    info = graph.graph
    console.print(f"{args.agent} ({'hard' if args.hard else 'normal'} mode): {graph.number_of_nodes()} states, "
                  f"{info['answers']} answers, average {info['average']:.4f} guesses (total {info['total']}), "
                  f"worst {worst_text(info['worst'], args.max_guesses)}, failures {info['failures']}; wrote {path}")
    return 0


def add_tree_command(commands: argparse._SubParsersAction) -> None:
    """`tree`: an agent's decision tree over every answer, as a file."""
    parser = commands.add_parser(
        "tree", help="write an agent's whole decision tree (JSON node-link or GraphML)",
        description="Follow an agent through every reply the answers can give and write the tree: nodes are states "
                    "(guess, answers left), edges are patterns. The state's random choices are seeded from --seed "
                    "and the state's history.",
    )
    parser.add_argument("--agent", choices=agent_names(), metavar="NAME", default="decision-tree",
                        help=f"the Guesser: {', '.join(agent_names())} (default decision-tree)")
    parser.add_argument("--out", type=path_text, required=True, metavar="FILE.json|FILE.graphml",
                        help="where to write the tree (its folder must exist; the schema is in the README)")
    parser.add_argument("--hard", action="store_true", help="hard mode")
    add_seed_option(parser, "seed for random choices (default 0)")
    add_game_options(parser)
    add_agent_options(parser)
    parser.set_defaults(handler=command_tree)


# -- serve ---------------------------------------------------------------------------
def command_serve(args: argparse.Namespace, console: Console) -> int:
    """Serve the web page on host:port until Ctrl-C."""
    try:
        from web.app import create_app, listen, serve
    except ImportError as error:
        raise UserError(f"the web page needs the 'web' extra ({error.name} is missing): pip install -e '.[web]'") from None
    sock = listen(args.host, args.port)  # first, so a taken port is said at once
    app = create_app(load_game(args), workers=args.workers,
                     **({"results": args.results} if args.results is not None else {}))
    serve(app, sock, announce=lambda line: console.print(line, markup=False, soft_wrap=True))
    return 0


def add_serve_command(commands: argparse._SubParsersAction) -> None:
    """`serve`: the web page (play, watch an agent, assist, results) on localhost."""
    parser = commands.add_parser(
        "serve", help="serve the web page: play, watch any agent think, assist a real game, see the results",
        description="Serve the web page and its JSON API (documented at /api) until Ctrl-C. It binds to "
                    "127.0.0.1 unless told otherwise; every asset ships in the package.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=whole(0, 65535), default=8000, metavar="N",
                        help="port (default 8000; 0 picks a free one; at most 65535)")
    parser.add_argument("--results", type=path_text, metavar="DIR",
                        help="the tournament run folder the results page shows (default: the published run, the "
                             "project's results/published/tournament-depth-2, wherever the server is started)")
    parser.add_argument("--workers", type=whole(1, MOST_JOBS), default=min(MOST_WEB_WORKERS, os.cpu_count() or 1),
                        metavar="N", help="agents thinking at once, each in a worker process of its own (default: the "
                                          f"number of CPUs, at most {MOST_WEB_WORKERS}; at most {MOST_JOBS})")
    add_word_list_options(parser)
    parser.set_defaults(handler=command_serve)


# -- solve ---------------------------------------------------------------------------
#: The longest --budget solve takes: past it, use the exact solve without one.
MOST_BUDGET_SECONDS = 86_400
#: The most sub-problems --nodes may allow.
MOST_NODES = 10**12
#: The units --budget reads, in seconds.
DURATION_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}


def duration(text: str) -> float:
    """argparse type: a time such as 5s, 500ms, 2m or 1h, as seconds (above 0, at most a day)."""
    cleaned = text.strip().lower()
    for unit in sorted(DURATION_UNITS, key=len, reverse=True):
        if cleaned.endswith(unit):
            try:
                seconds = float(cleaned[:-len(unit)]) * DURATION_UNITS[unit]
            except ValueError:
                break
            if 0 < seconds <= MOST_BUDGET_SECONDS:
                return seconds
            break
    raise argparse.ArgumentTypeError(f"'{text}' is not a time from 1ms to 24h: write e.g. 5s, 500ms, 2m or 1h")


def command_value(args: argparse.Namespace, console: Console) -> int:
    """Value the position after the steps (and any --guess) within the budget; say proved or both bounds."""
    from search.valuation import Budget, value_position

    if args.opener is not None or args.top is not None or args.out or args.prove:
        raise UserError("--opener, --top, --prove and --out solve the whole tree; with steps, --budget or --nodes "
                        "leave them out")
    game = load_game(args)
    state, _ = replay(game, [parse_step(game, text) for text in args.steps], hard=args.hard,
                      max_guesses=args.max_guesses)
    if state.solved or state.guesses_left < 1:
        raise UserError("the game is over after these steps: there is no guess to value")
    asked = [game.words.guess_id(word.strip().lower()) for word in args.guess or ()]
    for guess in asked:
        if (broken := game.violation(state, guess)) is not None:
            raise UserError(f"{game.words.guesses[guess]}: hard mode: {broken}")
    budget = Budget(seconds=args.budget if args.budget is not None or args.nodes is not None else 10.0,
                    nodes=args.nodes)
    mode = "hard" if args.hard else "normal"
    spend = " and ".join(part for part in (f"{budget.seconds:g} s" if budget.seconds else "",
                                           f"{budget.nodes} sub-problems" if budget.nodes else "") if part)
    with waiting(f"valuing the position ({len(state.candidates)} answers left, {mode} mode) within {spend}"):
        valuation = value_position(game, state, asked, budget)
    words = game.words.guesses
    where = " ".join(args.steps) if args.steps else "the start"
    console.print(f"after {where} ({len(state.candidates)} answers left, {mode} mode, {state.guesses_left} guesses "
                  f"left): {valuation.nodes} sub-problems in {valuation.seconds:.1f} s", markup=False, soft_wrap=True)
    for guess, value in [(valuation.best, valuation.value),
                         *((guess, valuation.guesses[guess]) for guess in asked if guess != valuation.best)]:
        role = "best" if guess == valuation.best else "guess"
        if math.isinf(value.low):
            claim = "no tree wins every game within the guess limit"
        elif value.proved:
            claim = f"{value.text()} guesses per answer, proved" + (" optimal" if role == "best" else "")
        elif math.isfinite(value.high):
            claim = (f"between {value.low:.3f} and {value.high:.3f} guesses per answer "
                     f"(not proved within the budget; shown as {value.text()})")
        else:
            claim = f"at least {value.low:.3f} guesses per answer (no tree found within the budget)"
        console.print(f"{role} {words[guess].upper()}: {claim}", markup=False, soft_wrap=True)
    return 0


def command_solve(args: argparse.Namespace, console: Console) -> int:
    """Solve the optimal tree (a proof, or an upper bound over the best K guesses a node); show it, save it."""
    from agents.optimal import opener_index, solve_tree, tree_cache, tree_payload
    from search.optimal import unpack

    if args.steps or args.budget is not None or args.nodes is not None or args.guess:
        return command_value(args, console)
    game = load_game(args)
    opener = opener_index(game, args.opener.strip().lower()) if args.opener is not None else None
    if args.out:
        prepare_output(args.out, TREE_FORMATS)
    breadth = args.top
    mode = "hard" if args.hard else "normal"
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"solving ({mode} mode)", total=None)

        def report(stats: Any) -> None:
            best = f"best {unpack(stats.best)[0]}" if stats.best is not None else "no tree yet"
            replies = f"replies {stats.replies_done}/{stats.replies}, " if stats.replies else ""
            progress.update(task, description=f"solving ({mode} mode): {replies}{stats.nodes} sub-problems, "
                                              f"{stats.remembered} remembered, {best}, bound {unpack(stats.bound)[0]}")

        solution, graph = solve_tree(game, args.hard, args.max_guesses, opener, breadth, report)
    word = game.words.guesses[solution.guess]
    claim = "proved optimal" if solution.proved else f"an upper bound (best {args.top} guesses a node)"
    console.print(f"{word.upper()} ({mode} mode): total {solution.total} over {graph.graph['answers']} answers "
                  f"(average {graph.graph['average']:.4f}), {solution.long_games} games over 5 guesses, "
                  f"worst {graph.graph['worst']}; {claim}; {solution.nodes} sub-problems in {solution.seconds:.1f} s")
    try:  # the optimal agent reads it back
        tree_cache(game, args.hard, args.max_guesses, word if opener is not None else "best", breadth).write(tree_payload(graph))
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
                    "mode the rule). --prove tries every allowed guess at every node, so its total is proved; "
                    "--top K tries the best K by their lower bound, so its total is an upper bound. The tree is "
                    "cached for the optimal agent. Given steps (as assist takes them), --budget or --nodes, it "
                    "values that position instead: the best guess and its expected guesses per answer, proved, "
                    "or bounded on both sides when the budget runs out.",
    )
    parser.add_argument("steps", nargs="*", metavar="STEP",
                        help="the game so far, each as guess:colours (e.g. crane:-y--g; g green, y yellow, - grey)")
    parser.add_argument("--budget", type=duration, metavar="TIME",
                        help="with steps: the time to spend, e.g. 5s, 500ms, 2m (default 10s)")
    parser.add_argument("--nodes", type=whole(1, MOST_NODES), metavar="N",
                        help=f"with steps: the most sub-problems to search (at most {MOST_NODES})")
    parser.add_argument("--guess", action="append", metavar="WORD",
                        help="with steps: also value this guess (repeatable)")
    parser.add_argument("--opener", metavar="WORD", help="the first guess (default: solve for it too; with --prove that "
                                                         "proves or refutes every opener, far longer than one)")
    parser.add_argument("--hard", action="store_true", help="hard mode")
    breadth = parser.add_mutually_exclusive_group()
    breadth.add_argument("--prove", action="store_true", help="try every allowed guess at every node (default)")
    breadth.add_argument("--top", type=whole(1, MOST_BREADTH), metavar="K",
                         help=f"try only the best K guesses a node (an upper bound; at most {MOST_BREADTH})")
    parser.add_argument("--out", type=path_text, metavar="FILE.json|FILE.graphml", help="also write the tree there")
    add_game_options(parser)
    parser.set_defaults(handler=command_solve)


# -- train ---------------------------------------------------------------------------
#: Upper limits of train's budget: past them a run means days.
MOST_EPISODES = 100_000_000
MOST_MINUTES = 10_000


def train_line(args: argparse.Namespace) -> str:
    """The canonical command of a training run (recorded in the model file)."""
    from agents.training import Budget
    budget = Budget(args.episodes, args.minutes)
    return canonical_command(
        f"train {args.learner}", ("--init", None if args.init == "scratch" else args.init), ("--hard", args.hard),
        ("--episodes", budget.episodes), ("--minutes", budget.minutes), ("--seed", args.seed),
        ("--max-guesses", None if args.max_guesses == 6 else args.max_guesses), ("--fresh", args.fresh),
        ("--answers", args.answers or None), ("--guesses", args.guesses or None))


def command_train(args: argparse.Namespace, console: Console) -> int:
    """Train a learner (resuming its checkpoint), with progress; save its model, checkpoint and learning curve."""
    from agents.learners import DEFAULT_BUDGET, checkpoint_path, curve_path, file_name, train, use_device
    from agents.models import model_path
    from agents.training import Budget

    use_device(args.learner, args.device)
    if args.episodes is None and args.minutes is None:
        args.episodes, args.minutes = DEFAULT_BUDGET[args.learner].episodes, DEFAULT_BUDGET[args.learner].minutes
    game = load_game(args)
    mode = "hard" if args.hard else "normal"
    name = file_name(args.learner, args.init)
    curve = curve_path(name, args.hard, args.out)
    check_outputs((model_path(name, args.hard, args.out), checkpoint_path(name, args.hard, args.out),
                   curve.with_suffix(".csv"), curve.with_suffix(".png")),
                  "remove it, or choose another --out")  # before training, not when saving it
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"training {args.learner} ({mode})", total=1.0)

        def report(state: Any) -> None:
            last = state.last_eval or {}
            progress.update(task, completed=state.fraction, description=(
                f"{args.learner} ({mode}): {state.episodes} episodes, {state.games_per_second:.0f} games/s, "
                f"recent {state.recent_average:.3f} avg {state.recent_solved:.1%} solved; "
                f"greedy {last.get('average', float('nan')):.4f} avg {last.get('solved', float('nan')):.2%}"))

        try:
            outcome = train(args.learner, game, args.hard, Budget(args.episodes, args.minutes), args.seed,
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


# -- entry point ---------------------------------------------------------------------
def build_parser() -> ArgumentParser:
    """The full command line."""
    parser = ArgumentParser(prog="wordle-arena", description="Adversarial game search for Wordle.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    add_play_command(commands)
    add_tournament_command(commands)
    add_verify_command(commands)
    add_tree_command(commands)
    add_assist_command(commands)
    add_review_command(commands)
    add_openers_command(commands)
    add_solve_command(commands)
    add_train_command(commands)
    add_serve_command(commands)
    add_absurdle_command(commands)
    return parser


#: What the system can refuse a command for any path or write, with what to do about it: said in one line, exit 2.
SYSTEM_REFUSALS = {
    errno.ENOSPC: "the disk is full; free some space and run the command again (a tournament goes on with --resume, "
                  "every finished game kept)",
    errno.EDQUOT: "the disk quota is used up; free some space and run the command again (a tournament goes on with "
                  "--resume)",
    errno.EFBIG: "the file grew past what this file system allows",
    errno.ENAMETOOLONG: "the path is too long for this system; choose a shorter one",
    errno.EROFS: "the file system is read-only; choose a folder you can write",
    errno.EACCES: "permission denied; choose a file or folder you can use",
    errno.EPERM: "not permitted; choose a file or folder you can use",
    errno.ENOTDIR: "part of the path is a file, not a folder",
    errno.EISDIR: "it is a folder where a file belongs",
    errno.ELOOP: "the path loops through symbolic links",
}


def system_refusal(error: OSError) -> str:
    """An OSError of SYSTEM_REFUSALS as one line: the path (cut short), then what happened and what to do."""
    where = clip(str(error.filename), 80) + ": " if error.filename is not None else ""
    return f"{where}{SYSTEM_REFUSALS[error.errno]}"


def show_warning(message: Warning | str, *_: Any) -> None:
    """A library warning (a cache that cannot be kept, ...) as one line on stderr."""
    sys.stderr.write(f"wordle-arena: warning: {message}\n")


def plain_console(stderr: bool = False) -> Console:
    """A rich console that prints text as given: no highlighting, and ':x:' in a word stays ':x:', not an emoji."""
    return Console(stderr=stderr, highlight=False, emoji=False)


def tolerate_encodings() -> None:
    """Let stdout and stderr print any character: one their encoding lacks (PYTHONIOENCODING=ascii) shows as '?'."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "ascii"
        try:
            "\u2588\U0001f7e9\u2014".encode(encoding)
        except (UnicodeEncodeError, LookupError):
            if hasattr(stream, "reconfigure"):
                stream.reconfigure(errors="replace")


@contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """Handle SIGTERM as Ctrl-C while inside: a command stops the same way, its workers stopped and its work saved."""
    def interrupt(signum: int, frame: Any) -> None:
        """Raise KeyboardInterrupt in the main thread."""
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def main(argv: list[str] | None = None) -> int:
    """Run one command; bad input is one line on stderr and exit 2, Ctrl-C (or SIGTERM) exits 130."""
    tolerate_encodings()
    args = build_parser().parse_args(argv)
    warnings.showwarning = show_warning
    console = plain_console()
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console.width = PIPED_WIDTH  # a pipe or a log file has no width; keep tables whole
    try:
        with sigterm_as_ctrl_c():
            return int(args.handler(args, console) or 0)
    except UserError as error:
        message = error.say(flag) if isinstance(error, ForeignParameters) else str(error)
        plain_console(stderr=True).print(f"wordle-arena: error: {clip(message)}", markup=False, soft_wrap=True)
        return EXIT_USAGE
    except OSError as error:
        if error.errno not in SYSTEM_REFUSALS:
            raise
        plain_console(stderr=True).print(f"wordle-arena: error: {system_refusal(error)}", markup=False, soft_wrap=True)
        return EXIT_USAGE
    except IllegalMove as error:  # a player broke the rules: a bug, not the user's input
        Console(stderr=True, highlight=False).print(
            f"wordle-arena: internal error: a player made an illegal move ({error}); this is a bug, please report it",
            markup=False, soft_wrap=True)
        return EXIT_BUG
    except KeyboardInterrupt:
        plain_console(stderr=True).print("interrupted")
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
