"""The Indicators: Absurdle's choices worked by hand, honest as today's game, consistency, the adversary's strength."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents import AgentError, make_agent
from agents.indicators import TIE_RANK, Honest, make_indicator, play_with, reply_problems
from wordle import ALL_GREEN, Wordle
from search.algorithms import AllMoves, Policies, minimax
from wordle.feedback import PATTERN_COUNT, decode_colours, encode_colours
from search.limits import Limit

from .conftest import small_game
from .games import ANSWERS

#: A beam wider than the small games' guess lists: every guess is searched.
EVERY = 100

ANSWER_POOL = ["lanky", "black", "slack", "flask", "panel", "parka", "baste", "caste", "haste", "paste", "taste",
               "waste", "cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"]


def pattern(text: str) -> int:
    """A pattern written g/y/- per letter."""
    return encode_colours(["-yg".index(c) for c in text])


def guess_word(game: Wordle, word: str) -> int:
    """The guess index of `word`."""
    return game.words.guess_id(word)


def test_absurdle_keeps_the_largest_bucket_and_breaks_ties_by_fewest_yellows():
    # ACING against the six answers: Y--Y- {lanky, panel}, YY--- {black, slack}, Y---- {flask, parka}.
    # Three buckets of two, no greens anywhere; Y---- has the fewest yellows, so Absurdle keeps flask, parka.
    game = small_game(ANSWERS, ["acing"])
    absurdle = make_indicator("absurdle", game)
    asked = game.result(game.initial_state(), guess_word(game, "acing"))
    choice = absurdle.reply(asked, np.random.default_rng(0))
    assert choice.pattern == pattern("y----")
    assert choice.kept == 2
    assert sorted(choice.rejected) == sorted([(pattern("y--y-"), 2), (pattern("yy---"), 2)])
    kept = game.result(asked, choice.pattern)
    assert [game.words.answers[a] for a in kept.candidates] == ["flask", "parka"]
    # FLASK now: ggggg keeps {flask}, --y-y keeps {parka}; equal sizes, and all green has the most greens.
    asked = game.result(kept, guess_word(game, "flask"))
    assert absurdle.reply(asked, np.random.default_rng(0)).pattern == pattern("--y-y")


def test_tie_rank_matches_a_score_of_greens_then_yellows_then_colours():
    def score(code: int) -> int:  # the readable reference: 10^7 per green, 10^6 per yellow, then the digits
        colours = decode_colours(code)
        return 10**7 * colours.count(2) + 10**6 * colours.count(1) + int("".join(map(str, colours)))
    assert sorted(range(PATTERN_COUNT), key=score) == list(np.argsort(TIE_RANK))


def test_honest_plays_the_same_games_as_wordle_play():
    game = small_game(ANSWERS, ["acing"])
    agent = make_agent("entropy", game)
    for answer in range(len(ANSWERS)):
        choose = lambda state: agent.decide(state, np.random.default_rng(0)).guess  # noqa: E731
        plain = game.play(choose, answer)
        indicated = play_with(game, choose, make_indicator("honest", game, answer=answer), np.random.default_rng(0))
        assert indicated.final.history == plain.final.history and indicated.answer == answer


def test_honest_reproduces_published_games(official_game):
    wanted = {("letter-frequency", "normal"): 3, ("entropy", "hard"): 3}
    rows = []
    with open("results/published/tournament-depth-2/games.csv") as file:
        for line in file:
            agent_name, mode, answer, _, guesses = line.split(",")[:5]
            if wanted.get((agent_name, mode), 0) > 0:
                wanted[(agent_name, mode)] -= 1
                rows.append((agent_name, mode, answer, guesses.split()))
    assert len(rows) == 6
    for agent_name, mode, answer, words in rows:
        agent = make_agent(agent_name, official_game)
        rng = np.random.default_rng(0)
        honest = make_indicator("honest", official_game, answer=official_game.words.answer_id(answer))
        played = play_with(official_game, lambda state: agent.decide(state, rng).guess, honest, rng,
                           hard=(mode == "hard"))
        assert [official_game.words.guesses[g] for g, _ in played.final.history] == words


def test_random_indicator_is_statistically_the_honest_game():
    # Honest with a uniformly drawn answer replies with pattern p with probability |bucket p| / n; so must random.
    game = small_game(ANSWER_POOL, ["acing"])
    asked = game.result(game.initial_state(), guess_word(game, "acing"))
    indicator = make_indicator("random", game)
    rng = np.random.default_rng(7)
    draws = 4000
    seen = np.bincount([indicator.reply(asked, rng).pattern for _ in range(draws)], minlength=PATTERN_COUNT)
    honest = np.bincount(game.matrix[asked.pending], minlength=PATTERN_COUNT) / len(ANSWER_POOL)
    expected = honest * draws
    assert set(np.flatnonzero(seen)) <= set(np.flatnonzero(honest))
    chi2 = float(((seen - expected)[expected > 0] ** 2 / expected[expected > 0]).sum())
    assert chi2 < 40  # about 10 degrees of freedom; the 99.99th percentile is near 35


def test_reply_problems_flag_a_reply_that_breaks_the_rule():
    game = small_game(ANSWERS, ["acing"])
    absurdle = make_indicator("absurdle", game)
    acing = guess_word(game, "acing")
    assert reply_problems(game, absurdle, ((acing, pattern("y----")),), False, 6) == []
    assert reply_problems(game, absurdle, ((acing, pattern("yy---")),), False, 6) != []


def test_unknown_indicator_and_foreign_parameter_are_user_errors():
    game = small_game(ANSWERS)
    with pytest.raises(AgentError, match="unknown indicator"):
        make_indicator("liar", game)
    with pytest.raises(AgentError, match="does not take"):
        make_indicator("absurdle", game, depth=2)


@st.composite
def small_lists(draw):
    """4-9 answers from the pool, as a game whose guesses are the answers."""
    words = draw(st.lists(st.sampled_from(ANSWER_POOL), min_size=4, max_size=9, unique=True))
    return small_game(sorted(words))


def exact_minimax_guesser(game: Wordle, max_guesses: int):
    """A Guesser playing minimax searched to the end of the game over every guess."""
    from heuristics.evaluation import make_evaluation
    evaluation = make_evaluation("cost", "local", None)
    limit, every = Limit(depth=max_guesses), Policies(moves=AllMoves(game, evaluation, beam=EVERY))
    return lambda state: minimax(game, state, evaluation, limit, every).move


@settings(max_examples=5, deadline=None)
@given(game=small_lists(), seed=st.integers(0, 100))
@pytest.mark.slow
def test_indicators_are_consistent_and_the_adversary_is_no_easier_than_absurdle(game, seed):
    max_guesses = 4  # the deepest search a player may run: both sides search to the end of the game
    choose = exact_minimax_guesser(game, max_guesses)
    lengths = {}
    for name in ("absurdle", "random", "adversary"):
        indicator = make_indicator(name, game, **({"depth": max_guesses} if name == "adversary" else {}))
        seen = []
        played = play_with(game, choose, indicator, np.random.default_rng(seed), max_guesses=max_guesses,
                           seen=lambda state, choice: seen.append(choice.kept))
        assert all(kept >= 1 for kept in seen) and len(played.final.candidates) >= 1
        assert played.solved == (played.final.history[-1][1] == ALL_GREEN)
        lengths[name] = len(played.turns)
    assert lengths["adversary"] >= lengths["absurdle"]


@settings(max_examples=8, deadline=None)
@given(game=small_lists(), hard=st.booleans(), depth=st.integers(1, 3))
def test_the_adversary_values_every_reply_as_minimax_does(game, hard, depth):
    # The adversary searches with alpha-beta; the reference is the minimax Guesser's value of the same
    # state under the same settings, for every reply of every move of a played game.
    adversary = make_indicator("adversary", game, depth=depth)
    reference = make_agent("minimax", game, depth=depth)
    rng = np.random.default_rng(0)
    played = play_with(game, lambda state: int(game.legal_guesses(state)[-1]), adversary, rng, hard=hard,
                       max_guesses=4)
    state = game.initial_state(hard=hard, max_guesses=4)
    for guess, pattern in played.final.history:
        asked = game.result(state, guess)
        for reply in np.unique(game.matrix[guess, asked.candidates]):
            child = game.result(asked, int(reply))
            expected = game.utility(child) if game.is_terminal(child) else reference.search(child, rng).value
            assert adversary.value(child, rng) == expected
        state = game.result(asked, pattern)


def test_search_runs_unchanged_with_indicator_decision_nodes():
    # The adversary's decision nodes are the game's own Indicator nodes: minimax's value of the start equals
    # the game the adversary forces on the exact minimax Guesser (searched to the end on both sides).
    game = small_game(ANSWERS, ["acing"])
    max_guesses = 4
    choose = exact_minimax_guesser(game, max_guesses)
    adversary = make_indicator("adversary", game, depth=max_guesses)
    played = play_with(game, choose, adversary, np.random.default_rng(0), max_guesses=max_guesses)
    from heuristics.evaluation import make_evaluation
    evaluation = make_evaluation("cost", "local", None)
    value = minimax(game, game.initial_state(max_guesses=max_guesses), evaluation, Limit(depth=max_guesses),
                    Policies(moves=AllMoves(game, evaluation, beam=EVERY))).value
    assert value == max_guesses + 1 - len(played.turns)
    assert isinstance(adversary, type(make_indicator("adversary", game))) and not isinstance(adversary, Honest)


@pytest.mark.slow
def test_play_gives_the_adversary_the_depth_asked_even_for_a_guesser_that_does_not_search(capsys):
    from .conftest import run_cli
    code, out, _ = run_cli(capsys, "play", "--agent", "random", "--indicator", "adversary", "--depth", "1",
                           "--seed", "2")
    assert "random playing against adversary (searching 1 deep)" in out and "adversary on " in out


def test_play_against_absurdle_shows_each_reply_kept_and_rejected(capsys, official_game):
    from .conftest import run_cli
    code, out, _ = run_cli(capsys, "play", "--agent", "entropy", "--indicator", "absurdle", "--seed", "1")
    assert code == 0
    assert "entropy playing against absurdle" in out
    largest = int(np.bincount(official_game.matrix[official_game.words.guess_id("soare")]).max())
    assert f"absurdle on SOARE: kept {largest} with " in out


def test_a_person_plays_against_absurdle_and_may_abandon(capsys, monkeypatch):
    from .conftest import run_cli
    code, out, _ = run_cli(capsys, "play", "--indicator", "absurdle", stdin="soare\n",
                           monkeypatch=monkeypatch)
    assert code == 1 and "absurdle held no answer" in out


def test_play_refuses_an_unknown_indicator(capsys):
    from .conftest import run_cli
    code, _, err = run_cli(capsys, "play", "--indicator", "liar")
    assert code == 2 and "invalid choice" in err


def test_the_indicator_matrix_is_kept_and_verify_replays_it(capsys, tmp_path):
    import json
    from .conftest import run_cli
    folder = tmp_path / "matrix"
    code, out, _ = run_cli(capsys, "tournament", "--indicators", "absurdle", "--agents", "entropy",
                           "--mode", "normal", "--jobs", "1", "--out", str(folder))
    assert code == 0 and "| entropy | 5 / 5 |" in out and "the adversary searched 2 deep" in out
    stored = json.loads((folder / "indicators.json").read_text())
    assert [row["limit"] for row in stored["games"]] == [6, 20] and stored["depth"] == 2
    assert run_cli(capsys, "verify", str(folder))[0] == 0
    kept = (folder / "indicators.json").read_text()
    code, out, err = run_cli(capsys, "tournament", "--indicators", "absurdle", "--agents", "random", "--out", str(folder))
    assert code == 2 and out == "" and "already holds a Guesser x Indicator matrix" in err
    assert (folder / "indicators.json").read_text() == kept  # a second run never overwrites the first
    stored["games"][0]["replies"][0] = "y----"  # a reply Absurdle would not give
    (folder / "indicators.json").write_text(json.dumps(stored))
    code, out, _ = run_cli(capsys, "verify", str(folder))
    assert code == 1 and "is not the largest bucket" in out


@pytest.mark.parametrize("field, value", [("error", None), ("solved", "yes"), ("replies", 5), ("words", [3])])
def test_verify_names_a_malformed_game_row_instead_of_failing(capsys, tmp_path, field, value):
    import json
    from .conftest import run_cli
    folder = tmp_path / "matrix"
    assert run_cli(capsys, "tournament", "--indicators", "absurdle", "--agents", "entropy", "--mode", "normal",
                   "--jobs", "1", "--out", str(folder))[0] == 0
    stored = json.loads((folder / "indicators.json").read_text())
    stored["games"][1][field] = value
    (folder / "indicators.json").write_text(json.dumps(stored))
    code, out, _ = run_cli(capsys, "verify", str(folder))
    assert code == 1 and "a game row is malformed" in out, out
    assert "1 Guesser x Indicator games replayed" in out  # the row it could read, not the two stored


@pytest.fixture()
def word_files(tmp_path):
    """Small answer and guess lists as files: 20 answers, and the guesses are the answers plus ACING."""
    answers, guesses = tmp_path / "answers.txt", tmp_path / "guesses.txt"
    answers.write_text("\n".join(sorted(ANSWER_POOL)) + "\n")
    guesses.write_text("\n".join(sorted([*ANSWER_POOL, "acing"])) + "\n")
    return ["--answers", str(answers), "--guesses", str(guesses)]


def test_the_full_matrix_has_all_four_indicators_and_verify_catches_a_forged_draw(capsys, tmp_path, word_files):
    import json
    from tournament.indicators import HONEST_FOLDER
    from .conftest import run_cli
    folder = tmp_path / "matrix"
    code, out, _ = run_cli(capsys, "tournament", "--indicators", "honest,absurdle,adversary,random", "--agents",
                           "entropy,minimax", "--games", "6", "--depth", "1", "--seed", "3", "--jobs", "2",
                           "--out", str(folder), *word_files)
    assert code == 0, out
    assert "| Guesser | honest normal | honest hard | absurdle normal |" in out and "searched 1 deep" in out
    assert "Adversary against Absurdle, per Guesser, mode and limit" in out
    assert (folder / HONEST_FOLDER / "games.csv").is_file() and (folder / "matrix.md").is_file()
    stored = json.loads((folder / "indicators.json").read_text())
    drawn = [row for row in stored["games"] if row["indicator"] == "random"]
    assert len(drawn) == 2 * 2 * 6 and len({row["seed"] for row in drawn}) == 6  # the same 6 seeds for each
    assert stored["depth"] == 1 and stored["seed"] == 3
    code, out, _ = run_cli(capsys, "verify", str(folder), "--jobs", "2")
    assert code == 0 and "all agree" in out and "honest games checked by the rules" in out
    forged = next(row for row in stored["games"] if row["indicator"] == "random" and len(row["replies"]) > 1)
    last = forged["replies"][-1]
    forged["replies"][-1] = next(p for p in ("-----", "ggggg", "y----") if p != last)
    (folder / "indicators.json").write_text(json.dumps(stored))
    code, out, _ = run_cli(capsys, "verify", str(folder))
    assert code == 1 and f"seed {forged['seed']}" in out


@pytest.mark.parametrize("text", ["[]", "{}", '{"games": 3}', "not json"])
def test_verify_refuses_a_matrix_file_it_cannot_read_in_one_line(capsys, tmp_path, text):
    from .conftest import run_cli
    (tmp_path / "indicators.json").write_text(text)
    code, out, err = run_cli(capsys, "verify", str(tmp_path))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "indicators.json: not a Guesser x Indicator matrix this version keeps" in err


def test_a_random_game_replays_from_its_seed_alone():
    # Two players built apart play the same game from the same seed; its replies are the ones drawn
    # again from the seed by the rule, and a different reply anywhere is caught.
    from agents.indicators import against_rngs
    from wordle import parse_pattern
    from tournament.indicators import Players, play_game
    game = small_game(ANSWER_POOL, ["acing"])
    key = {"agent": "random", "indicator": "random", "mode": "hard", "limit": 6, "seed": 12345}
    first, again = play_game(Players(game, 1, {}), key), play_game(Players(game, 1, {}), key)
    assert (first["words"], first["replies"]) == (again["words"], again["replies"])
    history = tuple((game.words.guess_index[w], parse_pattern(p)) for w, p in zip(first["words"], first["replies"]))
    indicator = make_indicator("random", game)
    assert reply_problems(game, indicator, history, True, 6, against_rngs(12345)[1]) == []
    other = next(g for g in range(len(game.words.answers)) if game.reply(history[0][0], g) != history[0][1])
    tampered = ((history[0][0], game.reply(history[0][0], other)), *history[1:])
    [problem] = reply_problems(game, indicator, tampered, True, 6, against_rngs(12345)[1])
    assert problem.startswith("guess 1: ") and "is not the reply drawn" in problem


def test_play_against_random_with_a_seed_is_the_matrix_game_of_that_seed(capsys, official_game):
    import json
    from tournament.indicators import Players, play_game
    from .conftest import run_cli
    code, out, _ = run_cli(capsys, "play", "--agent", "entropy", "--indicator", "random", "--seed", "77", "--json")
    played = json.loads(out)
    row = play_game(Players(official_game, 1, {}),
                    {"agent": "entropy", "indicator": "random", "mode": "normal", "limit": 6, "seed": 77})
    assert [turn["guess"] for turn in played["turns"]] == row["words"]
    assert [turn["pattern"] for turn in played["turns"]] == row["replies"]


def test_game_seeds_of_a_longer_run_begin_with_those_of_a_shorter_one():
    from agents.base import indicator_seeds
    assert indicator_seeds(5, 40)[:10] == indicator_seeds(5, 10)
    assert len(set(indicator_seeds(5, 40))) == 40 and indicator_seeds(5, 3) != indicator_seeds(6, 3)


def test_the_matrix_adversary_searches_the_depth_given():
    from tournament.indicators import Players
    game = small_game(ANSWERS, ["acing"])
    assert Players(game, 3, {}).indicator("adversary").guesser.limit.depth == 3
    assert make_indicator("adversary", game).guesser.limit.depth == 1  # alone, it searches 1 deep (play's default)


@pytest.mark.parametrize("argv, message", [
    (("--agent", "entropy", "--indicator", "absurdle", "--answer", "cigar"),
     "--answer goes with --indicator honest: absurdle holds no answer"),
    (("--indicator", "random", "--answer", "cigar"), "--answer goes with --indicator honest: random holds no answer"),
    (("--indicator", "adversary", "--seed", "4"),
     "--seed: you against adversary draws nothing (its replies follow from your guesses); leave it out"),
    (("--answer", "cigar", "--seed", "4"), "--seed: you against the --answer given draws nothing; leave it out"),
])
def test_play_refuses_what_the_indicator_would_ignore(capsys, argv, message):
    from .conftest import run_cli
    code, out, err = run_cli(capsys, "play", *argv)
    assert code == 2 and out == "" and err.strip() == f"wordle-arena: error: {message}"


def test_assist_against_absurdle_advises_by_the_worst_case_and_checks_replies(capsys):
    from .conftest import run_cli
    code, out, _ = run_cli(capsys, "assist", "--indicator", "absurdle", "aesir:-----", "--top", "3")
    assert code == 0 and "minimax advises" in out and "suggestions (minimax)" in out
    code, _, err = run_cli(capsys, "assist", "--indicator", "absurdle", "aesir:y----")
    assert code == 2 and "Absurdle would not answer so" in err and "y---- is not the largest bucket's -----" in err


@pytest.mark.parametrize("extra", [("--sample", "3"), ("--resume",)])
def test_the_indicator_matrix_refuses_options_it_would_ignore(capsys, extra):
    from tests.conftest import run_cli

    code, out, err = run_cli(capsys, "tournament", "--indicators", "absurdle", *extra)
    assert code == 2 and out == ""
    assert err.strip() == ("wordle-arena: error: --indicators plays every answer against honest and a fixed set of "
                           f"games against the others; it takes no {extra[0]}")


@pytest.mark.parametrize("argv, message", [
    (("tournament", "--indicators", "absurdle", "--games", "5"),
     "--games is the random Indicator's game count; add random to --indicators"),
    (("tournament", "--games", "5"), "--games goes with --indicators"),
    (("tournament", "--honest", "x"), "--honest goes with --indicators"),
    (("tournament", "--cap", "9"), "--cap goes with --indicators"),
    (("tournament", "--indicators", "random", "--honest", "x"),
     "--honest names the honest column's tournament; add honest to --indicators"),
])
def test_games_goes_with_the_random_indicator(capsys, argv, message):
    from tests.conftest import run_cli
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and err.strip() == f"wordle-arena: error: {message}"


def test_the_table_says_per_guesser_and_mode_where_the_adversary_was_easier_than_absurdle():
    from tournament.indicators import adversary_against_absurdle

    def row(agent, indicator, mode, limit, guesses, solved=True, error=""):
        return {"agent": agent, "indicator": indicator, "mode": mode, "limit": limit, "guesses": guesses,
                "solved": solved, "error": error}
    head = {"agents": ["a", "b"], "indicators": ["absurdle", "adversary"], "modes": ["hard"], "max_guesses": 6}
    rows = [row("a", "absurdle", "hard", 6, 5), row("a", "adversary", "hard", 6, 6, solved=False),  # X counts 7
            row("b", "absurdle", "hard", 6, 6), row("b", "adversary", "hard", 6, 5),
            row("a", "absurdle", "hard", 20, 5), row("a", "adversary", "hard", 20, 0, error="ModelError: no"),
            row("b", "absurdle", "hard", 20, 5), row("b", "adversary", "hard", 20, 5)]
    lines = adversary_against_absurdle(head, rows)
    assert "| a | harder / not compared (error) |" in lines and "| b | EASIER / as hard |" in lines
    assert "- easier: b hard (limit 6): adversary 5, absurdle 6" in lines
    assert any(line.startswith("The adversary forced fewer guesses than Absurdle in 1 game,") for line in lines)
