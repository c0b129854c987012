"""Advice and review on every game but Wordle's own shape (several boards, other word lengths, Fibble), from the
steps typed.

A step is a guess and what the game showed: `crane:--g-y` on one board; on K boards one pattern a
board, in board order, separated by commas, `crane:--g-y,g----`, with `.` for a board solved before
this guess (a step may also leave solved boards out and give exactly one pattern for each open
board). On Fibble the pattern is the row as shown, lie included. The advice is the game's player's
(`agents.board_players`): each suggestion's information in bits (higher is better), the boards it
can solve and the chance it solves one; the review sets each guess beside the player's own choice
at that point, with the information each was expected to give and the bits the reply really gave.
No exact value is known for these games, so neither shows expected guesses, skill or luck.

>>> parse_board_step("crane:--g-y,.", 2, 5)
('crane', ['--g-y', None])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from plumbing.errors import UserError
from search.ranking import best_first
from variants import BoardsState, Fibble, FibbleState, GameSpec
from wordle import IllegalMove, format_pattern, parse_pattern

from .board_players import (
    BoardGame,
    BoardPlayer,
    BoardState,
    can_win_any,
    entropy_score,
    information,
    open_candidates,
    solve_chance,
)

#: Possible answers of a board listed by name up to this many.
NAMES_SHOWN = 12
#: What stands for a board solved before the step.
SOLVED = "."


class BoardStepError(UserError):
    """A typed step that does not fit the game: the word's length, the pattern count, a pattern no answer gives."""


@dataclass(frozen=True)
class Suggestion:
    """One guess the player ranks: its information (bits, higher is better), the boards it can solve, the chance it
    solves one (summed over the open boards), and the player's own value when it searches."""

    guess: int
    bits: float
    boards_it_can_solve: int
    chance: float
    value: float | None = None


@dataclass(frozen=True)
class BoardAdvice:
    """The advice after some steps: the state, each board's possible answers, the suggestions (empty once over)."""

    spec: GameSpec
    agent: str
    state: BoardState
    suggestions: tuple[Suggestion, ...]


def parse_board_step(text: str, boards: int, length: int) -> tuple[str, list[str | None]]:
    """A typed step as (word, patterns): one pattern text a board, or None where `.` marks a solved board.

    The patterns are checked later against the boards (`replay_steps`), which know which are solved.

    Raises:
        BoardStepError: not a word and patterns, or a word of the wrong length.
    """
    parts = text.replace(":", " ", 1).split()
    if len(parts) != 2:
        example = ",".join(["--g-y"[:length] + "-" * (length - 5)] * boards) if boards > 1 else "-" * (length - 1) + "g"
        raise BoardStepError(f"'{text}' is not a step: write the guess and the colours shown, e.g. "
                               f"'{'crane'[:length] + 'x' * (length - 5)}:{example}'"
                               + (" (one pattern a board, ',' between them, '.' for a board already solved)"
                                  if boards > 1 else ""))
    word, marks = parts
    if len(word) != length:
        raise BoardStepError(f"'{word}' has {len(word)} letters; this game's words have {length}")
    patterns = [None if mark.strip() == SOLVED else mark for mark in marks.replace("/", ",").split(",")]
    if boards == 1 and len(patterns) != 1:
        raise BoardStepError(f"'{text}': one board takes one pattern, got {len(patterns)}")
    return word.lower(), patterns


def replay_steps(spec: GameSpec, game: BoardGame, steps: list[str]) -> BoardState:
    """The state after the typed steps, each checked against the boards.

    Raises:
        BoardStepError: a step that does not parse, has the wrong number of patterns, names no allowed
            guess, comes after the game ended, or a pattern that no possible answer gives.
    """
    words = game.rules.words
    state = game.initial_state(spec.max_guesses)
    for number, text in enumerate(steps, start=1):
        word, marks = parse_board_step(text, spec.boards, spec.length)
        if word not in words.guess_index:
            raise BoardStepError(f"step {number}: '{word}' is not in the list of allowed {spec.length}-letter "
                                   "guesses")
        if game.is_terminal(state):
            raise BoardStepError(f"step {number} ({text}): the game was already over")
        try:
            patterns = [None if mark is None else parse_pattern(mark, spec.length) for mark in marks]
        except UserError as error:
            raise BoardStepError(f"step {number}: {error}") from None
        if isinstance(game, Fibble):
            reply: Any = patterns[0]
            if reply is None:
                raise BoardStepError(f"step {number}: fibble's one board is solved only by the game's end")
        else:
            reply = board_reply(spec, state, patterns, number)
        try:
            state = game.result(game.result(state, words.guess_index[word]), reply)
        except IllegalMove as error:
            raise BoardStepError(f"step {number} ({text}): {error}") from None
    return state


