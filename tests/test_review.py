"""The post-game review: hand-worked values, skill and luck on a tiny list; the full lists; bad input in one line."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from agents.answer_model import AnswerModel, load_model
from agents.model_value import Valuer
import math

from agents.model_value import GuessValue
from agents.review import (game_skill, grid_score, known_best, luck_of, parse_game, reply_chances, review_game,
                           skill_of, skill_range, skill_text, steps_from_grid, review_data)
from wordle.patterns import ScoreLine
from wordle.valuation import Value
from plumbing.errors import UserError
from wordle import feedback, format_pattern, load_words
from wordle.valuation import Budget
from tests.conftest import run_cli, said_lines, small_game

#: Four answers that differ in the first letter only, and CHOMP, which tells all four apart.
ANSWERS = ["baste", "caste", "haste", "paste"]


def tiny_model(weights=(1.0, 1.0, 1.0, 1.0), tier: int = 4) -> AnswerModel:
    """The tiny game as an answer model (uniform unless told)."""
    game = small_game(ANSWERS, ["chomp"])
    weights = np.array(weights) / sum(weights)
    return AnswerModel(name="tiny", game=game, weights=weights, tier=tier, tier_game=game if tier == 4 else
                       small_game(ANSWERS[:tier], ["chomp", *ANSWERS[tier:]]))


def tiny_review(words: list[str], answer: str = "haste"):
    """The tiny game's review of `words` played against `answer`."""
    model = tiny_model()
    return review_game(model, parse_game(model.game, words, answer=answer), answer=answer)


def test_the_best_opener_scores_full_skill_and_an_even_luck():
    # CHOMP splits the four answers apart: every answer takes 2 guesses, 2.0 on average. BASTE
    # wins at once on one answer, but leaves the other three in one reply, which need 2, 3 and 4
    # guesses however they are split: (1 + 2 + 3 + 4) / 4 = 2.5.
    review = tiny_review(["chomp", "haste"])
    first, second = review.steps
    assert first.played.text() == "2.000" and first.best.text() == "2.000" and first.skill == 99
    assert first.luck == 50  # four replies, each leaving one answer: yours is in the middle
    assert second.before == 1 and second.played.text() == "1.000" and second.forced and second.skill == 99
    assert review.skill == 99 and review.luck == 50  # the forced guess does not count for luck
    assert review.proved_share == 1.0 and review.solved and review.answer == "haste"


def test_a_costly_opener_loses_skill_and_its_likely_reply_is_unlucky():
    review = tiny_review(["baste", "chomp", "haste"])
    first, second, third = review.steps
    assert first.played.text() == "2.500" and review.model.game.words.guesses[first.best_guess] == "chomp"
    assert first.cost == pytest.approx(0.5) and first.skill == round(99 * (1 - 0.5 / 1.75)) == 71
    # BASTE's replies: green (1/4, leaves none) and -gggg (3/4, leaves three): you got the worst, half of it ties
    assert first.luck == round(99 * (0.0 + 0.75 / 2))
    # then CHOMP and CASTE both finish the three in 6 guesses (2.0): no cost; three replies of one answer each
    assert second.played.text() == "2.000" and second.best.text() == "2.000" and second.skill == 99
    assert second.luck == 50 and third.forced
    # the game's skill: the mean of its guesses' (71, 99, 99); its exact cost: the sum of theirs
    assert review.skill == round((71 + 99 + 99) / 3) and review.cost == pytest.approx(0.5)
    assert review.skill_text() == "90" and review.luck == round((first.luck + second.luck) / 2)


def test_luck_of_the_green_reply_is_the_highest():
    lucky = tiny_review(["baste"], answer="baste").steps[0]
    assert lucky.luck == round(99 * (0.75 + 0.25 / 2)) and lucky.skill == 71  # cost 0.5: 99 * (1 - 0.5 / 1.75)


def test_a_sound_game_won_in_five_scores_high_whatever_its_length():
    # five guesses, each as good as the best (cost 0): 99, as in a game won in two
    assert game_skill([skill_of(0.0)] * 5) == 99 == game_skill([skill_of(0.0)] * 2)
    # one guess that wastes a third of a guess among five: 99 * (1 - (1/3) / 1.75) = 80.1, so (99 * 4 + 80) / 5
    assert skill_of(1 / 3) == 80 and game_skill([99, 99, skill_of(1 / 3), 99, 99]) == round((4 * 99 + 80) / 5) == 95


