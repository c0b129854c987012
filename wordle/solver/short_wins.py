"""Sets with three guesses left, both modes, in one compiled pass (numba): whether they can be won, and at what
least cost.

The exhaustive win check (`wordle.solver.win_prover.WinProver.can_win`) spends most of its time on its last
two levels: with three guesses left, a guess wins when every reply of more than two answers can
be told apart by one legal guess. Those levels are searched here without Python in the loop:

* `separable`: some legal guess gives each answer of a reply a different pattern (two guesses left).
* `legal_after`: hard mode's rule for one more (guess, pattern): a guess keeps its greens in place and
  holds each letter it revealed as often as it revealed it (the same rule as `wordle.hardmode.hints_from`
  and `legal_mask`; a test checks them against each other). The parent's hints are in its legal list.
  `obeys` asks the rule of the mode: `hard` is 0 (normal), 1 (hard) or 2 (ultra-hard: `reply_code`, the guess
  would have got the same pattern had `word` been the answer, `wordle.ultra`).
* `wins_with3`: a given guess wins when each of its replies, largest first, is separable under its own
  hints.
* `can_win3`: some guess wins: the possible answers first (legal in hard mode, and most sets are won by
  one), then the other legal guesses by how many replies they get (`guess_order`). A guess that leaves
  whole a family no legal guess tells apart (three or more answers alike but at one position,
  `unsplit_families`) is refuted without reading its replies; so is one that keeps whole a reply already found
  that no legal guess tells apart, legal after it or not (`wins_with3`'s dead replies, cut down to the answers
  `separable` saw collide, kept after the families in one list). Where none wins, the refutations' union is a lost subset (a core,
  wordle.solver.lost_cores). It does not call
  itself: numba's cache does not reload a recursive function that calls another (answers_win calls it).
  (The same exhaustive check with four guesses left was tried and lost: the search's rounds, which
  leave a slow guess for the next, do better there.)
* `least_cost3`: the total objective's least cost with three guesses left (the branch and bound's own loop over
  its ordered guesses, `wordle.solver.branch_and_bound.Solver.solve_three`): a guess's replies at their floor, then each reply
  of three or more at its exact cost with two left (`least_cost2`: told apart by one of its own answers, by
  another legal guess, or not at all), until the total passes the best so far.
* `answers_win`: a quick certificate at any depth: a tree that guesses answers still possible (legal in
  hard mode whatever the hints), trying the few best at each set, and `can_win3` with three guesses
  left where those fail. It proves wins only.

Every function counts its work (patterns read) in `work[0]` and gives up, answering UNDECIDED, once
it passes `work[1]`, so a caller can fall back to its own search; the count, not the clock, decides,
so the same set gets the same answer on any machine (`least_cost3` gives up past `work[3]` instead, between
guesses, and needs `work[1]` out of reach). Answers are 1 (a win), 0 (proved: none).
`compiled()` gives the jitted functions, or None where numba is not installed (the caller's own
search then answers alone).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from plumbing.storage import keep_numba_cache

#: The answer when the work cap passed before the question was settled.
UNDECIDED = -1
#: separable's answer where no guess at all tells the answers apart, legal or not (0: one does, but none is legal).
APART_BY_NONE = 2
#: The most replies can_win3 keeps that no legal guess of its own tells apart (`wins_with3`'s `dead`).
DEAD_KEPT = 32
#: The all-green pattern (the guess was the answer).
_GREEN = 242


def separable(matrix, letters, counts, legal, count, answers, guess, pattern, hard, work, pairs):
    """1 if one of the first `count` guesses of `legal` gives every one of `answers` its own pattern, else 0, or
    APART_BY_NONE where none of them does, legal or not (UNDECIDED past the work cap); in hard mode only a guess
    still legal after `guess` got `pattern` counts.

    Each guess is first read for telling the answers apart (most stop at the second or third answer),
    and only one that does is checked for legality (`legal_after`). Where `pairs` has room (a flag per answer),
    the first two answers each guess does not tell apart are flagged: where none tells them apart, the
    flagged answers are a subset no guess tells apart either (mostly the first few answers).
    """
    size = answers.shape[0]
    if size <= 1:
        return 1
    if size > 243:
        return APART_BY_NONE
    seen = np.zeros(4, np.uint64)
    told = False
    for j in range(count):
        row = matrix[legal[j]]
        seen[:] = 0
        apart = True
        for k in range(size):
            code = row[answers[k]]
            bit = np.uint64(1) << np.uint64(code & 63)
            if seen[code >> 6] & bit:
                work[0] += k + 1
                apart = False
                if pairs.shape[0]:
                    pairs[k] = 1
                    for m in range(k):
                        if row[answers[m]] == code:
                            pairs[m] = 1
                            break
                break
            seen[code >> 6] |= bit
        if apart:
            work[0] += size
            if not hard or obeys(letters, counts, hard, guess, pattern, legal[j]):
                return 1
            told = True
        if work[0] > work[1]:
            return UNDECIDED
    return 0 if told else APART_BY_NONE


def legal_after(letters, counts, guess, pattern, word):
    """Hard mode: whether `word` obeys the hints `guess` getting `pattern` adds (its greens in place, each
    letter it revealed at least as often as revealed); the parent's own hints are the caller's."""
    code = pattern
    for position in range(4, -1, -1):  # the last position is the lowest base-3 digit
        if code % 3 == 2 and letters[word, position] != letters[guess, position]:
            return False
        code //= 3
    code = pattern
    for position in range(4, -1, -1):
        if code % 3 != 0:
            letter = letters[guess, position]
            revealed = 0
            rest = pattern
            for other in range(4, -1, -1):
                if rest % 3 != 0 and letters[guess, other] == letter:
                    revealed += 1
                rest //= 3
            if counts[word, letter] < revealed:
                return False
        code //= 3
    return True


def reply_code(letters, guess, word):
    """The pattern code `guess` gets when `word` is the answer (both guess rows), as `wordle.feedback` scores it:
    a letter not green is yellow while the answer's copies of it outside greens outnumber its earlier non-green
    copies in the guess."""
    length = letters.shape[1]
    code = 0
    for position in range(length):
        letter = letters[guess, position]
        colour = 0
        if letter == letters[word, position]:
            colour = 2
        else:
            free = 0
            for other in range(length):
                if letters[word, other] == letter and letters[guess, other] != letter:
                    free += 1
            used = 0
            for other in range(position):
                if letters[guess, other] == letter and letters[word, other] != letter:
                    used += 1
            if used < free:
                colour = 1
        code = code * 3 + colour
    return code


def obeys(letters, counts, hard, guess, pattern, word):
    """Whether `word` is still legal after `guess` got `pattern`, under the mode's rule (`hard`: 1 hard mode,
    2 ultra-hard mode; the parent's own demands are the caller's)."""
    if hard == 2:
        return reply_code(letters, guess, word) == pattern
    return legal_after(letters, counts, guess, pattern, word)


def reply_count(line, answers, seen):
    """How many different patterns one guess's row of the matrix (`line`) gives `answers`; `seen` is scratch (4 words)."""
    seen[:] = 0
    found = 0
    for k in range(answers.shape[0]):
        code = line[answers[k]]
        bit = np.uint64(1) << np.uint64(code & 63)
        if not seen[code >> 6] & bit:
            seen[code >> 6] |= bit
            found += 1
    return found


