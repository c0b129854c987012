"""The assistant: step parsing, replay with counts and bits, contradictions naming the step, and the CLI."""

from __future__ import annotations

import json
import math
from collections import Counter
from types import SimpleNamespace

import numpy as np
import pytest

import cli
from agents import make_agent
from agents.assistant import (ContradictionError, StepError, Suggestion, advise, advise_steps, answers_first,
                              format_step, make_advisor, parse_step, read_step, replay, solver_suggestions,
                              advice_notes)
from plumbing.errors import UserError
from agents.model_value import GuessValue, ModelValuation
from heuristics.cost import cost_table
from wordle import ALL_GREEN
from heuristics.partition import partition_stats
from wordle import PatternError, WordListError, feedback, parse_pattern
from tests.conftest import run_cli, said_lines, small_game
from wordle.valuation import Value


def test_step_forms(official_game):
    words = official_game.words
    expected = (words.guess_id("tares"), parse_pattern("-y--g"))
    for text in ("tares:-y--g", "tares -y--g", "TARES:01002", " tares  .y..G ", "tares:\u2b1b\U0001F7E8\u2b1b\u2b1b\U0001F7E9"):
        assert parse_step(official_game, text) == expected
    with pytest.raises(StepError, match="is not a step"):
        parse_step(official_game, "tares")
    with pytest.raises(WordListError, match="'tarex' is not in the list"):
        parse_step(official_game, "tarex:-y--g")
    with pytest.raises(PatternError, match="is not a pattern"):
        parse_step(official_game, "tares:-y-g")
    assert format_step(official_game, *expected) == "tares:-y--g"  # the one form shown, read back above


def test_replay_counts_and_bits(official_game):
    words = official_game.words
    steps = [(words.guess_id("salet"), feedback("salet", "crane")), (words.guess_id("brick"), feedback("brick", "crane"))]
    state, done = replay(official_game, steps)
    remaining = [a for a in words.answers if feedback("salet", a) == steps[0][1] and feedback("brick", a) == steps[1][1]]
    assert [words.answers[a] for a in state.candidates] == remaining
    assert done[0].remaining_before == 2315 and done[1].remaining_after == len(remaining)
    assert done[1].bits == pytest.approx(math.log2(done[1].remaining_before / len(remaining)))


@pytest.mark.parametrize("texts, message", [
    (["crane:ggggg", "slate:-----"], "step 2 (slate:-----): the game was already solved at step 1"),
    (["tares:ggggg"], "step 1 (tares:ggggg) made the game impossible: no answer fits; this pattern is not what "
                     "TARES gets from any answer"),
    (["tares:-y--g", "goary:-y---"], "step 2 (goary:-y---) made the game impossible: no answer fits; this pattern "
                                     "is not what GOARY gets from any of the 6 answers left after step 1"),
    (["salet:-----"] * 7, "step 7 (salet:-----): the game allows only 6 guesses"),
])
def test_contradictions_name_the_step(official_game, texts, message):
    agent = make_agent("entropy", official_game)
    with pytest.raises(ContradictionError) as caught:
        advise(official_game, agent, texts)
    assert str(caught.value).startswith(message)


def test_hard_mode_breach_is_reported(official_game):
    agent = make_agent("entropy", official_game)
    with pytest.raises(ContradictionError, match=r"step 2 \(tonic:-----\): hard mode: guess must contain A"):
        advise(official_game, agent, ["salet:-y---", "tonic:-----"], hard=True)


def test_suggestions_carry_information_chance_and_score(official_game):
    agent = make_agent("entropy", official_game)
    advice = advise(official_game, agent, ["salet:-y---"], hard=True, top=5)
    assert len(advice.suggestions) == 5 and advice.last_bits == pytest.approx(math.log2(2315 / advice.remaining))
    legal = set(official_game.legal_guesses(advice.state).tolist())
    rows = set(official_game.words.answer_rows[advice.state.candidates].tolist())
    guesses = np.array([s.guess for s in advice.suggestions])
    stats = partition_stats(official_game.matrix, advice.state.candidates, guesses)
    for suggestion, entropy in zip(advice.suggestions, stats.entropy):
        assert suggestion.guess in legal and suggestion.information == pytest.approx(entropy)
        assert suggestion.chance == (1 / advice.remaining if suggestion.guess in rows else 0.0)
        assert suggestion.score == pytest.approx(entropy)
    assert advice.suggestions[0].information >= advice.suggestions[-1].information