def test_skill_from_bounds_keeps_its_range_but_shows_one_number():
    played = GuessValue(Value(3.5, 3.75, 3.75))  # a tree reaches 3.75; 3.5 proved below
    best = GuessValue(Value(3.25, 3.5, 3.5))
    # the cost lies between 3.5 - 3.5 = 0 and 3.75 - 3.25 = 0.5: skill 99 * (1 - 0.5 / 1.75) = 71 to 99
    assert skill_range(played, best) == (round(99 * (1 - 0.5 / 1.75)), 99) == (71, 99)
    assert skill_text(74, 50, 99, settled=False, modelled=False) == "≈74"  # one number on the page, marked
    assert skill_range(GuessValue(Value(3.5, math.inf, 3.5)), best) == (0, 99)  # no tree: anything from 0
    assert skill_text(74, 74, 74, settled=False, modelled=True) == "≈74"


def test_a_known_word_near_the_best_is_shown_as_best():
    game = small_game(ANSWERS, ["chomp", "aahed"])
    words = game.words.guess_index
    values = {words["aahed"]: GuessValue(Value(2.0, 2.0, 2.0)), words["chomp"]: GuessValue(Value(2.005, 2.005, 2.005)),
              words["baste"]: GuessValue(Value(2.5, 2.5, 2.5))}
    # AAHED is no word a player knows; CHOMP is (Zipf 2.53), and within NEAR_BEST of it: CHOMP is shown, AAHED named
    assert known_best(game, values, words["aahed"], words["baste"]) == (words["chomp"], words["aahed"])
    assert known_best(game, values, words["aahed"], words["aahed"]) == (words["aahed"], None)  # yours: said "same"
    values[words["chomp"]] = GuessValue(Value(2.05, 2.05, 2.05))  # beyond NEAR_BEST: the best found stays
    assert known_best(game, values, words["aahed"], words["baste"]) == (words["aahed"], None)


def test_skill_and_luck_are_monotone():
    costs = [0.0, 0.01, 0.2, 0.5, 0.99, 1.0, 3.0, float("inf")]
    assert [skill_of(c) for c in costs] == sorted((skill_of(c) for c in costs), reverse=True)
    replies = {0: 0.5, 1: 0.3, 2: 0.15, 242: 0.05}
    by_share = sorted(replies, key=lambda p: 0 if p == 242 else -replies[p])  # most answers left first
    assert [luck_of(replies, p) for p in by_share] == sorted(luck_of(replies, p) for p in by_share)


def test_a_weighted_model_values_every_guess_by_a_real_tree():
    # BASTE and CASTE at full weight (1/3 each), HASTE and PASTE at half (1/6 each).
    model = tiny_model((1.0, 1.0, 0.5, 0.5), tier=2)
    valuer = Valuer(model)
    state = model.initial_state()
    words = model.game.words
    chomp, baste = words.guess_index["chomp"], words.guess_index["baste"]
    found = valuer.value(state, [chomp, baste])
    # CHOMP leaves one answer a reply: exact, 2 guesses for each answer
    assert found.guesses[chomp].text() == "2.000" and found.guesses[chomp].proved
    # BASTE: 1 for itself; CASTE, HASTE and PASTE share its reply and no guess tells them apart but by being one:
    # CASTE (the heaviest) at 2, then HASTE at 3, PASTE at 4: 1/3 + 2/3 + 3/6 + 4/6 = 13/6, a real tree, proved
    value = found.guesses[baste]
    assert value.proved and not value.modelled and value.estimate == pytest.approx(13 / 6)
    assert value.text() == "2.167"
    assert found.best == chomp
    chances = reply_chances(model, state, baste)
    assert chances[242] == pytest.approx(1 / 3) and sum(chances.values()) == pytest.approx(1.0)