def guess_order(matrix, legal, count, answers, rows, work):
    """The guesses to try for `answers`: the possible answers (`rows`, ascending) first, then the other guesses
    of `legal[:count]` by how many replies they get, most first (then the lower index), leaving out any that
    gets one reply from every answer (it tells nothing)."""
    size = answers.shape[0]
    replies = np.zeros(count, np.int64)
    seen = np.zeros(4, np.uint64)
    for j in range(count):
        place = np.searchsorted(rows, legal[j])
        if place < rows.shape[0] and rows[place] == legal[j]:
            continue  # first anyway
        replies[j] = reply_count(matrix[legal[j]], answers, seen)
    work[0] += count * size
    order = np.argsort(-replies, kind="mergesort")
    useful = 0
    while useful < count and replies[order[useful]] > 1:
        useful += 1
    guesses = np.empty(rows.shape[0] + useful, legal.dtype)
    guesses[:rows.shape[0]] = rows
    for number in range(useful):
        guesses[rows.shape[0] + number] = legal[order[number]]
    return guesses


def replies_of(matrix, answers, guess, work):
    """`answers` grouped by the reply `guess` gets: (the grouped answers, each reply's start in them (244),
    the replies by size, largest first, and the sizes)."""
    size = answers.shape[0]
    line = matrix[guess]
    sizes = np.zeros(243, np.int64)
    for k in range(size):
        sizes[line[answers[k]]] += 1
    work[0] += 2 * size
    starts = np.zeros(244, np.int64)
    for code in range(243):
        starts[code + 1] = starts[code] + sizes[code]
    grouped = np.empty(size, answers.dtype)
    filled = starts[:243].copy()
    for k in range(size):
        code = line[answers[k]]
        grouped[filled[code]] = answers[k]
        filled[code] += 1
    return grouped, starts, np.argsort(-sizes), sizes


