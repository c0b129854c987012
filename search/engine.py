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
first move is searched `limit.opening` deep when that is deeper than `limit.depth`
(with `limit.opening_top`, only the best few guesses of a `limit.depth`-deep search).
A node whose beam shows only losing guesses widens (`limit.widen`, see `expand`).

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
        values: per (state, depth) below a root, the node's exact value, move, depth below it and chance of a loss.
        pool: the guesses valued best on the full list, best first.
    """

    ranked: dict[tuple, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    values: dict[tuple, tuple[float, int, int, float]] = field(default_factory=dict)
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
            self.cache.bind((game.words.checksum, algorithm, evaluation.key, limit, answers_only))
        self.nodes = 0
        self.reached = 0
        self._pool: np.ndarray | None = None

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
        if self._pool is not None:
            return self._pool
        start = self.game.initial_state(max_guesses=state.max_guesses)
        values = np.round(self.evaluation.values(self.game, start, self.game.all_guesses, self.limit.threshold), _DECIMALS)
        best = self.order(start, self.game.all_guesses, values)[: self.limit.pool]
        self._pool = np.sort(self.game.all_guesses[best])
        if self.cache is not None:
            self.cache.pool = self._pool
        return self._pool

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
    def exact(self, state: State, among: np.ndarray | None) -> tuple[float, int, float] | None:
        """Value, move and chance of a loss of a state played exactly (one or two answers, or one guess left), else None."""
        size, left = len(state.candidates), state.guesses_left
        if size > 2 and left > 1:
            return None
        rows = np.sort(self.game.words.answer_rows[state.candidates])
        if among is not None:
            rows = np.intersect1d(rows, among)
            if rows.size == 0:  # the allowed guesses hold no possible answer: search them instead
                return None
        move = int(rows[self.rng.integers(rows.size)]) if self.random else int(rows[0])  # type: ignore[union-attr]
        base = float(state.max_guesses - state.guesses_used)
        if size == 1:
            return base, move, 0.0
        if left == 1:
            risk = round((size - 1) / size, _DECIMALS)
            return (round((base - (size - 1) * self.limit.loss) / size, _DECIMALS) if self.chance else -self.limit.loss), move, risk
        return ((base + base - 1.0) / 2.0 if self.chance else base - 1.0), move, 0.0

    def last_two(self, state: State, legal: np.ndarray, root: bool,
                 among: np.ndarray | None) -> tuple[float, int, list[tuple[int, float]], float]:
        """Exact value, move, best (guess, value) pairs and the move's chance of a loss, two guesses left, 3+ answers.

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
        lost = size - bins
        if self.chance:
            values = np.round((can_win * base + (bins - can_win) * (base - 1.0) - lost * self.limit.loss) / size, _DECIMALS)
        else:
            values = np.where(bins == size, base - 1.0, -self.limit.loss)
        best = self.order(state, guesses, values)[:_ALTERNATIVES]
        weighed = [(int(guesses[i]), float(values[i])) for i in best]
        return weighed[0][1], weighed[0][0], weighed, round(float(lost[best[0]]) / size, _DECIMALS)

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
                legal: np.ndarray | None = None) -> tuple[float, int, list[tuple[int, float]], float]:
        """Value, move, weighed (guess, value) pairs and the move's chance of a loss of a Guesser node, `depth` deep.

        `legal` is the node's legal guesses when the caller knows them (else they are worked out).
        """
        self.nodes += 1
        self.reached = max(self.reached, level)
        if (exact := self.exact(state, among)) is not None:
            return exact[0], exact[1], [(exact[1], exact[0])], exact[2]
        if legal is None:
            legal = self.game.legal_guesses(state)
        key = self.key(state, legal) if self.cache is not None else None
        if self.to_the_end(state):
            depth = max(depth, state.guesses_left)
        if depth > 1 and self.limit.nodes is not None and self.nodes >= self.limit.nodes:
            depth = 1
        if self.store and not root and (hit := self.cache.values.get((key, depth))) is not None:  # type: ignore[union-attr]
            self.reached = max(self.reached, level + hit[2])
            return hit[0], hit[1], [], hit[3]
        if depth > 1 and state.guesses_left == 2:
            value, move, weighed, risk = self.last_two(state, legal, root, among)
            self.reached = max(self.reached, level + 1)
            if self.store and not root:
                self.cache.values[(key, depth)] = (value, move, 1, risk)  # type: ignore[union-attr]
            return value, move, weighed, risk
        guesses, values = self.ranked(state, legal, key, root, among)
        if depth == 1:
            weighed = [(int(g), float(v)) for g, v in zip(guesses[:_ALTERNATIVES], values[:_ALTERNATIVES])]
            value, move, risk = weighed[0][1], weighed[0][0], 0.0
        else:
            value, move, weighed, risk = self.expand(state, legal, guesses, depth, alpha, beta, level, root, among)
        if self.store and not root and alpha < value < beta:
            self.cache.values[(key, depth)] = (value, move, depth - 1, risk)  # type: ignore[union-attr]
        return value, move, weighed, risk

    def expand(self, state: State, legal: np.ndarray, guesses: np.ndarray, depth: int, alpha: float, beta: float,
               level: int, root: bool, among: np.ndarray | None) -> tuple[float, int, list[tuple[int, float]], float]:
        """Search a node's beam, widened a beam at a time while every guess searched shows a loss.

        A guess shows a loss when its value counts one: with some chance (expectimax), or for
        sure against the worst reply (minimax: a value at or below -loss). The widening goes
        on in the evaluation's order, up to `limit.widen` guesses in all. Until a guess that
        shows no loss is found, alpha-beta searches each guess with its floor no higher than
        -loss, so that it knows, as minimax does, whether the node widens.
        """
        value, move, weighed, risk = -math.inf, int(guesses[0]), [], 0.0
        safe = self.limit.widen <= self.limit.beam  # never widening, a node need not know
        batch, searched, widened = guesses[: self.limit.beam], 0, False
        while True:
            for guess in batch:
                floor = max(alpha, value) if safe else max(min(alpha, -self.limit.loss), value)
                child, child_risk = self.indicator(state, legal, int(guess), depth, floor if self.prune else alpha,
                                                   beta, level)
                weighed.append((int(guess), child))
                if child > value:
                    value, move, risk = child, int(guess), child_risk
                safe = safe or (child_risk == 0.0 if self.chance else child > -self.limit.loss)
                if self.prune and value >= beta:
                    return value, move, weighed, risk
            searched += batch.size
            if safe or searched >= self.limit.widen:
                return value, move, weighed, risk
            if not widened:
                guesses, widened = self.every_choice(state, legal, root, among), True
            batch = guesses[searched: min(searched + self.limit.beam, self.limit.widen)]
            if batch.size == 0:
                return value, move, weighed, risk

    def every_choice(self, state: State, legal: np.ndarray, root: bool, among: np.ndarray | None) -> np.ndarray:
        """Every guess the node may weigh, best first by the evaluation (the order `ranked` keeps the head of)."""
        guesses = self.choices(state, legal, root, among)
        values = np.round(self.evaluation.values(self.game, state, guesses, self.limit.threshold), _DECIMALS)
        return guesses[self.order(state, guesses, values)]

    def indicator(self, state: State, legal: np.ndarray, guess: int, depth: int, alpha: float, beta: float,
                  level: int) -> tuple[float, float]:
        """Value of the Indicator's node after `guess` (min over replies, or their bin-weighted mean) and the chance of a loss.

        The chance of a loss is the bin-weighted mean of the replies' (expectimax only; minimax reads a loss off the value).
        """
        self.nodes += 1
        size = len(state.candidates)
        base = float(state.max_guesses - state.guesses_used)
        groups = self.game.partition(state.candidates, guess)
        if not self.chance:
            groups.sort(key=lambda item: (-len(item[1]), item[0]))
        total, worst, risk = 0.0, math.inf, 0.0
        for pattern, answers in groups:
            if pattern == ALL_GREEN:
                self.nodes += 1
                value, lost = base, 0.0
            else:
                child = State(candidates=answers, history=state.history + ((guess, pattern),),
                              hard=state.hard, max_guesses=state.max_guesses)
                child_legal = self.legal_after(legal, guess, pattern) if state.hard and not self.answers_only else legal
                value, _, _, lost = self.guesser(child, depth - 1, alpha, min(beta, worst) if self.prune else beta,
                                                 level + 1, legal=child_legal)
            if self.chance:
                total += len(answers) / size * value
                risk += len(answers) / size * lost
            else:
                worst = min(worst, value)
                if self.prune and worst <= alpha:
                    return worst, 0.0
        return (round(total, _DECIMALS), round(risk, _DECIMALS)) if self.chance else (worst, 0.0)