def test_share_grids_are_read_with_their_words():
    game = small_game(ANSWERS, ["chomp"])
    grid = "Wordle 1,628 2/6\n\n⬛🟨⬛⬛⬛\n🟩🟩🟩🟩🟩\n"  # HASTE, 3 December 2025
    assert steps_from_grid(game.words, grid, ["chomp", "haste"]) == [
        (game.words.guess_index["chomp"], feedback("chomp", "haste")), (game.words.guess_index["haste"], 242)]
    with pytest.raises(UserError, match="2 rows but 1 words"):
        steps_from_grid(game.words, grid, ["chomp"])
    with pytest.raises(UserError, match="score line says 3 guesses"):
        steps_from_grid(game.words, grid.replace("2/6", "3/6"), ["chomp", "haste"])


def test_a_starred_score_line_is_hard_mode_and_contrast_squares_read_as_colours():
    game = small_game(ANSWERS, ["chomp"])
    contrast = "Wordle 1,628 2/6*\n\n⬛🟦⬛⬛⬛\n🟧🟧🟧🟧🟧\n"  # orange is green, blue is yellow
    assert steps_from_grid(game.words, contrast, ["chomp", "haste"]) == [
        (game.words.guess_index["chomp"], feedback("chomp", "haste")), (game.words.guess_index["haste"], 242)]
    assert grid_score(contrast) == ScoreLine(puzzle=1628, guesses=2, hard=True)
    assert grid_score("Wordle 956 X/6\n⬛⬛⬛⬛⬛") == ScoreLine(puzzle=956, guesses=None, hard=False)
    assert grid_score("⬛⬛⬛⬛⬛") is None  # no score line


def test_the_review_is_hard_mode_and_names_the_puzzle_when_the_grid_says_so(capsys):
    grid = "Wordle 1,349 3/6*\n\n⬛⬛🟦⬛🟧\n⬛🟧🟦⬛🟧\n🟧🟧🟧🟧🟧\n"  # LODGE, 27 February 2025
    code, out, _ = run_cli(capsys, "review", "--grid", grid, "shone", "vogue", "lodge", "--answers", "original",
                           "--json")
    data = json.loads(out)
    assert code == 0 and data["hard"] and data["puzzle"] == 1349
    assert data["share"].splitlines()[0] == "Wordle 1,349 3/6*"


def test_a_grid_of_a_recorded_day_is_checked_against_that_days_answer():
    words = load_words()
    grid = "Wordle 1,590 3/6\n⬛⬛⬛⬛⬛\n⬛⬛⬛⬛⬛\n🟩🟩🟩🟩🟩"  # #1590 was PLUMP, not LODGE
    with pytest.raises(UserError) as said:
        steps_from_grid(words, grid, ["shone", "vogue", "lodge"])
    assert str(said.value) == ("Wordle 1,590 was PLUMP, which gives guess 2 (VOGUE) ---y-, not -----: a word "
                               "mistyped, or another day's grid? (to review it as it is, leave out the score line)")
    # PLUMP's own game passes; an unsolved one is checked row by row; a day the record lacks is not checked
    plump = ["crane", "lousy", "plump"]
    rows = "\n".join(format_pattern(feedback(word, "plump"), "emoji") for word in plump)
    assert len(steps_from_grid(words, f"Wordle 1,590 3/6\n{rows}", plump)) == 3
    with pytest.raises(UserError, match=re.escape("gives guess 1 (CRANE) -----, not g----")):
        steps_from_grid(words, "Wordle 1,590 X/6\n🟩⬛⬛⬛⬛", ["crane"])
    assert len(steps_from_grid(words, "Wordle 9,999 1/6\n🟩🟩🟩🟩🟩", ["crane"])) == 1
    assert len(steps_from_grid(words, "🟩🟩🟩🟩🟩", ["crane"])) == 1  # no score line, no day


# -- the full lists -------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def original(official_game) -> AnswerModel:
    """The original answer model over the session's official game."""
    return load_model("original", make_game=lambda words: official_game)


@pytest.mark.slow
def test_following_the_solver_scores_full_skill_and_a_poor_guess_less(original):
    """SALET (the proved best opener), then each time the solver's own best: skill 99 at every step."""
    game = original.game
    valuer = Valuer(original, Budget(seconds=20))
    answer = game.words.answer_index["cigar"]
    state = original.initial_state()
    steps = []
    guess = game.words.guess_index["salet"]
    while True:
        pattern = int(game.matrix[guess, answer])
        steps.append((guess, pattern))
        if pattern == 242:
            break
        state = game.step(state, guess, pattern)
        guess = valuer.value(state).best
    review = review_game(original, steps, answer="cigar", valuer=Valuer(original, Budget(seconds=20)))
    assert review.solved and [s.skill for s in review.steps] == [99] * len(steps)
    assert all(s.played.proved for s in review.steps[1:])
    poor = review_game(original, steps[:1] + parse_game(game, ["fuzzy"], answer="cigar"), answer="cigar",
                       valuer=Valuer(original, Budget(seconds=20)))
    assert poor.steps[1].skill < 99 and poor.skill < review.skill