def wins_with3(matrix, letters, counts, hard, legal, count, answers, guess, work, core, dead, dead_starts, dead_found):
    """1 if `guess` wins every one of `answers` within three guesses, this one included, 0 if not, UNDECIDED
    past the work cap: each reply of more than two answers, largest first, separable by a guess still legal.
    `legal[:count]` are the guesses allowed now. Where it is 0, the reply that no guess tells apart (lost with
    two guesses left) is marked in `core` (a flag per answer of the game); where no guess of `legal[:count]`
    tells it apart, legal or not, it is also added to `dead` (members, as `unsplit_families` gives them, and
    `dead_found[0]` of them so far, while there is room): any other guess that keeps it whole loses too."""
    grouped, starts, order, sizes = replies_of(matrix, answers, guess, work)
    for code in order:
        if sizes[code] <= 2:  # two answers win within two guesses; so does the all-green one
            break
        if code == _GREEN:
            continue
        group = grouped[starts[code]:starts[code + 1]]
        pairs = np.zeros(group.shape[0], np.uint8)
        found = separable(matrix, letters, counts, legal, count, group, guess, code, hard, work, pairs)
        if found == UNDECIDED:
            return found
        if found == 1:
            if work[0] > work[1]:
                return UNDECIDED
            continue
        if pairs.sum() >= 3:  # the flagged answers: a smaller set no legal guess tells apart
            group = group[pairs == 1]
        for k in range(group.shape[0]):
            core[group[k]] = 1
        number, first = dead_found[0], dead_starts[dead_found[0]]
        if found == APART_BY_NONE and number + 1 < dead_starts.shape[0] and first + group.shape[0] <= dead.shape[0]:
            dead[first:first + group.shape[0]] = group
            dead_starts[number + 1] = first + group.shape[0]
            dead_found[0] = number + 1
        return 0
    return 1


