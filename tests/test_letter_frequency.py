"""letter-frequency agent: the fast choice against a reference argmax, candidates-only, and progress guaranteed."""

from __future__ import annotations

import pytest

from agents import AgentError, game_rng, make_agent
from agents.letter_frequency import CANDIDATES_ONLY
from heuristics.letters import COMBINE, reference_letter_score
from tests.conftest import small_game

ANSWERS = ["hatch", "match", "latch", "watch", "batch", "patch", "catch", "crane", "slate", "trace"]
EXTRA = ["blimp", "chomp", "ttttt", "hhhhh"]


def reference_choice(game, state, combine: str, candidates_only: bool) -> int:
    """The letter-frequency choice computed plainly: best score, then can-win, then index."""
    words = game.words
    possible = [words.answers[a] for a in state.candidates]
    rows = set(words.answer_rows[state.candidates].tolist())
    options = []
    for guess in game.legal_guesses(state):
        guess = int(guess)
        replies = {game.reply(guess, int(a)) for a in state.candidates}
        if candidates_only and guess not in rows:
            continue
        if guess not in rows and len(replies) < 2:
            continue
        score = round(reference_letter_score(words.guesses[guess], possible, combine), 9)
        options.append((-score, guess not in rows, guess))
    return min(options)[2]


@pytest.mark.parametrize("combine", COMBINE)
@pytest.mark.parametrize("candidates_only", [False, True])
def test_choices_match_the_reference_through_whole_games(combine, candidates_only):
    game = small_game(ANSWERS, EXTRA)
    agent = make_agent("letter-frequency", game, combine=combine, candidates_only=candidates_only)
    for answer in game.all_answers:
        state = game.initial_state()
        while not game.is_terminal(state):
            guess = agent.decide(state, game_rng(0, int(answer))).guess
            if len(state.candidates) > 1:
                assert guess == reference_choice(game, state, combine, candidates_only)
            if candidates_only:
                assert guess in game.words.answer_rows[state.candidates]
            before = len(state.candidates)
            state = game.step(state, guess, game.reply(guess, int(answer)))
            assert state.solved or len(state.candidates) < before  # every guess makes progress


def test_non_splitting_non_candidate_is_never_played():
    # Against hatch/watch, "ttttt" and "hhhhh" score high on shared letters but split nothing.
    game = small_game(ANSWERS, EXTRA)
    state = game.initial_state()
    blimp = game.words.guess_id("blimp")
    state = game.step(state, blimp, game.reply(blimp, game.words.answer_id("hatch")))
    agent = make_agent("letter-frequency", game, combine="sum")
    choice = agent.decide(state, game_rng(0, 0)).guess
    assert game.words.guesses[choice] not in ("ttttt", "hhhhh")


def test_official_opener_and_settings(official_game):
    agent = make_agent("letter-frequency", official_game)
    assert agent.settings() == {"combine": "product", "candidates_only": False}
    assert official_game.words.guesses[agent.decide(official_game.initial_state(), game_rng(0, 0)).guess] == "soare"


def test_option_parsing():
    assert CANDIDATES_ONLY.parse("YES") is True and CANDIDATES_ONLY.parse("off") is False
    with pytest.raises(ValueError, match="candidates_only must be yes or no, got 'maybe'"):
        CANDIDATES_ONLY.parse("maybe")
    with pytest.raises(AgentError, match="does not take prior_answers"):
        make_agent("letter-frequency", small_game(ANSWERS), prior_answers="all")
    with pytest.raises(AgentError, match="unknown combine 'mean'; choose one of sum, product, squares, ratio"):
        make_agent("letter-frequency", small_game(ANSWERS), combine="mean")
