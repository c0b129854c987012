"""demarcate: the tie-break order on a hand-built partition table, and the fast ranking against a slow one."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from agents import game_rng, make_agent
from agents.demarcate import demarcate_ranking
from heuristics.partition import partition_stats
from wordle import Wordle
from wordle.words import Words

# Nine answers; fifteen guesses: the answers (rows 0-8) and six others (rows 9-14).
ANSWERS = ("aback", "abase", "abate", "abbey", "abbot", "abhor", "abide", "abled", "abode")
EXTRA = ("zesty", "zonal", "zebra", "zippy", "zilch", "zowie")
SPLITS = {
    "A": [0, 0, 0, 1, 1, 1, 2, 3, 4],   # groups 3,3,1,1,1: largest 3, mean 21/9, smallest 1
    "B": [0, 0, 0, 1, 1, 2, 2, 3, 3],   # groups 3,2,2,2:   largest 3, mean 21/9, smallest 2
    "C": [0, 0, 0, 1, 1, 1, 2, 2, 2],   # groups 3,3,3:     largest 3, mean 3
    "D": [0, 0, 0, 0, 1, 2, 3, 4, 5],   # groups 4,1,1,1,1,1: largest 4, mean 21/9
    "-": [7] * 9,                       # one group: no split
}
ROWS = ["A"] + ["-"] * 8 + ["-", "C", "B", "A", "D", "A"]


def table_game() -> Wordle:
    """A game whose pattern table is written by hand (only the partitions matter to demarcate)."""
    words = Words.build(ANSWERS, tuple(sorted(ANSWERS + EXTRA)))
    matrix = np.zeros((len(words.guesses), len(ANSWERS)), dtype=np.uint8)
    order = list(ANSWERS) + sorted(EXTRA)
    for word, split in zip(order, ROWS):
        matrix[words.guess_id(word)] = SPLITS[split]
    return Wordle(words, matrix)


def test_tie_break_order_largest_mean_smallest_can_win_index():
    game = table_game()
    ranking = demarcate_ranking(game, game.all_answers, game.all_guesses)
    ranked = [game.words.guesses[g] for g in ranking.guesses[ranking.order()]]
    a_extras = sorted(word for word, split in zip(sorted(EXTRA), ROWS[9:]) if split == "A")
    # aback (A, can win), the two A extras by index, then B (larger smallest group), C (larger mean), D (larger max);
    # the non-splitting guesses are skipped.
    expected = ["aback", *a_extras, sorted(EXTRA)[ROWS[9:].index("B")], sorted(EXTRA)[ROWS[9:].index("C")],
                sorted(EXTRA)[ROWS[9:].index("D")]]
    assert ranked == expected
    assert ranking.value[ranking.order()[0]] == -3.0


def reference_order(game: Wordle, candidates: np.ndarray, guesses: np.ndarray) -> list[int]:
    """The readable demarcate order: sort splitting guesses by the full key tuple."""
    rows = set(game.words.answer_rows[candidates].tolist())
    keyed = []
    for guess in guesses:
        groups = Counter(int(game.matrix[guess, a]) for a in candidates).values()
        if len(groups) < 2:
            continue
        n = len(candidates)
        keyed.append(((max(groups), round(sum(c * c for c in groups) / n, 9), min(groups), int(guess) not in rows,
                       int(guess)), int(guess)))
    return [guess for _, guess in sorted(keyed)]


@pytest.mark.parametrize("seed", range(6))
def test_fast_ranking_matches_reference(official_game, seed):
    rng = np.random.default_rng(seed)
    candidates = np.sort(rng.choice(official_game.all_answers, size=int(rng.integers(3, 60)), replace=False))
    guesses = np.sort(rng.choice(official_game.all_guesses, size=300, replace=False))
    ranking = demarcate_ranking(official_game, candidates, guesses)
    assert ranking.guesses[ranking.order()].tolist() == reference_order(official_game, candidates, guesses)


def test_smallest_group_matches_counting(official_game):
    candidates = np.arange(0, 2315, 37)
    guesses = np.arange(0, 12972, 997)
    expected = [min(Counter(official_game.matrix[g, candidates].tolist()).values()) for g in guesses]
    assert partition_stats(official_game.matrix, candidates, guesses).smallest.tolist() == expected


def test_agent_guesses_a_candidate_with_two_left_and_solves_every_answer_of_a_small_game():
    from tests.conftest import small_game

    game = small_game(["watch", "match", "latch", "hatch", "batch"], ["blimp", "chomp"])
    agent = make_agent("demarcate", game)
    blimp = game.words.guess_id("blimp")
    two = game.step(game.initial_state(), blimp, game.reply(blimp, 0))
    assert sorted(game.words.answers[a] for a in two.candidates) == ["hatch", "watch"]  # BLIMP all grey
    choice = agent.decide(two, game_rng(0, 0)).guess
    assert choice == min(game.words.answer_rows[two.candidates])
    for answer in game.all_answers:
        for hard in (False, True):
            assert game.play(lambda s: agent.decide(s, game_rng(0, int(answer))).guess, int(answer), hard=hard).solved


def test_official_opener_is_raise(official_game):
    decision = make_agent("demarcate", official_game).decide(official_game.initial_state(), game_rng(0, 0))
    assert official_game.words.guesses[decision.guess] == "raise" and decision.value == -168.0