def unsplit_families(matrix, letters, counts, legal, count, answers, answer_rows, work):
    """The families of `answers` (three or more alike but at one position) that no guess of `legal[:count]`
    tells apart: their members, one family after another, and each family's start (one more than the families).

    A guess that leaves such a family whole in one reply cannot win within three: that reply would need a
    guess giving each of its answers its own pattern, which would tell the family apart too, and the
    guesses allowed there are among `legal[:count]` (hard mode's rule only takes guesses away).
    """
    size = answers.shape[0]
    length = letters.shape[1]
    members = np.empty(length * size, answers.dtype)
    starts = np.zeros(length * size + 1, np.int64)
    keys = np.empty(size, np.int64)
    found = 0
    filled = 0
    for position in range(length):
        for k in range(size):
            key = 0
            for other in range(length):
                if other != position:
                    key = key * 32 + letters[answer_rows[answers[k]], other]
            keys[k] = key
        order = np.argsort(keys, kind="mergesort")
        first = 0
        while first < size:
            last = first
            while last + 1 < size and keys[order[last + 1]] == keys[order[first]]:
                last += 1
            if last - first >= 2:
                family = np.empty(last - first + 1, answers.dtype)
                for m in range(last - first + 1):
                    family[m] = answers[order[first + m]]
                no_pairs = np.zeros(0, np.uint8)
                apart = separable(matrix, letters, counts, legal, count, family, 0, 0, False, work, no_pairs)
                if apart == APART_BY_NONE:
                    members[filled:filled + family.shape[0]] = family
                    filled += family.shape[0]
                    found += 1
                    starts[found] = filled
            first = last + 1
    work[0] += length * size
    return members[:filled], starts[:found + 1]


def keeps_a_family(line, members, starts, work):
    """The first family to which one guess's row of the matrix (`line`) gives one pattern throughout, or -1."""
    for family in range(starts.shape[0] - 1):
        code = line[members[starts[family]]]
        whole = True
        for m in range(starts[family] + 1, starts[family + 1]):
            if line[members[m]] != code:
                whole = False
                break
        if whole:
            work[0] += starts[family + 1] - starts[family]
            return family
    work[0] += starts.shape[0]
    return -1


def can_win3(matrix, letters, counts, hard, legal, count, answers, rows, answer_rows, work, core):
    """1 if some guess of `legal[:count]` wins every one of `answers` within three guesses, 0 if none does,
    UNDECIDED past the work cap. `rows` are the guess rows of `answers`, ascending (each legal); `answer_rows`
    the guess row of every answer. A guess that keeps an unsplit family whole is refuted without its replies
    (`unsplit_families`).

    Where it is 0, `core` (a flag per answer of the game, cleared by the caller) marks a lost subset of
    `answers`: each guess's refutation, a family it keeps whole or a reply no guess tells apart. Any guess
    loses on their union too (wordle.solver.lost_cores), so it is lost within three guesses under these legal guesses.
    """
    if answers.shape[0] <= 3:
        return 1
    members, starts = unsplit_families(matrix, letters, counts, legal, count, answers, answer_rows, work)
    if work[0] > work[1]:
        return UNDECIDED
    families = starts.shape[0] - 1  # the unsplit families are the first dead sets; wins_with3 adds the replies
    dead = np.empty(members.shape[0] + DEAD_KEPT * answers.shape[0], answers.dtype)
    dead[:members.shape[0]] = members
    dead_starts = np.zeros(families + DEAD_KEPT + 1, np.int64)
    dead_starts[:families + 1] = starts
    dead_found = np.full(1, families, np.int64)
    for guess in guess_order(matrix, legal, count, answers, rows, work):
        family = keeps_a_family(matrix[guess], dead, dead_starts[:dead_found[0] + 1], work)
        if family >= 0:
            for m in range(dead_starts[family], dead_starts[family + 1]):
                core[dead[m]] = 1
            continue
        won = wins_with3(matrix, letters, counts, hard, legal, count, answers, guess, work, core, dead, dead_starts,
                         dead_found)
        if won != 0:
            return won
        if work[0] > work[1]:
            return UNDECIDED
    return 0