def test_a_reply_leaving_one_answer_is_luckier_than_the_one_leaving_the_most(original):
    state = original.initial_state()
    salet = original.game.words.guess_index["salet"]
    replies = reply_chances(original, state, salet)
    most = max(replies, key=replies.get)
    single = next(p for p, chance in replies.items() if chance == pytest.approx(1 / 2315) and p != 242)
    assert luck_of(replies, single) > luck_of(replies, most)
    assert luck_of(replies, most) < 10 and luck_of(replies, single) > 90


def test_review_in_the_terminal_and_as_json(capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, err = run_cli(capsys, "review", "--answers", "original", "--answer", "cigar", "salet", "crony", "cigar")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["#", "guess", "reply", "left", "yours", "best", "skill", "luck"]
    assert lines[2].split()[6:9] == ["gy---", "102", "->"]  # tiles spelt as letters, then the reply in words
    assert "Skill" in out and "solved CIGAR in 3/6" in out and "Answer model original (2315 answers)" in out
    code, out, _ = run_cli(capsys, "review", "--answers", "original", "salet:-y---", "crony:gy---", "cigar:ggggg",
                           "--json")
    data = json.loads(out)
    assert code == 0 and data["answer"] == "cigar" and [s["after"] for s in data["steps"]] == [102, 5, 1]
    assert data["steps"][1]["played"]["proved"] and data["steps"][1]["played"]["text"] == "2.618"
    assert 0 <= data["skill"] <= 99 and 0 <= data["luck"] <= 99


@pytest.mark.slow
def test_review_widens_a_model_the_answer_is_outside_of(capsys):
    code, out, _ = run_cli(capsys, "review", "--answers", "original", "--answer", "guano", "crane", "tangy", "guano",
                           "--json")
    data = json.loads(out)
    assert code == 0 and data["model"] == "likely" and "outside the original model's list" in data["notes"][0]


@pytest.mark.parametrize("argv, message", [
    (("--answer", "cigar", "salet", "zzzzz"), "'zzzzz' is not in the list of allowed guesses"),
    (("--answer", "cigar", "crane:ggggg"), "step 1 (crane:ggggg): CRANE gets gyy-- from CIGAR, not ggggg"),
    (("--answer", "qqqqq", "crane"), "'qqqqq' is not in the list of allowed guesses, so it cannot be the answer"),
    (("--grid", "Wordle 3/6\n⬛⬛⬛⬛⬛\n🟩🟩🟩🟩🟩", "crane"), "the share grid has 2 rows but 1 words were given"),
    (("--grid", "⬛⬛⬛⬛🟩", "crane", "--answer", "cigar"), "CIGAR gives guess 1 (CRANE) gyy--, but the grid shows ----g"),
        # the grid's day (Wordle 1,590 was PLUMP, wordle/nyt.py) against the answer given: refused in one line
        (("--grid", "Wordle 1,590 1/6\n🟩🟩🟩🟩🟩", "cigar", "--answer", "cigar"), "Wordle 1,590 was PLUMP, not CIGAR"),
    (("--grid", "Wordle 1,590 1/6\n🟩🟩🟩🟩🟩", "crane"), "Wordle 1,590 was PLUMP, which gives guess 1 (CRANE) -----"),
    (("salet:ggggy",), "step 1 (salet:ggggy) made the game impossible"),
    ((), "no guesses to review"),
])
def test_bad_review_input_is_one_line_and_exit_2(capsys, argv, message):
    code, _, err = run_cli(capsys, "review", "--answers", "original", *argv)
    said = said_lines(err)
    assert code == 2 and len(said) == 1 and message in said[0], err


def test_an_exclude_file_that_excludes_everything_is_one_line(capsys, tmp_path):
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(ANSWERS) + "\n")
    guesses = tmp_path / "guesses.txt"
    guesses.write_text("\n".join(ANSWERS + ["chomp"]) + "\n")
    code, _, err = run_cli(capsys, "review", "--answers", str(answers), "--guesses", str(guesses), "--exclude",
                           str(answers), "chomp:-y---")
    assert code == 2 and err.strip().splitlines() == [
        "wordle-arena: error: the exclude list removes every one of the 4 answers of model "
        f"'{answers}'"]