def run_search(algorithm: str, game: Wordle, state: State, evaluation: Evaluator, limit: Limit,
               rng: np.random.Generator | None = None, cache: SearchCache | None = None,
               among: np.ndarray | None = None, answers_only: bool = False) -> SearchResult:
    """Search from `state` with one of ALGORITHMS; see minimax, alphabeta and expectimax."""
    if game.is_terminal(state) or state.pending is not None:
        raise ValueError("a search starts from a Guesser-to-move state of an unfinished game")
    search = _Search(algorithm, game, evaluation, limit, rng, cache, answers_only)
    among = None if among is None else np.asarray(among)
    depth = max(limit.depth, limit.opening) if not state.history else limit.depth
    if depth > limit.depth and limit.opening_top:
        search.prune = False  # alpha-beta's other values are bounds; the ranking needs minimax's own
        weighed = search.guesser(state, limit.depth, -math.inf, math.inf, 1, root=True, among=among)[2]
        search.prune = algorithm == ALPHABETA
        best = sorted(weighed, key=lambda pair: -pair[1])[: limit.opening_top]  # stable: keeps the tie-break
        among = np.array([guess for guess, _ in best])
    value, move, weighed, _ = search.guesser(state, depth, -math.inf, math.inf, 1, root=True, among=among)
    ranked = sorted(weighed, key=lambda pair: -pair[1])  # stable: equal values keep the tie-break order
    return SearchResult(move=move, value=float(value), nodes=search.nodes, depth=search.reached,
                        alternatives=tuple(ranked[:_ALTERNATIVES]))