def answers_win(matrix, letters, counts, hard, legal, answer_rows, answers, left, breadth, chain, depth, work):
    """1 if a tree found here wins every one of `answers` within `left` guesses, 0 where none was found (not a
    proof of anything), UNDECIDED past the work cap.

    The tree guesses only answers still possible (legal in hard mode whatever the hints), trying at each
    set its `breadth` best (by replies, most first); with three guesses left a set none of them wins is
    asked `can_win3` over every guess legal there: `legal` (those allowed where the search began) kept to
    those that obey the (guess, pattern) pairs of `chain[:depth]` played since.
    """
    size = answers.shape[0]
    if size <= left:  # one possible answer a guess: each removes at least itself
        return 1
    if left <= 1:
        return 0
    replies = np.zeros(size, np.int64)
    seen = np.zeros(4, np.uint64)
    for j in range(size):
        found = replies[j] = reply_count(matrix[answer_rows[answers[j]]], answers, seen)
        if left == 2 and found == size:
            work[0] += (j + 1) * size
            return 1
    work[0] += size * size
    if left == 2:
        return 0
    order = np.argsort(-replies, kind="mergesort")
    sizes = np.zeros(243, np.int64)
    starts = np.zeros(244, np.int64)
    grouped = np.empty(size, answers.dtype)
    for number in range(min(breadth, size)):
        j = order[number]
        if replies[j] <= 1:
            break
        guess = answer_rows[answers[j]]
        row = matrix[guess]
        sizes[:] = 0
        for k in range(size):
            sizes[row[answers[k]]] += 1
        for code in range(243):
            starts[code + 1] = starts[code] + sizes[code]
        filled = starts[:243].copy()
        for k in range(size):
            code = row[answers[k]]
            grouped[filled[code]] = answers[k]
            filled[code] += 1
        work[0] += 2 * size
        won = 1
        for code in np.argsort(-sizes):  # largest reply first: the likeliest to fail
            if sizes[code] <= left - 1:
                break
            if code == _GREEN:
                continue
            chain[depth, 0] = guess
            chain[depth, 1] = code
            result = answers_win(matrix, letters, counts, hard, legal, answer_rows,
                                 grouped[starts[code]:starts[code + 1]].copy(), left - 1, breadth, chain, depth + 1, work)
            if result != 1:
                won = result
                break
        if won != 0:
            return won
        if work[0] > work[1]:
            return UNDECIDED
    if left != 3:
        return 0
    here = legal
    if hard and depth > 0:  # the guesses still legal after the chain
        here = np.empty(legal.shape[0], legal.dtype)
        kept = 0
        for word in legal:
            ok = True
            for step in range(depth):
                if not obeys(letters, counts, hard, chain[step, 0], chain[step, 1], word):
                    ok = False
                    break
            if ok:
                here[kept] = word
                kept += 1
        here = here[:kept]
        work[0] += legal.shape[0] * depth
    return can_win3(matrix, letters, counts, hard, here, here.shape[0], answers, np.sort(answer_rows[answers]),
                    answer_rows, work, np.zeros(answer_rows.shape[0], np.uint8))


def floor2(size, costs):
    """The least cost any tree can have for `size` answers with two guesses left (`costs` as in `least_cost3`):
    one solved by the next guess, every other by the last (Costs.floor's rule, compiled)."""
    return size * costs[0] + costs[2] - costs[0] + (size - 1) * costs[3]


def least_cost2(matrix, letters, counts, hard, legal, count, answer_rows, group, guess, pattern, costs, work):
    """The least cost of `group` (three or more answers, the reply `pattern` to `guess`) with two guesses left:
    one of them tells the rest apart (its floor), else another legal guess does (every answer pays the last
    guess), else none does (INFEASIBLE: some answers would be lost). `costs` as in `least_cost3`."""
    size = group.shape[0]
    rows = np.empty(size, np.int64)
    for k in range(size):
        rows[k] = answer_rows[group[k]]
    no_pairs = np.zeros(0, np.uint8)
    if separable(matrix, letters, counts, rows, size, group, 0, 0, False, work, no_pairs) == 1:  # legal anyway
        return floor2(size, costs)
    if separable(matrix, letters, counts, legal, count, group, guess, pattern, hard, work, no_pairs) == 1:
        return size * costs[0] + size * costs[3]
    return costs[4]


