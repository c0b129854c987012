"""The solver's memory: every cache a search keeps, and the rules for forgetting it.

What is kept, each keyed by a set of answers (`set_bytes`) and, in hard mode, its hints (in ultra-hard mode the
guesses still possible, `wordle.ultra.Possible`: two histories leaving one set of answers may leave different
guesses legal, so the set alone is not the key):

* the sub-problems (`memo`): per (answers, guesses left, hints), the best lower bound proved, the exact cost
  where known (-1 where not) and the best guess; at most `size` entries, all forgotten at once when full. A bound
  kept is a proved lower bound: it may only rise (`remember` keeps the higher of the old and the new).
* the guess floors (`guess_floors`): per sub-problem searched and not solved within its budget, the guesses
  cut there, each with the proved bound it was cut at; they belong to the sub-problems' memory and are forgotten
  with it (a fill, `forget_memory`, `use_memo`), and all at once past GUESS_FLOORS_KEPT bounds in all.
* the win memory (`wins`): per (answers, hints), the most guesses known too few to win them and the fewest
  known enough; with it, per set proved lost, a lost subset (`cores`); both forgotten together when `wins`
  holds `size` sets (`forget_verdicts`). The lost cores (`lost_cores`: cores of big sets; `three_cores`: those
  the three-guess search found) answer for any set holding one under no more legal guesses.
* the sets either memory may hold under some hints (`seen_sets`): a reply not among them has nothing to look
  up. It is a superset of the win memory's sets and of the sub-problems' since the last fill; rebuilt from the
  win memory when the sub-problems are forgotten by a fill, grown again by `use_memo`.
* the latest winners (`winners`): per (guesses left, hints), the latest guesses that won a set there.
* pure caches, which change no answer and no count: each hints' legal guesses (`allowed`, `legal_bits`), the
  latest sets' reply counts (`ceilings`) and the latest big sets' parts (`parts`); each forgotten all at once
  when full.

`forget_wins` forgets what a win search learnt (verdicts, cores, winners), `forget_memory` what the branch and
bound learnt (sub-problems and guess floors): after both, a search's answer and its count of sets searched do
not depend on what came before. A tier of the worst objective shares the win memory, the lost cores and
`seen_sets` with its parent (`share_wins_of`), and keeps its own sub-problems.
"""

from __future__ import annotations

from typing import Hashable

import numpy as np

from ..game import Wordle
from ..hardmode import Hints, legal_mask
from ..ultra import Possible
from .costs import NO_LIMIT
from .lost_cores import LostCores, bits

#: How many guess bounds of unsolved sets (`Memory.guess_floors`, all sets together) are kept before all are
#: forgotten (about 100 bytes each).
GUESS_FLOORS_KEPT = 1 << 19
#: Hard mode: how many hints' legal guesses `Memory.allowed` keeps (at most 100 KB each) before it forgets them all.
LEGAL_KEPT = 512
#: How many sets' reply counts (`Memory.ceilings`) are kept before all are forgotten.
CEILINGS_KEPT = 8
#: How many big sets' parts (`wordle.solver.parts.Parts`) are kept before all are forgotten.
PARTS_KEPT = 4
#: How many guesses that won a set search_win remembers per (guesses left, hints), the latest first (`winners`), and
#: for how many (guesses left, hints) at most (all are forgotten past it).
WINNERS_KEPT = 4
WINNER_KEYS = 1 << 16


