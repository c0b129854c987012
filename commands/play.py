"""`play`: an agent, or you, plays one game, with its trace, share grid and the review command after it."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace

import numpy as np
from rich.console import Console
from rich.text import Text

from agents import AGENTS, Decision, agent_names, game_rng, make_player, player_settings
from agents.assistant import make_advisor
from agents.base import deal_answers, dealt_rng, draw_answer, fresh_seed, lie_rng
from agents.indicators import Choice, Indicator, against_rngs, indicator_names, make_indicator, play_with
from plumbing.errors import UserError
from variants import AnyGame, AnyState, GameSpec, initial_state, play_out, replies_of
from wordle import Playthrough, State, Turn, Wordle, Words, format_pattern
from wordle.feedback import decode_colours
from wordle.words import PLAYER_GUESSES

from .assist import thinking
from .games import load_game, load_spec_game
from .options import (
    EXIT_INTERRUPTED,
    add_agent_options,
    add_game_options,
    add_mode_options,
    add_palette_option,
    add_seed_option,
    add_shape_options,
    agent_options,
    canonical_command,
    game_spec,
    mode_name,
    player_guesses,
)
from .render import (
    REPLY_LEGEND,
    SEARCH_LEGEND,
    TRACE_LEGEND,
    board_trace,
    boards_view,
    keyboard,
    outcome_line,
    plain_console,
    share_grid_of,
    trace_table,
    turn_values,
    waiting,
)
from .review import quoted, review_offer


class Abandoned(Exception):
    """The person at the prompt ended the game (Ctrl-D)."""


def pick_answer(game: Wordle, word: str | None, seed: int) -> int:
    """The answer column: the word given, or the answer drawn from the seed."""
    if word is not None:
        return game.words.answer_id(word)
    return draw_answer(seed, len(game.words.answers))


def command_play(args: argparse.Namespace, console: Console) -> int:
    """Play one game of the game the options describe: an agent's trace, or a person at the terminal when no agent is
    named (Wordle's own shape)."""
    described = game_spec(args)
    if not described.is_wordle:
        return play_dealt(args, console, described)
    play_indicator_checked(args)
    if args.ultra and (args.agent is not None or args.indicator != "honest"):
        raise UserError("--ultra is played by a person against an honest game (no --agent, no --indicator): the "
                        "agents and the other indicators have no ultra-hard mode yet")
    if args.agent is None:  # a person plays today's game: every word the Times accepts
        player_guesses(args)
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
            turns = list(playthrough.turns)
            values = turn_values(game, turns, args.hard, args.max_guesses, decisions)
            console.print(trace_table(game, turns, decisions, args.palette, values))
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


def dealt_answers(words: Words, game: GameSpec, given: str | None, seed: int) -> tuple[int, ...]:
    """A dealt game's answers, one a board: the words given (comma-separated), else game 0 of the seed's deal (as a
    tournament of that seed deals it)."""
    if given is None:
        return deal_answers(game.boards, len(words.answers), seed, 0)
    named = [word for word in given.replace(",", " ").split() if word]
    if len(named) != game.boards:
        raise UserError(f"--answer: {game.name} needs {game.boards} answer{'s' if game.boards > 1 else ''}, "
                        f"comma-separated; got {len(named)}")
    return tuple(words.answer_id(word) for word in named)


def play_dealt(args: argparse.Namespace, console: Console, described: GameSpec) -> int:
    """`play` of a game of another shape than Wordle's (several boards, another length, a lying Indicator): the
    agent's game as a trace, one reply a board; with the seed's answers and streams, game 0 of a tournament of that
    seed."""
    if args.indicator not in ("honest", "fibble"):
        raise UserError(f"--indicator {args.indicator} replies to five-letter Wordle on one board, not "
                        f"{described.name}")
    if args.agent is None:
        return play_person_dealt(args, console, described)
    player_settings(args.agent, described, **agent_options(args))  # refused before the lists are loaded
    rules, game = load_spec_game(described, named=True)
    player = make_player(args.agent, game, described, **agent_options(args))
    seed = fresh_seed() if args.seed is None else args.seed
    words = rules.words
    answers = dealt_answers(words, described, args.answer, seed)
    rng = dealt_rng(seed, 0)
    decisions = []

    def choose(state: AnyState) -> int:
        """The player's guess, under a spinner saying what it may cost."""
        with waiting(f"{args.agent} is choosing guess {state.guesses_used + 1}{player.cost_text()}"):
            decisions.append(player.decide(state, rng))
        return decisions[-1].guess

    history, won = play_out(game, described, choose, answers, lie_rng(seed, 0) if described.lies else None)
    guesses, replies = [words.guesses[g] for g, _ in history], [reply for _, reply in history]
    cut = [number for number, decision in enumerate(decisions, start=1) if decision.fallback]
    if args.json:
        print(json.dumps({"game": described.as_data(), "agent": args.agent, "seed": seed,
                          "answers": [words.answers[a] for a in answers], "won": won, "guesses": guesses,
                          "replies": [[None if p is None else format_pattern(p, length=described.length) for p in reply]
                                      for reply in replies], "cut_short": cut}))
        return 0
    console.print(f"{args.agent} plays {described.describe()}, seed {seed}", markup=False)
    board_trace(console, described, guesses, replies, args.palette)
    outcome = f"won in {len(history)}/{described.max_guesses}" if won else f"lost ({len(history)} guesses)"
    console.print(f"{outcome}; the answers: {', '.join(words.answers[a].upper() for a in answers)}", markup=False)
    if cut:
        console.print(f"guesses {', '.join(map(str, cut))}: the full search needed more than its node budget, so the "
                      "shallower search's guess was played (give --nodes to search further)", markup=False)
    console.print(board_review_offer(described, words, history, answers), markup=False, soft_wrap=True)
    return 0


def person_spec(args: argparse.Namespace, described: GameSpec) -> GameSpec:
    """The game a person plays at the prompt: five-letter words on every word the Times accepts today (as Wordle's
    prompt plays) unless --guesses names a list; the other lengths on their shipped lists."""
    if described.length != 5 or described.guesses is not None:
        return described
    player_guesses(args)
    return replace(described, guesses=args.guesses)


def replayed(game: AnyGame, described: GameSpec, history: tuple) -> AnyState:
    """The position after a played game's guesses and replies (one pattern a board)."""
    state = initial_state(game, described)
    for guess, reply in history:
        state = game.result(game.result(state, guess), reply[0] if described.lies else reply)
    return state


def board_counts(described: GameSpec, state: AnyState) -> tuple[tuple[bool, ...], tuple[int, ...]]:
    """Each board's solved flag and its count of answers still possible."""
    if described.lies:
        return (bool(state.won),), (len(state.candidates),)
    return tuple(state.solved), tuple(len(c) for c in state.candidates)


def show_boards(console: Console, described: GameSpec, game: AnyGame, state: AnyState, palette: str) -> None:
    """The boards as they stand, fitted to the console's width."""
    solved, left = board_counts(described, state)
    for line in boards_view(described, game.words, replies_of(state), solved, left, palette, console.width):
        console.print(line)


def refusal(described: GameSpec, game: AnyGame, state: AnyState, word: str) -> str | None:
    """Why the typed `word` cannot be played now (one line), or None: a word of the wrong length, one not in the list
    of allowed guesses, a repeat on honest boards (it would tell nothing new; Fibble lies afresh), a hard-mode breach."""
    words = game.words
    if len(word) != described.length:
        return f"'{word}' has {len(word)} letters; {described.name}'s words have {described.length}"
    if word not in words.guess_index:
        return f"'{word}' is not in the list of allowed guesses"
    guess = words.guess_index[word]
    if not described.lies and (earlier := next((n for n, (g, _) in enumerate(state.history, 1) if g == guess),
                                               None)) is not None:
        return f"'{word}' was already guessed (guess {earlier}); it would tell you nothing new"
    if described.hard and (broken := game.violation(state, guess)) is not None:
        return f"hard mode: {broken}"
    return None


def play_person_dealt(args: argparse.Namespace, console: Console, described: GameSpec) -> int:
    """A person plays a game of another shape than Wordle's at the prompt: every board shown after each guess, bad
    words refused in one line; the answers (from --answer, else dealt from the seed as `play --agent` and the web's
    Variants page deal them) revealed at the end, and the review command of the game.

    Returns:
        0 when every board is solved, 1 when the game is lost or ended with Ctrl-D, 130 after Ctrl-C.
    """
    if args.answer is not None and args.seed is not None and not described.lies:
        raise UserError("--seed: you against the --answer given draws nothing; leave it out")
    described = person_spec(args, described)
    rules, game = load_spec_game(described, named=True)
    seed = fresh_seed() if args.seed is None else args.seed
    words = rules.words
    answers = dealt_answers(words, described, args.answer, seed)
    board = plain_console(stderr=True) if args.json else console  # --json: stdout holds the JSON alone
    board.print(f"You play {described.describe()}. End with Ctrl-D.", markup=False, soft_wrap=True)
    board.print(REPLY_LEGEND + ("; one tile of every row but a winning one lies" if described.lies else ""),
                markup=False, soft_wrap=True)

    def ask(state: AnyState) -> int:
        """Show the boards, then read guesses until one may be played."""
        if state.history:
            show_boards(board, described, game, state, args.palette)
        while True:
            try:
                word = board.input(f"guess {state.guesses_used + 1}/{state.max_guesses}> ").strip().lower()
            except EOFError:
                raise Abandoned from None
            except KeyboardInterrupt:
                raise Abandoned("interrupted") from None
            if not word:
                continue
            if (refused := refusal(described, game, state, word)) is not None:
                board.print(Text(refused, style="yellow"))
                continue
            return words.guess_index[word]

    answer_words = ", ".join(words.answers[a].upper() for a in answers)
    try:
        history, won = play_out(game, described, ask, answers, lie_rng(seed, 0) if described.lies else None)
    except Abandoned as stop:
        board.print(f"\nGame abandoned; the answer{'s were' if len(answers) > 1 else ' was'} {answer_words}.",
                    markup=False, soft_wrap=True)
        return EXIT_INTERRUPTED if stop.args else 1
    final = replayed(game, described, history)
    show_boards(board, described, game, final, args.palette)
    solved, _ = board_counts(described, final)
    if won:
        outcome = Text(f"Solved {'every board' if described.boards > 1 else answer_words} in {len(history)}/"
                       f"{described.max_guesses}" + (f": {answer_words}." if described.boards > 1 else "."),
                       style="bold green")
    else:
        kept = f" ({sum(solved)} of {described.boards} boards solved)" if described.boards > 1 else ""
        outcome = Text(f"Not solved in {described.max_guesses} guesses{kept}: the answer"
                       f"{'s were' if len(answers) > 1 else ' was'} {answer_words}.", style="bold red")
    board.print(outcome, soft_wrap=True)
    if described.lies:
        for line in lie_lines(rules, history, answers[0]):
            board.print(line, markup=False)
    if args.answer is None:
        board.print(f"The answer{'s were' if len(answers) > 1 else ' was'} dealt with seed {seed}: play "
                    f"{'them' if len(answers) > 1 else 'it'} again with --seed {seed}.", markup=False, soft_wrap=True)
    elif described.lies:
        board.print(f"The lies were drawn with seed {seed}: --seed {seed} draws them again.", markup=False)
    if args.json:
        print(json.dumps({"game": described.as_data(), "agent": None, "seed": seed,
                          "answers": [words.answers[a] for a in answers], "won": won,
                          "guesses": [words.guesses[g] for g, _ in history],
                          "replies": [[None if p is None else format_pattern(p, length=described.length) for p in reply]
                                      for _, reply in history]}))
    else:
        board.print(board_review_offer(described, words, history, answers), markup=False, soft_wrap=True)
    return 0 if won else 1


def lie_lines(rules: Wordle, history: tuple, answer: int) -> list[str]:
    """Fibble's rows told true at the end: which tile of each row lied, and what it truly was."""
    lines = ["The lies:"]
    for number, (guess, reply) in enumerate(history, start=1):
        word, shown = rules.words.guesses[guess], reply[0]
        truth = int(rules.matrix[guess, answer])
        if truth == shown:
            lines.append(f"{number:>2}. {word.upper()}  {format_pattern(shown, length=len(word))}  true (it won)")
            continue
        tile = next(i for i, (a, b) in enumerate(zip(decode_colours(shown, len(word)), decode_colours(truth, len(word))))
                    if a != b)
        lines.append(f"{number:>2}. {word.upper()}  {format_pattern(shown, length=len(word))}  tile {tile + 1} "
                     f"({word[tile].upper()}) lied: truly {format_pattern(truth, length=len(word))}")
    return lines


def board_review_offer(described: GameSpec, words: Words, history: tuple, answers: tuple[int, ...]) -> str:
    """The one line a game of another shape ends with: the review command for it, every list and mode flag carried
    (Fibble's rows as they were shown: its lies do not follow from the answer)."""
    played = [words.guesses[g] for g, _ in history]
    if described.lies:
        given = " ".join(f"{word}:{format_pattern(reply[0], length=described.length)}"
                         for word, (_, reply) in zip(played, history))
    else:
        given = f"--answer {','.join(words.answers[a] for a in answers)} {' '.join(played)}"
    options = [("--boards", described.boards if described.boards > 1 else None),
               ("--length", described.length if described.length != 5 else None),
               ("--indicator", "fibble" if described.lies else None),
               ("--max-guesses", described.max_guesses if described.max_guesses != described.default_limit else None),
               ("--hard", described.hard),
               ("--answers", quoted(described.answers) if described.answers else None),
               ("--guesses", quoted(described.guesses) if described.guesses else None)]
    return "Review this game: " + canonical_command(f"review {given}", *options)


def play_data(game: Wordle, playthrough: Playthrough, args: argparse.Namespace, seed: int,
              decisions: list[Decision]) -> dict:
    """A played game as plain data (for --json): who played, the rules, every turn, the outcome."""
    words = game.words
    turns = []
    rated = turn_values(game, list(playthrough.turns), args.hard, args.max_guesses, ultra=args.ultra)
    for number, turn in enumerate(playthrough.turns):
        decision = decisions[number] if decisions else None
        turns.append({"guess": words.guesses[turn.guess], "pattern": format_pattern(turn.pattern),
                      "remaining_before": turn.remaining_before, "remaining_after": turn.remaining_after,
                      "bits": round(turn.bits, 6), "value": rated[number][0].data(),
                      "agent_value": None if decision is None or decision.value is None else round(decision.value, 6)})
    return {"agent": args.agent, "indicator": args.indicator,
            "answer": None if playthrough.answer is None else words.answers[playthrough.answer], "seed": seed, "hard": args.hard, "ultra": args.ultra,
            "max_guesses": args.max_guesses, "solved": playthrough.solved, "guesses": len(playthrough.turns),
            "turns": turns, "share": share_grid_of(playthrough, args.max_guesses, args.palette)}


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

    def __init__(self, indicator: Indicator, what: str):
        self.indicator, self.what = indicator, what

    def reply(self, state: State, rng: np.random.Generator) -> Choice:
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
    mode = f"{mode_name(args)} mode"
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
                console.print(Text(f"{mode}: {broken}", style="yellow"))
                continue
            return guess

    try:
        playthrough = run(ask) if run is not None else game.play(ask, answer, hard=args.hard,
                                                                 max_guesses=args.max_guesses, ultra=args.ultra)
    except Abandoned:
        held = (f"the answer was {game.words.answers[answer].upper()}" if run is None
                else f"{args.indicator} held no answer")
        console.print(f"\nGame abandoned; {held}.")
        return None
    turns = list(playthrough.turns)
    console.print(trace_table(game, turns, palette=args.palette,
                              values=turn_values(game, turns, args.hard, args.max_guesses, ultra=args.ultra)))
    console.print(TRACE_LEGEND, markup=False)
    if args.json:
        console.print(outcome_line(game, playthrough, args.max_guesses))
    return playthrough


def add_play_command(commands: argparse._SubParsersAction) -> None:
    """`play`: one game, by an agent or by a person."""
    parser = commands.add_parser(
        "play", help="play one game: an agent's trace, or you at the prompt",
        description="Play one game. With --agent, show that agent's game as a trace; without it, you guess at the prompt.",
    )
    parser.add_argument("--agent", choices=agent_names(), metavar="NAME",
                        help=f"the Guesser: {', '.join(agent_names())} (default: you play)")
    parser.add_argument("--answer", metavar="WORD", help="the hidden word (default: a seeded random answer)")
    parser.add_argument("--indicator", choices=[*indicator_names(), "fibble"], default="honest", metavar="NAME",
                        help=f"who replies: {', '.join(indicator_names())}, fibble (default honest: today's game; "
                             "absurdle, random and adversary hold no answer, so --answer goes with honest and fibble "
                             "only, and the trace shows what each reply kept and rejected; the adversary searches "
                             "--depth deep, default 1; fibble holds an answer and tells exactly one lie in every row "
                             "that does not win, 9 guesses)")
    add_mode_options(parser, "hard mode: revealed hints must be used in every later guess")
    add_seed_option(parser, "seed for the answer drawn and the agent's random choices (default: a fresh one, printed "
                            "so the game can be replayed)", default=None)
    parser.add_argument("--json", action="store_true",
                        help="print the finished game as JSON on stdout (your board, when you play, goes to stderr)")
    add_palette_option(parser)
    add_game_options(parser, named=True, guesses_default=f"{PLAYER_GUESSES} when you play at the prompt, every word "
                                                         "the Times accepts today; original, the 12972 of 2022, "
                                                         "when an agent plays, as in the tournament")
    add_shape_options(parser)
    add_agent_options(parser)
    parser.set_defaults(handler=command_play)
