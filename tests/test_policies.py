"""The Wordle policies (beam, widening, exact play, endgame, opening) under the three algorithms, on small games."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from heuristics.evaluation import make_evaluation
from wordle import feedback, format_pattern
from search.limits import BudgetSpent, Limit
from wordle.strategy import Strategy
from wordle.policies import within
from search.table import TranspositionTable

from .conftest import small_game
from .games import ANSWERS, TRAP, UNLIMITED, Flat, hand_game, salet_trap, small_games, trap_game, trap_games
from .games import wordle_alphabeta as alphabeta, wordle_expectimax as expectimax, wordle_minimax as minimax
from .search_helpers import reference_beam, reference_value

def test_the_replies_the_working_relies_on():
    # ACING splits the six answers into three pairs.
    assert {format_pattern(feedback("acing", a)) for a in ("lanky", "panel")} == {"y--y-"}
    assert {format_pattern(feedback("acing", a)) for a in ("black", "slack")} == {"yy---"}
    assert {format_pattern(feedback("acing", a)) for a in ("flask", "parka")} == {"y----"}
    # LANKY can win, leaves BLACK, SLACK, FLASK together and PANEL, PARKA alone.
    assert {format_pattern(feedback("lanky", a)) for a in ("black", "slack", "flask")} == {"yy-y-"}
    assert format_pattern(feedback("lanky", "panel")) == "ygg--"
    assert format_pattern(feedback("lanky", "parka")) == "-g-g-"


def test_minimax_prefers_the_safe_split():
    # Limit 6 guesses, depth 2, every horizon guess worth base - 1.2.
    # ACING: three pairs; a pair after one guess is worth 5 - 1 = 4 at worst (4.5 on average).
    #   minimax value 4.
    # LANKY: all green 6; the trio is a horizon state after one guess: 5 - 1.2 = 3.8;
    #   PANEL and PARKA alone are solved with guess 2: 5. minimax value min(6, 3.8, 5, 5) = 3.8.
    # So minimax plays ACING with value 4.
    game, acing, lanky = hand_game()
    state = game.initial_state()
    result = minimax(game, state, Flat(1.2), Limit(depth=2), Strategy(**UNLIMITED), among=np.array([acing, lanky]))
    assert result.move == acing and result.value == pytest.approx(4.0)
    assert dict(result.alternatives)[lanky] == pytest.approx(3.8)
    assert result.depth == 2


def test_expectimax_prefers_the_chance_to_win_now():
    # Same game. ACING: each pair is worth (5 + 4) / 2 = 4.5 on average, so 4.5.
    # LANKY: (1 x 6 + 3 x 3.8 + 1 x 5 + 1 x 5) / 6 = 27.4 / 6 = 4.5667 > 4.5: expectimax plays LANKY.
    game, acing, lanky = hand_game()
    result = expectimax(game, game.initial_state(), Flat(1.2), Limit(depth=2), Strategy(**UNLIMITED), among=np.array([acing, lanky]))
    assert result.move == lanky and result.value == pytest.approx(27.4 / 6)
    assert dict(result.alternatives)[acing] == pytest.approx(4.5)


def test_alphabeta_matches_minimax_on_the_hand_game_with_fewer_nodes():
    # All seven guesses, equal evaluations, so the answers come first (can win), by index: BLACK first.
    # BLACK gets a different reply from each answer (-yy-y, -gggg, -gg-g, -yy--, --y-y, all green):
    # every other answer is solved with guess 2, so its value is 5, the most any guess but a sure
    # win can have. Every later guess has a reply worth at most 5 in its largest bin, tried first,
    # and is cut there: alpha-beta skips their other replies.
    game, _, _ = hand_game()
    plain = minimax(game, game.initial_state(), Flat(1.2), Limit(depth=2), Strategy(**UNLIMITED))
    pruned = alphabeta(game, game.initial_state(), Flat(1.2), Limit(depth=2), Strategy(**UNLIMITED))
    assert (pruned.move, pruned.value) == (plain.move, plain.value) == (game.words.guess_id("black"), 5.0)
    assert format_pattern(feedback("black", "slack")) == "-gggg"
    assert pruned.nodes < plain.nodes


def test_one_or_two_answers_are_played_exactly():
    # Two answers left after one guess: guess the one with the lower guess index.
    # Minimax: worst case solved with guess 3 -> 6 + 1 - 3 = 4.
    game, acing, _ = hand_game()
    state = game.step(game.initial_state(), acing, game.reply(acing, game.words.answer_id("black")))
    result = minimax(game, state, Flat(0.0), Limit(depth=3))
    assert game.words.guesses[result.move] == "black" and result.value == 4.0
    assert expectimax(game, state, Flat(0.0), Limit(depth=3)).value == 4.5


def test_last_guess_must_be_a_possible_answer():
    # One guess left, six answers: minimax can only lose (utility 0, less the search's loss
    # penalty); a guess that can win is chosen. Expectimax: 1/6 x 1 + 5/6 x (-loss).
    game, _, _ = hand_game()
    state = game.initial_state(max_guesses=1)
    for loss in (0.0, 10.0):
        result = minimax(game, state, Flat(0.0), Limit(depth=2), Strategy(loss=loss))
        assert result.value == -loss and game.words.guesses[result.move] in ANSWERS
        assert expectimax(game, state, Flat(0.0), Limit(depth=2), Strategy(loss=loss)).value == pytest.approx((1 - 5 * loss) / 6)


def test_hard_mode_searches_only_legal_guesses():
    game, acing, _ = hand_game()
    state = game.step(game.initial_state(hard=True), acing, game.reply(acing, game.words.answer_id("flask")))
    for search in (minimax, alphabeta, expectimax):
        move = search(game, state, make_evaluation("entropy"), Limit(depth=2)).move
        assert game.violation(state, move) is None


def test_bad_starts_are_refused():
    game, acing, _ = hand_game()
    with pytest.raises(ValueError):
        minimax(game, game.result(game.initial_state(), acing), Flat(0.0), Limit())
    with pytest.raises(ValueError):
        minimax(game, game.initial_state(), make_evaluation("entropy", "zero"), Limit())  # zero mode needs an rng


def test_a_table_keeps_values_between_searches():
    # The second search finds the root's children in the table: fewer nodes, the same move, value and depth.
    game, _, _ = hand_game()
    table, limit = TranspositionTable(), Limit(depth=3)
    first = minimax(game, game.initial_state(), make_evaluation("cost"), limit, table=table)
    again = minimax(game, game.initial_state(), make_evaluation("cost"), limit, table=table)
    assert (again.move, again.value, again.depth) == (first.move, first.value, first.depth)
    assert again.nodes < first.nodes and len(table) > 0


def test_zero_mode_at_depth_one_is_a_seeded_random_guess():
    # No endgame, no widening: the root weighs every guess in the generator's order and searches nothing.
    game, _, _ = hand_game()
    evaluation, start = make_evaluation("cost", "zero"), game.initial_state(max_guesses=3)
    moves = set()
    for seed in range(10):
        result = expectimax(game, start, evaluation, Limit(depth=1), rng=np.random.default_rng(seed))
        assert result.nodes == 1 and result.depth == 1
        moves.add(result.move)
    assert len(moves) > 1


# -- properties on random small word lists -------------------------------------------------
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(small_games(), trap_games()), st.integers(2, 3), st.booleans(), st.booleans())
def test_alphabeta_with_a_shared_table_visits_no_more_nodes_than_minimax(game, depth, hard, candidates_only):
    # The root, then each state one reply after the best move, searched in turn with one table each.
    start = game.initial_state(hard=hard)
    evaluation, limit, strategy = make_evaluation("cost"), Limit(depth=depth), Strategy(beam=3)
    tables = {search: TranspositionTable() for search in (minimax, alphabeta)}
    first = minimax(game, start, evaluation, limit, strategy, candidates_only=candidates_only)
    states = [start] + [game.step(start, first.move, pattern) for pattern in game.actions(game.result(start, first.move))]
    nodes = {search: 0 for search in tables}
    for state in states:
        if game.is_terminal(state):
            continue
        found = {search: search(game, state, evaluation, limit, strategy, candidates_only=candidates_only, table=table)
                 for search, table in tables.items()}
        assert (found[alphabeta].move, found[alphabeta].value) == (found[minimax].move, found[minimax].value)
        nodes = {search: nodes[search] + found[search].nodes for search in tables}
    assert nodes[alphabeta] <= nodes[minimax]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(small_games(), trap_games()), st.integers(1, 3), st.integers(1, 4), st.sampled_from(["cost", "entropy", "weighted", "flat"]),
       st.integers(2, 6), st.booleans(), st.booleans(), st.integers(0, 3), st.integers(0, 2), st.sampled_from([0, 500]))
def test_alphabeta_equals_minimax_with_no_more_nodes(game, depth, beam, name, max_guesses, hard, candidates_only,
                                                     opening, opening_top, widen):
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    evaluation = Flat(1.0) if name == "flat" else make_evaluation(name)
    limit, strategy = Limit(depth=depth), Strategy(beam=beam, opening=opening, opening_top=opening_top, widen=widen)
    plain = minimax(game, state, evaluation, limit, strategy, candidates_only=candidates_only)
    pruned = alphabeta(game, state, evaluation, limit, strategy, candidates_only=candidates_only)
    assert (pruned.move, pruned.value) == (plain.move, plain.value)
    assert pruned.nodes <= plain.nodes


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_games(), st.integers(1, 3), st.sampled_from(["cost", "entropy"]), st.integers(2, 6), st.booleans(),
       st.sampled_from([(3, 30, 10.0), (0, 0, 0.0), (2, 5, 3.0)]), st.booleans())
def test_values_match_the_reference_and_expectimax_lies_between(game, depth, name, max_guesses, hard, endgame,
                                                                 candidates_only):
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    evaluation = make_evaluation(name)
    limit, strategy = Limit(depth=depth), Strategy(endgame=endgame[0], endgame_answers=endgame[1], loss=endgame[2], **UNLIMITED)
    worst = minimax(game, state, evaluation, limit, strategy, candidates_only=candidates_only).value
    average = expectimax(game, state, evaluation, limit, strategy, candidates_only=candidates_only).value
    best = reference_value(game, state, evaluation, depth, "max", strategy, candidates_only)
    assert worst == pytest.approx(reference_value(game, state, evaluation, depth, "min", strategy, candidates_only))
    assert average == pytest.approx(reference_value(game, state, evaluation, depth, "mean", strategy, candidates_only))
    assert worst - 1e-9 <= average <= best + 1e-9
    assert not math.isinf(average)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trap_games(), st.sampled_from(["cost", "entropy", "flat"]), st.integers(3, 5), st.booleans(), st.booleans())
@pytest.mark.slow
def test_the_beam_and_its_widening_match_the_reference(game, name, max_guesses, hard, candidates_only):
    # Narrow beams, widened or not, against the plain recursion of search_helpers.reference_beam. The
    # flat evaluation orders guesses by the tie-break alone, so the beam often holds only losing guesses.
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    evaluation = Flat(1.0) if name == "flat" else make_evaluation(name)
    for depth, beam, widen in ((2, 1, 500), (3, 1, 500), (2, 2, 500), (2, 1, 3), (3, 2, 0)):
        limit, strategy = Limit(depth=depth), Strategy(beam=beam, widen=widen, pool=10**6)
        for search, combine in ((minimax, "min"), (alphabeta, "min"), (expectimax, "mean")):
            value = search(game, state, evaluation, limit, strategy, candidates_only=candidates_only).value
            assert value == pytest.approx(reference_beam(game, state, evaluation, depth, combine, strategy, candidates_only)[0])
        # Widening only adds guesses: never worth less than the plain beam, never more than every guess.
        narrow = expectimax(game, state, evaluation, Limit(depth=depth), Strategy(beam=beam, widen=0, pool=10**6),
                            candidates_only=candidates_only).value
        full = expectimax(game, state, evaluation, Limit(depth=depth), Strategy(beam=10**3, pool=10**6),
                          candidates_only=candidates_only).value
        widened = expectimax(game, state, evaluation, limit, strategy, candidates_only=candidates_only).value
        assert narrow - 1e-9 <= widened <= full + 1e-9


# -- hard mode's traps: searched to the end, with a loss penalty --------------------------------
def test_a_hard_mode_trap_is_valued_as_a_likely_loss():
    # SLATE gets y-ygg from all six: T and E are fixed, S and A must stay, so every legal guess
    # holds one free letter and splits the six into at most 2 bins (the checks below).
    # With 5 guesses left at most 5 answers can be solved: guess 2, 3, 4, 5, 6 (worth 5, 4, 3, 2, 1)
    # and the sixth is lost (worth -loss). Expectimax: (5 + 4 + 3 + 2 + 1 - 10) / 6 = 5/6; minimax: -10.
    game, after = trap_game()
    assert len(after.candidates) == 6 and {format_pattern(feedback("slate", a)) for a in TRAP} == {"y-ygg"}
    for guess in game.legal_guesses(after):
        assert len(game.partition(after.candidates, int(guess))) <= 2
    evaluation, limit, strategy = make_evaluation("cost"), Limit(depth=2), Strategy(endgame=3, endgame_answers=30, loss=10.0)
    # Five left: a depth-2 search whose children (four left, six answers at most) are searched to the end.
    assert expectimax(game, after, evaluation, limit, strategy).value == pytest.approx(5 / 6)
    short = game.step(game.initial_state(hard=True, max_guesses=5), game.words.guess_id("slate"),
                      game.reply(game.words.guess_id("slate"), 0))
    # Four guesses left: at most 4 of 6 solved, (4 + 3 + 2 + 1 - 2 x 10) / 6 = -10/6.
    assert expectimax(game, short, evaluation, limit, strategy).value == pytest.approx(-10 / 6)
    assert minimax(game, short, evaluation, limit, strategy).value == alphabeta(game, short, evaluation, limit, strategy).value == -10.0
    # The old search (no endgame, no penalty) values it as a sure win in about two more guesses.
    old = Strategy(endgame=0, endgame_answers=0, loss=0.0)
    assert expectimax(game, short, evaluation, limit, old).value > 1.5 and minimax(game, short, evaluation, limit, old).value > 0


def test_the_search_prefers_the_opener_that_escapes_the_trap():
    # Five guesses in all. After SALET (y g - y y from all six) A is fixed at 2 and S, E, T must stay,
    # which leaves TACES legal: it splits the six three ways (T first: taste; C: caste; the rest).
    # SLATE leaves the trap above with four guesses: two losses. Searched to the end, SALET is worth
    # more than SLATE by far; the old search saw only a small gap.
    game, _ = trap_game()
    start = game.initial_state(hard=True, max_guesses=5)
    openers = np.array([game.words.guess_id("slate"), game.words.guess_id("salet")])
    evaluation = make_evaluation("cost")
    new = dict(expectimax(game, start, evaluation, Limit(depth=2), among=openers).alternatives)
    old = dict(expectimax(game, start, evaluation, Limit(depth=2), Strategy(endgame=0, endgame_answers=0, loss=0.0),
                          among=openers).alternatives)
    slate, salet = openers
    assert new[salet] - new[slate] > 1.0 > old[salet] - old[slate] > 0
    assert new[slate] == pytest.approx(-10 / 6)


def test_a_player_of_possible_candidates_only_sees_the_trap_in_normal_mode():
    # Normal mode, five guesses left after SLATE (y-ygg from all six _ASTE answers). Guessing only
    # possible answers, every guess is one of the six and tests one first letter: it wins or leaves
    # the other five together, so at most five are solved (guesses 2-6, worth 5, 4, 3, 2, 1) and the
    # sixth is lost: (5 + 4 + 3 + 2 + 1 - 10) / 6 = 5/6, searched to the end as in hard mode. Free to
    # play TACES (T first: taste; C: caste; the other four apart from them), the search sees no loss.
    game = small_game(TRAP, ["slate", "salet", "taces"])
    slate = game.words.guess_id("slate")
    after = game.step(game.initial_state(), slate, game.reply(slate, game.words.answer_id("waste")))
    evaluation, limit, strategy = make_evaluation("cost"), Limit(depth=2), Strategy(endgame=3, endgame_answers=30, loss=10.0)
    bound = expectimax(game, after, evaluation, limit, strategy, candidates_only=True)
    assert bound.value == pytest.approx(5 / 6) and game.words.guesses[bound.move] in TRAP
    assert minimax(game, after, evaluation, limit, strategy, candidates_only=True).value == -10.0
    assert expectimax(game, after, evaluation, limit, strategy).value > 2.0


def test_the_opening_is_searched_deeper_and_only_the_opening():
    # The hand game at depth 1 with an opening depth of 2: the first move is the depth-2 search's
    # (LANKY, 27.4 / 6, worked out above); later, BLACK, SLACK and FLASK left after LANKY are searched at
    # depth 1: every guess is worth its horizon value 5 - 1.2 = 3.8.
    game, acing, lanky = hand_game()
    limit, strategy = Limit(depth=1), Strategy(opening=2, **UNLIMITED)
    first = expectimax(game, game.initial_state(), Flat(1.2), limit, strategy, among=np.array([acing, lanky]))
    assert first.move == lanky and first.value == pytest.approx(27.4 / 6) and first.depth == 2
    later = game.step(game.initial_state(), lanky, game.reply(lanky, game.words.answer_id("black")))
    assert len(later.candidates) == 3
    result = expectimax(game, later, Flat(1.2), limit, strategy)
    assert result.depth == 1 and result.value == pytest.approx(3.8)


def test_a_beam_that_shows_only_losses_widens_until_a_guess_avoids_them():
    # Five guesses left after SALET; the legal guesses are the six answers, SALET and TACES. A flat
    # evaluation ties them all, so the beam takes the answers first, by index: BASTE, CASTE, ...
    # An answer guessed now wins (1/6, worth 5) or leaves five that every legal guess can only test one
    # at a time; four guesses left (searched to the end) solve four of them (worth 4, 3, 2, 1) and lose
    # one (-10): (4 + 3 + 2 + 1 - 10) / 5 = 0, so (5 + 5 x 0) / 6 = 5/6; minimax: -10. SALET again
    # splits nothing. TACES (the eighth guess) splits TASTE (g g - y y) and CASTE (y g y y y) from
    # the other four (y g - y y): TASTE and CASTE are solved with guess 3 (worth 4), and only those four
    # answers stay legal for the other four, solved one a guess with guesses 3-6 (4, 3, 2, 1: 2.5 on
    # average, 1 at worst): expectimax (4 + 4 + 4 x 2.5) / 6 = 3; minimax 1.
    game, after = salet_trap()
    assert len(after.candidates) == 6 and after.guesses_left == 5
    assert [game.words.guesses[g] for g in game.legal_guesses(after)] == [
        "baste", "caste", "haste", "paste", "salet", "taces", "taste", "waste"]
    assert {format_pattern(feedback("taces", a)) for a in ("baste", "haste", "paste", "waste")} == {"yg-yy"}
    assert (format_pattern(feedback("taces", "taste")), format_pattern(feedback("taces", "caste"))) == ("gg-yy", "ygyyy")
    taces, baste = game.words.guess_id("taces"), game.words.guess_id("baste")
    for beam in (1, 3):
        limit, narrow, wide = Limit(depth=2), Strategy(beam=beam, widen=0), Strategy(beam=beam)
        plain = expectimax(game, after, Flat(1.0), limit, narrow)
        assert plain.move == baste and plain.value == pytest.approx(5 / 6)
        widened = expectimax(game, after, Flat(1.0), limit, wide)
        assert widened.move == taces and widened.value == pytest.approx(3.0)
        assert len(widened.alternatives) == 8  # every legal guess searched: TACES comes last in the order
        assert minimax(game, after, Flat(1.0), limit, narrow).value == -10.0
        worst, pruned = minimax(game, after, Flat(1.0), limit, wide), alphabeta(game, after, Flat(1.0), limit, wide)
        assert (worst.move, worst.value) == (pruned.move, pruned.value) == (taces, 1.0)
        assert pruned.nodes <= worst.nodes
    # A cap short of TACES leaves the loss: six guesses searched (two beams of three) are all answers.
    assert expectimax(game, after, Flat(1.0), Limit(depth=2), Strategy(beam=3, widen=6)).value == pytest.approx(5 / 6)


def test_the_opening_searches_only_its_best_few_deeper():
    # The hand game, ACING and LANKY, minimax, depth 1, opening 2. At depth 1 both are worth
    # 5 - 1.2 = 3.8 and LANKY, a possible answer, comes first. opening_top=1: only LANKY is searched
    # two deep (3.8, worked out above); opening_top=2: ACING too (4.0), and it is played.
    game, acing, lanky = hand_game()
    openers = np.array([acing, lanky])
    for search in (minimax, alphabeta):
        one = search(game, game.initial_state(), Flat(1.2), Limit(depth=1), Strategy(opening=2, opening_top=1, **UNLIMITED),
                     among=openers)
        assert one.move == lanky and one.value == pytest.approx(3.8) and one.depth == 2
        two = search(game, game.initial_state(), Flat(1.2), Limit(depth=1), Strategy(opening=2, opening_top=2, **UNLIMITED),
                     among=openers)
        assert two.move == acing and two.value == pytest.approx(4.0)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(small_games(), trap_games()), st.integers(1, 3), st.integers(3, 6), st.booleans(), st.booleans())
def test_a_stopping_budget_returns_the_full_search_or_nothing(game, depth, max_guesses, hard, candidates_only):
    # With the nodes the full search needs from an empty table, a stopping budget gives exactly its
    # result (the table keeping whole values only); with one node fewer it stops.
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    evaluation = make_evaluation("cost")
    for search in (minimax, alphabeta, expectimax):
        limit, strategy = Limit(depth=depth), Strategy(beam=2)
        full = search(game, state, evaluation, limit, strategy, candidates_only=candidates_only, table=TranspositionTable())
        budget = Limit(depth=depth, nodes=full.nodes, stop=True)
        assert search(game, state, evaluation, budget, strategy, candidates_only=candidates_only,
                      table=TranspositionTable()) == full
        if full.nodes > 1:
            with pytest.raises(BudgetSpent):
                search(game, state, evaluation, Limit(depth=depth, nodes=full.nodes - 1, stop=True), Strategy(beam=2),
                       candidates_only=candidates_only, table=TranspositionTable())


@given(st.lists(st.integers(0, 60), unique=True), st.lists(st.integers(0, 60), unique=True))
def test_within_is_the_sorted_intersection(items, ascending):
    items, ascending = np.array(sorted(items), dtype=np.int64), np.array(sorted(ascending), dtype=np.int64)
    assert within(items, ascending).tolist() == np.intersect1d(items, ascending).tolist()
