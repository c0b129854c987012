"""What the searches know about Wordle beyond the game's verbs, as named policies.

Values are from the Guesser's point of view, higher is better, on the scale of
`Wordle.utility`: solving with guess k is worth max_guesses + 1 - k; the search values a
lost game at 0 - `strategy.loss`, so that it prefers a longer win to a gamble on the last guess.
Each policy reads the one `Strategy` (wordle/strategy.py) it is built from, and implements
one of the hooks search/algorithms.py declares as a Protocol.

- `Beam` (a `MoveChooser`): the guesses a node weighs (every legal one at the root; below it the possible
  answers plus the `strategy.pool` guesses valued best on the full answer list; only the
  possible answers for a candidates-only player), in the evaluation's order (ties: can be
  the answer, then index), the beam searched, and its widening while it shows only losses
  (the engine's widening on a loss: a guess shows one when some answer is left unfound by the
  end, for sure against the worst reply, with any chance against chance).
- `Rankings`: what searches keep of their rankings (each node's ranked head, the pool),
  shared only by searches that rank alike.
- `ExactPlay` (the `Shortcuts`): states played exactly without search: one or two answers, or one guess
  left (guess a possible answer: `settled`), and two guesses left (every guess valued in one pass: the
  engine's `closed_form`). Each says its chance of a loss (the engine's `Node.risk`).
- `Endgame` (a `DepthRule`): nodes with few guesses left, and small sets bound by hard mode or by
  candidates-only play, are searched to the end of the game.
- `Opening`: a game's first move is searched deeper, optionally over its best few guesses only
  (ranked first by a search to the usual depth).

`wordle_policies` builds them for one algorithm, evaluation and strategy. An evaluation with
random tie-breaks (zero mode) knows nothing to search by: its searches weigh every legal
guess in the generator's order, keep nothing, and neither widen nor extend to the endgame,
so a depth-1 search is a random player (that still plays exactly with one or two answers left).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable

import numpy as np

from search.algorithms import ALTERNATIVES, AsAsked, Node, PlainOpening, Policies, RootSearch
from .game import State, Wordle
from .hardmode import hints_from, legal_mask
from search.limits import Evaluator
from search.ranking import best_first, rounded
from .replies import distinct_replies
from .strategy import Strategy


def within(items: np.ndarray, ascending: np.ndarray) -> np.ndarray:
    """The entries of `items` that `ascending` (sorted, without repeats) holds, in their order.

    For sorted `items` without repeats it is `np.intersect1d(items, ascending)`, found by
    binary search instead of sorting both together (hard mode's legal guesses are thousands).
    """
    if ascending.size == 0:
        return items[:0]
    at = np.minimum(np.searchsorted(ascending, items), ascending.size - 1)
    return items[ascending[at] == items]


class Rankings:
    """What Wordle searches keep of their rankings between searches: each node's ranked head, and the pool.

    Searches that share one rank alike: the same evaluation, beam, pool and candidates-only play
    (`sign`; `wordle_policies` refuses rankings kept under another).

    Attributes:
        sign: what the rankings depend on besides the state.
        heads: per (state key, root), the head of the node's ranking (None: nothing kept).
        pool: the guesses valued best on the full answer list, once worked out.
    """

    def __init__(self, evaluation: Evaluator[State], strategy: Strategy, candidates_only: bool, keep: bool = True):
        self.sign = (evaluation.key, strategy.beam, strategy.pool, candidates_only)
        self.heads: dict[tuple, tuple[np.ndarray, np.ndarray]] | None = {} if keep else None
        self.pool: np.ndarray | None = None


class Beam:
    """Which guesses a Guesser node weighs, in what order, and when its beam widens (a `MoveChooser`).

    Attributes:
        beam, widen: `strategy.beam` and `strategy.widen` (a beam that never widens: widen 0).
        rankings: the rankings kept between searches, possibly shared with another search that ranks alike.
    """

    def __init__(self, game: Wordle, evaluation: Evaluator[State], strategy: Strategy, chance: bool,
                 candidates_only: bool, rankings: Rankings):
        self.game, self.evaluation, self.strategy = game, evaluation, strategy
        self.chance, self.candidates_only = chance, candidates_only
        self.random = evaluation.random_ties
        self.beam, self.widen = strategy.beam, 0 if self.random else strategy.widen
        self.rankings = rankings
        self._legal: dict[tuple, np.ndarray] = {}

    def start(self) -> None:
        """Forget the legal guesses of the last search's nodes."""
        self._legal = {}

    def legal(self, state: State) -> np.ndarray:
        """The state's legal guesses, worked out from its parent's when the search saw the parent.

        Hard mode's demands only ever add up, so a guess is legal after a reply exactly when it
        was legal before and obeys the hints of that one reply.
        """
        if (legal := self._legal.get(state.history)) is not None:
            return legal
        parent = self._legal.get(state.history[:-1]) if state.hard and state.history else None
        if parent is None:
            legal = self.game.legal_guesses(state)
        else:
            guess, pattern = state.history[-1]
            hints = hints_from(((self.game.words.guesses[guess], pattern),))
            legal = parent[legal_mask(self.game.guess_letters, self.game.guess_counts, hints, rows=parent)] \
                if hints else parent
        self._legal[state.history] = legal
        return legal

    def key(self, state: State) -> Hashable:
        """The state's key (`Wordle.state_key`), with the guesses this search lets the node choose from."""
        if self.candidates_only:
            return self.game.state_key(state, self.game.winning_guesses(state.candidates))
        return self.game.state_key(state, self.legal(state) if state.hard and state.history else None)

    def order(self, state: State, guesses: np.ndarray, values: np.ndarray, rng: np.random.Generator | None) -> np.ndarray:
        """Positions of `guesses`, best first: value, then can-win, then index (or the generator's order)."""
        if self.random:
            return best_first(guesses, -values, rng=rng)
        return best_first(guesses, -values, ~self.game.can_win(state.candidates, guesses))

    def best_pool(self, state: State, rng: np.random.Generator | None) -> np.ndarray:
        """The `strategy.pool` guesses the evaluation values best on the full answer list, ascending."""
        if self.rankings.pool is None:
            start = self.game.initial_state(max_guesses=state.max_guesses)
            values = self.values(start, self.game.all_guesses)
            best = self.order(start, self.game.all_guesses, values, rng)[: self.strategy.pool]
            self.rankings.pool = np.sort(self.game.all_guesses[best])
        return self.rankings.pool

    def values(self, state: State, guesses: np.ndarray) -> np.ndarray:
        """The evaluation's values of `guesses`, rounded so that equal partitions tie."""
        return rounded(self.evaluation.values(self.game, state, guesses))

    def choices(self, state: State, root: bool, among: np.ndarray | None, rng: np.random.Generator | None) -> np.ndarray:
        """The guesses a node weighs: every legal one at the root, else its answers plus the pool (legal ones).

        A candidates-only node weighs its possible answers alone (always legal: a possible
        answer obeys every hint its replies gave).
        """
        legal = self.game.winning_guesses(state.candidates) if self.candidates_only else self.legal(state)
        if among is not None:
            guesses = np.intersect1d(legal, among)
            if guesses.size == 0:
                raise ValueError("none of the guesses the search may choose among is legal here")
            return guesses
        if self.candidates_only or root or self.random or (state.hard and legal.size <= self.strategy.pool):
            return legal
        wanted = np.union1d(self.game.winning_guesses(state.candidates), self.best_pool(state, rng))
        return wanted if not state.hard else within(wanted, legal)

    def ranked(self, state: State, key: Hashable, root: bool, among: np.ndarray | None,
               rng: np.random.Generator | None) -> tuple[np.ndarray, np.ndarray]:
        """The guesses valued at this node and their values, best first (at most beam or 10 of them)."""
        heads = self.rankings.heads
        kept = (key, root) if key is not None and among is None else None
        if heads is not None and kept is not None and kept in heads:
            return heads[kept]
        guesses = self.choices(state, root, among, rng)
        values = self.values(state, guesses)
        best = self.order(state, guesses, values, rng)[: max(self.beam, ALTERNATIVES)]
        result = (guesses[best], values[best])
        if heads is not None and kept is not None:
            heads[kept] = result
        return result

    def every(self, state: State, root: bool, among: np.ndarray | None, rng: np.random.Generator | None) -> np.ndarray:
        """Every guess the node may weigh, best first by the evaluation (the order `ranked` keeps the head of)."""
        guesses = self.choices(state, root, among, rng)
        return guesses[self.order(state, guesses, self.values(state, guesses), rng)]

    def shows_loss(self, value: float, risk: float) -> bool:
        """A loss with some chance (expectimax), or for sure against the worst reply (minimax: value <= -loss)."""
        return risk != 0.0 if self.chance else value <= -self.strategy.loss

    def floor(self, alpha: float) -> float:
        """No higher than -loss, so that a pruning search sees whether a guess shows a loss."""
        return min(alpha, -self.strategy.loss)


@dataclass
class ExactPlay:
    """States valued without search: one or two answers, one guess left, or (looking two ahead) two guesses left."""

    game: Wordle
    beam: Beam
    loss: float
    chance: bool

    def settled(self, state: State, among: np.ndarray | None, rng: np.random.Generator | None) -> Node | None:
        """With one or two answers or one guess left, guess a possible answer (the lowest, or the generator's pick).

        Else None; None too when `among` holds no possible answer (the search weighs `among` instead).
        """
        size, left = len(state.candidates), state.guesses_left
        if size > 2 and left > 1:
            return None
        rows = self.game.winning_guesses(state.candidates)
        if among is not None:
            rows = np.intersect1d(rows, among)
            if rows.size == 0:
                return None
        move = int(rows[rng.integers(rows.size)]) if self.beam.random else int(rows[0])
        base = self.game.solve_now(state)
        if size == 1:
            value, risk = base, 0.0
        elif left == 1:
            risk = rounded((size - 1) / size)
            value = rounded((base - (size - 1) * self.loss) / size) if self.chance else -self.loss
        else:
            value, risk = ((base + base - 1.0) / 2.0 if self.chance else base - 1.0), 0.0
        return Node(value, move, ((move, value),), risk)

    def closed_form(self, state: State, root: bool, among: np.ndarray | None,
                    rng: np.random.Generator | None) -> Node | None:
        """With two guesses left (and 3+ answers), every weighed guess valued exactly in one array pass; else None.

        After guess g the last guess solves a reply's answers only when it is alone in its
        bin, so g is worth, per answer: base if g is the answer, base - 1 if its bin is a
        single answer, else (chance) base - 1 shared by the bin's answers, or (minimax) 0.
        With c = [g can win] and B bins: (c base + (B - c)(base - 1)) / n for expectimax;
        base - 1 when every bin is a single answer, else 0, for minimax.
        """
        if state.guesses_left != 2:
            return None
        guesses = self.beam.choices(state, root, among, rng)
        size, base = len(state.candidates), self.game.solve_now(state)
        bins = distinct_replies(self.game.matrix[np.ix_(guesses, state.candidates)])
        can_win = self.game.can_win(state.candidates, guesses)
        lost = size - bins
        if self.chance:
            values = rounded((can_win * base + (bins - can_win) * (base - 1.0) - lost * self.loss) / size)
        else:
            values = np.where(bins == size, base - 1.0, -self.loss)
        best = self.beam.order(state, guesses, values, rng)[:ALTERNATIVES]
        weighed = tuple((int(guesses[i]), float(values[i])) for i in best)
        return Node(weighed[0][1], weighed[0][0], weighed, rounded(float(lost[best[0]]) / size))


@dataclass(frozen=True)
class Endgame:
    """Search to the end nodes with at most `guesses` guesses left, or small bound sets one guess earlier.

    A set is bound when hard mode (or candidates-only play) limits its guesses; with at
    most `answers` answers and `guesses` + 1 guesses left it is searched to the end too.
    Hard mode's traps (_OUND, _ASTE, _ATCH) are sets whose legal guesses test one letter
    at a time; searched to the end they show their losses a guess before they are entered.
    """

    guesses: int
    answers: int
    candidates_only: bool = False

    def depth(self, state: State, depth: int) -> int:
        """`depth`, or the guesses left when the node is searched to the end."""
        left = state.guesses_left
        bound = (state.hard or self.candidates_only) and left <= self.guesses + 1 and len(state.candidates) <= self.answers
        return max(depth, left) if left <= self.guesses or bound else depth


@dataclass(frozen=True)
class Opening:
    """A game's first move searched `deep` guesses deep, over only the `top` best of the usual search when above 0."""

    deep: int
    top: int = 0

    def root(self, search: RootSearch[State], state: State, among: np.ndarray | None) -> tuple[int, np.ndarray | None]:
        """`deep` for a game's first move when deeper than the limit's depth (over the `top` best guesses of a
        search to that depth, when above 0); else the limit's depth and `among`."""
        depth = search.limit.depth
        if state.history or self.deep <= depth:
            return depth, among
        if self.top:
            among = np.array([move for move, _ in search.ranking(state, depth, among)[: self.top]])
        return self.deep, among


def wordle_policies(game: Wordle, evaluation: Evaluator[State], strategy: Strategy, chance: bool,
                    candidates_only: bool = False, keep: bool = True,
                    rankings: Rankings | None = None) -> Policies[State]:
    """The Wordle policies of one search configuration.

    Args:
        game: the rules and pattern matrix.
        evaluation: values guesses at the horizon and orders the beam.
        strategy: beam, pool, widening, loss, endgame and opening.
        chance: whether the Indicator is chance (expectimax) rather than an adversary.
        candidates_only: every Guesser node, the root included, guesses only answers still possible.
        keep: keep node rankings between searches (pass the search a table too).
        rankings: rankings kept by another search that ranks alike (a deeper search's, say), to share.

    Returns:
        Policies for `search.algorithms`; nothing is kept with an evaluation with random tie-breaks.

    Raises:
        ValueError: `rankings` kept by a search that ranks otherwise.
    """
    random = evaluation.random_ties
    if rankings is None:
        rankings = Rankings(evaluation, strategy, candidates_only, keep=keep and not random)
    elif rankings.sign != Rankings(evaluation, strategy, candidates_only, keep=False).sign:
        raise ValueError("rankings are shared only by searches with the same evaluation, beam, pool and guesses")
    beam = Beam(game, evaluation, strategy, chance, candidates_only, rankings)
    endgame = AsAsked() if random else Endgame(strategy.endgame, strategy.endgame_answers, candidates_only)
    opening: Opening | PlainOpening[State] = \
        Opening(strategy.opening, strategy.opening_top) if strategy.opening else PlainOpening()
    return Policies(moves=beam, key=beam.key, exact=ExactPlay(game, beam, strategy.loss, chance),
                    endgame=endgame, opening=opening)
