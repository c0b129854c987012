"""Minimax, alpha-beta and expectimax: depth-limited search over any two-player game with chance.

Values are from the maximising player's point of view (in Wordle, the Guesser's), higher
is better. The game offers the verbs of aima-python's games and OpenSpiel's states:
`to_move`, `actions`, `result`, `is_terminal`, `utility` and, for expectimax,
`chance_outcomes`, and names its `maximiser`. Turns alternate: the maximiser moves, then
the opponent (or chance) replies. The opponent's node is where the three algorithms
differ, each in one short function:

- minimax: the opponent plays the reply worst for the maximiser (`worst_reply`);
- alpha-beta: the same, skipping replies that cannot change the result (`worst_reply_pruned`);
- expectimax: the opponent is chance, its replies weighted by probability (`mean_reply`).

The maximiser's node is shared. Depth counts the maximiser's moves: at depth 1 each move
is valued by the evaluation (`values(game, state, moves, threshold)`, one array for all
moves), deeper the best `limit.beam` moves by that evaluation are searched. What a game
knows beyond its verbs comes in as named policies (see `Policies`): an exact shortcut,
an endgame searched to the end, widening a beam that shows only losses, the opening
searched deeper, and how moves are chosen and keyed. A transposition table, when given,
keeps node values between searches. The search reports its value, move, nodes visited,
depth reached, the root's alternatives, and whether the node budget cut it short.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable

import numpy as np

from .limits import BudgetSpent, Evaluator, Limit, SearchResult
from .ranking import best_first, rounded
from .table import Entry, TranspositionTable

#: Alternatives reported at the root.
ALTERNATIVES = 10


@dataclass(frozen=True)
class Node:
    """What searching a maximiser's node found: its value, move, the (move, value) pairs weighed, the chance of a loss."""

    value: float
    move: int = -1
    weighed: tuple[tuple[int, float], ...] = ()
    risk: float = 0.0


class AllMoves:
    """Every action, best first by the evaluation, then by index; a beam of `limit.beam`, never widened.

    It shows the interface a move chooser offers the search (Wordle's is `policies.Beam`).
    """

    def __init__(self, game: Any, evaluation: Evaluator, limit: Limit):
        self.game, self.evaluation, self.limit = game, evaluation, limit
        self.beam, self.widen = limit.beam, 0

    def start(self) -> None:
        """Forget what only one search may keep, as a search starts (here: nothing)."""

    def ranked(self, state: Any, key: Hashable, root: bool, among: np.ndarray | None,
               rng: np.random.Generator | None) -> tuple[np.ndarray, np.ndarray]:
        """The moves a node weighs (every action, or those in `among`) and their values, best first."""
        moves = np.asarray(self.game.actions(state))
        if among is not None:
            moves = moves[np.isin(moves, among)]
        values = rounded(self.evaluation.values(self.game, state, moves, self.limit.threshold))
        order = best_first(moves, -values, rng=rng)
        return moves[order], values[order]

    def every(self, state: Any, root: bool, among: np.ndarray | None, rng: np.random.Generator | None) -> np.ndarray:
        """Every move the node may weigh, best first: what a widening beam goes on with."""
        return self.ranked(state, None, root, among, rng)[0]

    def shows_loss(self, value: float, risk: float) -> bool:
        """Whether a move searched to `value` with chance of a loss `risk` shows a loss (here: never)."""
        return False

    def floor(self, alpha: float) -> float:
        """The alpha a move is searched with while every move so far shows a loss (here: alpha)."""
        return alpha


@dataclass
class Policies:
    """What a search knows about its game beyond the verbs; the defaults know nothing.

    Attributes:
        moves: which moves a node weighs and in what order (default: every action by the evaluation).
        key: a state's key in the transposition table (default: the state itself).
        exact: `settled(state, among, rng) -> Node | None` values a state exactly before any
            search, and `last_two(state, root, among, rng) -> Node | None` values one exactly
            when the search may look two moves ahead (None: no shortcut).
        endgame: `depth(state, depth) -> int`, the depth a node is searched to (None: as asked).
        opening: `depth(state, depth) -> int`, the depth of the first search from `state`,
            and `top`, how many of a `depth`-deep search's best moves it re-searches (None: none).
    """

    moves: AllMoves | None = None
    key: Callable[[Any], Hashable] = lambda state: state
    exact: Any = None
    endgame: Any = None
    opening: Any = None


Reply = Callable[["Search", Any, int, float, float, int], tuple[float, float]]


def worst_reply(search: Search, state: Any, depth: int, alpha: float, beta: float, level: int) -> tuple[float, float]:
    """Minimax's opponent: the least the maximiser gets over every reply (no chance of a loss is tracked)."""
    game = search.game
    return min(search.value(game.result(state, reply), depth - 1, -math.inf, math.inf, level + 1)[0]
               for reply in game.actions(state)), 0.0