class Forgetful(dict):
    """A dict that forgets everything at once when a new key would take it past `most` entries."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most

    def keep(self, key: Hashable, value):
        """Store `value` under `key` (emptying the dict first if it is full and `key` is new); returns `value`."""
        if len(self) >= self.most and key not in self:
            self.clear()
        self[key] = value
        return value


class Memory:
    """Every cache of one solver, with its clearing rules (see the module's docstring).

    Args:
        game: the rules and the word lists (the keys' answer indices, the legal guesses).
        size: the most sub-problems, and the most sets in the win memory, kept at once.
    """

    def __init__(self, game: Wordle, size: int) -> None:
        self.game = game
        self.size = size
        self.narrow = len(game.words.answers) <= 1 << 16
        self.memo: dict[tuple, tuple[int, int, int]] = {}  # key -> (lower bound, exact cost or -1, best guess)
        self.guess_floors: dict[tuple, dict[int, int]] = {}  # key -> {guess cut: the bound it was cut at}
        self.guess_floor_count = 0
        self.wins: dict[tuple, tuple[int, int]] = {}  # win key -> (most guesses too few, fewest enough)
        self.cores: dict[tuple, np.ndarray] = {}  # win key of a set proved lost -> a lost subset of it
        self.lost_cores = LostCores(len(game.words.answers))  # cores of big sets, for any set holding one
        # hard mode: cores of the sets the three-guess search found lost within 3, apart from the others so that
        # they never push a costlier proof's core out
        self.three_cores = LostCores(len(game.words.answers))
        # hard mode: hints of one demand -> the fewest guesses known to win every answer that meets them, under them
        # alone (WinProver.prove_demand_sets), and the answers that meet them; `demands_tried`: hints asked already
        self.demand_wins: dict[Hints, tuple[int, np.ndarray]] = {}
        self.demands_tried: set[Hints] = set()
        self.winners: Forgetful = Forgetful(WINNER_KEYS)  # (guesses left, hints) -> the latest winners there
        self.legal: Forgetful = Forgetful(LEGAL_KEPT)  # hints -> the guesses they allow
        self.legal_bits_kept: Forgetful = Forgetful(LEGAL_KEPT)  # hints -> the guesses they allow, as bits
        self.ceilings: Forgetful = Forgetful(CEILINGS_KEPT)  # win key -> each guess's replies from the set
        self.parts: Forgetful = Forgetful(PARTS_KEPT)  # win key -> the big set's Parts
        self.whole_key = self.win_key(game.all_answers, None)  # the whole answer list in the win memory
        self.seen_sets: set[bytes] = {self.whole_key[0]}

    # -- keys -------------------------------------------------------------------------------------
    def set_bytes(self, answers: np.ndarray) -> bytes:
        """A set of answers as every key holds it (indices as 16-bit numbers where they fit)."""
        return (answers.astype(np.uint16) if self.narrow else answers).tobytes()

    def key(self, answers: np.ndarray, left: int, hints: Hints | None) -> tuple:
        """The key of a sub-problem (answers, guesses left, hints)."""
        return (self.set_bytes(answers), left, hints)

    def win_key(self, answers: np.ndarray, hints: Hints | None) -> tuple:
        """The key of a set (and its hints) in the win memory and the pure caches, whatever the guesses left."""
        return (self.set_bytes(answers), hints)

    # -- the sub-problems ----------------------------------------------------------------------------
    def remember(self, key: tuple, bound: int, exact: int, guess: int) -> int:
        """Store a sub-problem's bound (and exact cost and guess when known); a bound never falls. Where the memory is
        full and the key new, everything kept with the sub-problems is forgotten first.

        Returns:
            How many sub-problems were forgotten (0 unless the memory was full).
        """
        forgotten = 0
        if len(self.memo) >= self.size and key not in self.memo:
            forgotten = len(self.memo)
            self.memo.clear()
            self.forget_guess_floors()
            self.seen_sets.clear()  # in place: the tiers hold the same set
            self.seen_sets.update([self.whole_key[0], *(win_key[0] for win_key in self.wins)])
        self.seen_sets.add(key[0])
        old = self.memo.get(key)
        if old is not None and exact < 0:
            bound = max(bound, old[0])
        self.memo[key] = (bound, exact, guess)
        return forgotten

    def forget_memory(self) -> None:
        """Forget the sub-problems and the guess floors kept with them (what the branch and bound learnt)."""
        self.memo.clear()
        self.forget_guess_floors()

    def use_memo(self, memo: dict[tuple, tuple[int, int, int]]) -> None:
        """Search on with `memo`, sub-problems saved earlier; its sets go back into `seen_sets`, which a memory that
        filled up since has rebuilt without them (a set missing there would have its remembered bound skipped)."""
        self.memo = memo
        self.forget_guess_floors()  # they belong to the memory they were found with
        self.seen_sets.update(key[0] for key in memo)

    def take_guess_floors(self, key: tuple) -> dict[int, int]:
        """The guess floors kept for a sub-problem, handed over and no longer kept (empty if none)."""
        cut = self.guess_floors.pop(key, None) or {}
        self.guess_floor_count -= len(cut)
        return cut

    def keep_guess_floors(self, key: tuple, cut: dict[int, int]) -> None:
        """Keep a sub-problem's guess floors (every guess floor forgotten first past GUESS_FLOORS_KEPT in all)."""
        if self.guess_floor_count + len(cut) > GUESS_FLOORS_KEPT:
            self.forget_guess_floors()
        self.guess_floors[key] = cut
        self.guess_floor_count += len(cut)

    def forget_guess_floors(self) -> None:
        """Forget every unsolved set's guess floors."""
        self.guess_floors.clear()
        self.guess_floor_count = 0

    # -- the win memory ------------------------------------------------------------------------------
    def win_limits(self, key: tuple) -> tuple[int, int]:
        """(the most guesses known too few to win the set, the fewest known enough); 0 and NO_LIMIT: unknown."""
        return self.wins.get(key, (0, NO_LIMIT))

    def lost_within(self, key: tuple, left: int) -> bool:
        """Whether the set of a win key is remembered as lost within `left` guesses."""
        found = self.wins.get(key)
        return found is not None and left <= found[0]

    def lost_core(self, key: tuple, answers: np.ndarray) -> np.ndarray:
        """A lost subset of `answers`, a set remembered as lost: its core where its proof found a smaller one."""
        return self.cores.get(key, answers)

    def record_verdict(self, key: tuple, left: int, won: bool, core: np.ndarray, size: int) -> None:
        """Remember that the set of `key` (of `size` answers) can or cannot be won within `left` guesses; where it
        cannot, `core` (a lost subset) is kept as its core, for every number of guesses up to `left` (none where
        it is the whole set or empty). A full win memory is forgotten first, cores with it."""
        self._room_for_verdict(key)
        too_few, enough = self.win_limits(key)
        self.wins[key] = (too_few, min(enough, left)) if won else (max(too_few, left), enough)
        self.seen_sets.add(key[0])
        if not won:
            if 0 < len(core) < size:
                self.cores[key] = core
            else:
                self.cores.pop(key, None)

    def note_won(self, key: tuple, left: int) -> None:
        """Remember that a set already in `seen_sets` (the whole list) can be won within `left` guesses (a full win
        memory is forgotten first, as for any verdict)."""
        self._room_for_verdict(key)
        too_few, enough = self.win_limits(key)
        self.wins[key] = (too_few, min(enough, left))

    def _room_for_verdict(self, key: tuple) -> None:
        """Forget every verdict (cores with them) where a new key would take the win memory past its size."""
        if len(self.wins) >= self.size and key not in self.wins:
            self.forget_verdicts()

    def forget_verdicts(self) -> None:
        """Forget every set's win verdict, and the cores that go with them."""
        self.wins.clear()
        self.cores.clear()

    def forget_wins(self) -> None:
        """Forget what win searches learnt: the verdicts, their cores, the lost cores and the winners (a search whose
        effort must not depend on what came before)."""
        self.forget_verdicts()
        self.lost_cores.clear()
        self.three_cores.clear()
        self.winners.clear()
        self.demand_wins.clear()
        self.demands_tried.clear()

    def share_wins_of(self, other: "Memory") -> None:
        """Share `other`'s win memory, cores, lost cores and `seen_sets` (a worst-objective tier and its parent)."""
        self.wins, self.cores, self.lost_cores = other.wins, other.cores, other.lost_cores
        self.demand_wins, self.demands_tried = other.demand_wins, other.demands_tried
        self.three_cores, self.seen_sets = other.three_cores, other.seen_sets

    # -- winners ---------------------------------------------------------------------------------------
    def winners_first(self, ordered: list[int], key: tuple[int, Hints | None]) -> list[int]:
        """`ordered` with the remembered winners for `key` that it holds moved to the front, the latest first."""
        front = [guess for guess in self.winners.get(key, ()) if guess in ordered]
        if not front:
            return ordered
        rest = ordered.copy()
        for guess in front:  # at most WINNERS_KEPT: a scan each, not a set of the whole order
            rest.remove(guess)
        return front + rest

    def remember_winner(self, key: tuple[int, Hints | None], guess: int) -> None:
        """Keep `guess` as the latest winner for `key` (at most WINNERS_KEPT, the oldest dropped)."""
        winners = self.winners.get(key)
        if winners is None:
            winners = self.winners.keep(key, [])
        if guess in winners:
            winners.remove(guess)
        winners.insert(0, guess)
        del winners[WINNERS_KEPT:]

    # -- pure caches -----------------------------------------------------------------------------------
    def allowed(self, hints: Hints | None) -> np.ndarray:
        """Guess indices the Guesser may play under these hints (read-only; remembered, as a search meets the
        same few hundred hints thousands of times)."""
        if hints is None or not hints:
            return self.game.all_guesses
        legal = self.legal.get(hints)
        if legal is None:
            if isinstance(hints, Possible):  # ultra-hard mode: the guesses that could still be the answer
                legal = hints.guesses(len(self.game.words.guesses))
            else:
                legal = np.flatnonzero(legal_mask(self.game.guess_letters, self.game.guess_counts, hints))
            legal.setflags(write=False)
            self.legal.keep(hints, legal)
        return legal

    def legal_bits(self, hints: Hints | None) -> int:
        """The guesses these hints allow, as an integer's bits (LostCores' form)."""
        found = self.legal_bits_kept.get(hints or None)
        if found is None:
            found = self.legal_bits_kept.keep(hints or None, bits(self.allowed(hints), len(self.game.words.guesses)))
        return found
