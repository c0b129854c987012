"""Minimax, alpha-beta and expectimax: depth-limited search over any two-player game with chance.

Values are from the maximising player's point of view, higher is better. The game is any
`Game[State, Move]` (search/game.py): the verbs of aima-python's games and OpenSpiel's states,
`to_move`, `actions`, `result`, `is_terminal`, `utility` and, for expectimax,
`chance_outcomes`, and its `maximiser`. Turns alternate: the maximiser moves, then
the opponent (or chance) replies. The opponent's node is where the three algorithms
differ, each in one short function:

- minimax: the opponent plays the reply worst for the maximiser (`worst_reply`);
- alpha-beta: the same, skipping replies that cannot change the result (`worst_reply_pruned`);
- expectimax: the opponent is chance, its replies weighted by probability (`mean_reply`).

The maximiser's node is shared. Depth counts the maximiser's moves: at depth 1 each move
is valued by the evaluation (`values(game, state, moves)`, one array for all moves),
deeper the best few moves by that evaluation (the move chooser's beam) are searched.
What a game knows beyond its verbs comes in as named policies (see `Policies`), each a
Protocol typed by the game's `State`, with a default that knows nothing: how moves are
chosen, ordered and widened (`MoveChooser`), exact values (`Shortcuts`), the depth of each
node (`DepthRule`: an endgame searched to the end), the root's depth and moves (`Opening`),
and the table key. A transposition table, when given, keeps node values between searches.
The search reports its value, move, nodes visited, depth reached, the root's alternatives,
and whether the node budget cut it short.

Two ideas of the engine serve games that can be lost:

- **The chance of a loss** (`Node.risk`): the probability that play under a node's best moves
  ends in a loss the game's exact values report (a `Shortcuts` node says its own: a take-away
  pile of three is lost one time in two against chance). Chance's replies average it, as
  they average values; the opponent's worst reply tracks none (0: the value says it); a
  finished game's utility, the horizon and a node the budget cut report 0. The table keeps it.
- **Widening on a loss**: a node searches its chooser's first `beam` moves; while every move
  searched shows a loss (`MoveChooser.shows_loss` of its value and chance of a loss), it goes
  on with the next `beam` moves of the chooser's `every`, up to `widen` in all. Until a move
  without a loss is found, alpha-beta searches each move with alpha no higher than
  `MoveChooser.floor(alpha)`, so that a pruned value still tells whether the move shows a loss.

A chooser whose `widen` is at most its `beam` never widens, and the engine then never asks it
about losses (`AllMoves`, the default). tests/test_engine_toy.py plays both ideas on a take-away game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Callable, Generic, Hashable, Protocol, cast

import numpy as np

from .game import Game, Move, State, StateIn
from .limits import BudgetSpent, Evaluator, Limit, SearchResult
from .ranking import best_first, rounded
from .table import Entry, TranspositionTable

#: Alternatives reported at the root.
ALTERNATIVES = 10


@dataclass(frozen=True)
class Node:
    """What searching a maximiser's node found: its value, move, the (move, value) pairs weighed, and its chance of
    a loss (see the module docstring)."""

    value: float
    move: int = -1
    weighed: tuple[tuple[int, float], ...] = ()
    risk: float = 0.0


# -- The hooks a search takes: each a Protocol, each with a default that knows nothing -------------

class MoveChooser(Protocol[StateIn]):
    """Which moves a maximiser's node weighs, in what order, and when its beam widens.

    Attributes:
        beam: how many of the best moves a node searches first.
        widen: how many it searches at most while every one shows a loss (at most `beam`: never widen).
    """

    beam: int
    widen: int

    def start(self) -> None:
        """Forget what only one search may keep, as a search starts."""

    def ranked(self, state: StateIn, key: Hashable, root: bool, among: np.ndarray | None,
               rng: np.random.Generator | None) -> tuple[np.ndarray, np.ndarray]:
        """The head of the node's moves and their values, best first (at least `beam` or ALTERNATIVES of them).

        `key` is the node's table key (None without a table): what the chooser may keep the ranking by.
        """
        ...

    def every(self, state: StateIn, root: bool, among: np.ndarray | None,
              rng: np.random.Generator | None) -> np.ndarray:
        """Every move the node may weigh, best first: what a widening beam goes on with."""
        ...

    def shows_loss(self, value: float, risk: float) -> bool:
        """Whether a move searched to `value` with chance of a loss `risk` shows a loss (the node then widens)."""
        ...

    def floor(self, alpha: float) -> float:
        """The alpha a move is searched with while every move so far shows a loss: at most the highest value that
        shows one, so that alpha-beta's bound on a pruned move still says whether it does."""
        ...


