"""The learners' Wordle environment, vectorised: a batch of games advances in one array step.

Every function here is written once over an array module `xp` (numpy, or jax.numpy
for training) and never mutates its inputs, so the same code trains under JAX and
plays under numpy. A batch state is a dict of arrays with the games along axis 0:

- cand (B x answers, bool): the answers still possible;
- holds, notat (B x 26 x 5): letter l is known to be / not to be at position i;
- least (B x 26): the fewest occurrences of each letter the replies have shown;
- guessed (B x guesses, bool): words already played;
- turn (B): guesses made; solved, done (B, bool).

The policy sees `features`: the 26 x 11 letter table (least / 3, holds, notat) and a
one-hot turn, and with the candidate view how the answers still possible spell.
`allowed` is what a game may guess next: never a repeat, only legal guesses in hard
mode, the last answer when one is left, and on the last turn only a possible answer
(the three inductive biases; hard mode's rule is the engine's).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from wordle import ALL_GREEN, GREEN, GREY, YELLOW, Wordle, decode_colours

LETTERS, LENGTH = 26, 5
#: Per letter: fewest occurrences, 5 "is at", 5 "is not at".
LETTER_FEATURES = 1 + 2 * LENGTH
#: A letter is required at most this many times by any reply (five-letter words).
MOST_REQUIRED = 3


@dataclass(frozen=True, eq=False)
class Tables:
    """The constant arrays the environment steps with, built once from a game.

    Attributes:
        matrix: guesses x answers pattern codes.
        spelled: guesses x 26 x 5 one-hot spelling (the action features, 130 per word).
        has: guesses x 26 x 3: the word holds the letter at least k + 1 times.
        colours: 243 x 5 colour of each position in a pattern code.
        answer_col: for each guess, its answer column, or the answer count (a padding column) if none.
        answer_spelled: answers x 130, each answer's spelling flattened (for the candidate view).
        max_guesses, hard: the rules.
    """

    matrix: np.ndarray
    spelled: np.ndarray
    has: np.ndarray
    colours: np.ndarray
    answer_col: np.ndarray
    answer_spelled: np.ndarray
    max_guesses: int
    hard: bool

    @classmethod
    def build(cls, game: Wordle, hard: bool, max_guesses: int) -> Tables:
        """The tables of one game and mode (numpy arrays)."""
        letters = game.guess_letters.astype(np.int64)  # guesses x 5, 0-25
        spelled = np.zeros((len(letters), LETTERS, LENGTH), dtype=np.float32)
        spelled[np.arange(len(letters))[:, None], letters, np.arange(LENGTH)[None, :]] = 1.0
        counts = spelled.sum(axis=2)
        has = (counts[:, :, None] >= np.arange(1, MOST_REQUIRED + 1)[None, None, :]).astype(np.float32)
        colours = np.array([decode_colours(code) for code in range(243)], dtype=np.int64)
        answer_col = np.full(len(letters), len(game.words.answers), dtype=np.int64)
        answer_col[game.words.answer_rows] = np.arange(len(game.words.answers))
        answer_spelled = spelled[game.words.answer_rows].reshape(len(game.words.answers), -1)
        return cls(matrix=game.matrix, spelled=spelled, has=has, colours=colours, answer_col=answer_col,
                   answer_spelled=answer_spelled, max_guesses=max_guesses, hard=hard)

    def on(self, xp) -> Tables:
        """The same tables as arrays of module `xp`."""
        return Tables(**{name: xp.asarray(getattr(self, name)) for name in ("matrix", "spelled", "has", "colours",
                                                                            "answer_col", "answer_spelled")},
                      max_guesses=self.max_guesses, hard=self.hard)


def reset(tables: Tables, games: int, xp=np) -> dict:
    """`games` fresh games: every answer possible, nothing known."""
    answers, guesses = tables.matrix.shape[1], tables.matrix.shape[0]
    return {"cand": xp.ones((games, answers), dtype=bool),
            "holds": xp.zeros((games, LETTERS, LENGTH), dtype=xp.float32),
            "notat": xp.zeros((games, LETTERS, LENGTH), dtype=xp.float32),
            "least": xp.zeros((games, LETTERS), dtype=xp.float32),
            "guessed": xp.zeros((games, guesses), dtype=bool),
            "turn": xp.zeros(games, dtype=xp.int32),
            "solved": xp.zeros(games, dtype=bool),
            "done": xp.zeros(games, dtype=bool)}


def advance(tables: Tables, state: dict, guess, pattern, xp=np) -> dict:
    """Every game after playing `guess` (B) and hearing `pattern` (B); finished games stay as they were."""
    live = ~state["done"]
    cand = state["cand"] & (tables.matrix[guess] == pattern[:, None])
    colours = tables.colours[pattern]  # B x 5
    green, shown = colours == GREEN, colours != GREY
    spelled = tables.spelled[guess]  # B x 26 x 5
    holds = xp.maximum(state["holds"], spelled * green[:, None, :])
    count = (spelled * shown[:, None, :]).sum(axis=2)  # B x 26: occurrences this reply revealed
    absent = (spelled.sum(axis=2) > 0) & (count == 0)  # played, and grey wherever it stood
    notat = xp.maximum(state["notat"], spelled * (colours == YELLOW)[:, None, :])
    notat = xp.maximum(notat, spelled * (colours == GREY)[:, None, :])
    notat = xp.maximum(notat, (1.0 - spelled) * green[:, None, :])  # a green position holds no other letter
    notat = xp.maximum(notat, absent[:, :, None] * xp.ones((1, 1, LENGTH), dtype=xp.float32))
    guessed = state["guessed"] | (xp.arange(tables.matrix.shape[0])[None, :] == guess[:, None])
    solved = state["solved"] | (pattern == ALL_GREEN)
    turn = state["turn"] + 1
    new = {"cand": cand, "holds": holds, "notat": notat, "least": xp.maximum(state["least"], count),
           "guessed": guessed, "turn": turn, "solved": solved, "done": solved | (turn >= tables.max_guesses)}
    return {name: xp.where(live.reshape((-1,) + (1,) * (value.ndim - 1)), value, state[name])
            for name, value in new.items()}


def features(tables: Tables, state: dict, xp=np, candidate_view: bool = False):
    """The policy's view of each game: 26 x 11 letter features and a one-hot turn, flattened (B x 292 for 6 guesses).

    With `candidate_view`, also how the answers still possible spell: the share of them with each letter at
    each position (26 x 5) and log2 of their number over log2 of all answers (B x 423 for 6 guesses).
    """
    letters = xp.concatenate([state["least"][:, :, None] / MOST_REQUIRED, state["holds"], state["notat"]], axis=2)
    turn = (state["turn"][:, None] == xp.arange(tables.max_guesses)[None, :]).astype(xp.float32)
    parts = [letters.reshape(letters.shape[0], -1), turn]
    if candidate_view:
        cand = state["cand"].astype(xp.float32)
        count = xp.maximum(cand.sum(axis=1, keepdims=True), 1.0)
        parts += [cand @ tables.answer_spelled / count, xp.log2(count) / max(1.0, math.log2(cand.shape[1]))]
    return xp.concatenate(parts, axis=1)


def feature_size(max_guesses: int, candidate_view: bool = False) -> int:
    """Length of a game's feature vector."""
    return LETTERS * LETTER_FEATURES + max_guesses + (LETTERS * LENGTH + 1 if candidate_view else 0)


