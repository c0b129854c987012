"""The depth-limited game-tree search that minimax, alpha-beta and expectimax share.

Values are from the Guesser's point of view, higher is better, on the scale of
`Wordle.utility`: solving with guess k is worth max_guesses + 1 - k, a lost game
0 - `limit.loss` (the search's penalty for losing; the utility itself says 0).

A Guesser node expands the `beam` guesses its evaluation values best; an Indicator
node replies with every pattern the pending guess can get, and combines the children
as the algorithm says: the minimum (minimax, alpha-beta) or the mean weighted by bin
size (expectimax). At the horizon a guess is valued by the evaluation alone. States
with one or two possible answers, or one guess left, are played exactly: guess a
possible answer. With two guesses left every weighed guess is valued exactly in one
array pass (`last_two`). Nodes with at most `limit.endgame` guesses left, and small
hard-mode sets (`limit.endgame_answers`), are searched to the end of the game. A game's
first move is searched `limit.opening` deep when that is deeper than `limit.depth`.

Tie-breaks are fixed: among equal values, prefer a guess that can be the answer, then
the lower guess index. An evaluation with `random_ties` (zero mode) orders equals by
the seeded generator instead, which makes a depth-1 search a random player.

At the root every legal guess is valued; below it, a node values only its possible
answers plus the `limit.pool` guesses the evaluation values best on the full answer
list, which keeps deep nodes cheap. A search with `answers_only` lets every Guesser
node choose only among its possible answers (the decision-tree player's rule); such a
search is bound much as hard mode binds, so its small sets (`limit.endgame_answers`)
are searched to the end as hard mode's are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .feedback import ALL_GREEN
from .game import State, Wordle
from .hardmode import hints_from, legal_mask
from .limits import Evaluator, Limit, SearchResult

MINIMAX = "minimax"
ALPHABETA = "alphabeta"
EXPECTIMAX = "expectimax"
ALGORITHMS = (MINIMAX, ALPHABETA, EXPECTIMAX)
#: Values are rounded to this many decimals so that equal partitions tie exactly.
_DECIMALS = 9
#: Alternatives reported at the root of a depth-1 search.
_ALTERNATIVES = 10


@dataclass
class SearchCache:
    """What searches by one player keep between calls, keyed by state (candidates, guesses left, legal guesses).

    Every entry is a function of its key alone, so a player's moves do not depend on
    which games it played before. A cache serves one (algorithm, evaluation, limit).

    Attributes:
        ranked: per state and guess set (root or pool), its best guesses and their values.
        values: per (state, depth) below a root, the node's exact value and move.
        pool: the guesses valued best on the full list, best first.
    """

    ranked: dict[tuple, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    values: dict[tuple, tuple[float, int, int]] = field(default_factory=dict)
    pool: np.ndarray | None = None
    owner: tuple | None = None

    def bind(self, owner: tuple) -> None:
        """Tie the cache to one search configuration; refuse another."""
        if self.owner is None:
            self.owner = owner
        elif self.owner != owner:
            raise ValueError("a SearchCache serves one algorithm, evaluation and limit")


class _Search:
    """One search from one root: counters, the algorithm's Indicator rule and the caches."""

    def __init__(self, algorithm: str, game: Wordle, evaluation: Evaluator, limit: Limit,
                 rng: np.random.Generator | None, cache: SearchCache | None, answers_only: bool = False):
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm '{algorithm}'")
        if evaluation.random_ties and rng is None:
            raise ValueError("an evaluation with random tie-breaks needs a seeded rng")
        self.algorithm = algorithm
        self.chance = algorithm == EXPECTIMAX
        self.prune = algorithm == ALPHABETA
        self.game = game
        self.evaluation = evaluation
        self.limit = limit
        self.rng = rng
        self.random = evaluation.random_ties
        self.answers_only = answers_only
        # Randomly tie-broken results and budget-cut results depend on more than the state.
        self.cache = cache if cache is not None and not self.random else None
        self.store = self.cache is not None and limit.nodes is None
        if self.cache is not None:
            self.cache.bind((algorithm, evaluation.key, limit, answers_only))
        self.nodes = 0
        self.reached = 0

    # -- guess ordering ----------------------------------------------------------
    def order(self, state: State, guesses: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Indices that sort guesses best first: value, then can-win, then index (or the rng's order)."""
        if self.random:
            assert self.rng is not None
            return np.lexsort((self.rng.permutation(guesses.size), -values))
        can_win = np.isin(guesses, self.game.words.answer_rows[state.candidates])
        return np.lexsort((guesses, ~can_win, -values))

    def pool(self, state: State) -> np.ndarray:
        """The `limit.pool` guesses the evaluation values best on the full answer list."""
        if self.cache is not None and self.cache.pool is not None:
            return self.cache.pool
        start = self.game.initial_state(max_guesses=state.max_guesses)
        values = np.round(self.evaluation.values(self.game, start, self.game.all_guesses, self.limit.threshold), _DECIMALS)
        best = self.order(start, self.game.all_guesses, values)[: self.limit.pool]
        pool = np.sort(self.game.all_guesses[best])
        if self.cache is not None:
            self.cache.pool = pool
        return pool

    def choices(self, state: State, legal: np.ndarray, root: bool, among: np.ndarray | None) -> np.ndarray:
        """The guesses a node weighs: every legal one at the root, else its answers plus the pool (legal ones).

        With `answers_only`, every node weighs its possible answers alone (always legal: a possible
        answer obeys every hint its replies gave).
        """
        if self.answers_only:
            legal = np.sort(self.game.words.answer_rows[state.candidates])
        if among is not None:
            guesses = np.intersect1d(legal, among)
            if guesses.size == 0:
                raise ValueError("none of the guesses the search may choose among is legal here")
            return guesses
        if self.answers_only or root or self.random or (state.hard and legal.size <= self.limit.pool):
            return legal
        wanted = np.union1d(self.game.words.answer_rows[state.candidates], self.pool(state))
        return wanted if not state.hard else np.intersect1d(wanted, legal)

    def ranked(self, state: State, legal: np.ndarray, key: tuple | None, root: bool,
               among: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """The guesses valued at this node and their values, best first (at most beam or 10 of them)."""
        cache_key = (key, root) if key is not None and among is None else None
        if cache_key is not None and cache_key in self.cache.ranked:  # type: ignore[union-attr]
            return self.cache.ranked[cache_key]  # type: ignore[union-attr]
        guesses = self.choices(state, legal, root, among)
        values = np.round(self.evaluation.values(self.game, state, guesses, self.limit.threshold), _DECIMALS)
        best = self.order(state, guesses, values)[: max(self.limit.beam, _ALTERNATIVES)]
        result = (guesses[best], values[best])
        if cache_key is not None:
            self.cache.ranked[cache_key] = result  # type: ignore[union-attr]
        return result

    # -- nodes -------------------------------------------------------------------
    def exact(self, state: State, among: np.ndarray | None) -> tuple[float, int] | None:
        """Value and move of a state played exactly (one or two answers, or one guess left), else None."""
        size, left = len(state.candidates), state.guesses_left
        if size > 2 and left > 1:
            return None
        rows = np.sort(self.game.words.answer_rows[state.candidates])
        if among is not None and np.intersect1d(rows, among).size:
            rows = np.intersect1d(rows, among)
        move = int(rows[self.rng.integers(rows.size)]) if self.random else int(rows[0])  # type: ignore[union-attr]
        base = float(state.max_guesses - state.guesses_used)
        if size == 1:
            return base, move
        if left == 1:
            return (round((base - (size - 1) * self.limit.loss) / size, _DECIMALS) if self.chance else -self.limit.loss), move
        return ((base + base - 1.0) / 2.0 if self.chance else base - 1.0), move

    def last_two(self, state: State, legal: np.ndarray, root: bool,
                 among: np.ndarray | None) -> tuple[float, int, list[tuple[int, float]]]:
        """Exact value, move and best (guess, value) pairs with two guesses left and three or more answers.

        After guess g the last guess solves a reply's answers only when it is alone in its
        bin, so g is worth, per answer: base if g is the answer, base - 1 if its bin is a
        single answer, else (chance) base - 1 shared by the bin's answers, or (minimax) 0.
        With c = [g can win] and B bins: (c base + (B - c)(base - 1)) / n for expectimax;
        base - 1 when every bin is a single answer, else 0, for minimax.
        """
        guesses = self.choices(state, legal, root, among)
        size = len(state.candidates)
        base = float(state.max_guesses - state.guesses_used)
        patterns = np.sort(self.game.matrix[np.ix_(guesses, state.candidates)], axis=1)
        bins = 1 + np.count_nonzero(patterns[:, 1:] != patterns[:, :-1], axis=1)
        can_win = np.isin(guesses, self.game.words.answer_rows[state.candidates])
        if self.chance:
            lost = size - bins
            values = np.round((can_win * base + (bins - can_win) * (base - 1.0) - lost * self.limit.loss) / size, _DECIMALS)
        else:
            values = np.where(bins == size, base - 1.0, -self.limit.loss)
        best = self.order(state, guesses, values)[:_ALTERNATIVES]
        weighed = [(int(guesses[i]), float(values[i])) for i in best]
        return weighed[0][1], weighed[0][0], weighed

    def to_the_end(self, state: State) -> bool:
        """Whether this node is searched to the end (few guesses left, or a small set bound by hard mode or answers_only)."""
        left = state.guesses_left
        if left <= self.limit.endgame:
            return True
        bound = state.hard or self.answers_only
        return bound and left <= self.limit.endgame + 1 and len(state.candidates) <= self.limit.endgame_answers

    def legal_after(self, legal: np.ndarray, guess: int, pattern: int) -> np.ndarray:
        """The guesses still legal in hard mode after `guess` got `pattern`, from those legal before it.

        Hard mode's demands only ever add up, so a guess is legal after a reply exactly when it
        was legal before and obeys the hints of that one reply.
        """
        hints = hints_from(((self.game.words.guesses[guess], pattern),))
        return legal[legal_mask(self.game.guess_letters[legal], self.game.guess_counts[legal], hints)]

    def key(self, state: State, legal: np.ndarray) -> tuple:
        """What a node's value depends on: the candidates, the guesses left and, in hard mode, the legal guesses.

        An answers_only search weighs possible answers alone, always legal, so hard mode's legal guesses drop out.
        """
        bound = state.hard and state.history and not self.answers_only
        return (state.candidates.tobytes(), state.guesses_left, state.hard, legal.tobytes() if bound else None)

    def guesser(self, state: State, depth: int, alpha: float, beta: float, level: int,
                root: bool = False, among: np.ndarray | None = None,
                legal: np.ndarray | None = None) -> tuple[float, int, list[tuple[int, float]]]:
        """Value, move and weighed (guess, value) pairs of a Guesser node, `depth` Guesser moves deep.

        `legal` is the node's legal guesses when the caller knows them (else they are worked out).
        """
        self.nodes += 1
        self.reached = max(self.reached, level)
        if (exact := self.exact(state, among)) is not None:
            return exact[0], exact[1], [(exact[1], exact[0])]
        if legal is None:
            legal = self.game.legal_guesses(state)
        key = self.key(state, legal) if self.cache is not None else None
        if self.to_the_end(state):
            depth = max(depth, state.guesses_left)
        if depth > 1 and self.limit.nodes is not None and self.nodes >= self.limit.nodes:
            depth = 1
        if self.store and not root and (hit := self.cache.values.get((key, depth))) is not None:  # type: ignore[union-attr]
            self.reached = max(self.reached, level + hit[2])
            return hit[0], hit[1], []
        if depth > 1 and state.guesses_left == 2:
            value, move, weighed = self.last_two(state, legal, root, among)
            self.reached = max(self.reached, level + 1)
            if self.store and not root:
                self.cache.values[(key, depth)] = (value, move, 1)  # type: ignore[union-attr]
            return value, move, weighed
        guesses, values = self.ranked(state, legal, key, root, among)
        if depth == 1:
            weighed = [(int(g), float(v)) for g, v in zip(guesses[:_ALTERNATIVES], values[:_ALTERNATIVES])]
            value, move = weighed[0][1], weighed[0][0]
        else:
            value, move, weighed = -math.inf, int(guesses[0]), []
            for guess in guesses[: self.limit.beam]:
                child = self.indicator(state, legal, int(guess), depth, max(alpha, value) if self.prune else alpha,
                                       beta, level)
                weighed.append((int(guess), child))
                if child > value:
                    value, move = child, int(guess)
                if self.prune and value >= beta:
                    break
        if self.store and not root and alpha < value < beta:
            self.cache.values[(key, depth)] = (value, move, depth - 1)  # type: ignore[union-attr]
        return value, move, weighed

    def indicator(self, state: State, legal: np.ndarray, guess: int, depth: int, alpha: float, beta: float,
                  level: int) -> float:
        """Value of the Indicator's node after `guess`: min over replies, or their bin-weighted mean."""
        self.nodes += 1
        size = len(state.candidates)
        base = float(state.max_guesses - state.guesses_used)
        groups = self.game.partition(state.candidates, guess)
        if not self.chance:
            groups.sort(key=lambda item: (-len(item[1]), item[0]))
        total, worst = 0.0, math.inf
        for pattern, answers in groups:
            if pattern == ALL_GREEN:
                self.nodes += 1
                value = base
            else:
                child = State(candidates=answers, history=state.history + ((guess, pattern),),
                              hard=state.hard, max_guesses=state.max_guesses)
                child_legal = self.legal_after(legal, guess, pattern) if state.hard and not self.answers_only else legal
                value = self.guesser(child, depth - 1, alpha, min(beta, worst) if self.prune else beta, level + 1,
                                     legal=child_legal)[0]
            if self.chance:
                total += len(answers) / size * value
            else:
                worst = min(worst, value)
                if self.prune and worst <= alpha:
                    return worst
        return round(total, _DECIMALS) if self.chance else worst


def run_search(algorithm: str, game: Wordle, state: State, evaluation: Evaluator, limit: Limit,
               rng: np.random.Generator | None = None, cache: SearchCache | None = None,
               among: np.ndarray | None = None, answers_only: bool = False) -> SearchResult:
    """Search from `state` with one of ALGORITHMS; see minimax, alphabeta and expectimax."""
    if game.is_terminal(state) or state.pending is not None:
        raise ValueError("a search starts from a Guesser-to-move state of an unfinished game")
    search = _Search(algorithm, game, evaluation, limit, rng, cache, answers_only)
    depth = max(limit.depth, limit.opening) if not state.history else limit.depth
    value, move, weighed = search.guesser(state, depth, -math.inf, math.inf, 1, root=True,
                                          among=None if among is None else np.asarray(among))
    ranked = sorted(weighed, key=lambda pair: -pair[1])  # stable: equal values keep the tie-break order
    return SearchResult(move=move, value=float(value), nodes=search.nodes, depth=search.reached,
                        alternatives=tuple(ranked[:_ALTERNATIVES]))
