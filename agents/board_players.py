"""The players of every game but Wordle's own shape (several boards, other word lengths, Fibble).

The registry finds them: an agent registered with `plays=PLAYS_EVERY_GAME` plays Wordle's shape
itself and every other description through `BoardPlayer` here (`registry.make_player`). Values are
from the Guesser's point of view, higher is better, on the game's utility scale (winning with guess
k is worth max_guesses + 1 - k). Who plays:

- `random`: a seeded random guess among those that can still win on some open board.
- `entropy`: the guess whose reply tells most. On K boards the reply is one pattern a board and
  the answers are independent, so its information is the sum of each open board's, plus a bonus
  for each board the guess is expected to solve (`SOLVE_BONUS_BITS`); a board with one answer left
  is solved first (that guess is needed anyway), and when no more guesses are left than open
  boards, only a guess that can solve one is played; once some guess is sure to win (`worst_case_need`)
  and the best-scored one is not, the best-scored sure one is played. On Fibble, what the row as shown tells of
  the answer (its entropy less the lie's noise). Ties: can win a board, then index.
- `minimax`, `alphabeta`, `expectimax`: the engine's searches (search.algorithms) over the
  game, with the agent's own parameters (--depth, --beam, --eval, --nodes). The evaluation at the
  horizon is Wordle's on each open board (its state: that board's answers, the guesses left),
  combined as their mean less one guess for each open board beyond the first (each needs a guess of
  its own); on Fibble, the shown row's information placed as Wordle's entropy evaluation places
  it. A node is searched deeper than one move only in the endgame, where the Indicator's replies are
  few (`ENDGAME_REPLIES`): a K-board reply is one pattern a board, too many to search before.

Every other agent refuses in one line (`registry.player_settings`): the learners have no model of
these games, and the rest are built on five-letter single-board Wordle's own structures (its
opening book, its exact solver).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from heuristics.evaluation import Evaluation, make_evaluation
from heuristics.partition import PartitionStats, partition_stats
from search.algorithms import AllMoves, Policies, alphabeta, expectimax, minimax
from search.limits import BudgetSpent, Limit
from search.ranking import best_first, rounded
from variants import Boards, BoardsState, Fibble, FibbleState, GameSpec
from wordle import State

from .base import Agent, Decision
from .registry import AgentError, resolve

#: A Guesser node is searched deeper than one move only when the Indicator has at most this many
#: replies to any guess there: the product of the open boards' answers (K boards), or nine lies
#: for each answer left (Fibble).
ENDGAME_REPLIES = 24
#: On several boards the entropy player adds this many bits for each board a guess is expected to solve: a solved
#: board needs no guess of its own later, which the reply's information alone does not count. Chosen on seed 1's
#: first 300 Dordle and Quordle sets (mean guesses at 0, 1.5, 3 and 5 bits: Quordle 6.953, 6.950, 6.897, 6.937 with
#: 3 games lost; Dordle 4.797, 4.797, 4.763, 4.830 with 1 lost); the published tournaments play seed 0.
SOLVE_BONUS_BITS = 3.0
#: How many of the best guesses a Decision lists.
ALTERNATIVES = 10
#: A search given no --nodes stops past this many nodes a decision, and the guess is then the evaluation's own
#: (depth 1), said as a fallback: deep endgame searches over many boards or lies cost tens of milliseconds a node,
#: so this bounds a decision to about a minute here. The shipped runs' searches stay far below it (at most 438 nodes
#: a game), and a search that stays below returns exactly what it would without the cap.
NODE_CAP = 1_000
_SEARCHES = {"minimax": minimax, "alphabeta": alphabeta, "expectimax": expectimax}

#: A game of any shape but Wordle's, and its positions.
BoardGame = Boards | Fibble
BoardState = BoardsState | FibbleState


def open_candidates(game: BoardGame, state: BoardState) -> list[np.ndarray]:
    """The answers still possible on each open board (Fibble: its one board)."""
    if isinstance(game, Fibble):
        return [state.candidates]
    return [state.candidates[board] for board in state.open_boards]


def can_win_any(game: BoardGame, state: BoardState, guesses: np.ndarray) -> np.ndarray:
    """How many open boards each guess can win on (an int array aligned with `guesses`)."""
    return sum(game.rules.can_win(cands, guesses).astype(np.int64) for cands in open_candidates(game, state))


def shown_information(game: Fibble, candidates: np.ndarray, guesses: np.ndarray) -> np.ndarray:
    """Fibble: what the row each guess is shown tells of the answer, in bits.

    The row's entropy less the lie's own (the mean over the answers of log2 of the lies
    their true pattern allows): the information the row shares with the answer, not its noise.
    """
    chances = game.shown_counts(candidates, guesses) / len(candidates)
    logs = np.log2(chances, out=np.zeros_like(chances), where=chances > 0)
    return np.maximum(-(chances * logs).sum(axis=1) - game.lie_noise(candidates, guesses), 0.0)


def board_stats(game: BoardGame, boards: list[np.ndarray], guesses: np.ndarray) -> list[PartitionStats]:
    """Each board's partition statistics of `guesses`, in the boards' order; boards with the same answers left (every
    board before the first reply) share one computation, so K identical boards cost one board's work."""
    computed: dict[bytes, PartitionStats] = {}
    stats = []
    for cands in boards:
        key = np.asarray(cands).tobytes()
        if (found := computed.get(key)) is None:
            found = computed[key] = partition_stats(game.rules.matrix, cands, guesses)
        stats.append(found)
    return stats


