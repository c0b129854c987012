"""Ultra-hard mode: legality against a slow oracle, a hand-worked position, and the solver against brute force."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from wordle import ALL_GREEN, IllegalMove, feedback, format_pattern
from wordle.solver import Solver, short_wins
from wordle.tree import build_tree
from wordle.ultra import Possible, narrow, possible_rows, violation

from plumbing.errors import UserError
from wordle.solver import Objective

from .conftest import run_cli, small_game
from .test_objectives import LONG_GAME, brute_losses, brute_worst
from .test_optimal import POOL_ANSWERS, POOL_GUESSES, brute_force

# Few letters, so words share many and repeat some: replies with duplicated letters are common.
word = st.text(alphabet="abcdeo", min_size=5, max_size=5)


def oracle(guesses: tuple[str, ...], history: list[tuple[str, int]]) -> list[int]:
    """The slow reference: the guess rows that would have got every reply of `history` had they been the answer."""
    return [row for row, candidate in enumerate(guesses)
            if all(feedback(earlier, candidate) == pattern for earlier, pattern in history)]


@settings(max_examples=60, deadline=None)
@given(st.lists(word, min_size=2, max_size=12, unique=True), st.lists(word, max_size=8, unique=True), st.data())
def test_legal_guesses_are_the_words_every_reply_allows(answers, extra, data):
    """A guess is legal iff it could be the answer given every reply so far (the first guess: any)."""
    game = small_game(answers, extra)
    guesses = game.words.guesses
    state = game.initial_state(ultra=True, max_guesses=8)
    answer = data.draw(st.integers(0, len(answers) - 1), label="answer")
    assert list(game.legal_guesses(state)) == list(range(len(guesses)))
    history: list[tuple[str, int]] = []
    while not game.is_terminal(state):
        legal = game.legal_guesses(state)
        assert list(legal) == oracle(guesses, history)
        for row in range(len(guesses)):  # the refusal names a reason exactly when the guess is illegal
            assert (game.violation(state, row) is None) == (row in set(legal.tolist()))
        assert set(game.words.answer_rows[state.candidates].tolist()) <= set(legal.tolist())
        assert possible_rows(game.guess_letters, game.guess_counts, state.history) == game.possible(state)
        illegal = sorted(set(range(len(guesses))) - set(legal.tolist()))
        if illegal:
            with pytest.raises(IllegalMove, match="ultra-hard mode: .* is not a possible answer after"):
                game.result(state, data.draw(st.sampled_from(illegal), label="illegal"))
        guess = int(data.draw(st.sampled_from(legal.tolist()), label="guess"))
        pattern = game.reply(guess, state.candidates[0] if answer not in state.candidates else answer)
        history.append((guesses[guess], pattern))
        state = game.step(state, guess, pattern)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(word, word), min_size=1, max_size=3), word)
def test_every_guess_ultra_hard_mode_allows_hard_mode_allows(replies, guess):
    """A guess that could still be the answer keeps each green in place and holds each letter a reply showed as often
    as it showed it: ultra-hard mode's legal guesses are among hard mode's after any replies, so each ultra-hard
    tree is a hard-mode tree (the all-opener job reads the hard-mode book as bounds on this)."""
    from wordle import hardmode

    history = [(earlier, feedback(earlier, answer)) for earlier, answer in replies]
    if violation(guess, history) is None:
        assert hardmode.violation(guess, history) is None


def test_hard_mode_allows_guesses_ultra_hard_mode_does_not():
    """The containment is strict: hard mode lets a grey letter back in (and a yellow one stay where it was)."""
    from wordle import hardmode

    history = [("crane", feedback("crane", "fight"))]  # all grey
    assert hardmode.violation("crane", history) is None and violation("crane", history) is not None
    history = [("salet", feedback("salet", "later"))]  # -gygy: S grey, A and E green, L and T yellow
    assert hardmode.violation("tales", history) is None and violation("tales", history) is not None  # S again
    history = [("alert", feedback("alert", "later"))]  # yyyyy
    assert hardmode.violation("alert", history) is None and violation("alert", history) is not None  # each yellow where it was


@settings(max_examples=8, deadline=None)
@given(st.data())
def test_the_official_lists_legal_guesses_equal_the_oracle(official_game, data):
    """On the full lists: one or two replies from real openers, the vectorised rule against scalar feedback."""
    game = official_game
    state = game.initial_state(ultra=True)
    answer = data.draw(st.integers(0, len(game.words.answers) - 1), label="answer")
    history: list[tuple[str, int]] = []
    for _ in range(data.draw(st.integers(1, 2), label="replies")):
        guess = int(data.draw(st.sampled_from(game.legal_guesses(state).tolist()), label="guess"))
        pattern = game.reply(guess, answer)
        if pattern == ALL_GREEN:
            break
        history.append((game.words.guesses[guess], pattern))
        state = game.step(state, guess, pattern)
    assert game.legal_guesses(state).tolist() == oracle(game.words.guesses, history)


@settings(max_examples=200, deadline=None)
@given(word, word, word)
def test_the_compiled_rule_equals_feedback(first, second, third):
    """short_wins' ultra-hard rule (`obeys` with mode 2) is feedback's: a word is legal iff it would give the reply."""
    compiled = short_wins.compiled()
    if compiled is None:
        pytest.skip("numba is not installed")
    game = small_game([first, second, third])
    rows = {text: row for row, text in enumerate(game.words.guesses)}
    for guess in (first, second, third):
        for answer in (first, second, third):
            pattern = feedback(guess, answer)
            for candidate in (first, second, third):
                expected = feedback(guess, candidate) == pattern
                assert short_wins.obeys(game.guess_letters, game.guess_counts, 2, rows[guess], pattern,
                                        rows[candidate]) == expected


def test_narrow_and_the_refusal_on_a_hand_worked_reply():
    """SALET scores ELUDE --yy- (L and E yellow): after it, ELUDE itself is possible, LUMEN is not (SALET's E would be
    green), nor DUELS (its S would be yellow); the refusal says which reply a guess breaks and what it would have got."""
    history = [("salet", feedback("salet", "elude"))]
    assert format_pattern(history[0][1]) == "--yy-"
    assert violation("elude", history) is None
    assert violation("lumen", history) == "LUMEN is not a possible answer after SALET --yy- (it would have got --yg-)"
    game = small_game(["elude", "duels", "lumen"], ["salet"])
    rows = {text: row for row, text in enumerate(game.words.guesses)}
    after = narrow(game.guess_letters, game.guess_counts, Possible(), rows["salet"], history[0][1])
    assert [game.words.guesses[row] for row in after.guesses(len(rows))] == ["elude"]


# The hand-worked position: five -IGHT answers, none with a letter of CRANE, so CRANE gets ----- from each.
# FLAMS tells all five apart (F green for FIGHT, L, M or S yellow for LIGHT, MIGHT, SIGHT, nothing for WIGHT),
# but holds A, which CRANE showed grey (FLAMS would have got --g-- from CRANE): in hard mode (no hint after an all-grey reply) it is legal, and the
# best guess (5 answers solved at guess 3: 15 in all); in ultra-hard mode only the five answers are legal, and
# each tells apart only itself (the others score -gggg), so they are guessed one by one: 2+3+4+5+6 = 20.
IGHT = ["fight", "light", "might", "sight", "wight"]


def test_hard_modes_best_guess_is_illegal_in_ultra_hard_mode():
    game = small_game(IGHT, ["crane", "flams"])
    rows = {text: row for row, text in enumerate(game.words.guesses)}
    crane, flams, grey = rows["crane"], rows["flams"], 0
    hard_state = game.step(game.initial_state(hard=True), crane, grey)
    ultra_state = game.step(game.initial_state(ultra=True), crane, grey)
    hard = Solver(game, hard=True)
    assert hard.best_guess(hard_state) == flams
    assert hard.solve(crane).total == 1 * 5 + 5 * 2  # CRANE for all five, then FLAMS, then the answer
    assert sorted(game.words.guesses[row] for row in game.legal_guesses(ultra_state)) == IGHT
    assert game.violation(ultra_state, flams) == ("FLAMS is not a possible answer after CRANE ----- "
                                                  "(it would have got --g--)")
    with pytest.raises(IllegalMove, match="ultra-hard mode: FLAMS is not a possible answer after CRANE"):
        game.result(ultra_state, flams)
    ultra = Solver(game, ultra=True)
    assert ultra.best_guess(ultra_state) in {rows[text] for text in IGHT}
    assert ultra.solve(crane).total == 2 + 3 + 4 + 5 + 6
    with pytest.raises(Exception, match="no tree"):  # four guesses left cannot take five answers one by one
        Solver(game, ultra=True, max_guesses=5).solve(crane)
    assert Solver(game, hard=True, max_guesses=3).solve(crane).total == 15


def test_a_game_is_not_both_hard_and_ultra_hard():
    game = small_game(IGHT)
    with pytest.raises(ValueError, match="contains hard mode"):
        game.initial_state(hard=True, ultra=True)
    with pytest.raises(ValueError, match="contains hard mode"):
        Solver(game, hard=True, ultra=True)


small_lists = st.tuples(
    st.lists(st.sampled_from(POOL_ANSWERS + IGHT), min_size=3, max_size=7, unique=True),
    st.lists(st.sampled_from(POOL_GUESSES + ["crane", "flams", "films"]), max_size=3, unique=True),
    st.integers(min_value=2, max_value=5),
)


@settings(max_examples=40, deadline=None)
@given(small_lists, st.data())
def test_the_ultra_hard_solver_equals_brute_force(case, data):
    """The proved total (and games over 2) in ultra-hard mode, from the start or after a given opener, equal
    brute force over every legal guess everywhere; the tree it follows replays to that total."""
    answers, extra, max_guesses = case
    game = small_game(answers, extra)
    state = game.initial_state(ultra=True, max_guesses=max_guesses)
    solver = Solver(game, ultra=True, max_guesses=max_guesses, long_game=2)
    expected = brute_force(game, state, long_game=2)
    if expected is None:
        with pytest.raises(Exception, match="no tree"):
            solver.solve()
    else:
        solution = solver.solve()
        assert (solution.total, solution.long_games) == expected
        graph = build_tree(game, state, solver.chooser())
        assert graph.graph["total"] == expected[0] and graph.graph["failures"] == 0
    opener = data.draw(st.integers(0, len(game.words.guesses) - 1), label="opener")
    asked = game.result(state, opener)
    total, long_games, won = 0, 0, True
    for pattern in game.actions(asked):
        child = game.result(asked, int(pattern))
        if child.solved:
            total, long_games = total + 1, long_games
            continue
        sub = None if game.is_terminal(child) else brute_force(game, child, long_game=2)
        if sub is None:
            won = False
            break
        total, long_games = total + sub[0], long_games + sub[1]
    fresh = Solver(game, ultra=True, max_guesses=max_guesses, long_game=2)
    if not won:
        with pytest.raises(Exception, match="no tree"):
            fresh.solve(opener)
    else:
        solution = fresh.solve(opener)
        assert (solution.total, solution.long_games) == (total, long_games)


def test_the_solvers_memory_keys_hold_the_guesses_still_possible():
    """Two histories that leave one set of answers but different legal guesses are different sub-problems."""
    game = small_game(IGHT, ["crane", "flams", "pacer", "fling"])
    rows = {text: row for row, text in enumerate(game.words.guesses)}
    solver = Solver(game, ultra=True)
    after_crane = game.step(game.initial_state(ultra=True), rows["crane"], 0)
    after_pacer = game.step(game.initial_state(ultra=True), rows["pacer"], 0)
    assert np.array_equal(after_crane.candidates, after_pacer.candidates)
    assert rows["fling"] in game.legal_guesses(after_pacer) and rows["fling"] not in game.legal_guesses(after_crane)
    keys = {solver.key(np.asarray(state.candidates), state.guesses_left, solver.state_hints(state))
            for state in (after_crane, after_pacer)}
    assert len(keys) == 2


def test_the_cli_refuses_an_illegal_ultra_hard_guess_in_one_line(capsys):
    """FLAMS after CRANE got ----- holds A, which CRANE showed grey: refused before any search, exit 2, one line."""
    code, out, err = run_cli(capsys, "solve", "crane:-----", "--guess", "flams", "--ultra")
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0
    assert "ultra-hard mode: FLAMS is not a possible answer after CRANE ----- (it would have got --g--)" in err


def test_the_cli_refuses_hard_and_ultra_together_and_ultra_where_it_has_no_meaning(capsys):
    code, _, err = run_cli(capsys, "solve", "--hard", "--ultra", "--opener", "salet")
    assert code == 2 and "not allowed with argument" in err
    code, _, err = run_cli(capsys, "openers", "--ultra", "--top", "3")
    assert code == 2 and err.strip().count("\n") == 0 and "--ultra goes with --exact (the two-step" in err
    code, _, err = run_cli(capsys, "openers", "--exact", "--pairs", "--ultra")
    assert code == 2 and err.strip().count("\n") == 0 and "Traceback" not in err


@pytest.mark.slow
def test_the_web_advises_in_ultra_hard_mode_and_refuses_an_illegal_step(official_game):
    """/api/advise with 'ultra': every suggestion could still be the answer; a step that could not is a 400 naming
    why, and 'hard' with 'ultra' is a 400 too."""
    pytest.importorskip("starlette", reason="the web page needs the 'web' extra")
    from starlette.testclient import TestClient

    from web.app import create_app

    with TestClient(create_app(official_game, request_seconds=600), base_url="http://localhost",
                    raise_server_exceptions=False) as client:
        reply = client.post("/api/advise", json={"steps": ["salet:--yy-"], "ultra": True, "top": 5})
        assert reply.status_code == 200
        data = reply.json()
        assert data["mode"] == "ultra" and data["model"] == "original"
        history = [("salet", int("00110", 3))]
        assert data["suggestions"] and all(violation(s["guess"], history) is None for s in data["suggestions"])
        refused = client.post("/api/advise", json={"steps": ["salet:--yy-", "lumen:--yg-"], "ultra": True})
        assert refused.status_code == 400 and "LUMEN is not a possible answer after SALET" in refused.json()["error"]
        both = client.post("/api/advise", json={"steps": [], "ultra": True, "hard": True})
        assert both.status_code == 400 and "one or the other" in both.json()["error"]


@settings(max_examples=25, deadline=None)
@given(small_lists)
@pytest.mark.slow
def test_the_losses_and_worst_objectives_in_ultra_hard_mode_equal_brute_force(case):
    """The other objectives under the ultra-hard rule: fewest losses then guesses, and the least worst case."""
    answers, extra, max_guesses = case
    game = small_game(answers, extra)
    state = game.initial_state(ultra=True, max_guesses=max_guesses)
    solution = Solver(game, ultra=True, max_guesses=max_guesses, long_game=LONG_GAME, objective="losses").solve()
    assert (solution.losses, solution.total, solution.long_games) == brute_losses(game, state)
    expected = brute_worst(game, state)
    solver = Solver(game, ultra=True, max_guesses=max_guesses, long_game=LONG_GAME, objective=Objective.WORST)
    if expected is None:
        with pytest.raises(UserError, match="no tree"):
            solver.solve()
    else:
        solution = solver.solve()
        assert (solution.worst, solution.total, solution.long_games) == expected


def test_the_solved_tree_cache_is_kept_apart_by_mode():
    """A tree solved in ultra-hard mode is cached under its own key: never read back for normal or hard mode."""
    from agents.optimal import tree_cache

    game = small_game(IGHT, ["crane"])
    keys = {tree_cache(game, hard, 6, "crane", None, ultra=ultra).key["mode"]
            for hard, ultra in ((False, False), (True, False), (False, True))}
    paths = {tree_cache(game, hard, 6, "crane", None, ultra=ultra).path()
             for hard, ultra in ((False, False), (True, False), (False, True))}
    assert keys == {"normal", "hard", "ultra"} and len(paths) == 3


@pytest.mark.slow
def test_the_advisor_agent_plays_ultra_hard_mode_legally():
    """The advisor (assist's first suggestion as a player) asks for ultra-hard advice in an ultra-hard game: after
    CRANE it plays one of the five answers, not FLAMS, and every game ends without an illegal move (`Wordle.play`
    raises IllegalMove on one)."""
    from agents import make_agent

    game = small_game(IGHT, ["crane", "flams"])
    crane = game.words.guess_index["crane"]
    advisor = make_agent("advisor", game, model="game")
    rng = np.random.default_rng(0)

    def choose(state):  # CRANE first (all grey from each answer), where normal and hard mode's best is FLAMS
        return crane if not state.history else advisor.decide(state, rng).guess

    for answer in range(len(game.words.answers)):
        played = game.play(choose, answer, ultra=True)
        assert played.solved and game.words.guesses[played.turns[1].guess] in IGHT