def board_reply(spec: GameSpec, state: BoardsState, patterns: list[int | None], number: int) -> tuple:
    """One pattern a board from the typed ones: K of them (`.` on solved boards), or one for each open board."""
    open_boards = state.open_boards
    if len(patterns) == spec.boards:
        return tuple(patterns)
    if len(patterns) == len(open_boards) and None not in patterns:
        reply: list[int | None] = [None] * spec.boards
        for board, pattern in zip(open_boards, patterns):
            reply[board] = pattern
        return tuple(reply)
    also = f", or {len(open_boards)}, one for each open board" if len(open_boards) < spec.boards else ""
    raise BoardStepError(f"step {number}: {spec.name} needs {spec.boards} patterns, one a board in order "
                           f"(',' between them, '.' for a solved board){also}; got {len(patterns)}")


def suggestions(player: BoardPlayer, state: BoardState, top: int) -> tuple[Suggestion, ...]:
    """The player's best guesses, its choice first: by its own values when it searches, else by information."""
    game = player.game
    if game.is_terminal(state):
        return ()
    guesses = np.asarray(game.legal_guesses(state))
    decision = player.decide(state, np.random.default_rng(0))
    if player.name == "entropy" or not decision.alternatives:
        score = entropy_score(game, state, guesses)
        order = best_first(guesses, -score, -can_win_any(game, state, guesses))
        chosen = [int(guesses[i]) for i in order[:top]]
        if decision.guess in chosen:  # the player's own guess first (a board with one answer left comes before bits)
            chosen.remove(decision.guess)
        chosen = [decision.guess, *chosen][:top]
        values: dict[int, float | None] = {}
    else:
        values = {int(g): float(v) for g, v in decision.alternatives}
        chosen = list(values)[:top]
    picked = np.array(chosen)
    bits = information(game, state, picked)
    wins = can_win_any(game, state, picked)
    chance = solve_chance(game, state, picked)
    return tuple(Suggestion(int(g), float(b), int(w), float(c), values.get(int(g)))
                 for g, b, w, c in zip(picked, bits, wins, chance))


def advise_boards(spec: GameSpec, game: BoardGame, player: BoardPlayer, steps: list[str],
                   top: int = 10) -> BoardAdvice:
    """The player's advice after the typed steps (see the module docstring for their form).

    Args:
        spec: the game played.
        game: its game over the lists of its length (`variants.game_of`).
        player: who advises.
        steps: the typed steps, in order.
        top: how many suggestions at most.

    Returns:
        BoardAdvice; its suggestions are empty once the game is over.

    Raises:
        BoardStepError: a step that does not fit (see `replay_steps`).
    """
    state = replay_steps(spec, game, steps)
    return BoardAdvice(spec, player.name, state, suggestions(player, state, top))


def board_lines(game: BoardGame, state: BoardState) -> list[str]:
    """Each board's possible answers in one line: solved, or how many and (up to NAMES_SHOWN) which."""
    answers = game.rules.words.answers
    boards = [(state.candidates, state.won)] if isinstance(state, FibbleState) else list(zip(state.candidates,
                                                                                             state.solved))
    lines = []
    for number, (cands, done) in enumerate(boards, start=1):
        head = f"board {number}: " if len(boards) > 1 else ""
        if done:
            lines.append(f"{head}solved ({answers[cands[0]].upper()})")
            continue
        names = ", ".join(answers[a] for a in cands[:NAMES_SHOWN]) + (
            f" and {len(cands) - NAMES_SHOWN} more" if len(cands) > NAMES_SHOWN else "")
        lines.append(f"{head}{len(cands)} possible ({math.log2(len(cands)):.2f} bits): {names}")
    return lines


def advice_data(game: BoardGame, advice: BoardAdvice) -> dict[str, Any]:
    """The advice as JSON-ready data."""
    words, state = game.rules.words, advice.state
    boards = [(state.candidates, state.won)] if isinstance(state, FibbleState) else list(zip(state.candidates,
                                                                                             state.solved))
    return {"game": advice.spec.as_data(), "name": advice.spec.name, "agent": advice.agent,
            "guesses_used": state.guesses_used, "guesses_left": state.guesses_left,
            "won": bool(state.won), "over": bool(game.is_terminal(state)),
            "boards": [{"solved": bool(done), "possible": len(cands),
                        "answers": [words.answers[a] for a in cands[:NAMES_SHOWN]]} for cands, done in boards],
            "suggestions": [{"guess": words.guesses[s.guess], "bits": round(s.bits, 6),
                             "boards_it_can_solve": s.boards_it_can_solve, "chance": round(s.chance, 6),
                             "value": None if s.value is None else round(s.value, 6)} for s in advice.suggestions]}