def worst_reply_pruned(search: Search, state: Any, depth: int, alpha: float, beta: float,
                       level: int) -> tuple[float, float]:
    """Alpha-beta's opponent: as `worst_reply`, but stop once the maximiser would not come here (worst <= alpha)."""
    game, worst = search.game, math.inf
    for reply in game.actions(state):
        worst = min(worst, search.value(game.result(state, reply), depth - 1, alpha, min(beta, worst), level + 1)[0])
        if worst <= alpha:
            break
    return worst, 0.0


def mean_reply(search: Search, state: Any, depth: int, alpha: float, beta: float, level: int) -> tuple[float, float]:
    """Expectimax's chance node: the probability-weighted mean of the replies' values and of their chances of a loss."""
    game, total, risk = search.game, 0.0, 0.0
    for reply, probability in game.chance_outcomes(state):
        value, lost = search.value(game.result(state, reply), depth - 1, -math.inf, math.inf, level + 1)
        total += probability * value
        risk += probability * lost
    return rounded(total), rounded(risk)


@dataclass
class Search:
    """One search from one root: the game, how it is valued, the opponent's rule, and the counters."""

    game: Any
    evaluation: Evaluator
    limit: Limit
    reply: Reply
    policies: Policies
    table: TranspositionTable | None = None
    rng: np.random.Generator | None = None
    nodes: int = 0
    reached: int = 0
    budget_reached: bool = False
    moves: AllMoves = field(init=False)

    def __post_init__(self) -> None:
        """Fill in the default move chooser."""
        self.moves = self.policies.moves or AllMoves(self.game, self.evaluation, self.limit)

    def value(self, state: Any, depth: int, alpha: float, beta: float, level: int) -> tuple[float, float]:
        """The value of a maximiser's node below the root and its chance of a loss."""
        node = self.best(state, depth, alpha, beta, level)
        return node.value, node.risk

    def best(self, state: Any, depth: int, alpha: float, beta: float, level: int, root: bool = False,
             among: np.ndarray | None = None) -> Node:
        """Search a maximiser's node `depth` moves deep within the window (alpha, beta)."""
        self.nodes += 1
        if self.limit.stop and self.limit.nodes is not None and self.nodes > self.limit.nodes:
            raise BudgetSpent(self.nodes)
        self.reached = max(self.reached, level)
        game, policies = self.game, self.policies
        if game.is_terminal(state):
            return Node(game.utility(state))
        if policies.exact is not None and (node := policies.exact.settled(state, among, self.rng)) is not None:
            return node
        key = policies.key(state) if self.table is not None else None
        if policies.endgame is not None:
            depth = policies.endgame.depth(state, depth)
        if depth > 1 and not self.limit.stop and self.limit.nodes is not None and self.nodes >= self.limit.nodes:
            depth, self.budget_reached = 1, True
        store = key is not None and not root and (self.limit.nodes is None or self.limit.stop)
        if store and (hit := self.table.probe(key, depth, alpha, beta)) is not None:
            self.reached = max(self.reached, level + hit.below)
            return Node(hit.value, hit.move, (), hit.risk)
        outer, self.reached = self.reached, level
        window = (-math.inf, math.inf)  # exact values, whatever window the node was searched with
        if depth > 1 and policies.exact is not None and \
                (node := policies.exact.last_two(state, root, among, self.rng)) is not None:
            self.reached = level + 1
        else:
            moves, values = self.moves.ranked(state, key, root, among, self.rng)
            if depth == 1:
                weighed = tuple((int(m), float(v)) for m, v in zip(moves[:ALTERNATIVES], values[:ALTERNATIVES]))
                node = Node(weighed[0][1], weighed[0][0], weighed)
            else:
                node, window = self.expand(state, moves, depth, alpha, beta, level, root, among), (alpha, beta)
        below, self.reached = self.reached - level, max(outer, self.reached)
        if store:
            self.table.store(key, depth, Entry(node.value, node.move, below, node.risk), *window)
        return node

    def expand(self, state: Any, moves: np.ndarray, depth: int, alpha: float, beta: float, level: int,
               root: bool, among: np.ndarray | None) -> Node:
        """Search a node's beam, widened a beam at a time while every move searched shows a loss.

        The widening goes on in the evaluation's order, up to `widen` moves in all. Until a
        move that shows no loss is found, each move is searched with alpha no higher than
        the chooser's `floor`, so that a pruning search knows, as minimax does, whether the
        node widens.
        """
        chooser = self.moves
        value, move, risk, weighed = -math.inf, int(moves[0]), 0.0, []
        safe = chooser.widen <= chooser.beam  # never widening, a node need not know
        batch, searched, widened = moves[: chooser.beam], 0, False
        while True:
            for choice in batch:
                floor = max(alpha, value) if safe else max(chooser.floor(alpha), value)
                self.nodes += 1  # the opponent's node
                child, child_risk = self.reply(self, self.game.result(state, int(choice)), depth, floor, beta, level)
                weighed.append((int(choice), child))
                if child > value:
                    value, move, risk = child, int(choice), child_risk
                safe = safe or not chooser.shows_loss(child, child_risk)
                if value >= beta:
                    return Node(value, move, tuple(weighed), risk)
            searched += batch.size
            if safe or searched >= chooser.widen:
                return Node(value, move, tuple(weighed), risk)
            if not widened:
                moves, widened = chooser.every(state, root, among, self.rng), True
            batch = moves[searched: min(searched + chooser.beam, chooser.widen)]
            if batch.size == 0:
                return Node(value, move, tuple(weighed), risk)

    def run(self, state: Any, among: np.ndarray | None = None) -> SearchResult:
        """Search from `state`: the opening's deeper look when the policies ask for one, then the result.

        A search under a node budget keeps nothing in the table (its values depend on the budget),
        unless the budget stops it (`Limit.stop`): then every value it keeps is whole, and it
        raises BudgetSpent once the budget is spent.
        """
        self.moves.start()
        depth, opening = self.limit.depth, self.policies.opening
        if opening is not None:
            depth = opening.depth(state, depth)
        if depth > self.limit.depth and opening.top:
            # alpha-beta's other values are bounds; the ranking needs the exact values of its own opponent
            exact_reply = worst_reply if self.reply is worst_reply_pruned else self.reply
            pruning, self.reply = self.reply, exact_reply
            weighed = self.best(state, self.limit.depth, -math.inf, math.inf, 1, root=True, among=among).weighed
            self.reply = pruning
            best = sorted(weighed, key=lambda pair: -pair[1])[: opening.top]  # stable: keeps the tie-break
            among = np.array([move for move, _ in best])
        node = self.best(state, depth, -math.inf, math.inf, 1, root=True, among=among)
        ranked = sorted(node.weighed, key=lambda pair: -pair[1])  # stable: equal values keep the tie-break order
        return SearchResult(move=node.move, value=float(node.value), nodes=self.nodes, depth=self.reached,
                            alternatives=tuple(ranked[:ALTERNATIVES]), budget_reached=self.budget_reached)