def information(game: BoardGame, state: BoardState, guesses: np.ndarray) -> np.ndarray:
    """Each guess's expected information in bits: summed over the open boards, or Fibble's shown row."""
    if isinstance(game, Fibble):
        return shown_information(game, state.candidates, guesses)
    total = np.zeros(len(guesses))
    boards = [cands for cands in open_candidates(game, state) if len(cands) > 1]
    for stats in board_stats(game, boards, guesses):
        total += stats.entropy
    return total


class BoardEvaluation:
    """The horizon's value of each guess in a game of several boards or lies, on its utility scale (see the module
    docstring)."""

    random_ties = False

    def __init__(self, inner: Evaluation):
        self.inner = inner
        self.key = ("variant", inner.key)

    def values(self, game: BoardGame, state: BoardState, moves: np.ndarray) -> np.ndarray:
        """Wordle's evaluation on each open board, combined; Fibble's shown information, placed as Wordle's entropy."""
        moves = np.asarray(moves)
        base = game.solve_now(state)
        if isinstance(game, Fibble):
            size = len(state.candidates)
            if size == 1:
                return np.where(game.rules.can_win(state.candidates, moves), base, base - 1.0)
            bound = math.log2(max(2, min(size, 3**game.length)))
            return base - 2.0 + shown_information(game, state.candidates, moves) / bound
        boards = open_candidates(game, state)
        valued: dict[bytes, np.ndarray] = {}  # boards with the same answers left are valued once
        each = []
        for cands in boards:
            if (found := valued.get(key := cands.tobytes())) is None:
                found = valued[key] = self.inner.values(game.rules, State(candidates=cands,
                                                                          max_guesses=state.guesses_left), moves)
            each.append(found)
        return np.mean(each, axis=0) - (len(boards) - 1)


class Chooser(AllMoves):
    """Every legal guess, best first by the evaluation, then by the boards it can win on, then by index."""

    def ranked(self, state: Any, key: Any, root: bool, among: np.ndarray | None,
               rng: np.random.Generator | None) -> tuple[np.ndarray, np.ndarray]:
        """The moves a node weighs and their values, best first."""
        moves = np.asarray(self.game.actions(state))
        if among is not None:
            moves = moves[np.isin(moves, among)]
        values = rounded(self.evaluation.values(self.game, state, moves))
        order = best_first(moves, -values, -can_win_any(self.game, state, moves))
        return moves[order], values[order]