def test_play_ends_offering_the_review_of_its_game(capsys):
    code, out, _ = run_cli(capsys, "play", "--agent", "entropy", "--answer", "cigar", "--seed", "0")
    offer = out.strip().splitlines()[-1]
    assert code == 0 and offer.startswith("Review this game: python cli.py review --answer cigar ")
    assert offer.endswith("cigar --answers original --guesses original")  # an agent plays on the tournament's lists


@pytest.mark.slow
def test_play_at_the_prompt_is_todays_game_and_its_review_carries_its_lists(capsys, monkeypatch):
    """A person plays on every word the Times accepts (FUROS is one, not of 2022's list); the review offered names
    the lists the game was played on, and with --guesses nyt given, so does an agent's."""
    code, out, _ = run_cli(capsys, "play", "--answer", "cigar", stdin="furos\ncigar\n", monkeypatch=monkeypatch)
    offer = out.strip().splitlines()[-1]
    assert code == 0 and offer == ("Review this game: python cli.py review --answer cigar furos cigar --answers "
                                   "original --guesses nyt")
    code, out, _ = run_cli(capsys, "play", "--agent", "entropy", "--guesses", "nyt", "--answer", "cigar")
    assert code == 0 and out.strip().splitlines()[-1].endswith("cigar --answers original --guesses nyt")


@pytest.mark.slow
@pytest.mark.parametrize("mode", [(), ("--hard",), ("--ultra",)])
def test_the_review_play_offers_runs_as_printed_with_every_list_and_mode(capsys, monkeypatch, tmp_path, mode):
    """Lists given as files (in a folder whose name needs quoting), a guess limit, the mode: the printed review
    command names them all, and run as printed it reviews the game just played."""
    import shlex

    folder = tmp_path / "my lists"
    folder.mkdir()
    (folder / "answers.txt").write_text("\n".join(ANSWERS) + "\n")
    (folder / "guesses.txt").write_text("\n".join(ANSWERS + ["chomp", "spent"]) + "\n")
    lists = ("--answers", str(folder / "answers.txt"), "--guesses", str(folder / "guesses.txt"))
    code, out, _ = run_cli(capsys, "play", *lists, "--answer", "paste", "--max-guesses", "5", *mode,
                           stdin="baste\npaste\n", monkeypatch=monkeypatch)
    offer = out.strip().splitlines()[-1]
    assert code == 0 and offer.startswith("Review this game: python cli.py review --answer paste baste paste")
    command = shlex.split(offer.removeprefix("Review this game: "))
    assert [*mode, "--max-guesses", "5", *lists] == [word for word in command[7:]]
    code, out, err = run_cli(capsys, *command[2:], "--json")
    review = json.loads(out)
    assert code == 0, err
    assert review["solved"] and [s["guess"] for s in review["steps"]] == ["baste", "paste"]


def test_a_hard_mode_opener_the_book_only_bounds_is_shown_without_a_win(capsys):
    """SOARE has no win within 6 in hard mode (Selby's -H -d -g6 agrees); the shipped book only bounds it, so the
    review's own win check proves it: no win ("loses ≥ 1": how many the node budget does not settle), skill 0,
    and the game reads as a certain win given up."""
    code, out, _ = run_cli(capsys, "review", "--hard", "--answers", "original", "--guesses", "original", "--answer",
                           "unite", "soare",
                           "tuile", "unite", "--json")
    data = json.loads(out)
    first = data["steps"][0]
    assert code == 0 and first["guess"] == "soare" and first["played"]["text"] == "loses ≥ 1"
    assert first["played"]["answers_lost"] == {"at_least": 1, "at_most": None} and first["played"]["high"] is None
    assert first["played"]["proved"] and first["skill"] == 0 and first["skill_exact"]
    assert data["lost_text"].startswith("a certain win given up at guess 1 (≥ 1 of 2315 answers lost)")


