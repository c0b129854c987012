"""The win prover: whether a set of answers can be won at all within its guesses, proved either way.

`WinProver.can_win` is a search that stops at the first winning tree, trying the answers still possible as
guesses first (cheap, and legal in hard mode), then every other allowed guess in order of its one-step bound; a
guess fails at its first reply (largest first) that cannot be won. It proves "no win" by refuting every guess,
and keeps what it proves in the solver's memory (`wordle.solver.memory`): per set, the most guesses known too few
and the fewest known enough, and a lost subset of each lost set (its core). Before searching a set it asks, in
order: the lost cores kept (`wordle.solver.lost_cores`: a set holding a lost core, under no more legal guesses,
is lost), a quick compiled certificate (a tree guessing only answers still possible), the set's largest endgame
(`wordle.solver.endgames`), and with three guesses left the compiled exhaustive check
(`wordle.solver.short_wins`) alone, which is exact there (without numba, the endgame then the search). In hard
mode a refuted guess's small lost core is proved again under the hints before the guess (`hoist`), so that it
refutes other guesses and later openers too. Most sets the all-opener job asks about are won, so the certificate
goes before the endgame; in hard mode on today's lists that order took a sixth off a stratified sample's CPU and a
tenth off a worker's run of openers (`docs/speed.md`). Its search runs in rounds of growing effort (`search_win`),
the guesses that last won a set alike first (the memory's `winners`).

Effort counts sets searched (and the compiled checks' work, SHORT_NODE patterns a set), never time:
`winning_guess` and `wins_within` answer the same on any machine, from an emptied win memory.
"""

from __future__ import annotations

import functools

import numpy as np

from ..feedback import ALL_GREEN
from ..game import Wordle
from ..hardmode import Hints, legal_mask
from ..ultra import Possible
from ..replies import partition
from .budget import SHORT_NODE, Spending
from .costs import INFEASIBLE, NEVER
from .endgames import Endgames, most_won
from .memory import Memory
from .passes import BoundPasses
from .short_wins import UNDECIDED, compiled as compiled_short_wins

#: opener_wins first tries, once per solver, to prove the whole answer list winnable with a guess fewer and no hints
#: (then every reply without hints is won with no search of its own: in normal mode every reply, in hard mode the
#: all-grey one). In rounds (`whole_list_in_rounds`): the first WHOLE_WIDTH guesses by their bound each within
#: WHOLE_ROUND_EFFORT sets, then four times as many guesses with four times the effort, until one wins or WHOLE_SPEND
#: sets are spent. On today's lists (2309 answers, 14855 guesses) REACT wins within 5 in normal mode (5,138 sets in
#: all, 4.8 s of CPU; TRACE, tried alone, took 28,502 sets), CARON in hard mode (49,074 sets, 23 s, measured before
#: `hoist`; TRACE, CRATE and SALET lose it there); the proof makes every later opener's win check cheap (an all-grey
#: reply in hard mode, a poor opener's hundreds of answers, took up to 33 s of CPU without it).
WHOLE_WIDTH = 128
WHOLE_ROUND_EFFORT = 256
WHOLE_SPEND = 60_000
#: can_win's first round tries this many guesses; each round four times as many.
WIN_WIDTH = 4
#: can_win's first effort per guess (sets searched) before it moves on to the next guess; it quadruples each round.
WIN_EFFORT = 32
#: can_win asks the lost cores (wordle.solver.lost_cores) about sets with this many guesses or more to go, and keeps
#: theirs.
CORE_FROM = 4
#: Hard and ultra-hard mode: a reply's lost core of at most HOIST_MOST answers, with four guesses or more to go, is
#: tried again under the hints before the guess (more guesses legal), within HOIST_EFFORT sets searched of its own,
#: beyond the caller's effort (`WinProver.hoist`).
HOIST_MOST = 32
HOIST_EFFORT = 500
#: The compiled three-guess win check's work cap per call (patterns read), past which the search below answers.
SHORT_WORK = 50_000_000
#: The quick certificate's work cap per call (patterns read) and the guesses it tries at each set.
ANSWERS_WORK = 2_000_000
ANSWERS_BREADTH = 3
#: Hard mode: the effort (sets searched) spent once per solver on every answer meeting a reply's single demand
#: (`WinProver.prove_demand_sets`).
DEMAND_EFFORT = 2_000


