"""Per-game records: CSV round trip, strict reading, the journal's cut-off last line; plan settings checks."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

import pytest

from variants import GameSpec
from tournament.plan import Plan, default_folder, settings_difference
from tournament.records import GameRecord, Journal, ResultsError, file_text, read_file

word = st.text(alphabet="abcdez", min_size=5, max_size=5)
record = st.builds(
    GameRecord.of_answer,
    agent=st.sampled_from(["random", "entropy", "two-step"]),
    mode=st.sampled_from(["normal", "hard"]),
    answer=word,
    guesses=st.lists(word, max_size=6).map(tuple),
    patterns=st.just(()),  # one pattern a guess, set below
    solved=st.booleans(),
    nodes=st.integers(0, 10**9),
    error=st.sampled_from(["", "ValueError: bad, \"quoted\" text"]),
    seconds=st.floats(0, 100).map(lambda s: round(s, 6)),
).map(lambda r: GameRecord.of_answer(r.agent, r.mode, r.game, r.guesses, tuple(range(len(r.guesses))), r.solved,
                                     r.nodes, r.error, r.seconds))


@settings(max_examples=50, deadline=None)
@given(st.lists(record, max_size=8))
def test_journal_text_round_trips(tmp_path_factory, records):
    path = tmp_path_factory.mktemp("rt") / "journal.csv"
    path.write_text(file_text("journal", {"x": 1}, records))
    loaded = read_file(path, "journal")
    assert loaded.meta == {"x": 1} and loaded.records == records


def test_games_file_drops_timing_and_is_strict(tmp_path):
    game = GameRecord.of_answer("random", "hard", "cigar", ("crane", "cigar"), (100, 242), True, 0, "", 0.5)
    path = tmp_path / "games.csv"
    path.write_text(file_text("games", {}, [game]))
    assert read_file(path, "games").records == [GameRecord.of_answer("random", "hard", "cigar", ("crane", "cigar"),
                                                                     (100, 242), True, 0)]
    for bad, message in [("random,hard,cigar,3,crane cigar", "fields"),
                         ("random,easy,cigar,2,crane cigar,g---- ggggg,1,0,", "mode"),
                         ("random,hard,cigar,3,crane cigar,g---- ggggg,1,0,", "turns says 3"),
                         ("random,hard,cigar,2,crane cigar,g---- gggqq,1,0,", "patterns"),
                         ("random,hard,cigar,2,crane cigar,g---- ggggg,2,0,", "solved must be"),
                         ("random,hard,cigar,2,crane cigar,g---- ggggg,1,-4,", "nodes")]:
        path.write_text(file_text("games", {}, []) + bad + "\n")
        with pytest.raises(ResultsError, match=message):
            read_file(path, "games")
    path.write_text(file_text("games", {}, [game])[:-3])
    with pytest.raises(ResultsError, match="cut off"):
        read_file(path, "games")


def test_journal_reopening_cuts_a_partial_line_and_adds_a_session(tmp_path):
    path = tmp_path / "journal.csv"
    journal = Journal(path, meta={"settings": {}})
    journal.write(GameRecord.of_answer("random", "normal", "cigar", ("cigar",), (242,), True, 0, "", 0.1))
    journal.close()
    with open(path, "a") as out:
        out.write("random,normal,reb")
    loaded = read_file(path, "journal", allow_partial_last_line=True)
    assert len(loaded.records) == 1
    Journal(path, keep_bytes=loaded.complete_bytes, session={"argv": ["x"]}).close()
    again = read_file(path, "journal")
    assert len(again.records) == 1 and again.sessions == [{"argv": ["x"]}]


def test_settings_difference_names_what_changed():
    plan = Plan(("random",), ("normal", "hard"), (0, 1), 0, (("depth", 2),), None, GameSpec(), "abc")
    same = plan.settings()
    assert settings_difference(same, plan.settings()) is None
    deeper = Plan(("random",), ("normal", "hard"), (0, 1), 0, (("depth", 3),), None, GameSpec(), "abc")
    assert settings_difference(same, deeper.settings()) == "agent options differ (depth=2 there, depth=3 here)"
    other_lists = Plan(("random",), ("normal", "hard"), (0, 1), 0, (("depth", 2),), None, GameSpec(), "xyz")
    assert "word lists differ" in settings_difference(same, other_lists.settings())
    assert str(default_folder(plan)) == "results/tournament-depth-2"
    wider = Plan(("random",), ("normal", "hard"), (0, 1), 0, (("depth", 2),), None, GameSpec(), "abc",
                 agent_settings={"random": {"beam": 20}})
    assert settings_difference(same, wider.settings()) == "agent settings differ (none there, random={'beam': 20} here)"


def test_a_changed_default_is_a_changed_plan(official_game):
    """The plan records every agent's full settings, so a run with other defaults is refused by --resume."""
    from tournament import make_plan

    plan = make_plan(official_game.words, agents="expectimax,entropy", options={"beam": 12})
    assert plan.agent_settings["entropy"] == {}
    assert plan.agent_settings["expectimax"] == {"depth": 2, "eval": "cost", "eval_mode": "local", "threshold": 100,
                                                 "beam": 12, "weights": None, "nodes": None, "pool": 300}
    changed = dict(plan.settings(), agent_settings={"entropy": {}, "expectimax": {
        **plan.agent_settings["expectimax"], "pool": 200}})
    assert settings_difference(changed, plan.settings()).startswith("agent settings differ")


def test_the_canonical_command_names_every_option():
    from commands.tournament import tournament_command

    plan = Plan(("expectimax",), ("hard",), (0, 1), 7, (("depth", 2), ("weights", [0.5, 0.3, 0.1, 0.1])), 2, GameSpec(), "abc")
    assert tournament_command(plan) == ("python cli.py tournament --agents expectimax --mode hard --seed 7 "
                                            "--max-guesses 6 --sample 2 --depth 2 --weights 0.5,0.3,0.1,0.1")