#: Five answers that differ in the first letter; CHOMP tells all but BASTE and WASTE apart (neither has a letter of it).
LOSING = ["baste", "caste", "haste", "paste", "waste"]


def losing_model() -> AnswerModel:
    """The five answers, equally likely, with CHOMP besides them: with two guesses nothing wins every answer."""
    game = small_game(LOSING, ["chomp"])
    return AnswerModel(name="losing", game=game, weights=np.full(5, 0.2), tier=5, tier_game=game)


@pytest.mark.slow
def test_where_every_guess_loses_the_one_losing_fewest_is_best_and_skill_follows():
    """Hand-worked, two guesses: CHOMP splits the five into {baste, waste}, caste, haste, paste, so only one of
    BASTE and WASTE is lost (1); BASTE wins itself and leaves the four others one reply, of which the last guess
    wins one: 3 lost; CHOMP is best. After BASTE, one guess left and four answers: any of them loses 3, as the best."""
    model = losing_model()
    words = model.game.words
    review = review_game(model, parse_game(model.game, ["baste", "caste"], answer="caste"), max_guesses=2,
                         answer="caste")
    first, second = review.steps
    assert first.played.text() == "loses 3" and words.guesses[first.best_guess] == "chomp"
    assert first.best.text() == "loses 1" and (first.lost_low, first.lost_high) == (2.0, 2.0)
    assert first.skill == 0 and first.skill_text() == "0" and math.isinf(first.cost)
    assert second.played.text() == "loses 3" and second.best_guess == second.guess and second.skill == 99
    assert review.skill == round((0 + 99) / 2)
    assert review.lost_text() == "2 more of 5 answers lost at guess 1"
    data = review_data(review)
    assert data["steps"][0]["cost"] is None and data["cost"] == 0.0
    assert data["steps"][0]["answers_lost_beyond_best"] == {"at_least": 2.0, "at_most": 2.0}
    assert "inf" not in json.dumps(data, allow_nan=False).lower()


def test_the_assistant_ranks_the_guess_losing_fewest_first():
    from agents.assistant import advise_model
    model = losing_model()
    advice = advise_model(model, [], max_guesses=2, top=10)
    shown = [(model.game.words.guesses[s.guess], s.value.text()) for s in advice.suggestions]
    assert shown[0] == ("chomp", "loses 1") and all(text == "loses 3" for _, text in shown[1:]), shown


def test_equal_losses_compare_by_guesses_and_more_losses_score_nothing():
    lose = lambda count, guesses: GuessValue(Value(math.inf, math.inf, math.inf, count, count, guesses))  # noqa: E731
    # both lose 1: the fewest-losses trees' guesses compare (a loss counted as max_guesses + 1)
    assert skill_range(lose(1, 4.25), lose(1, 4.0)) == (85, 85)  # 99 * (1 - 0.25 / 1.75)
    # one more lost: 0, whatever the guesses
    assert skill_range(lose(2, 3.0), lose(1, 4.0)) == (0, 0)
    # a win given up: 0; a guess that may lose more (not settled): from 0
    assert skill_range(lose(1, 4.0), GuessValue(Value(3.5, 3.5, 3.5))) == (0, 0)
    unsettled = GuessValue(Value(math.inf, math.inf, math.inf, 1, math.inf, math.inf))
    assert skill_range(unsettled, lose(1, 4.0)) == (0, 99)


@pytest.mark.slow
def test_the_reported_games_name_the_guess_losing_fewest(capsys):
    """Issue 48's two games: TATER loses 2 where EATER loses 1; in hard mode BIGHT loses 4 where EIGHT loses 3."""
    code, out, _ = run_cli(capsys, "review", "--answers", "original", "--guesses", "original", "--answer", "water",
                           "later", "cater", "hater", "mater", "pater", "tater", "--json")
    data = json.loads(out)
    last = data["steps"][5]
    assert code == 0 and last["played"]["text"] == "loses 2" and last["best_guess"] == "eater"
    assert last["best"]["text"] == "loses 1" and last["skill"] == 0 and "inf" not in data["lost_text"]
    code, out, _ = run_cli(capsys, "review", "--hard", "--answers", "original", "--guesses", "original", "--answer",
                           "wight", "fight", "bight", "light", "might", "night", "right", "--json")
    second = json.loads(out)["steps"][1]
    assert code == 0 and second["played"]["text"] == "loses 4" and second["best"]["text"] == "loses 3"
    assert second["skill"] == 0


