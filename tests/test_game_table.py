"""The web's table of games being played: finished games never lock a player out, a game played in the last
minutes is never dropped to make room, and the table never holds more than its size."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plumbing.errors import UserError
from web.game_table import GameTable
from web.workers import Busy


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class TooMany(UserError):
    """The per-client refusal of these tests."""


def table(most: int = 4, per_client: int = 2, clock: Clock | None = None) -> GameTable[str]:
    """A small table: idle after 3600 s, kept for 600 s."""
    return GameTable(most, per_client, 3600.0, 600.0, "games", TooMany, clock or Clock())


def test_finished_games_do_not_count_toward_a_client_s_games():
    games = table(most=100, per_client=2)
    for number in range(30):  # a player who finishes each game is never refused
        games.finish(games.add(f"game {number}", "a"))
    games.add("x", "a")
    games.add("y", "a")
    with pytest.raises(TooMany, match="already has 2 unfinished games"):
        games.add("z", "a")
    games.add("z", "b")  # another client is not refused


def test_a_full_table_makes_room_with_a_finished_game_first_then_an_idle_one_and_else_refuses():
    clock = Clock()
    games = table(most=3, per_client=3, clock=clock)
    old, played, done = games.add("old", "a"), games.add("played", "b"), games.add("done", "c")
    clock.now = 100.0
    games.get(played)
    games.finish(done)
    fresh = games.add("fresh", "d")  # room made by the finished game, though it was played after `old`
    assert games.get(done) is None and games.get(old) == "old" and len(games) == 3
    clock.now = 599.0
    with pytest.raises(Busy, match="3 unfinished games, each played in the last 10 min"):
        games.add("refused", "e")  # every game was played within 600 s: none is dropped
    assert [games.get(key) for key in (old, played, fresh)] == ["old", "played", "fresh"]
    clock.now = 1300.0
    games.get(played)
    games.get(fresh)
    games.add("new", "e")  # `old` was left alone 701 s: it makes room
    assert games.get(old) is None and games.get(played) == "played" and games.get(fresh) == "fresh"


def test_a_game_left_alone_an_hour_is_forgotten_and_no_longer_counts():
    clock = Clock()
    games = table(most=10, per_client=1, clock=clock)
    key = games.add("left", "a")
    with pytest.raises(TooMany):
        games.add("second", "a")
    clock.now = 3601.0
    games.add("second", "a")
    assert games.get(key) is None and "a" in games.unfinished and len(games) == 1


def test_unknown_keys_are_none():
    games = table()
    assert games.get("nope") is None and games.get(None) is None and games.get(["x"]) is None
    games.finish("nope")  # nothing to finish: nothing happens


ACTIONS = st.lists(st.one_of(
    st.tuples(st.just("add"), st.integers(0, 5)),  # a new game from client k
    st.tuples(st.just("play"), st.integers(0, 40)),  # a guess in the i-th game made
    st.tuples(st.just("finish"), st.integers(0, 40)),
    st.tuples(st.just("wait"), st.sampled_from([1.0, 30.0, 300.0, 700.0, 4000.0]))), max_size=120)


@settings(max_examples=200, deadline=None)
@given(ACTIONS)
def test_the_table_keeps_its_promises_under_any_sequence(actions):
    """Never more than `most` games, never more than `per_client` unfinished for a client, and a game that is
    unfinished and was played within 600 s is always still there (a reference model beside the table)."""
    clock = Clock()
    games = table(most=5, per_client=2, clock=clock)
    made: list[str] = []
    last_played: dict[str, float] = {}
    finished: set[str] = set()
    for action, value in actions:
        if action == "add":
            try:
                key = games.add(f"g{len(made)}", f"client {value}")
            except (TooMany, Busy):
                continue
            made.append(key)
            last_played[key] = clock.now
        elif action == "play" and value < len(made):
            if games.get(made[value]) is not None:
                last_played[made[value]] = clock.now
        elif action == "finish" and value < len(made):
            games.finish(made[value])
            finished.add(made[value])
        elif action == "wait":
            clock.now += value
        assert len(games) <= 5
        assert all(len(keys) <= 2 for keys in games.unfinished.values())
        for key in made:
            if key not in finished and clock.now - last_played[key] < 600.0:
                assert key in games.kept, "a game played in the last 10 minutes was dropped"