def _search(reply: Reply, game: Any, state: Any, evaluation: Evaluator, limit: Limit, policies: Policies | None,
            table: TranspositionTable | None, rng: np.random.Generator | None, among: np.ndarray | None) -> SearchResult:
    """Check the start, then run one search with the opponent's rule `reply`."""
    if game.is_terminal(state) or game.to_move(state) != game.maximiser:
        raise ValueError("a search starts from an unfinished game with the maximiser to move")
    if getattr(evaluation, "random_ties", False) and rng is None:
        raise ValueError("an evaluation with random tie-breaks needs a seeded rng")
    search = Search(game, evaluation, limit, reply, policies or Policies(), table, rng)
    return search.run(state, None if among is None else np.asarray(among))


def minimax(game: Any, state: Any, evaluation: Evaluator, limit: Limit, policies: Policies | None = None,
            table: TranspositionTable | None = None, rng: np.random.Generator | None = None,
            among: np.ndarray | None = None) -> SearchResult:
    """The maximiser's best move when the opponent replies with the move worst for it.

    Args:
        game: any game with the verbs the module docstring lists.
        state: an unfinished state with the maximiser to move.
        evaluation: values moves at the horizon and orders the beam.
        limit: depth, beam, threshold, node budget (and the fields the policies read).
        policies: what the search knows of the game beyond its verbs (default: nothing).
        table: values kept across searches (None: nothing is kept).
        rng: seeded generator, needed only by evaluations with random tie-breaks.
        among: the moves the root may choose from (default: every one the policies allow).

    Returns:
        SearchResult with the move, its value, nodes visited, depth reached, alternatives and
        whether the node budget ran out.
    """
    return _search(worst_reply, game, state, evaluation, limit, policies, table, rng, among)


def alphabeta(game: Any, state: Any, evaluation: Evaluator, limit: Limit, policies: Policies | None = None,
              table: TranspositionTable | None = None, rng: np.random.Generator | None = None,
              among: np.ndarray | None = None) -> SearchResult:
    """Minimax's move and value, skipping replies that cannot change them (same arguments as `minimax`).

    The values it reports for the other root moves are upper bounds. Its table keeps bounds
    as well as exact values, so a node it cut short answers a later visit whose window the
    bound settles (benchmarks/bench_alphabeta.py measures its nodes against minimax's).
    """
    return _search(worst_reply_pruned, game, state, evaluation, limit, policies, table, rng, among)


def expectimax(game: Any, state: Any, evaluation: Evaluator, limit: Limit, policies: Policies | None = None,
               table: TranspositionTable | None = None, rng: np.random.Generator | None = None,
               among: np.ndarray | None = None) -> SearchResult:
    """The maximiser's best move on average over chance's replies (same arguments as `minimax`)."""
    return _search(mean_reply, game, state, evaluation, limit, policies, table, rng, among)