class Shortcuts(Protocol[StateIn]):
    """States valued exactly instead of searched, each node with its move, the moves weighed and its chance of a loss.

    `settled` is asked first, before the table and at any depth: what is known at once (a game
    one move from its end). `closed_form` is asked where the search would expand the node (depth
    above 1), after the table: an exact value worked out by formula instead of by search, kept in
    the table as exact and counted as reaching one level below the node.
    """

    def settled(self, state: StateIn, among: np.ndarray | None, rng: np.random.Generator | None) -> Node | None:
        """The node's exact value before any search, or None."""
        ...

    def closed_form(self, state: StateIn, root: bool, among: np.ndarray | None,
                    rng: np.random.Generator | None) -> Node | None:
        """The node's exact value in place of expanding it (the search looks at least two moves ahead), or None."""
        ...


class DepthRule(Protocol[StateIn]):
    """How deep a node is searched, given the depth the search asks for there."""

    def depth(self, state: StateIn, depth: int) -> int:
        """The depth `state` is searched to."""
        ...


class RootSearch(Protocol[StateIn]):
    """What an opening sees of the search it starts: the limit, and a ranking of the root's moves."""

    @property
    def limit(self) -> Limit:
        """What the search may spend (its depth is the one asked for)."""
        ...

    def ranking(self, state: StateIn, depth: int, among: np.ndarray | None) -> list[tuple[int, float]]:
        """The root's moves searched `depth` deep, best first by their exact values."""
        ...


class Opening(Protocol[State]):
    """How a search's root is searched: its depth, and the moves it weighs."""

    def root(self, search: RootSearch[State], state: State, among: np.ndarray | None) -> tuple[int, np.ndarray | None]:
        """The depth the root is searched to and the moves it may choose among (None: every one)."""
        ...


class AllMoves(Generic[State, Move]):
    """Every action, best first by the evaluation, then by index; a beam of `beam`, never widened."""

    def __init__(self, game: Game[State, Move], evaluation: Evaluator[State], beam: int = 10):
        if beam < 1:
            raise ValueError(f"beam must be at least 1, got {beam}")
        self.game, self.evaluation = game, evaluation
        self.beam, self.widen = beam, 0

    def start(self) -> None:
        """Forget what only one search may keep, as a search starts (here: nothing)."""

    def ranked(self, state: State, key: Hashable, root: bool, among: np.ndarray | None,
               rng: np.random.Generator | None) -> tuple[np.ndarray, np.ndarray]:
        """The moves a node weighs (every action, or those in `among`) and their values, best first."""
        moves = np.asarray(self.game.actions(state))
        if among is not None:
            moves = moves[np.isin(moves, among)]
        values = rounded(self.evaluation.values(self.game, state, moves))
        order = best_first(moves, -values, rng=rng)
        return moves[order], values[order]

    def every(self, state: State, root: bool, among: np.ndarray | None, rng: np.random.Generator | None) -> np.ndarray:
        """Every move the node may weigh, best first."""
        return self.ranked(state, None, root, among, rng)[0]

    def shows_loss(self, value: float, risk: float) -> bool:
        """Never: a beam that never widens need not know (the engine does not ask)."""
        return False

    def floor(self, alpha: float) -> float:
        """Alpha itself."""
        return alpha


class NoShortcuts:
    """No state is valued without search (whatever the game: it takes any state)."""

    def settled(self, state: object, among: np.ndarray | None, rng: np.random.Generator | None) -> Node | None:
        """None."""
        return None

    def closed_form(self, state: object, root: bool, among: np.ndarray | None,
                    rng: np.random.Generator | None) -> Node | None:
        """None."""
        return None


class AsAsked:
    """Every node is searched to the depth the search asks for (whatever the game: it takes any state)."""

    def depth(self, state: object, depth: int) -> int:
        """`depth`."""
        return depth