def test_solved_game_has_no_suggestions(official_game):
    advice = advise(official_game, make_agent("demarcate", official_game), ["crane:ggggg"])
    assert advice.solved and advice.suggestions == () and advice.remaining == 1


def test_cli_once_and_json(capsys):
    code, out, err = run_cli(capsys, "assist", "tares:-y--g", "--answers", "original", "--agent", "expectimax")
    assert code == 0 and err == ""
    assert "6 possible answers (2.58 bits); the last guess gained 8.59 bits" in out
    assert "possible: abyss, amass, amiss, chaos, class, glass" in out and "suggestions (expectimax)" in out
    rows = [line.split() for line in out.splitlines() if line.strip()[:2] in ("1 ", "5 ")]
    assert rows[-2:] == [["1", "amass", "2", "1.17", "16.7%", "2.25", "2.000"],
                         ["5", "agila", "1", "1.00", "0.0%", "2.58", "2.000"]]
    assert "guesses: expected guesses to finish, this one included (cost-to-go model" in " ".join(out.split())
    code, out, _ = run_cli(capsys, "assist", "tares:-y--g", "--json", "--agent", "demarcate", "--top", "3",
                           "--answers", "original")
    data = json.loads(out)
    assert code == 0 and data["remaining"] == 6 and data["agent"] == "demarcate" and len(data["suggestions"]) == 3
    assert data["answers"] == ["abyss", "amass", "amiss", "chaos", "class", "glass"]
    assert set(data["suggestions"][0]) == {"guess", "information", "chance", "score", "worst", "expected_left",
                                           "expected_guesses", "value", "maybe_better"}
    assert data["suggestions"][0]["value"] is None and data["model"] == "original"  # an agent's: no solver value


@pytest.mark.parametrize("argv, message", [
    (["tares:-y-g"], "'-y-g' is not a pattern"),
    (["tarex:-y--g"], "'tarex' is not in the list of allowed guesses"),
    (["tares:-y--g", "goary:-y---"], "step 2 (goary:-y---) made the game impossible"),
    (["tares:-y--g", "--agent", "nobody"], "invalid choice"),
])
def test_cli_errors_are_one_line_with_exit_2(capsys, argv, message):
    code, out, err = run_cli(capsys, "assist", *argv)
    said = said_lines(err)
    assert code == 2 and message in err and len(said) == 1 and "Traceback" not in err


def test_cli_interactive_session(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, "assist", "--agent", "entropy", "--answers", "original", stdin="tares -y--g\ngoary -y---\nnonsense\nundo\nglass ggggg\n",
                       monkeypatch=monkeypatch)
    assert code == 0
    assert "2315 possible answers (11.18 bits)" in out
    assert "step 2 (goary:-y---) made the game impossible" in out
    assert "'nonsense' is not a step" in out
    assert "Solved in 1." in out  # after undo, GLASS is the first step


def test_each_suggestion_says_why_on_one_scale(official_game):
    game = official_game
    advice = advise(game, make_agent("entropy", game), ["tares:-y--g"], top=20)
    candidates = [int(a) for a in advice.state.candidates]
    n, F = len(candidates), cost_table(len(candidates))
    for suggestion in advice.suggestions:  # the slow way: count each reply's answers
        groups = Counter(int(game.matrix[suggestion.guess, a]) for a in candidates)
        solved = groups.pop(ALL_GREEN, 0)
        assert suggestion.worst == max([*groups.values(), solved])
        assert suggestion.expected_left == pytest.approx(sum(c * c for c in groups.values()) / n)
        assert suggestion.chance == pytest.approx(solved / n)
        assert suggestion.expected_guesses == pytest.approx(1 + sum(c / n * F[c] for c in groups.values()))


def test_possible_answers_come_first_only_among_equal_values():
    def s(guess, score, chance):
        return Suggestion(guess=guess, information=0.0, chance=chance, score=score)
    ranked = [s(1, 5.0, 0.0), s(2, 5.0, 0.0), s(3, 5.0, 0.5), s(4, 4.0, 0.0), s(5, 4.0, 0.5), s(6, 4.5, 0.5)]
    assert [x.guess for x in answers_first(ranked)] == [3, 1, 2, 5, 4, 6]  # the agent's order between values stays
    assert answers_first([s(1, None, 0.0), s(2, None, 0.5)]) == [s(1, None, 0.0), s(2, None, 0.5)]