# -- review ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReviewedStep:
    """One guess of a reviewed game: the boards' answers before and after, the information it was expected to give and
    really gave (bits, higher is better), and the player's own guess there with its expected information."""

    number: int
    guess: int
    reply: tuple[int | None, ...]
    before: tuple[int, ...]
    after: tuple[int, ...]
    expected_bits: float
    gained_bits: float
    best_guess: int
    best_bits: float


@dataclass(frozen=True)
class BoardReview:
    """A reviewed game: its steps and how it ended."""

    spec: GameSpec
    agent: str
    steps: tuple[ReviewedStep, ...]
    won: bool
    answers: tuple[str, ...] | None


def answered_steps(spec: GameSpec, game: BoardGame, words: list[str], answers: list[str]) -> list[str]:
    """Typed steps for words played against known answers (one a board): each board's pattern until it is solved.

    Raises:
        BoardStepError: Fibble (its lies do not follow from the answer), a wrong count of answers, or a word
            that is not a possible answer or allowed guess of the game's length.
    """
    if spec.lies:
        raise BoardStepError("fibble's rows hold lies that the answer does not say: give each step as WORD:PATTERN "
                               "as the game showed it")
    if len(answers) != spec.boards:
        raise BoardStepError(f"--answer: {spec.name} needs {spec.boards} answers, comma-separated; "
                               f"got {len(answers)}")
    rules = game.rules
    for word in answers:
        if len(word) != spec.length or word.lower() not in rules.words.answer_index:
            raise BoardStepError(f"--answer: '{word}' is not a possible {spec.length}-letter answer")
    solved, steps = [False] * spec.boards, []
    for word in words:
        if len(word) != spec.length or word.lower() not in rules.words.guess_index:
            raise BoardStepError(f"'{word}' is not an allowed {spec.length}-letter guess")
        guess = rules.words.guess_index[word.lower()]
        marks = []
        for board, answer in enumerate(answers):
            if solved[board]:
                marks.append(SOLVED)
                continue
            pattern = int(rules.matrix[guess, rules.words.answer_index[answer.lower()]])
            marks.append(format_pattern(pattern, length=spec.length))
            solved[board] = word.lower() == answer.lower()
        steps.append(f"{word}:{','.join(marks)}")
    return steps


def review_boards(spec: GameSpec, game: BoardGame, player: BoardPlayer, steps: list[str],
                   answers: tuple[str, ...] | None = None) -> BoardReview:
    """Each typed step beside the player's own guess at that point.

    Args:
        spec, game, player: as `advise_boards`.
        steps: the typed steps (`answered_steps` makes them from words and answers).
        answers: the answers, when known, to name at the end.

    Raises:
        BoardStepError: a step that does not fit (see `replay_steps`).
    """
    state = replay_steps(spec, game, steps)  # every step checked before any is valued
    history = state.history
    state = game.initial_state(spec.max_guesses)
    reviewed = []
    for number, (guess, reply) in enumerate(history, start=1):
        before, bits_before = board_counts(state), bits_left(game, state)
        expected = float(information(game, state, np.array([guess]))[0])
        best = player.decide(state, np.random.default_rng(0)).guess
        best_bits = float(information(game, state, np.array([best]))[0])
        state = game.result(game.result(state, guess), reply)
        shown = (reply,) if isinstance(state, FibbleState) else tuple(reply)
        reviewed.append(ReviewedStep(number, guess, shown, before, board_counts(state), expected,
                                     bits_before - bits_left(game, state), best, best_bits))
    return BoardReview(spec, player.name, tuple(reviewed), bool(state.won), answers)


def board_counts(state: BoardState) -> tuple[int, ...]:
    """Each board's possible answers, 0 for a solved board."""
    if isinstance(state, FibbleState):
        return (0 if state.won else len(state.candidates),)
    return tuple(0 if done else len(cands) for cands, done in zip(state.candidates, state.solved))


def bits_left(game: BoardGame, state: BoardState) -> float:
    """The uncertainty left: the sum over the open boards of log2 of their possible answers."""
    return sum(math.log2(len(cands)) for cands in open_candidates(game, state))


def review_data(game: BoardGame, review: BoardReview) -> dict[str, Any]:
    """The review as JSON-ready data."""
    words, length = game.rules.words, review.spec.length
    return {"game": review.spec.as_data(), "name": review.spec.name, "agent": review.agent,
            "won": review.won, "answers": None if review.answers is None else list(review.answers),
            "steps": [{"guess": words.guesses[s.guess],
                       "reply": [None if p is None else format_pattern(p, length=length) for p in s.reply],
                       "before": list(s.before), "after": list(s.after), "expected_bits": round(s.expected_bits, 6),
                       "gained_bits": round(s.gained_bits, 6), "best": words.guesses[s.best_guess],
                       "best_bits": round(s.best_bits, 6)} for s in review.steps]}