class PlainOpening(Generic[State]):
    """The root is searched to the limit's depth over every move (or the caller's `among`)."""

    def root(self, search: RootSearch[State], state: State, among: np.ndarray | None) -> tuple[int, np.ndarray | None]:
        """The limit's depth and `among`."""
        return search.limit.depth, among


def itself(state: Hashable) -> Hashable:
    """A state's table key by default: the state itself."""
    return state


@dataclass
class Policies(Generic[State]):
    """What a search knows about its game beyond the verbs; the defaults know nothing.

    Attributes:
        moves: which moves a node weighs and in what order (None: `AllMoves` by the evaluation).
        key: a state's key in the transposition table (default: the state itself).
        exact: the shortcuts that value a state without search.
        endgame: the depth each node is searched to.
        opening: the root's depth and the moves it weighs.
    """

    moves: MoveChooser[State] | None = None
    key: Callable[[State], Hashable] = itself
    exact: Shortcuts[State] = field(default_factory=NoShortcuts)
    endgame: DepthRule[State] = field(default_factory=AsAsked)
    opening: Opening[State] = field(default_factory=PlainOpening)


#: The opponent's node: (search, state, depth, alpha, beta, level) -> (value, chance of a loss).
ReplyRule = Callable[["Search[State, Move]", State, int, float, float, int], tuple[float, float]]


def worst_reply(search: Search[State, Move], state: State, depth: int, alpha: float, beta: float,
                level: int) -> tuple[float, float]:
    """Minimax's opponent: the least the maximiser gets over every reply (no chance of a loss is tracked)."""
    game = search.game
    return min(search.value(game.result(state, reply), depth - 1, -math.inf, math.inf, level + 1)[0]
               for reply in game.actions(state)), 0.0


def worst_reply_pruned(search: Search[State, Move], state: State, depth: int, alpha: float, beta: float,
                       level: int) -> tuple[float, float]:
    """Alpha-beta's opponent: as `worst_reply`, but stop once the maximiser would not come here (worst <= alpha)."""
    game, worst = search.game, math.inf
    for reply in game.actions(state):
        worst = min(worst, search.value(game.result(state, reply), depth - 1, alpha, min(beta, worst), level + 1)[0])
        if worst <= alpha:
            break
    return worst, 0.0


def mean_reply(search: Search[State, Move], state: State, depth: int, alpha: float, beta: float,
               level: int) -> tuple[float, float]:
    """Expectimax's chance node: the probability-weighted mean of the replies' values and of their chances of a loss."""
    game, total, risk = search.game, 0.0, 0.0
    for reply, probability in game.chance_outcomes(state):
        value, lost = search.value(game.result(state, reply), depth - 1, -math.inf, math.inf, level + 1)
        total += probability * value
        risk += probability * lost
    return rounded(total), rounded(risk)


@dataclass
class Tally:
    """What a search has spent so far: nodes visited, the deepest level reached, whether a soft budget ran out."""

    nodes: int = 0
    reached: int = 0
    budget_reached: bool = False