def test_an_emptied_answer_list_widens_the_model_in_one_line(capsys):
    code, out, err = run_cli(capsys, "assist", "--answers", "original", "crane:--gg-", "tangy:-yyy-", "gland:g-gg-")
    assert code == 0
    assert ("The answer is outside the original model's list (step 3 (gland:g-gg-) made the game impossible: no "
            "answer fits); continuing with the wider likely model.") in " ".join(out.split())
    assert "guano" in out.split("\npossible: ")[1].splitlines()[0]


@pytest.mark.slow
def test_the_default_advisor_never_loses_hard_mode_on_a_sample(official_game):
    """Follow the default advice from the published opening (SALET, the first move of every published
    hard-mode expectimax game) on WATCH, which greedy entropy loses, and a seeded sample; the full run
    over every answer is benchmarks/bench_advisor.py --mode hard."""
    game = official_game
    advisor = make_advisor("expectimax", game)
    sample = np.random.default_rng(12).choice(len(game.words.answers), 2, replace=False)
    for answer in [game.words.answer_id("watch"), *map(int, sample)]:
        steps = [(game.words.guess_id("salet"), game.reply(game.words.guess_id("salet"), answer))]
        while not (advice := advise_steps(game, advisor, steps, hard=True, top=1)).solved:
            assert advice.suggestions, f"the advice lost {game.words.answers[answer]}"
            steps.append((advice.suggestions[0].guess, game.reply(advice.suggestions[0].guess, answer)))


def test_advice_past_the_node_budget_says_it_is_the_shallower_searchs(capsys, monkeypatch, tmp_path):
    """With budgets of one node, every decision after the first is the fallback's, and the output says so;
    with the usual budgets a small game's full search fits, and nothing is said."""
    words = tmp_path / "words.txt"
    words.write_text("baste\ncaste\nhaste\npaste\ntaste\nwaste\nslate\nchomp\n")
    argv = ("assist", "--answers", str(words), "--guesses", str(words), "--hard", "--agent", "expectimax", "slate:y-ygg")
    code, out, _ = run_cli(capsys, *argv)
    assert code == 0 and "shallower search" not in out
    code, out, _ = run_cli(capsys, *argv, "--json")
    assert code == 0 and json.loads(out)["fallback"] is False
    monkeypatch.setattr("agents.assistant.ADVICE_NODES", (1, 1))
    code, out, _ = run_cli(capsys, *argv)
    assert code == 0 and "so these are the suggestions of its shallower search" in " ".join(out.split())
    code, out, _ = run_cli(capsys, *argv, "--json")
    assert code == 0 and json.loads(out)["fallback"] is True


def test_an_agents_only_answers_advice_is_filled_with_possible_answers(official_game):
    """Entropy ranks probes first; with --only-answers the answers it did not rank fill the list, by guesses."""
    from agents.answer_model import load_model
    from agents.assistant import advise_model
    model = load_model("original", make_game=lambda words: official_game)
    steps = [(official_game.words.guess_index["crane"], parse_pattern("--y--"))]
    advice = advise_model(model, steps, lambda game: make_agent("entropy", game), top=6, only_answers=True)
    possible = set(official_game.words.answer_rows[advice.state.candidates].tolist())
    assert len(advice.suggestions) == 6 and all(s.guess in possible and s.chance > 0 for s in advice.suggestions)


class StubValuer:
    """A Valuer whose values are given: the default advisor's ranking on hand-built values."""

    def __init__(self, game, values):
        self.model = SimpleNamespace(game=game, tier=len(game.words.answers), uniform=True,
                                     chances=lambda candidates: np.full(len(candidates), 1 / len(candidates)))
        self.values = values

    def value(self, state, guesses):
        best = min(self.values, key=lambda g: self.values[g].value.high)
        return ModelValuation(best=best, guesses=dict(self.values), proved=False, nodes=1, seconds=0.0)

    def opening_shortlist(self, state, count):
        """No weighted opening book: the advice makes its own shortlist."""
        return []