def one_demand(hints: Hints | None) -> bool:
    """Whether hard-mode hints make a single demand: one letter present, or that letter green at one place too."""
    if not isinstance(hints, Hints) or len(hints.at_least) != 1 or hints.at_least[0][1] != 1:
        return False
    return not hints.fixed or (len(hints.fixed) == 1 and hints.fixed[0][1] == hints.at_least[0][0])


class Undecided(Exception):
    """can_win's effort for one guess ran out before its subtree was proved either way."""


class WinProver:
    """Whether sets can be won within their guesses, for one game, mode and guess limit, proved either way.

    Args:
        game: the rules and the pattern matrix.
        hard: hard mode's rule binds every guess after the first.
        max_guesses: the guess limit (`opener_wins`).
        losses: the solver's objective is the losses one (its solved sub-problems prove no win).
        memory: the solver's memory, which keeps the verdicts, cores and winners.
        passes: the bound passes that order the guesses.
        spending: the budget checked, and the sets counted, as the search goes.
        ultra: ultra-hard mode's rule binds every guess after the first (`hard` is then ignored).
    """

    def __init__(self, game: Wordle, hard: bool, max_guesses: int, losses: bool, memory: Memory,
                 passes: BoundPasses, spending: Spending, ultra: bool = False) -> None:
        self.game, self.hard, self.max_guesses, self.losses = game, hard or ultra, max_guesses, losses
        self.rule = 2 if ultra else int(hard)  # the compiled checks' mode: 0 normal, 1 hard, 2 ultra-hard
        self.root_hints = Possible() if ultra else Hints() if hard else None
        self.memory, self.passes, self.spending = memory, passes, spending
        self.matrix = game.matrix
        self.win_limit: int | None = None  # stats.nodes past which can_win's current round gives up (Undecided)
        self.whole_tries = 1  # opener_wins tries the whole list once per solver
        self.short_wins = compiled_short_wins()  # the compiled three-guess win check (None: no numba)
        self.endgame_cut = True  # can_win's endgame check (wordle.solver.endgames); off only to measure what it buys
        self.core_from = CORE_FROM
        self.refutation: np.ndarray = game.all_answers  # wins_with's last refuted guess: a subset it loses on
        self.search_core: np.ndarray = game.all_answers  # search_win's last -1: the union of its refutations
        self.short_core: np.ndarray = game.all_answers  # short_win's last False: a lost subset
        self.single_unbounded = True  # wins_with's last undecided reply is searched within the caller's effort alone
        self.strict_effort = False  # the compiled three-guess check stops at win_limit too (not only at SHORT_WORK)
        self.hoist_most = HOIST_MOST  # the largest reply core hoist tries (0: off, to measure what it buys)
        self.demand_effort = DEMAND_EFFORT  # hard mode: prove_demand_sets' effort a demand (0: off, to measure it)

    # -- what is known ---------------------------------------------------------------------------
    def known_lost(self, answers: np.ndarray, left: int, hints: Hints | None) -> bool:
        """Whether `answers` is remembered as lost within `left` guesses (no tree solves them all)."""
        return self.memory.lost_within(self.memory.win_key(answers, hints or None), left)

    def lost_core(self, answers: np.ndarray, hints: Hints | None) -> np.ndarray:
        """A lost subset of `answers`, a set remembered as lost: its core where its proof found a smaller one."""
        return self.memory.lost_core(self.memory.win_key(answers, hints or None), answers)

    def asks_cores(self, left: int) -> bool:
        """Whether `core_lost` looks at a set with `left` guesses to go (it has cores, and the proof would be costly)."""
        return left >= self.core_from and len(self.memory.lost_cores) > 0

    def core_lost(self, answers: np.ndarray, left: int, hints: Hints | None) -> np.ndarray | None:
        """A core (LostCores) inside `answers` proving them lost within `left` guesses, or None. Asked only where a
        proof would be costly: `core_from` guesses or more to go."""
        if not self.asks_cores(left):
            return None
        return self.memory.lost_cores.find(answers, self.memory.legal_bits(hints), left)

    # -- can it be won? ----------------------------------------------------------------------------
    def can_win(self, answers: np.ndarray, left: int, hints: Hints | None) -> bool:
        """Whether some tree solves every one of `answers` within `left` guesses (proved either way).

        A search that stops at the first winning tree: the answers still possible are tried as
        guesses first (cheap, and legal in hard mode), then every other allowed guess, each in
        order of its one-step bound; a guess fails at its first reply (largest first) that cannot
        be won. Remembered per set: the most guesses known too few and the fewest known enough.
        """
        size = len(answers)
        if size == 1:
            return left >= 1
        if left <= 1:
            return False
        if size <= left:  # guess the possible answers one by one: each guess removes at least itself
            return True
        memory, stats = self.memory, self.spending.stats
        key = memory.win_key(answers, hints or None)
        too_few, enough = memory.win_limits(key)
        if left >= enough:
            return True
        if left <= too_few:
            return False
        if not hints and left >= memory.win_limits(memory.whole_key)[1]:
            return True  # no hints (normal mode, or none yet): a tree that wins every answer wins any subset
        demand = memory.demand_wins.get(hints) if hints else None
        if demand is not None and left >= demand[0] and demand[1][answers].all():
            return True  # a subset of every answer meeting the same hints, won under them (prove_demand_sets)
        known = memory.memo.get(memory.key(answers, left, hints))
        if known is not None and 0 <= known[1] < INFEASIBLE and not self.losses:
            return True  # solved: a tree exists
        stats.nodes += 1
        self.spending.check()
        if self.win_limit is not None and stats.nodes > self.win_limit:
            raise Undecided
        core = self.core_lost(answers, left, hints)
        won = None if core is None else False
        if won is None and left > 3:  # most sets are won: the cheap certificate first
            won = self.answers_win(answers, left, hints)
        if won is None and (left != 3 or self.short_wins is None):  # with three left the compiled check is exact
            core = self.endgame_core(answers, left, hints)
            won = None if core is None else False
        if won is None:  # proved here by a search: its core is kept for other sets (LostCores)
            won = self.short_win(answers, left, hints, None)
            if won is None:
                won = self.search_win(answers, left, hints) >= 0
                core = self.search_core
            elif not won:
                core = self.short_core
            if not won and left >= self.core_from:
                memory.lost_cores.add(core if len(core) else answers, memory.legal_bits(hints), left)
        memory.record_verdict(key, left, won, core, size)
        return won

    @functools.cached_property
    def endgames(self) -> Endgames:
        """The answer list's endgames (answers alike but for one letter), grouped once per prover."""
        return Endgames(self.game.words.answers)

    def endgame_core(self, answers: np.ndarray, left: int, hints: Hints | None) -> np.ndarray | None:
        """A lost subset of `answers` (the endgame or its core) where the set's largest endgame proves it cannot be
        won within `left` guesses (wordle.solver.endgames): by the counting bound, or, where that only just fails, by
        searching the endgame alone. None where it proves nothing."""
        if not self.endgame_cut or left < 2 or len(answers) <= left:
            return None
        endgame = self.endgames.largest(answers)
        if endgame is None:
            return None
        most = most_won(self.passes.columns, self.memory.allowed(hints), endgame, left)
        if most < len(endgame):
            self.spending.stats.endgame_cuts += 1
            return endgame
        if len(endgame) < len(answers) and most - len(endgame) < left - 1 and not self.can_win(endgame, left, hints):
            self.spending.stats.endgame_cuts += 1
            return self.lost_core(endgame, hints)
        return None

    def lost_within_three(self, answers: np.ndarray, hints: Hints | None) -> bool:
        """Whether no tree solves `answers` within 3 guesses under `hints` (hard mode): at once where the set holds
        the core of a set found lost so before under no more legal guesses (`three_cores`), else by the win check,
        whose core is kept with the guesses legal under `hints`."""
        legal = self.memory.legal_bits(hints)
        three_cores = self.memory.three_cores
        if len(three_cores) and three_cores.find(answers, legal, 3) is not None:
            return True
        if self.can_win(answers, 3, hints):
            return False
        three_cores.add(self.memory.lost_core(self.memory.win_key(answers, hints or None), answers), legal, 3)
        return True

    # -- within an effort ---------------------------------------------------------------------------
    def winning_guess(self, answers: np.ndarray, left: int, hints: Hints | None, effort: int) -> int | None:
        """A guess that starts a tree solving every one of `answers` within `left` guesses, found within `effort`
        sets searched (can_win's search from an empty memory), or None (none, or none found within the effort).

        The effort counts work, not time: the same answer on any machine.
        """
        if len(answers) == 1 or len(answers) <= left:  # a possible answer: each guess removes at least itself
            return int(self.game.words.answer_rows[answers[0]])
        if left <= 1:
            return None
        self.memory.forget_wins()
        self.memory.forget_memory()
        outer, self.win_limit = self.win_limit, self.spending.stats.nodes + effort
        try:
            guess = self.search_win(answers, left, hints)
        except Undecided:
            guess = -1
        finally:
            self.win_limit = outer
        return guess if guess >= 0 else None

    def wins_within(self, answers: np.ndarray, left: int, hints: Hints | None, guess: int,
                    effort: int) -> bool | None:
        """Whether `guess` starts a tree solving every one of `answers` within `left` guesses: True or False where
        proved within `effort` sets searched (from an empty memory), None where the effort ran out."""
        self.memory.forget_wins()
        self.memory.forget_memory()
        outer, self.win_limit = self.win_limit, self.spending.stats.nodes + effort
        try:
            return self.wins_with(answers, left, hints, int(guess))
        except Undecided:
            return None
        finally:
            self.win_limit = outer

    def try_to_win(self, answers: np.ndarray, left: int, hints: Hints | None, effort: int) -> bool | None:
        """can_win within `effort` sets searched: True or False where proved, None where the effort ran out."""
        outer, nodes = self.win_limit, self.spending.stats.nodes
        self.win_limit = nodes + effort if outer is None else min(outer, nodes + effort)
        try:
            return self.can_win(answers, left, hints)
        except Undecided:
            if outer is not None and self.spending.stats.nodes > outer:
                raise
            return None
        finally:
            self.win_limit = outer

    # -- the search -------------------------------------------------------------------------------------
    def search_win(self, answers: np.ndarray, left: int, hints: Hints | None) -> int:
        """can_win's search at one set: the possible answers as guesses first, then every other allowed guess.

        Returns the first guess found that wins every answer, or -1 where none does.

        In rounds: each guess not yet refuted gets an effort (sets searched) and is left undecided when
        it runs out, so a guess whose subtree fails deep does not hold up one that wins at once; each
        round takes four times as many guesses (the best by their bound first) and, where one was left
        undecided, four times the effort, within what the caller's own round allows.

        The guesses that last won a set with the same guesses left and the same hints (`winners`) go first:
        sets alike in their hints are often won by the same guess. In hard mode's all-opener job, -ER
        words under E and R green come back opener after opener; RIMER, which won UTTER's, was 253rd of
        the 442 guesses in the search's own order there.
        """
        rows = np.sort(self.game.words.answer_rows[answers])
        others = self.memory.allowed(hints)
        outside = np.ones(len(self.game.words.guesses), dtype=bool)
        outside[rows] = False
        ordered = []
        for guesses in (rows, others[outside[others]]):
            if not len(guesses):
                continue
            lower, _ = self.passes.lower_bounds(self.passes.columns, guesses, answers, (0, 0, 0), left == 2)
            useful = np.flatnonzero(lower < NEVER)
            if left == 2 and len(useful):  # a guess that tells every answer apart wins; none can otherwise
                return int(guesses[useful[np.argmin(lower[useful])]])
            ordered += guesses[useful[np.argsort(lower[useful], kind="stable")]].tolist()
        self.search_core = answers
        if left == 2:
            return -1
        ordered = self.memory.winners_first(ordered, (left, hints))
        outer = self.win_limit
        refuted: set[int] = set()
        lost = np.zeros(len(self.game.words.answers), dtype=bool)  # the refutations' cores, together lost
        effort, width = WIN_EFFORT, WIN_WIDTH
        try:
            while True:
                undecided = False
                for guess in ordered[:width]:
                    if guess in refuted:
                        continue
                    limit = self.spending.stats.nodes + effort
                    capped = outer is not None and limit >= outer
                    self.win_limit = outer if capped else limit
                    try:
                        if self.wins_with(answers, left, hints, guess):
                            self.memory.remember_winner((left, hints), guess)
                            return guess
                        refuted.add(guess)
                        lost[self.refutation] = True
                    except Undecided:
                        if capped:
                            raise
                        undecided = True
                if not undecided and width >= len(ordered):
                    if refuted:
                        self.search_core = np.flatnonzero(lost)
                    return -1
                effort, width = (effort * 4 if undecided else effort), width * 4
        finally:
            self.win_limit = outer

    def wins_with(self, answers: np.ndarray, left: int, hints: Hints | None, guess: int) -> bool:
        """Whether `guess` starts a tree that solves every one of `answers` within `left` guesses.

        Where it does not, `refutation` is left holding answers on which `guess` loses too (a reply's core, or
        `answers` where the compiled check gave no reply).
        """
        replies = [(group, code) for code, group in partition(self.matrix[guess, answers], answers)
                   if code != ALL_GREEN]
        if left <= 1:
            self.refutation = replies[0][0][:1] if replies else answers
            return not replies
        if left == 2:  # one guess left for each reply: each must be one answer
            for group, _ in replies:
                if len(group) > 1:
                    self.refutation = group[:2]
                    return False
            return True
        children = [(group, code) for group, code in replies if len(group) > left - 1]  # smaller ones are won (can_win)
        children.sort(key=lambda child: -len(child[0]))
        hinted: dict[int, Hints | None] = {}

        def child_hints(code: int) -> Hints | None:
            """A reply's hints, built where first needed (most replies of a refuted guess never need theirs)."""
            if code not in hinted:
                hinted[code] = self.passes.reply_hints(hints, guess, code)
            return hinted[code]

        memory = self.memory
        for group, code in children:
            stored = memory.set_bytes(group)
            if stored in memory.seen_sets and memory.lost_within((stored, child_hints(code) or None), left - 1):
                # (a set the win memory holds under no hints is not remembered lost: no hints built)
                return self.refuted(self.lost_core(group, child_hints(code)), left - 1, hints)
        if self.asks_cores(left - 1):
            for group, code in children:
                core = self.core_lost(group, left - 1, child_hints(code))
                if core is not None:
                    return self.refuted(core, left - 1, hints)
        if left == 3:
            won = self.short_win(answers, left, hints, guess)
            if won is not None:
                self.refutation = self.short_core
                return won
        if left - 1 < 3:  # each reply is settled by one pass over the guesses
            for group, code in children:
                if not self.can_win(group, left - 1, child_hints(code)):
                    return self.refuted(self.lost_core(group, child_hints(code)), left - 1, hints)
            return True
        effort = WIN_EFFORT  # in rounds, as search_win's guesses: a reply lost deep does not wait on others won
        while children:
            undecided = []
            for group, code in children:
                if len(children) == 1 and self.single_unbounded:  # nothing to wait on: no round of its own
                    won = self.can_win(group, left - 1, child_hints(code))
                else:
                    won = self.try_to_win(group, left - 1, child_hints(code), effort)
                if won is False:
                    return self.refuted(self.lost_core(group, child_hints(code)), left - 1, hints)
                if won is None:
                    undecided.append((group, code))
            children = undecided
            effort *= 4
        return True

    def refuted(self, core: np.ndarray, left: int, hints: Hints | None) -> bool:
        """wins_with's answer where a reply with `left` guesses to go is lost: False, with `core` (the reply's lost
        subset) left in `refutation` for the caller, after `hoist` has tried it under `hints` (whose own search
        leaves refutations of its own there)."""
        self.hoist(core, left, hints)
        self.refutation = core
        return False

    def hoist(self, core: np.ndarray, left: int, hints: Hints | None) -> None:
        """Hard and ultra-hard mode: try to prove `core`, a lost subset of a reply with `left` guesses to go, lost
        under `hints`, the hints before the guess that got the reply, within HOIST_EFFORT sets searched of its own
        (small cores only: `hoist_most`). Its effort is not the caller's: a search within an effort may spend
        HOIST_EFFORT more a hoist (still counted, so the same on any machine). A core with four guesses to go hoists
        nothing further within its own search (its replies have three, below CORE_FROM); a try that runs out is not
        remembered, and may be made again.

        A reply's hints add the guess's demands, so fewer guesses are legal there, and a core proved lost there
        refutes only sets under no more legal guesses: other replies to the same guess. Proved lost under the hints
        before it by can_win's search, it is kept with those legal guesses (a superset of every reply's), and
        refutes any other guess that keeps it inside one reply, and any later set under those hints that holds it,
        whatever the opener (an endgame's count, cheap to repeat, keeps only the set's own verdict). In hard mode's
        all-opener job, -ER openers meet the same small sets of -ER words after E and R turn green, guess after
        guess and opener after opener.
        """
        if not hints or left < self.core_from or len(core) > self.hoist_most:
            return
        outer, self.win_limit = self.win_limit, self.spending.stats.nodes + HOIST_EFFORT
        try:
            self.can_win(core, left, hints)
        except Undecided:
            pass
        finally:
            self.win_limit = outer

    # -- the compiled checks --------------------------------------------------------------------------
    def short_win(self, answers: np.ndarray, left: int, hints: Hints | None, guess: int | None) -> bool | None:
        """The compiled check (wordle.solver.short_wins) of a set within three guesses (starting with `guess` if
        given): proved either way, or None without numba, with other guesses left, or past its work cap (SHORT_WORK
        patterns read). Where it is False, `short_core` is left holding a lost subset of `answers` (with `guess`:
        answers `guess` loses on)."""
        if self.short_wins is None or left != 3:
            return None
        legal = self.memory.allowed(hints) if self.hard else self.game.all_guesses
        cap = SHORT_WORK
        if self.strict_effort and self.win_limit is not None:  # the round's effort left, in patterns
            cap = min(cap, max(0, self.win_limit - self.spending.stats.nodes + 1) * SHORT_NODE)
        work = np.array([0, cap], dtype=np.int64)
        game, short = self.game, self.short_wins
        core = np.zeros(len(game.words.answers), dtype=np.uint8)
        if guess is None:
            won = short.can_win3(self.matrix, game.guess_letters, game.guess_counts, self.rule, legal, len(legal),
                                 answers, np.sort(game.words.answer_rows[answers]), game.words.answer_rows, work, core)
        else:
            won = short.wins_with3(self.matrix, game.guess_letters, game.guess_counts, self.rule, legal, len(legal),
                                   answers, guess, work, core, answers[:0], np.zeros(1, np.int64),
                                   np.zeros(1, np.int64))
        self.spending.count_work(int(work[0]))  # can_win's efforts count sets searched: this is worth as many
        if won == UNDECIDED and cap < SHORT_WORK:
            raise Undecided  # the round's effort ran out inside the check
        if won == 0:
            self.short_core = np.flatnonzero(core)
        return None if won == UNDECIDED else bool(won)

    def answers_win(self, answers: np.ndarray, left: int, hints: Hints | None) -> bool | None:
        """True where the compiled quick certificate (wordle.solver.short_wins.answers_win: a tree guessing answers
        still possible, legal in any mode, then every legal guess with three left) wins `answers` within `left`
        guesses; None where it finds none."""
        if self.short_wins is None:
            return None
        work = np.array([0, ANSWERS_WORK], dtype=np.int64)
        legal = self.memory.allowed(hints) if self.hard else self.game.all_guesses
        chain = np.zeros((8, 2), dtype=np.int64)
        game = self.game
        won = self.short_wins.answers_win(self.matrix, game.guess_letters, game.guess_counts, self.rule, legal,
                                          game.words.answer_rows, answers, left, ANSWERS_BREADTH, chain, 0, work)
        self.spending.count_work(int(work[0]))
        return True if won == 1 else None

    # -- openers ---------------------------------------------------------------------------------------------
    def win_whole_list(self, left: int) -> bool | None:
        """Try to prove the whole answer list winnable within `left` guesses without hints (`whole_list_in_rounds`,
        the guesses by their bound; None: not decided). Remembered in the win memory."""
        answers, key = self.game.all_answers, self.memory.whole_key
        if left >= self.memory.win_limits(key)[1]:
            return True
        guesses, _, _ = self.passes.bounds(answers, left, None)
        if self.whole_list_in_rounds(guesses.tolist(), left):
            self.memory.note_won(key, left)
            return True
        return None

    def whole_list_in_rounds(self, guesses: list[int], left: int) -> bool:
        """Whether one of `guesses` (best first) is proved to win the whole list within `left` guesses without hints:
        in rounds, the first WHOLE_WIDTH guesses not yet refuted each within WHOLE_ROUND_EFFORT sets (the compiled
        checks held to it too), then four times as many guesses with four times the effort, until one wins, every
        guess is refuted, or WHOLE_SPEND sets are spent. False: none proved (not a proof of anything)."""
        answers, stats = self.game.all_answers, self.spending.stats
        outer, strict = self.win_limit, self.strict_effort
        stop = stats.nodes + WHOLE_SPEND
        refuted: set[int] = set()
        effort, width = WHOLE_ROUND_EFFORT, WHOLE_WIDTH
        self.strict_effort = True
        try:
            while stats.nodes < stop:
                undecided = False
                for guess in guesses[:width]:
                    if guess in refuted:
                        continue
                    if stats.nodes >= stop:
                        return False
                    self.win_limit = min(stats.nodes + effort, stop)
                    try:
                        if self.wins_with(answers, left, None, guess):
                            return True
                        refuted.add(guess)
                    except Undecided:
                        undecided = True
                if not undecided and width >= len(guesses):
                    return False
                effort, width = (effort * 4 if undecided else effort), width * 4
            return False
        finally:
            self.win_limit, self.strict_effort = outer, strict

    def opener_wins(self, opener: int) -> bool:
        """Whether some tree opening with `opener` solves every answer within the guess limit (proved either way).

        The whole answer list is tried first with one guess fewer and no hints: where it can be won,
        so can every reply without hints (a subset: in normal mode every reply, in hard mode the
        all-grey one), with no search of its own.
        """
        answers = self.game.all_answers
        if self.max_guesses > 2 and self.whole_tries > 0:
            self.whole_tries -= 1
            self.win_whole_list(self.max_guesses - 1)
        if self.rule == 1 and self.max_guesses > 3 and self.demand_effort > 0:
            self.prove_demand_sets(int(opener))
        return self.wins_with(answers, self.max_guesses, self.root_hints, int(opener))

    def prove_demand_sets(self, opener: int) -> None:
        """Hard mode: for each reply to `opener` whose hints make one demand (a letter green at one place, or a letter
        present), try once per solver to win every answer that meets that demand within the guesses left, under those
        hints alone (within DEMAND_EFFORT sets). Where it is won, so is every set met later under the same hints, by
        any opener: the set is a subset of those answers, and a tree for the whole is one for any part, its guesses
        legal under the same hints (`can_win` reads `demand_wins`)."""
        left, memory, rows = self.max_guesses - 1, self.memory, self.game.words.answer_rows
        for code, group in partition(self.matrix[opener, self.game.all_answers], self.game.all_answers):
            if code == ALL_GREEN or len(group) <= left:
                continue
            hints = self.passes.reply_hints(self.root_hints, opener, code)
            if not one_demand(hints) or hints in memory.demands_tried:
                continue
            memory.demands_tried.add(hints)
            meets = legal_mask(self.game.guess_letters, self.game.guess_counts, hints, rows)
            if self.try_to_win(np.flatnonzero(meets), left, hints, self.demand_effort):
                memory.demand_wins[hints] = (left, meets)
