"""entropy: tie-breaks on a hand-built table, the two-candidate shortcut against the full ranking, caching."""

from __future__ import annotations

import numpy as np
import pytest

from agents import game_rng, make_agent
from agents.entropy import entropy_ranking
from agents.greedy import Ranking, best_of
from heuristics.partition import reference_stats
from wordle import Wordle
from wordle.words import Words

ANSWERS = ("aback", "abase", "abate", "abbey")
EXTRA = ("zesty", "zonal")


def table_game(rows: dict[str, list[int]]) -> Wordle:
    """A four-answer game with a hand-written pattern table (rows not given: no split)."""
    words = Words.build(ANSWERS, tuple(sorted(ANSWERS + EXTRA)))
    matrix = np.full((len(words.guesses), len(ANSWERS)), 9, dtype=np.uint8)
    for word, patterns in rows.items():
        matrix[words.guess_id(word)] = patterns
    return Wordle(words, matrix)


def test_ties_go_to_a_possible_answer_then_the_smaller_index():
    # zesty and abbey split 2+1+1 (1.5 bits), zonal and abate split 2+2 (1 bit), the rest not at all.
    game = table_game({"zesty": [0, 0, 1, 2], "abbey": [0, 0, 1, 2], "zonal": [0, 0, 1, 1], "abate": [3, 3, 4, 4]})
    ranking = entropy_ranking(game, game.all_answers, game.all_guesses)
    ranked = [game.words.guesses[g] for g in ranking.guesses[ranking.order()]]
    assert ranked[:4] == ["abbey", "zesty", "abate", "zonal"]
    assert ranking.value[ranking.order()[0]] == pytest.approx(1.5)


def test_ranking_order_uses_all_keys_and_rounds_floats():
    ranking = Ranking(guesses=np.array([0, 1, 2, 3]),
                      keys=(np.array([1.0, 1.0 + 1e-12, 0.5, 1.0]), np.array([True, False, False, False])),
                      value=np.zeros(4))
    assert ranking.order().tolist() == [2, 1, 3, 0]
    decision = best_of(ranking, alternatives=2)
    assert decision.guess == 2 and [g for g, _ in decision.alternatives] == [2, 1]


def test_values_match_the_reference(official_game):
    candidates = np.arange(0, 2315, 23)
    ranking = entropy_ranking(official_game, candidates, official_game.all_guesses)
    for position in ranking.order()[:5]:
        guess = int(ranking.guesses[position])
        assert ranking.value[position] == pytest.approx(reference_stats(official_game.matrix, candidates.tolist(), guess)["entropy"])


@pytest.mark.parametrize("seed", range(5))
def test_two_candidate_shortcut_agrees_with_full_ranking(official_game, seed):
    pair = np.sort(np.random.default_rng(seed).choice(2315, size=2, replace=False))
    state = official_game.initial_state()
    state = type(state)(candidates=pair, history=((0, 0),))
    full = best_of(entropy_ranking(official_game, pair, official_game.all_guesses))
    decision = make_agent("entropy", official_game).decide(state, np.random.default_rng(0))
    assert decision.guess == full.guess and decision.value == pytest.approx(1.0)


def test_official_opener_is_soare_and_decisions_are_cached(official_game):
    agent = make_agent("entropy", official_game)
    state = official_game.initial_state()
    first = agent.decide(state, game_rng(0, 0))
    assert official_game.words.guesses[first.guess] == "soare" and first.value == pytest.approx(5.886, abs=1e-3)
    assert agent.decide(official_game.initial_state(), game_rng(0, 1)) is first


def test_hard_mode_guesses_are_legal(official_game):
    agent = make_agent("entropy", official_game)
    for answer in range(0, 2315, 97):
        playthrough = official_game.play(lambda s: agent.decide(s, game_rng(0, answer)).guess, answer, hard=True)
        state = official_game.initial_state(hard=True)
        for turn in playthrough.turns:
            assert official_game.violation(state, turn.guess) is None
            state = official_game.step(state, turn.guess, turn.pattern)