class Endgame:
    """Search deeper than one move only where the Indicator's replies are few (ENDGAME_REPLIES)."""

    def __init__(self, game: BoardGame):
        self.game = game

    def depth(self, state: BoardState, depth: int) -> int:
        """`depth` in the endgame, else 1."""
        if isinstance(self.game, Fibble):
            replies = len(state.candidates) * 2 * self.game.length
        else:
            replies = math.prod(len(cands) for cands in open_candidates(self.game, state))
        return depth if replies <= ENDGAME_REPLIES else 1


class BoardPlayer(Agent):
    """A Guesser of a game of several boards, another length or lies: `decide(state, rng)` returns its Decision;
    decisions are cached by the game's key."""

    def __init__(self, name: str, game: BoardGame, settings: dict[str, Any]):
        """Player `name` (random, entropy or a search) of `game`, with its settings (`board_settings`)."""
        super().__init__(game)  # type: ignore[arg-type]
        self.name, self.params = name, settings
        self._decisions: dict[tuple, Decision] = {}
        if name in _SEARCHES:
            inner = make_evaluation(settings["eval"], settings["eval_mode"], settings.get("weights"),
                                    settings["threshold"])
            self.evaluation = BoardEvaluation(inner)
            self.policies = Policies(moves=Chooser(game, self.evaluation, beam=settings["beam"]),
                                     endgame=Endgame(game))

    def decide(self, state: BoardState, rng: np.random.Generator) -> Decision:
        """The player's guess at a Guesser-to-move state (random's draws from `rng`; the others are deterministic)."""
        if self.name == "random":
            return self.random_guess(state, rng)
        key = self.game.key(state)
        if (decision := self._decisions.get(key)) is None:
            decision = self._decisions[key] = self.choose(state)
        return decision

    def random_guess(self, state: BoardState, rng: np.random.Generator) -> Decision:
        """A guess drawn by `rng` among every open board's possible answers."""
        winners = np.unique(np.concatenate([self.game.rules.words.answer_rows[cands]
                                            for cands in open_candidates(self.game, state)]))
        return Decision(guess=int(winners[int(rng.integers(len(winners)))]))

    def cost_text(self) -> str:
        """What one decision may cost, for a spinner: a search's node budget, or nothing for a quick player."""
        if self.name not in _SEARCHES:
            return ""
        if self.params["nodes"] is not None:
            return f" (searching up to {self.params['nodes']:,} nodes, then valuing the rest at the horizon)"
        return f" (searching up to {NODE_CAP:,} nodes, else taking the evaluation's own guess)"

    def choose(self, state: BoardState) -> Decision:
        """The entropy guess, or the search's move: under --nodes as given, else stopped at NODE_CAP nodes, when the
        evaluation's own guess (a search one move deep) is played and the decision says so (`fallback`)."""
        if self.name == "entropy":
            return self.entropy_guess(state)
        search, depth, nodes = _SEARCHES[self.name], self.params["depth"], self.params["nodes"]
        try:
            limit = Limit(depth=depth, nodes=nodes) if nodes is not None else Limit(depth=depth, nodes=NODE_CAP, stop=True)
            result = search(self.game, state, self.evaluation, limit, self.policies)
            spent, fallback = 0, False
        except BudgetSpent as stopped:
            result = search(self.game, state, self.evaluation, Limit(depth=1), self.policies)
            spent, fallback = stopped.nodes, True
        return Decision(guess=result.move, value=result.value, alternatives=result.alternatives,
                        nodes=spent + result.nodes, depth=result.depth, budget_reached=result.budget_reached or fallback,
                        fallback=fallback)

    def entropy_guess(self, state: BoardState) -> Decision:
        """Most information; on several boards a board with one answer left first, then bits plus the solve bonus;
        when the guesses left are no more than the open boards, only a guess that can solve one; once a guess is
        sure to win and the best-scored one is not, the best-scored sure one; ties: boards it can win, then index."""
        guesses = self.game.legal_guesses(state)
        if not (isinstance(state, BoardsState) and self.game.boards > 1):
            score = entropy_score(self.game, state, guesses)
        else:
            for cands in open_candidates(self.game, state):
                if len(cands) == 1:
                    guess = int(self.game.rules.words.answer_rows[cands[0]])
                    return Decision(guess=guess, value=float(entropy_score(self.game, state, np.array([guess]))[0]))
            if state.guesses_left <= len(state.open_boards):  # every guess left must solve a board
                guesses = guesses[can_win_any(self.game, state, guesses) > 0]
            stats = board_stats(self.game, open_candidates(self.game, state), guesses)
            score = sum(s.entropy for s in stats) + SOLVE_BONUS_BITS * solve_chance(self.game, state, guesses)
            safe = sum(s.largest for s in stats) <= state.guesses_left - 1  # see worst_case_need
            best = best_first(guesses, -score, -can_win_any(self.game, state, guesses))[0]
            if safe.any() and not safe[best]:  # a sure win is on offer: take the best-scored of those
                guesses, score = guesses[safe], score[safe]
        order = best_first(guesses, -score, -can_win_any(self.game, state, guesses))[:ALTERNATIVES]
        top = tuple((int(guesses[i]), float(score[i])) for i in order)
        return Decision(guess=top[0][0], value=top[0][1], alternatives=top)