def test_the_known_best_is_chosen_by_real_trees_alone():
    game = small_game(ANSWERS, ["chomp", "aahed"])
    words = game.words.guess_index
    best = GuessValue(Value(1.9, 2.0, 2.0))  # AAHED: a tree of 2.0, not proved
    # CHOMP's estimate is within NEAR_BEST of AAHED's, but only a bound backs it (no tree): AAHED stays the best shown
    values = {words["aahed"]: best, words["chomp"]: GuessValue(Value(1.9, math.inf, 2.01))}
    assert known_best(game, values, words["aahed"], words["paste"]) == (words["aahed"], None)
    # its tree is 0.04 longer, its estimate 0.001: by the tree it is beyond the margin
    values[words["chomp"]] = GuessValue(Value(1.9, 2.04, 2.001))
    assert known_best(game, values, words["aahed"], words["paste"]) == (words["aahed"], None)
    # BASTE is in the common dictionary but wordfreq rates it 2.39: not a word players know, though its tree is as good
    values = {words["aahed"]: best, words["baste"]: GuessValue(Value(1.9, 2.0, 2.0))}
    assert known_best(game, values, words["aahed"], words["paste"]) == (words["aahed"], None)


def test_the_known_best_note_never_prints_a_negative_zero():
    from agents.review import ReviewStep, known_best_note
    game = small_game(ANSWERS, ["chomp", "aahed"])
    words = game.words.guess_index
    value = GuessValue(Value(2.0, 2.0, 2.0))
    step = ReviewStep(1, words["baste"], 0, 4, 1, value, words["chomp"], value, 0.0, 99, 50, 0.25, False,
                      best_known=words["aahed"], best_known_margin=-0.0)
    note = known_best_note(game.words.guesses, step)
    assert note == ("† guess 1: CHOMP is shown, a word players know within 0.03 of the best; the best found, AAHED, "
                    "is 0.0000 guesses better.")


def test_an_unfinished_game_is_called_unfinished_and_shares_no_x():
    from agents.review import share_text
    review = tiny_review(["chomp"], answer="haste")  # one guess of six, not solved: the game is not over
    assert not review.finished and share_text(review) is None and review_data(review)["share"] is None
    assert review.ending_text() == "unfinished after 1 guess of 6 (the answer: HASTE): no share grid until it is over"
    lost = tiny_review(["chomp", "chomp", "chomp", "chomp", "chomp", "chomp"], answer="haste")
    assert lost.finished and lost.ending_text() == "not solved after 6 guesses (the answer: HASTE)"
    assert share_text(lost).splitlines()[0] == "wordle-arena X/6"


@pytest.mark.slow
def test_an_unfinished_game_says_so_and_has_no_share_grid(capsys):
    code, out, _ = run_cli(capsys, "review", "--answer", "cigar", "crane")  # the weighted book values CRANE at once
    assert code == 0 and "unfinished after 1 guess of 6 (the answer: CIGAR)" in out
    assert "X/6" not in out and "not solved" not in out and "1 guesses" not in out
    code, out, _ = run_cli(capsys, "review", "--answer", "cigar", "crane", "--json")
    data = json.loads(out)
    assert data["share"] is None and data["finished"] is False and data["ending"].startswith("unfinished")


def test_a_pasted_grid_s_day_gives_the_answer():
    from agents.review import grid_answer
    grid = "Wordle 1,590 2/6\n⬛⬛⬛⬛⬛\n🟨⬛⬛⬛⬛"
    assert grid_answer(grid) == "plump"  # the Times' record: Wordle 1,590 was PLUMP
    assert grid_answer(grid, "plump") == "plump" and grid_answer("⬛⬛⬛⬛⬛") is None
    assert grid_answer("Wordle 99999 1/6\n🟩🟩🟩🟩🟩") is None  # a day the record lacks
    words = load_words()
    assert parse_game(load_model("original").game, ["crane", "light"], answer="plump", grid=grid) == \
        [(words.guess_id("crane"), 0), (words.guess_id("light"), feedback("light", "plump"))]
