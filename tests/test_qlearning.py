"""Tabular Q-learning: exact values on a tiny list, the bounded actions, the model file and the player."""

from __future__ import annotations

import re
import zipfile
import zlib

import numpy as np
import pytest

from agents.models import ModelError, load_model
from agents.qlearning import QConfig, QLearningAgent, QTable, Trainer, evaluate, state_hash
from agents.training import TrainingBudget

from .conftest import run_cli, small_game


def tiny():
    """HELLO, JELLY, BELLY: guessing HELLO gives JELLY and BELLY the same reply (-GGGG); the others split all three."""
    return small_game(["hello", "jelly", "belly"])


def trained(game, episodes: int = 6000, **config) -> Trainer:
    """A run on `game` trained for `episodes` exploring at random (Q-learning learns the greedy values off-policy)."""
    run = Trainer(QTable(game, QConfig(epsilon0=1.0, epsilon_half=1e12, eval_every=10**9, **config)), seed=1)
    run.train(TrainingBudget(episodes=episodes))
    return run


@pytest.mark.parametrize("init", ["prior", "zero"])
def test_converges_to_the_hand_worked_values(init):
    """Q(start, JELLY) = Q(start, BELLY) = -(1/3 * 1 + 2/3 * 2) = -5/3; Q(start, HELLO) = -(1/3 + 2/3 * 2.5) = -2.

    After HELLO with JELLY and BELLY left, guessing either is worth -(1/2 * 1 + 1/2 * 2) = -1.5.
    """
    game = tiny()
    run = trained(game, init=init)
    start = game.initial_state()
    row = run.table.row(start)
    value = {game.words.guesses[g]: q for g, q in zip(row[0], row[1])}
    assert value["jelly"] == pytest.approx(-5 / 3, abs=0.03)
    assert value["belly"] == pytest.approx(-5 / 3, abs=0.03)
    assert value["hello"] == pytest.approx(-2.0, abs=0.05)
    hello = game.words.guess_id("hello")
    after = game.step(start, hello, game.reply(hello, game.words.answer_id("jelly")))
    assert run.table.row(after)[1] == pytest.approx([-1.5, -1.5], abs=0.05)
    guesses, solved, _ = evaluate(run.table)
    assert solved.all() and guesses.mean() == pytest.approx(5 / 3)


def test_a_loss_costs_the_penalty():
    """With one guess allowed, each guess wins one time in three: Q = -1 - 4 * 2/3 (loss penalty 4)."""
    run = trained(tiny(), episodes=3000, max_guesses=1, loss_penalty=4.0)
    row = run.table.row(tiny().initial_state(max_guesses=1))
    assert row[1] == pytest.approx([-1 - 4 * 2 / 3] * 3, abs=0.1)


def test_actions_are_bounded_and_hold_the_best_answers(official_game):
    table = QTable(official_game, QConfig(width=5))
    state = official_game.initial_state()
    guesses, prior = table.options(state)
    assert 5 < len(guesses) <= 10
    assert np.all(np.diff(prior) <= 1e-12)
    assert np.isin(official_game.words.answer_rows, guesses).sum() >= 5
    after = official_game.step(state, int(guesses[0]), 0)
    assert len(table.options(after)[0]) <= 10


def test_hard_mode_keys_and_actions_respect_the_rule(official_game):
    table = QTable(official_game, QConfig(hard=True))
    start = official_game.initial_state(hard=True)
    tares = official_game.words.guess_id("tares")
    state = official_game.step(start, tares, official_game.reply(tares, official_game.words.answer_id("tacit")))
    guesses, _ = table.options(state)
    assert all(official_game.violation(state, int(g)) is None for g in guesses)
    normal = official_game.step(official_game.initial_state(), tares, state.history[0][1])
    assert state_hash(official_game, state) != state_hash(official_game, normal)


def test_save_and_load_round_trip(tmp_path):
    game = tiny()
    run = trained(game, episodes=300)
    path = tmp_path / "q.npz"
    run.save(path, "test")
    again = Trainer.load(game, path, hard=False)
    assert again.episodes == run.episodes and again.rng_state == run.rng_state and again.curve == run.curve
    assert run.table.rows.keys() == again.table.rows.keys()
    for key, row in run.table.rows.items():
        for mine, theirs in zip(row, again.table.rows[key]):
            assert np.array_equal(mine, theirs)


def stored_spans(path) -> dict[str, tuple[int, int]]:
    """Each zip member's stored (compressed) bytes in the file: name -> (first byte, end)."""
    data = path.read_bytes()
    spans = {}
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            offset = info.header_offset
            start = offset + 30 + int.from_bytes(data[offset + 26:offset + 28], "little") \
                + int.from_bytes(data[offset + 28:offset + 30], "little")
            spans[info.filename] = (start, start + info.compress_size)
    return spans


def members(path) -> dict[str, bytes] | None:
    """Each zip member's content by name, or None when the zip itself cannot be read."""
    try:
        with zipfile.ZipFile(path) as archive:
            return {name: archive.read(name) for name in archive.namelist()}
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, zlib.error, NotImplementedError):
        return None