def test_a_guess_with_only_a_low_bound_is_shown_below_the_proved_one():
    """TRACE's 2.935 is only a bound (no tree); SALET's 3.508 is proved: SALET first, TRACE marked 'maybe better'."""
    from agents.assistant import Advice
    game = small_game(["cater", "later", "water", "hater", "salet"], ["trace", "champ"])
    index = game.words.guess_index
    values = {index["trace"]: GuessValue(Value(2.935, math.inf, 2.935)),
              index["salet"]: GuessValue(Value(3.508, 3.508, 3.508)),
              index["champ"]: GuessValue(Value(3.2, 3.6, 3.6)),
              index["water"]: GuessValue(Value(3.9, math.inf, 3.9))}
    state = game.initial_state()
    suggestions, _, _ = solver_suggestions(StubValuer(game, values), state)
    assert [game.words.guesses[s.guess] for s in suggestions] == ["salet", "champ", "trace", "water"]
    advice = Advice(agent="optimal", state=state, steps=(), suggestions=suggestions, proved=False)
    assert [advice.maybe_better(s) for s in suggestions] == [False, False, True, False]
    assert not advice.all_proved and advice_notes(advice)[0].startswith("Not settled within 300 nodes")
    proved = {guess: value for guess, value in values.items() if value.proved}
    settled = Advice(agent="optimal", state=state, steps=(), suggestions=solver_suggestions(
        StubValuer(game, proved), state)[0], proved=False)
    assert settled.all_proved and advice_notes(settled) == []  # every value shown is proved: no note


@pytest.mark.parametrize("word", ["furos", "gadgy", "galia"])
def test_the_default_lists_are_todays_every_word_the_times_accepts(word):
    """assist and review read their steps against today's list unless told (FUROS, GADGY and GALIA are not 2022's)."""
    from commands.options import player_guesses
    from wordle.words import load_guesses
    args = cli.build_parser(["assist"]).parse_args(["assist", f"{word}:-----"])
    assert args.guesses is None
    player_guesses(args)
    assert args.guesses == "nyt" and read_step(load_guesses(args.guesses), f"{word}:-----")[1] == 0
    with pytest.raises(UserError, match=f"'{word}' is not in the list of allowed guesses"):
        read_step(load_guesses("original"), f"{word}:-----")


@pytest.mark.parametrize("command", [["assist", "qzxvy:-----"], ["review", "--answer", "cigar", "qzxvy", "cigar"],
                                     ["assist", "furos:-----", "--guesses", "original"]])
def test_a_word_the_lists_lack_is_refused_in_one_line(capsys, command):
    code, _, err = run_cli(capsys, *command)
    assert code == 2 and err.strip().count("\n") == 0 and "is not in the list of allowed guesses" in err


@pytest.mark.slow
def test_assist_accepts_todays_words_with_the_default_lists(capsys):
    code, out, _ = run_cli(capsys, "assist", "furos:-----", "gadgy:-----", "--json", "--top", "3")
    data = json.loads(out)
    assert code == 0 and [step["guess"] for step in data["steps"]] == ["furos", "gadgy"]
    assert data["model"] == "likely" and data["suggestions"]


def test_the_tournament_and_the_proofs_keep_the_2022_list():
    """The commands whose published results name their lists default to 2022's 12972 guesses."""
    from wordle import load_words as lists
    for argv in (["tournament"], ["solve"], ["openers"], ["book", "build", "--from", "x"], ["verify", "x"]):
        args = cli.build_parser(argv).parse_args(argv)
        assert args.guesses is None, argv
    assert len(lists(guesses=None).guesses) == 12972  # what a command given no --guesses loads


@pytest.mark.slow
def test_the_opening_advice_shows_the_commonest_near_best_opener_first():
    """Today's lists under `likely`: the weighted book's trees put SALET first (3.454); LEAST, TRACE, CRANE, SLATE,
    CRATE and CARTE are within 0.03 of it, so a player sees them first, commonest first; `all` keeps the exact order."""
    from agents.answer_model import load_model
    from agents.assistant import advice_notes, advise_model

    model = load_model("likely", "nyt")
    words = model.game.words.guesses
    known = advise_model(model, [], words="known")
    exact = advise_model(model, [], words="all")
    assert [words[s.guess] for s in exact.suggestions][:3] == ["salet", "reast", "slate"] and exact.exact_best is None
    assert [words[s.guess] for s in known.suggestions][:7] == ["least", "trace", "crane", "slate", "crate", "carte",
                                                                 "salet"]
    assert words[known.exact_best.guess] == "salet"
    assert any("the best is SALET (≤ 3.454): --words all" in note for note in advice_notes(known))
    assert sorted(s.guess for s in known.suggestions) == sorted(s.guess for s in exact.suggestions)  # same values