def worst_case_need(game: Boards, state: BoardsState, guesses: np.ndarray) -> np.ndarray:
    """For each guess, how many guesses may follow it, at worst, to solve every open board by guessing its possible
    answers one at a time: the sum over the open boards of the largest group of answers its reply can leave.

    A guess whose need is within the guesses left after it is sure to win the game.
    """
    total = np.zeros(len(guesses), dtype=np.int64)
    for stats in board_stats(game, open_candidates(game, state), guesses):
        total += stats.largest
    return total


def solve_chance(game: BoardGame, state: BoardState, guesses: np.ndarray) -> np.ndarray:
    """How many open boards each guess is expected to solve: the sum over them of 1 / answers left where it is one."""
    total = np.zeros(len(guesses))
    for cands in open_candidates(game, state):
        total += np.isin(guesses, game.rules.words.answer_rows[cands]) / len(cands)
    return total


def entropy_score(game: BoardGame, state: BoardState, guesses: np.ndarray) -> np.ndarray:
    """The entropy player's score of each guess (higher is better): its information in bits, plus, on several boards,
    SOLVE_BONUS_BITS for each board it is expected to solve."""
    bits = information(game, state, guesses)
    if isinstance(game, Boards) and game.boards > 1:
        bits = bits + SOLVE_BONUS_BITS * solve_chance(game, state, guesses)
    return bits


def board_settings(name: str, game: GameSpec, strict: bool = True, **given: Any) -> dict[str, Any]:
    """Every parameter of player `name` for a game of `game`'s shape (not Wordle's): the ones given (None: the
    default), checked before any game is built; the registry has already said that `name` plays it.

    Args:
        strict: refuse a parameter the agent does not take (False: ignore it, as a tournament does).

    Raises:
        AgentError: a parameter it does not take (strict), or an evaluation the game cannot use.
    """
    settings = resolve(name, strict=strict, **given)
    if name in _SEARCHES:
        if game.lies and given.get("eval") not in (None, "entropy"):
            raise AgentError(f"{name}: on fibble the horizon is valued by the shown row's information: drop --eval")
        if game.length != 5 and settings["eval"] not in ("cost", "entropy"):
            raise AgentError(f"{name}: --eval {settings['eval']} counts five letters' colours; "
                             f"with --length {game.length} use cost or entropy")
        if settings.get("opponent") not in (None, "worst"):
            raise AgentError(f"{name}: --opponent absurdle is Wordle's own Indicator, not {game.name}'s")
        if game.lies:
            settings["eval"] = "entropy"
    return settings