def rezipped(path, target, edit) -> None:
    """`path` written again as a well-formed zip (every CRC right) after `edit(name, bytes) -> bytes` on each member."""
    with zipfile.ZipFile(path) as archive, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for info in archive.infolist():
            out.writestr(info.filename, edit(info.filename, archive.read(info.filename)))


@pytest.mark.slow
def test_damaged_or_foreign_models_are_refused(tmp_path):
    """Damage anywhere it matters is refused, whatever the file's length on this machine: a flipped byte at the
    start, middle and end of every member's stored bytes, and every member (the header among them) edited in a
    zip whose own checksums are right."""
    game = tiny()
    run = trained(game, episodes=100)
    path = tmp_path / "q.npz"
    run.save(path, "test")
    spans = stored_spans(path)
    assert "header_json.npy" in spans and len(spans) > 2
    original = members(path)
    bad = tmp_path / "bad.npz"
    for at in range(len(path.read_bytes())):  # every byte of the file, so no length puts a flip where none looks
        data = bytearray(path.read_bytes())
        data[at] ^= 0xFF
        bad.write_bytes(bytes(data))
        try:
            load_model(bad, "q-learning", False)
        except ModelError as error:
            assert re.search("damaged.*python cli.py train q-learning", str(error)), error
        else:  # read: then the flip changed nothing any member holds (a zip timestamp, a deflate stream's padding)
            assert members(bad) == original, f"byte {at} flipped, read as intact"
    header_edits = [(b'"seed": ', b'"seed": 1'), (b'"command": "', b'"command": "x'), (b'"learner": "q-', b'"learner": "Q-')]
    for name in spans:
        if name == "header_json.npy":
            for old, new in header_edits:
                assert old in zipfile.ZipFile(path).read(name), old
                rezipped(path, bad, lambda member, data: data.replace(old, new, 1) if member == name else data)
                with pytest.raises(ModelError, match="damaged.*python cli.py train q-learning"):
                    load_model(bad, "q-learning", False)
        else:
            rezipped(path, bad, lambda member, data: data[:-1] + bytes([data[-1] ^ 1]) if member == name else data)
            with pytest.raises(ModelError, match="damaged.*python cli.py train q-learning"):
                load_model(bad, "q-learning", False)
    rezipped(path, bad, lambda member, data: data)
    assert load_model(bad, "q-learning", False)[1]["learner"] == "q-learning"  # an intact copy is read
    with pytest.raises(ModelError, match="other word lists"):
        load_model(path, "q-learning", False, checksum="0" * 64)
    with pytest.raises(ModelError, match="hard"):
        load_model(path, "q-learning", True)
    with pytest.raises(ModelError, match="no q-learning model"):
        load_model(tmp_path / "missing.npz", "q-learning", False)


def test_the_player_reads_its_table(tmp_path, monkeypatch):
    game = tiny()
    run = trained(game, episodes=2000)
    monkeypatch.setenv("WORDLE_ARENA_MODELS", str(tmp_path))
    run.save(tmp_path / "q-learning-normal.npz", "test")
    agent = QLearningAgent(game)
    decision = agent.decide(game.initial_state(), np.random.default_rng(0))
    row = run.table.row(game.initial_state())
    assert decision.guess == row[0][np.argmax(row[1])] and decision.value == pytest.approx(row[1].max())


def test_cli_names_the_train_command_when_the_model_is_missing(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("WORDLE_ARENA_MODELS", str(tmp_path))
    code, out, err = run_cli(capsys, "train", "q-learning", "--device", "cuda")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "CPU" in err


def test_cli_train_writes_an_unsolved_worst_game_as_x(capsys, tmp_path):
    """One guess cannot solve six answers: the summary says worst X, as the tournament, tree and openers do."""
    words = tmp_path / "words.txt"
    words.write_text("lanky\nblack\nslack\nflask\npanel\nparka\n")
    code, out, _ = run_cli(capsys, "train", "q-learning", "--answers", str(words), "--guesses", str(words),
                           "--episodes", "5", "--max-guesses", "1", "--out", str(tmp_path / "models"))
    assert code == 0 and "worst X" in out and "worst 2" not in out


def test_a_budget_is_spent_by_whichever_limit_comes_first(monkeypatch):
    """Games and minutes both given: the share spent is the larger of the two (it drives the progress bar and
    ppo's learning-rate schedule), capped at 1."""
    import agents.training as training
    monkeypatch.setattr(training.time, "monotonic", lambda: 130.0)
    budget = TrainingBudget(episodes=1000, seconds=60.0)
    assert budget.fraction(episodes=100, started=100.0, first=0) == pytest.approx(0.5)  # 30 s of 60
    assert budget.fraction(episodes=900, started=100.0, first=0) == pytest.approx(0.9)
    assert TrainingBudget(episodes=1000).fraction(episodes=250, started=100.0, first=0) == pytest.approx(0.25)
    assert TrainingBudget(seconds=15.0).fraction(episodes=0, started=100.0, first=0) == 1.0