@dataclass
class Search(Generic[State, Move]):
    """One search from one root: the game, how it is valued, the opponent's rule, and what it has spent."""

    game: Game[State, Move]
    evaluation: Evaluator[State]
    limit: Limit
    reply: ReplyRule[State, Move]
    policies: Policies[State]
    table: TranspositionTable | None = None
    rng: np.random.Generator | None = None
    tally: Tally = field(default_factory=Tally)
    moves: MoveChooser[State] = field(init=False)

    def __post_init__(self) -> None:
        """Fill in the default move chooser."""
        self.moves = self.policies.moves or AllMoves(self.game, self.evaluation)

    def value(self, state: State, depth: int, alpha: float, beta: float, level: int) -> tuple[float, float]:
        """The value of a maximiser's node below the root and its chance of a loss."""
        node = self.best(state, depth, alpha, beta, level)
        return node.value, node.risk

    def best(self, state: State, depth: int, alpha: float, beta: float, level: int, root: bool = False,
             among: np.ndarray | None = None) -> Node:
        """Search a maximiser's node `depth` moves deep within the window (alpha, beta), as aima's max_value does."""
        self.visit(level)
        if (node := self.shortcut(state, among)) is not None:
            return node
        depth = self.depth_here(state, depth)
        return self.cached(state, depth, alpha, beta, level, root, among)

    def visit(self, level: int) -> None:
        """Count a node at `level`; a stopping budget overrun ends the search (BudgetSpent)."""
        self.tally.nodes += 1
        if self.limit.overrun(self.tally.nodes):
            raise BudgetSpent(self.tally.nodes)
        self.tally.reached = max(self.tally.reached, level)

    def shortcut(self, state: State, among: np.ndarray | None) -> Node | None:
        """A finished game's utility, or the policies' exact value before any search, or None."""
        if self.game.is_terminal(state):
            return Node(self.game.utility(state))
        return self.policies.exact.settled(state, among, self.rng)

    def depth_here(self, state: State, depth: int) -> int:
        """The depth this node is searched to: the policies' (the endgame's), cut to 1 once a soft budget is spent."""
        depth = self.policies.endgame.depth(state, depth)
        if depth > 1 and self.limit.horizon_now(self.tally.nodes):
            depth, self.tally.budget_reached = 1, True
        return depth

    def cached(self, state: State, depth: int, alpha: float, beta: float, level: int, root: bool,
               among: np.ndarray | None) -> Node:
        """The node's value from the table, else searched (`searched`) and kept there.

        The root is never kept, nor anything a soft budget cut short. A value found over
        every move (the horizon's, an exact shortcut's) is kept as exact whatever the window;
        an expanded node's is kept as a bound when it fell outside the window. `reached`
        counts, for a node answered from the table, the levels its own search reached.
        """
        key = self.policies.key(state) if self.table is not None else None
        keeper = self.table if key is not None and not root and self.limit.keeps_values else None
        if keeper is not None and (hit := keeper.probe(key, depth, alpha, beta)) is not None:
            self.tally.reached = max(self.tally.reached, level + hit.below)
            return Node(hit.value, hit.move, (), hit.risk)
        outer, self.tally.reached = self.tally.reached, level
        node, whole = self.searched(state, key, depth, alpha, beta, level, root, among)
        below, self.tally.reached = self.tally.reached - level, max(outer, self.tally.reached)
        if keeper is not None:
            window = (-math.inf, math.inf) if whole else (alpha, beta)
            keeper.store(key, depth, Entry(node.value, node.move, below, node.risk), *window)
        return node

    def searched(self, state: State, key: Hashable, depth: int, alpha: float, beta: float, level: int, root: bool,
                 among: np.ndarray | None) -> tuple[Node, bool]:
        """The node valued in closed form, at the horizon, or by expanding it; and whether that value is exact."""
        if depth > 1 and (node := self.policies.exact.closed_form(state, root, among, self.rng)) is not None:
            self.tally.reached = level + 1
            return node, True
        moves, values = self.moves.ranked(state, key, root, among, self.rng)
        if depth == 1:
            weighed = tuple((int(m), float(v)) for m, v in zip(moves[:ALTERNATIVES], values[:ALTERNATIVES]))
            return Node(weighed[0][1], weighed[0][0], weighed), True
        return self.expand(state, moves, depth, alpha, beta, level, root, among), False

    def expand(self, state: State, moves: np.ndarray, depth: int, alpha: float, beta: float, level: int,
               root: bool, among: np.ndarray | None) -> Node:
        """Search a node's beam, widened a beam at a time while every move searched shows a loss.

        The widening goes on in the chooser's order (`every`), up to `widen` moves in all. Until a
        move that shows no loss is found, each move is searched with alpha no higher than
        the chooser's `floor`, so that a pruning search knows, as minimax does, whether the
        node widens. The maximiser's moves are whole numbers (search/game.py), handed to the
        game's `result` as such.
        """
        chooser = self.moves
        value, move, risk, weighed = -math.inf, int(moves[0]), 0.0, []
        safe = chooser.widen <= chooser.beam  # never widening, a node need not know
        batch, searched, widened = moves[: chooser.beam], 0, False
        while True:
            for choice in batch:
                floor = max(alpha, value) if safe else max(chooser.floor(alpha), value)
                self.tally.nodes += 1  # the opponent's node
                after = self.game.result(state, cast(Move, int(choice)))
                child, child_risk = self.reply(self, after, depth, floor, beta, level)
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

    def ranking(self, state: State, depth: int, among: np.ndarray | None) -> list[tuple[int, float]]:
        """The root's moves searched `depth` deep, best first by their exact values (equal values keep the tie-break).

        Alpha-beta's values other than its move's are bounds, so the ranking is searched
        against its unpruned opponent; the nodes it visits count in this search's tally.
        """
        exact = replace(self, reply=worst_reply) if self.reply is worst_reply_pruned else self
        weighed = exact.best(state, depth, -math.inf, math.inf, 1, root=True, among=among).weighed
        return sorted(weighed, key=lambda pair: -pair[1])

    def run(self, state: State, among: np.ndarray | None = None) -> SearchResult:
        """Search from `state` to the depth, and over the moves, the opening policy says; then the result.

        A search under a node budget keeps nothing in the table (its values depend on the budget),
        unless the budget stops it (`Limit.stop`): then every value it keeps is whole, and it
        raises BudgetSpent once the budget is spent.
        """
        self.moves.start()
        depth, among = self.policies.opening.root(self, state, among)
        node = self.best(state, depth, -math.inf, math.inf, 1, root=True, among=among)
        ranked = sorted(node.weighed, key=lambda pair: -pair[1])  # stable: equal values keep the tie-break order
        return SearchResult(move=node.move, value=float(node.value), nodes=self.tally.nodes, depth=self.tally.reached,
                            alternatives=tuple(ranked[:ALTERNATIVES]), budget_reached=self.tally.budget_reached)