def cost_with3(matrix, letters, counts, hard, legal, count, answer_rows, answers, guess, limit, costs, work):
    """The least cost of a tree for `answers` opening with `guess` with three guesses left, if below `limit`;
    else a lower bound at least `limit`: every reply at its floor, then the larger ones (largest first) at
    their least cost (`least_cost2`) until the total reaches `limit`."""
    grouped, starts, order, sizes = replies_of(matrix, answers, guess, work)
    total = answers.shape[0] * costs[0]
    for code in range(243):
        if sizes[code] == 0:
            continue
        total += costs[1] - costs[0] if code == _GREEN else floor2(sizes[code], costs)
    if total >= limit:
        return total
    for code in order:
        size = sizes[code]
        if size <= 2:  # one or two answers (all green among them): the floor is their cost
            break
        floor = floor2(size, costs)
        cost = least_cost2(matrix, letters, counts, hard, legal, count, answer_rows,
                           grouped[starts[code]:starts[code + 1]], guess, code, costs, work)
        work[2] += 1
        if cost >= costs[4]:
            return costs[4]
        total += cost - floor
        if total >= limit:
            return total
    return total


def least_cost3(matrix, letters, counts, hard, legal, count, answer_rows, answers, guesses, lower, budget, floor,
                costs, work):
    """The total objective's least cost of `answers` with three guesses left, searching `guesses` (ordered, with
    their one-step bounds `lower`) as the solver's own loop does. Returns (whether it finished: 1, or UNDECIDED
    once `work[0]` passed `work[3]`; the cost if below `budget`, else -1; the best guess, else -1; the least
    bound known of any guess tried or left, not to be remembered when UNDECIDED, as the guesses not tried are
    left out).

    `costs` holds SCALE, what the answer solved by the guess made with three, two and one left pays, and
    INFEASIBLE; `legal[:count]` are the guesses allowed now (the second guess of hard mode must also obey
    what the first revealed). `work[0]` counts patterns read, `work[2]` the two-guess sets searched; `work[1]`,
    separable's cap, must be out of reach (an UNDECIDED there would read as "not separable").
    """
    best = costs[4]
    best_guess = -1
    for j in range(guesses.shape[0]):
        limit = min(best, budget)
        if lower[j] >= limit:
            floor = min(floor, lower[j])
            break
        cost = cost_with3(matrix, letters, counts, hard, legal, count, answer_rows, answers, guesses[j], limit,
                          costs, work)
        if cost < limit:
            best = cost
            best_guess = guesses[j]
        else:
            floor = min(floor, cost)
        if work[0] > work[3]:
            return UNDECIDED, -1, -1, floor
    if best < budget:
        return 1, best, best_guess, floor
    return 1, -1, -1, min(floor, best)


class ShortWins(NamedTuple):
    """The compiled checks a solver calls (see the module's docstring)."""

    can_win3: object
    wins_with3: object
    answers_win: object
    least_cost3: object


@functools.lru_cache(maxsize=1)
def compiled() -> ShortWins | None:
    """The functions above compiled with numba, or None where numba is not installed."""
    keep_numba_cache()  # numba reads its cache folder when first imported
    try:
        import numba
    except ImportError:
        return None
    jit = numba.njit(cache=True, nogil=True)
    global reply_code, obeys, reply_count, separable, legal_after, guess_order, replies_of, wins_with3, can_win3, answers_win
    global unsplit_families, keeps_a_family, floor2, least_cost2, cost_with3, least_cost3
    reply_count = jit(reply_count)
    reply_code, obeys = jit(reply_code), jit(obeys)
    unsplit_families, keeps_a_family = jit(unsplit_families), jit(keeps_a_family)
    separable, legal_after, guess_order, replies_of = jit(separable), jit(legal_after), jit(guess_order), jit(replies_of)
    wins_with3 = jit(wins_with3)
    can_win3 = jit(can_win3)
    answers_win = jit(answers_win)
    floor2, least_cost2, cost_with3 = jit(floor2), jit(least_cost2), jit(cost_with3)
    least_cost3 = jit(least_cost3)
    return ShortWins(can_win3=can_win3, wins_with3=wins_with3, answers_win=answers_win, least_cost3=least_cost3)
