"""Slow readable reference searches over Wordle, the oracles of the search algorithms and their policies."""

from __future__ import annotations

import numpy as np

from wordle import ALL_GREEN, State, Wordle
from wordle.strategy import Strategy


def reference_value(game: Wordle, state: State, evaluation, depth: int, combine: str,
                    strategy: Strategy = Strategy(), candidates_only: bool = False) -> float:
    """The value of `state` by plain recursion over every legal guess (no beam, pool, cache or pruning).

    combine: "min" (minimax), "mean" (expectimax, weighted by bin size) or "max" (the best case).
    States with one or two answers, or one guess left, are valued by the same exact rules as the engine;
    as `strategy` says (only its endgame, endgame_answers and loss count here), a state with at most
    `endgame` guesses left (or, in hard mode, at most `endgame_answers` answers and endgame + 1
    guesses left) is searched to the end of the game, and a lost game is worth -loss.
    """
    size, left = len(state.candidates), state.guesses_left
    base = game.solve_now(state)
    if size == 1:
        return base
    if left == 1:
        return {"min": -strategy.loss, "mean": (base - (size - 1) * strategy.loss) / size, "max": base}[combine]
    if size == 2:
        return {"min": base - 1.0, "mean": base - 0.5, "max": base}[combine]
    if left <= strategy.endgame or ((state.hard or candidates_only) and left <= strategy.endgame + 1
                                 and size <= strategy.endgame_answers):
        depth = max(depth, left)
    guesses = game.winning_guesses(state.candidates) if candidates_only else game.legal_guesses(state)
    if depth == 1:
        return float(np.max(np.round(evaluation.values(game, state, guesses), 9)))
    best = -np.inf
    for guess in guesses:
        values, weights = [], []
        for pattern, answers in game.partition(state.candidates, int(guess)):
            if pattern == ALL_GREEN:
                values.append(base)
            else:
                child = game.step(state, int(guess), pattern)
                values.append(reference_value(game, child, evaluation, depth - 1, combine, strategy, candidates_only))
            weights.append(len(answers) / size)
        if combine == "min":
            value = min(values)
        elif combine == "max":
            value = max(values)
        else:
            value = float(np.dot(weights, values))
        best = max(best, value)
    return best


def reference_beam(game: Wordle, state: State, evaluation, depth: int, combine: str, strategy: Strategy,
                   candidates_only: bool = False) -> tuple[float, float]:
    """Value and chance of a loss of `state` under the engine's beam and widening, by plain recursion.

    combine: "min" (minimax) or "mean" (expectimax). A Guesser node with three or more answers
    and two or more guesses left orders its legal guesses (or possible answers) by the evaluation,
    then can-win, then index, and searches the first `strategy.beam` of them; while none of those
    searched shows no loss (mean: chance of a loss 0; min: value above -loss) it searches the
    next `beam`, up to `strategy.widen` in all. With two guesses left (depth above 1) every guess is
    weighed, as the engine's exact pass does. No pool: use it with a pool larger than the lists.
    """
    size, left = len(state.candidates), state.guesses_left
    base = game.solve_now(state)
    if size == 1:
        return base, 0.0
    if left == 1:
        return ({"min": -strategy.loss, "mean": (base - (size - 1) * strategy.loss) / size}[combine], (size - 1) / size)
    if size == 2:
        return {"min": base - 1.0, "mean": base - 0.5}[combine], 0.0
    if left <= strategy.endgame or ((state.hard or candidates_only) and left <= strategy.endgame + 1
                                 and size <= strategy.endgame_answers):
        depth = max(depth, left)
    guesses = game.winning_guesses(state.candidates) if candidates_only else game.legal_guesses(state)
    values = np.round(evaluation.values(game, state, guesses), 9)
    can_win = game.can_win(state.candidates, guesses)
    ordered = [int(g) for g in guesses[np.lexsort((guesses, ~can_win, -values))]]
    if depth == 1:
        return float(values.max()), 0.0
    if left == 2:
        beam, widen = len(ordered), len(ordered)
    else:
        beam, widen = strategy.beam, max(strategy.widen, strategy.beam)
    best, best_risk, searched = -np.inf, 0.0, 0
    while searched < min(widen, len(ordered)):
        batch = ordered[searched: min(searched + beam, widen)]
        for guess in batch:
            value, risk = _reference_reply(game, state, guess, evaluation, depth, combine, strategy, candidates_only)
            if value > best:
                best, best_risk = value, risk
            if (risk == 0.0 if combine == "mean" else value > -strategy.loss) and left > 2:
                widen = 0  # a guess without a loss: no further beam
        searched += len(batch)
    return best, best_risk


def _reference_reply(game: Wordle, state: State, guess: int, evaluation, depth: int, combine: str, strategy: Strategy,
                     candidates_only: bool) -> tuple[float, float]:
    """Value and chance of a loss of `guess` at `state`: its replies' worst (min) or bin-weighted mean."""
    base = game.solve_now(state)
    size = len(state.candidates)
    results, weights = [], []
    for pattern, answers in game.partition(state.candidates, guess):
        if pattern == ALL_GREEN:
            results.append((base, 0.0))
        else:
            results.append(reference_beam(game, game.step(state, guess, pattern), evaluation, depth - 1, combine,
                                          strategy, candidates_only))
        weights.append(len(answers) / size)
    if combine == "min":
        return min(value for value, _ in results), 0.0
    return float(np.dot(weights, [v for v, _ in results])), float(np.dot(weights, [r for _, r in results]))