def candidate_rows(tables: Tables, state: dict, xp=np):
    """B x guesses: which guesses are answers still possible."""
    padded = xp.concatenate([state["cand"], xp.zeros((state["cand"].shape[0], 1), dtype=bool)], axis=1)
    return padded[:, tables.answer_col]


def legal(tables: Tables, state: dict, xp=np):
    """B x guesses: which guesses hard mode's rule allows (all of them in normal mode)."""
    games, guesses = state["cand"].shape[0], tables.matrix.shape[0]
    if not tables.hard:
        return xp.ones((games, guesses), dtype=bool)
    misplaced = state["holds"].reshape(games, -1) @ (1.0 - tables.spelled.reshape(guesses, -1)).T
    need = (state["least"][:, :, None] >= xp.arange(1, MOST_REQUIRED + 1)[None, None, :]).astype(xp.float32)
    short = need.reshape(games, -1) @ (1.0 - tables.has.reshape(guesses, -1)).T
    return (misplaced < 0.5) & (short < 0.5)


def allowed(tables: Tables, state: dict, xp=np):
    """B x guesses: the rules and the three inductive biases (no repeat; one answer left: it; last turn: an answer)."""
    possible = candidate_rows(tables, state, xp)
    base = legal(tables, state, xp) & ~state["guessed"]
    only_answers = (state["cand"].sum(axis=1) == 1) | (state["turn"] == tables.max_guesses - 1)
    return xp.where(only_answers[:, None], possible, base)