def _search(reply: ReplyRule[State, Move], game: Game[State, Move], state: State, evaluation: Evaluator[State],
            limit: Limit, policies: Policies[State] | None, table: TranspositionTable | None,
            rng: np.random.Generator | None, among: np.ndarray | None) -> SearchResult:
    """Check the start, then run one search with the opponent's rule `reply`."""
    if game.is_terminal(state) or game.to_move(state) != game.maximiser:
        raise ValueError("a search starts from an unfinished game with the maximiser to move")
    if getattr(evaluation, "random_ties", False) and rng is None:
        raise ValueError("an evaluation with random tie-breaks needs a seeded rng")
    search = Search(game, evaluation, limit, reply, policies or Policies(), table, rng)
    return search.run(state, None if among is None else np.asarray(among))


def minimax(game: Game[State, Move], state: State, evaluation: Evaluator[State], limit: Limit,
            policies: Policies[State] | None = None, table: TranspositionTable | None = None,
            rng: np.random.Generator | None = None, among: np.ndarray | None = None) -> SearchResult:
    """The maximiser's best move when the opponent replies with the move worst for it.

    Args:
        game: any game of the protocol (search/game.py).
        state: an unfinished state with the maximiser to move.
        evaluation: values moves at the horizon and orders the beam.
        limit: depth and node budget.
        policies: what the search knows of the game beyond its verbs (default: nothing).
        table: values kept across searches (None: nothing is kept).
        rng: seeded generator, needed only by evaluations with random tie-breaks.
        among: the moves the root may choose from (default: every one the policies allow).

    Returns:
        SearchResult with the move, its value, nodes visited, depth reached, alternatives and
        whether the node budget ran out.
    """
    return _search(worst_reply, game, state, evaluation, limit, policies, table, rng, among)


def alphabeta(game: Game[State, Move], state: State, evaluation: Evaluator[State], limit: Limit,
              policies: Policies[State] | None = None, table: TranspositionTable | None = None,
              rng: np.random.Generator | None = None, among: np.ndarray | None = None) -> SearchResult:
    """Minimax's move and value, skipping replies that cannot change them (same arguments as `minimax`).

    The values it reports for the other root moves are upper bounds. Its table keeps bounds
    as well as exact values, so a node it cut short answers a later visit whose window the
    bound settles (benchmarks/bench_alphabeta.py measures its nodes against minimax's).
    """
    return _search(worst_reply_pruned, game, state, evaluation, limit, policies, table, rng, among)


def expectimax(game: Game[State, Move], state: State, evaluation: Evaluator[State], limit: Limit,
               policies: Policies[State] | None = None, table: TranspositionTable | None = None,
               rng: np.random.Generator | None = None, among: np.ndarray | None = None) -> SearchResult:
    """The maximiser's best move on average over chance's replies (same arguments as `minimax`)."""
    return _search(mean_reply, game, state, evaluation, limit, policies, table, rng, among)
