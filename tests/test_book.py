"""The opening book and position table: built from a complete run, refused when partial, forged, damaged or
inconsistent, re-checked by verify --book, and read by the valuation."""

from __future__ import annotations

import functools
import gzip
import json
import warnings

import numpy as np
import pytest

from plumbing.errors import UserError
from tournament.exact_openers import run_job
from wordle import load_words
from wordle.book import (SCALE, BookRefused, OpeningBook, Shelf, _TABLES, _load_book, encode_artefact, opening_book,
                         position_table, sha256, table_value)
from wordle.book_build import build_book, pack_positions
from wordle.book_verify import verify_book
from wordle.hardmode import Hints, extend_hints
from wordle.solver import INFEASIBLE, Solver
from wordle.positions import compute_table, opener_cost, read_work
from wordle.valuation import Budget, value_position

from .conftest import run_cli, small_game
from .test_optimal import POOL_ANSWERS, POOL_GUESSES

GAME = small_game(POOL_ANSWERS, POOL_GUESSES)
GUESSES = tuple(GAME.words.guesses)
CHECKSUM = GAME.words.checksum


@pytest.fixture(autouse=True)
def fresh_books():
    """Every test loads its books anew (the loaders remember what they read)."""
    _load_book.cache_clear()
    _TABLES.clear()
    yield
    _load_book.cache_clear()
    _TABLES.clear()


def make_run(folder, hard=False, openers=None, slack=3, game=GAME):
    """A run of the real all-opener job on a small game (exact up to the best total + slack, bounds above; slack
    None: every opener exact)."""
    path = folder / f"openers-exact-{'hard' if hard else 'normal'}-all.jsonl"
    cut = None if slack is None else Solver(game, hard=hard).solve().total + slack
    run_job(game, hard, 6, list(openers or game.words.guesses), path, "test", engine="local", jobs=1, cut=cut)
    return path


_BUILT: dict[bool, tuple[str, bytes]] = {}


def make_book(folder, hard=False):
    """The small game's book, built once per mode from a complete run, copied into `folder`: its path and a
    shelf naming it."""
    if hard not in _BUILT:
        built = folder / "built"
        built.mkdir()
        path, _, _ = build_book(GAME, make_run(built, hard), folder=built, command="test")
        _BUILT[hard] = path.name, path.read_bytes()
    name, payload = _BUILT[hard]
    (folder / name).write_bytes(payload)
    return folder / name, Shelf(folder, ((name, sha256(payload)),))


def on_shelf(monkeypatch, shelf):
    """The valuation reads its book and table from `shelf`."""
    import wordle.valuation

    monkeypatch.setattr(wordle.valuation, "opening_book", functools.partial(opening_book, shelf=shelf))
    monkeypatch.setattr(wordle.valuation, "table_value", functools.partial(table_value, shelf=shelf))


def rewrite(path, change):
    """Change a built artefact's JSON with `change` and re-encode it; a shelf naming the new bytes (the data is bad,
    the checksum right)."""
    data = json.loads(gzip.decompress(path.read_bytes()))
    change(data)
    payload = encode_artefact(data)
    path.write_bytes(payload)
    return Shelf(path.parent, ((path.name, sha256(payload)),))


def start_value(monkeypatch, shelf, hard=False):
    """The opening position's value with the small game's book on `shelf` (or, refused, from search)."""
    on_shelf(monkeypatch, shelf)
    state = GAME.initial_state(hard=hard)
    return value_position(GAME, state, budget=Budget(seconds=None, nodes=10**7),
                          solver=Solver(GAME, hard=hard)).value


@pytest.mark.slow
def test_the_book_holds_every_opener_exact_bounded_or_no_win(tmp_path):
    path, shelf = make_book(tmp_path)
    book = opening_book(GUESSES, CHECKSUM, False, 6, shelf)
    best = Solver(GAME).solve().total
    assert book.exact[book.best] // SCALE == best
    assert len(book.exact) + len(book.lower) + len(book.no_win) == len(GUESSES)
    assert all(cost // SCALE > best + 3 for cost in book.lower.values())
    solver = Solver(GAME)
    answers = np.arange(len(GAME.words.answers))
    for opener, cost in book.exact.items():  # a slow oracle: every exact total solved again
        assert solver.try_guess(answers, 6, None, opener, INFEASIBLE) == cost
    data = json.loads(gzip.decompress(path.read_bytes()))
    assert data["provenance"]["run"]["sha256"] and data["provenance"]["command"] == "test"
    assert path.read_bytes() == encode_artefact(data)  # the same data gives the same bytes


@pytest.mark.slow
def test_no_win_openers_are_kept_in_hard_mode(tmp_path):
    trap = small_game(["baste", "caste", "haste", "paste", "taste", "waste", "vaste"], ["chimp", "beach"])
    path, digest, draft = build_book(trap, make_run(tmp_path, hard=True, game=trap, slack=None), folder=tmp_path, command="test")
    shelf = Shelf(tmp_path, ((path.name, digest),))
    book = opening_book(tuple(trap.words.guesses), trap.words.checksum, True, 6, shelf)
    assert book.no_win, "a hard-mode trap leaves some opener without a win"
    for opener in book.no_win:
        assert draft.entries[trap.words.guesses[opener]][0] == "no_win"
        assert Solver(trap, hard=True).try_guess(np.arange(7), 6, Hints(), opener, INFEASIBLE) >= INFEASIBLE


@pytest.mark.slow
def test_a_partial_run_is_refused(tmp_path):
    run = make_run(tmp_path, openers=GUESSES[:5])
    with pytest.raises(UserError, match="partial run"):
        build_book(GAME, run, folder=tmp_path)


@pytest.mark.slow
def test_a_top_n_run_that_contradicts_the_all_opener_run_is_refused(tmp_path):
    run = make_run(tmp_path)
    top = tmp_path / "top.jsonl"
    lines = run.read_text().splitlines()
    rows = [json.loads(line) for line in lines[1:]]
    bounded = next(row for row in rows if row.get("exact") is False)
    forged = dict(bounded, total=bounded["total"] - 1, exact=True)
    top.write_text(lines[0] + "\n" + json.dumps(forged) + "\n")
    with pytest.raises(UserError, match=bounded["opener"]):
        build_book(GAME, run, [top], folder=tmp_path)


def _drop_one(data):
    data["entries"].pop()


def _disagree(data):
    data["entries"].append([data["entries"][0][0], "exact", 999, 0])


def _exact_below_best(data):
    row = next(row for row in data["entries"] if row[0] != data["best"])
    row[1:] = ["exact", 10, 0]


def _bound_below_best(data):
    row = next(row for row in data["entries"] if row[1] == "at_least")
    row[2] = 10


def _best_not_least(data):
    data["best"] = next(row[0] for row in data["entries"] if row[1] == "exact" and row[0] != data["best"])


def _other_lists(data):
    data["word_lists_sha256"] = "0" * 64


def _other_version(data):
    data["format"] = "wordle-arena opening book v0"


@pytest.mark.parametrize("change, reason", [
    (_drop_one, "covers"), (_disagree, "disagree"), (_exact_below_best, "not the least"),
    (_bound_below_best, "not the least"), (_best_not_least, "not the least"), (_other_lists, "other word lists"),
    (_other_version, "format")])
def test_an_inconsistent_or_partial_book_is_refused_in_one_line(tmp_path, monkeypatch, change, reason):
    path, shelf = make_book(tmp_path)
    proved = start_value(monkeypatch, shelf)
    _load_book.cache_clear()
    bad = rewrite(path, change)
    with pytest.warns(BookRefused) as caught:
        book = opening_book(GUESSES, CHECKSUM, False, 6, bad)
    assert len(caught) == 1 and str(path) in str(caught[0].message) and reason in str(caught[0].message)
    assert "\n" not in str(caught[0].message)
    assert book.best is None and not book.exact
    assert start_value(monkeypatch, bad) == proved  # from search now, the same proved value


@pytest.mark.parametrize("damage", ["forged", "damaged", "missing", "folder"])
def test_a_forged_damaged_or_missing_book_is_refused_in_one_line(tmp_path, monkeypatch, damage):
    path, shelf = make_book(tmp_path)
    proved = start_value(monkeypatch, shelf)
    _load_book.cache_clear()
    if damage == "forged":  # one entry changed, the checksum in the code left as it was
        rewrite(path, lambda data: data["entries"][0].__setitem__(2, 1))
    elif damage == "damaged":
        path.write_bytes(path.read_bytes()[:-20])
    elif damage == "missing":
        path.unlink()
    else:
        path.unlink()
        path.mkdir()
    with pytest.warns(BookRefused) as caught:
        book = opening_book(GUESSES, CHECKSUM, False, 6, shelf)
    assert len(caught) == 1 and str(path) in str(caught[0].message) and "\n" not in str(caught[0].message)
    assert book.best is None
    assert start_value(monkeypatch, shelf) == proved


def test_files_in_results_change_nothing(tmp_path, monkeypatch):
    _, shelf = make_book(tmp_path)
    before = opening_book(GUESSES, CHECKSUM, False, 6, shelf)
    results = tmp_path / "results"
    results.mkdir()
    (results / "openers-exact-normal-evil.jsonl").write_text(
        json.dumps({"mode": "normal", "max_guesses": 6, "word_lists_sha256": CHECKSUM}) + "\n"
        + json.dumps({"opener": GUESSES[0], "total": 1, "long_games": 0}) + "\n")
    monkeypatch.chdir(tmp_path)
    _load_book.cache_clear()
    assert opening_book(GUESSES, CHECKSUM, False, 6, shelf) == before


def test_verify_book_catches_a_changed_total(tmp_path):
    path, shelf = make_book(tmp_path)
    assert verify_book(GAME, False, sample=100, shelf=shelf).problems == []
    data = json.loads(gzip.decompress(path.read_bytes()))
    other = next(row[0] for row in data["entries"] if row[1] == "exact" and row[0] != data["best"])

    def one_more(data):
        """Another exact opener's total one higher."""
        next(row for row in data["entries"] if row[0] == other)[2] += 1

    changed = rewrite(path, one_more)
    check = verify_book(GAME, False, sample=100, shelf=changed)
    assert len(check.problems) == 1 and other in check.problems[0]

    def bound_too_high(data):
        """A rejected opener's bound far above its true total."""
        next(row for row in data["entries"] if row[1] == "at_least")[2] += 50

    check = verify_book(GAME, False, sample=100, shelf=rewrite(path, bound_too_high))
    assert any("bound" in problem and "is false" in problem for problem in check.problems)


# -- the position table --------------------------------------------------------------------------------
def make_table(folder, hard=False, openers=("salet", "crate", "champ"), nodes=10**6):
    """The small game's book and table for its best opener and `openers`: the table's path, the shelf naming
    both, and the best opener."""
    book_path, shelf = make_book(folder, hard)
    book = opening_book(GUESSES, CHECKSUM, hard, 6, shelf)
    openers = list(dict.fromkeys([GUESSES[book.best], *openers]))
    work = folder / "work.jsonl"
    done = compute_table(GAME, hard, openers, work, "test", nodes=nodes)
    path, digest = pack_positions(GAME, hard, 6, work, done, openers, book, folder=folder)
    _load_book.cache_clear()
    return path, Shelf(folder, (*shelf.checksums, (path.name, digest))), GUESSES[book.best]


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.slow
def test_the_table_holds_every_replys_exact_value(tmp_path, monkeypatch, hard):
    _, shelf, _ = make_table(tmp_path, hard)
    on_shelf(monkeypatch, shelf)
    table = position_table(GAME, hard, 6, shelf)
    assert {GUESSES[opener] for opener in table.openers} >= {"salet", "crate", "champ"}
    solver = Solver(GAME, hard=hard)
    for opener in ("salet", "crate", "champ"):
        index = GAME.words.guess_index[opener]
        state = GAME.initial_state(hard=hard)
        for code, group in GAME.partition(state.candidates, index):
            if code == 242:
                continue
            after = GAME.step(state, index, code)
            value = table_value(GAME, after, shelf=shelf)
            hints = extend_hints(Hints(), opener, code) if hard else None
            assert value.settled and value.low == solver.solve_set(group, 5, hints)  # the slow oracle
            valuation = value_position(GAME, after, budget=Budget(seconds=None, nodes=1), solver=Solver(GAME, hard=hard))
            if len(group) > 2:  # instantly proved, from the table
                assert valuation.proved and valuation.value.low == (value.low // SCALE) / len(group)
                assert GAME.words.guesses[valuation.best] == value.guess


def test_an_unsettled_reply_keeps_true_bounds_never_an_exact_value(tmp_path):
    work = tmp_path / "work.jsonl"
    done = compute_table(GAME, False, ["wimpy", "thumb"], work, "test", nodes=1)
    solver = Solver(GAME)
    open_ = [(opener, reply) for opener, replies in done.items() for reply in replies if not reply.settled]
    assert open_, "one node a reply leaves some unsettled"
    for opener, reply in open_:
        group = next(group for code, group in GAME.partition(np.arange(len(POOL_ANSWERS)),
                                                             GAME.words.guess_index[opener]) if code == reply.pattern)
        exact = solver.solve_set(group, 5)
        assert reply.low <= exact <= reply.high and reply.low < reply.high


def test_the_work_file_resumes(tmp_path):
    work = tmp_path / "work.jsonl"
    compute_table(GAME, False, ["salet"], work, "test")
    seen = []
    done = compute_table(GAME, False, ["salet", "crate"], work, "test", on_opener=lambda opener, *_: seen.append(opener))
    assert seen == ["crate"] and set(done) == {"salet", "crate"} and set(read_work(work)[1]) == {"salet", "crate"}
    with pytest.raises(UserError, match="other settings"):
        compute_table(GAME, False, ["salet"], work, "test", nodes=5)


def test_a_table_packed_after_a_resume_records_the_later_plan_and_the_packing_command(tmp_path):
    """A work file resumed with more openers keeps its first header; the table packed from it records the plan and
    command that packed it, beside the first build's command."""
    work = tmp_path / "work.jsonl"
    compute_table(GAME, False, ["wimpy"], work, "first", nodes=1)
    done = compute_table(GAME, False, ["wimpy", "thumb"], work, "second", nodes=1)
    path, _ = pack_positions(GAME, False, 6, work, done, ["wimpy", "thumb"], OpeningBook(), folder=tmp_path,
                             planned=["wimpy", "thumb", "champ"], command="second")
    data = json.loads(gzip.decompress(path.read_bytes()))
    assert read_work(work)[0]["openers"] == ["wimpy"] and data["planned"] == ["wimpy", "thumb", "champ"]
    assert data["provenance"]["command"] == "first" and data["provenance"]["packed_by"]["command"] == "second"
    assert sorted(data["openers"]) == ["thumb", "wimpy"]


def test_a_table_of_other_lists_has_its_own_work_file(official_game, nyt_game):
    """The 2022 tables' work files keep their names; any other lists' default is named by the lists, so a build on
    them never meets (nor is refused by) the 2022 ones."""
    from pathlib import Path

    from commands.book import default_work

    assert default_work(official_game, "hard") == Path("results/book-table-hard.jsonl")
    assert default_work(nyt_game, "normal") == Path("results/book-table-normal-fe7b21091964.jsonl")


@pytest.mark.slow
def test_a_table_of_other_lists_covers_the_common_openers_and_the_best_of_their_own_ranking(nyt_game):
    """On today's lists: the 40 common openers and the best 10 of each mode's own ranking (the book's exact totals
    first, then the root bound; no-win openers never chosen), solved best first, the slow poor ones last."""
    from commands.book import table_plan
    from wordle.positions import COMMON_OPENERS

    normal, hard = (table_plan(nyt_game, mode, 6, 10) for mode in (False, True))
    assert set(normal) == set(hard) == {*COMMON_OPENERS, "tarse", "parse", "peart", "carle"}
    assert normal[:3] == ["tarse", "trace", "crate"] and hard[:3] == ["salet", "least", "trace"]
    assert normal[-3:] == ["audio", "adieu", "ouija"]


@pytest.mark.parametrize("change, reason", [("lower", "add up"), ("sizes", "not the game's")])
def test_a_table_that_contradicts_the_book_or_the_game_is_refused(tmp_path, change, reason):
    path, shelf, best = make_table(tmp_path)

    def bad_row(data):
        """The best opener's largest reply one guess cheaper, or another size."""
        row = max(data["openers"][best], key=lambda row: row[1])
        if change == "lower":
            row[2] -= SCALE
            row[3] -= SCALE
        else:
            row[1] += 1

    table = rewrite(path, bad_row)
    bad = Shelf(tmp_path, (*shelf.checksums[:1], *table.checksums))
    with pytest.warns(BookRefused) as caught:
        assert position_table(GAME, False, 6, bad).replies == {}
    assert len(caught) == 1 and str(path) in str(caught[0].message) and reason in str(caught[0].message)


def test_verify_book_catches_a_changed_table_value(tmp_path):
    path, shelf, _ = make_table(tmp_path, openers=("wimpy",))
    assert verify_book(GAME, False, sample=1000, shelf=shelf).problems == []

    def one_more(data):
        """A small reply's exact cost one guess higher (the opener's sum then no longer matches the book)."""
        row = next(row for row in data["openers"]["wimpy"] if row[1] >= 3)
        row[2] += SCALE
        row[3] += SCALE

    table = rewrite(path, one_more)
    check = verify_book(GAME, False, sample=1000, shelf=Shelf(tmp_path, (*shelf.checksums[:1], *table.checksums)))
    assert check.problems and "wimpy" in check.problems[0]


# -- the shipped book ----------------------------------------------------------------------------------
@pytest.mark.parametrize("hard, total, long_games", [(False, 7920, 0), (True, 8122, 12)])
def test_the_shipped_book_proves_salet(hard, total, long_games):
    words = load_words()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the shipped book is not refused
        book = opening_book(tuple(words.guesses), words.checksum, hard, 6)
    assert words.guesses[book.best] == "salet" and book.exact[book.best] == total * SCALE + long_games
    assert len(book.exact) + len(book.lower) + len(book.no_win) == len(words.guesses)
    if hard:  # proved by the hard-mode job: no win within 6 guesses
        assert {"trace", "slate"} <= {words.guesses[opener] for opener in book.no_win}
    else:
        assert book.exact[words.guess_index["crane"]] // SCALE == 7930


#: Today's lists' books: (answer list, mode) -> the best opener, its total and games over 5 (Selby publishes TARSE
#: 7883 and SALET 8097 for the 2309 answers with the 14855 guesses, his results_*_nyt20220830 files).
TODAYS_BOOKS = {("nyt", False): ("tarse", 7883, 1), ("nyt", True): ("salet", 8097, 11),
                ("played", False): ("tarse", 8062, 1), ("played", True): ("salet", 8278, 8)}


@pytest.mark.parametrize("answers, hard", list(TODAYS_BOOKS))
def test_the_books_for_todays_lists_prove_the_published_best(answers, hard):
    """Each book of today's lists is read (its checksum checked, nothing refused), holds every one of the 14855
    openers, and proves Selby's best where he published one."""
    from wordle.words import named_words

    words = named_words(answers, "nyt")
    best, total, long_games = TODAYS_BOOKS[answers, hard]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        book = opening_book(tuple(words.guesses), words.checksum, hard, 6)
    assert words.guesses[book.best] == best and book.exact[book.best] == total * SCALE + long_games
    assert len(book.exact) + len(book.lower) + len(book.no_win) == len(words.guesses) == 14855


@pytest.mark.slow
@pytest.mark.parametrize("answers", ["nyt"])
def test_a_sample_of_todays_books_is_proved_again(answers, capsys):
    """verify --book on today's lists, both modes: each exact total solved again and its tree replayed, and a seeded
    sample of the bounds and no-win entries proved again. (The played lists' books take 12 min of this check on a
    busy 2-core machine, too long for CI; they are checked the same way by hand, and their checksums here.)"""
    code, out, err = run_cli(capsys, "verify", "--book", "--answers", answers, "--guesses", "nyt", "--sample", "3")
    books = {line.split(" book:")[0]: line for line in out.splitlines() if " book:" in line}
    assert books["normal"].endswith("all true") and "TARSE" in books["normal"], (out, err)
    assert books["hard"].endswith("all true") and "SALET" in books["hard"], (out, err)


def test_verify_book_on_lists_with_no_book_fails_in_one_line_a_mode(tmp_path, capsys):
    answers, guesses = tmp_path / "answers.txt", tmp_path / "guesses.txt"
    answers.write_text("\n".join(POOL_ANSWERS) + "\n")
    guesses.write_text("\n".join(GUESSES) + "\n")
    code, out, err = run_cli(capsys, "verify", "--book", "--answers", str(answers), "--guesses", str(guesses))
    assert code == 1
    assert err.splitlines() == [f"wordle-arena: verify: no {mode} book is shipped for these word lists"
                                for mode in ("normal", "hard")]
    assert out.count("FAILED") == 2


#: The shipped position tables: (lists, mode) -> the book's best opener (an exact total the table must add up to) and
#: its replies' count ("2022": the default lists; "nyt" and "played": --answers nyt|played --guesses nyt).
SHIPPED_TABLES = {("2022", False): ("salet", 148), ("2022", True): ("salet", 148),
                  ("nyt", False): ("tarse", 147), ("nyt", True): ("salet", 148), ("played", False): ("tarse", 147),
                  ("played", True): ("salet", 149)}


@pytest.mark.parametrize("lists, hard", list(SHIPPED_TABLES))
def test_the_shipped_table_holds_every_reply_to_the_best_opener_and_adds_up_to_its_total(official_game, nyt_game,
                                                                                        played_game, lists, hard):
    """Read (checksum and sums checked on load, nothing refused), every reply to the book's best opener is settled
    and they add up to its exact total; the valuation reads a reply's value from the table (one solver node)."""
    game = {"2022": official_game, "nyt": nyt_game, "played": played_game}[lists]
    best, count = SHIPPED_TABLES[lists, hard]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # neither the book nor the table is refused (the table's sums checked on load)
        table = position_table(game, hard, 6)
        book = opening_book(tuple(game.words.guesses), game.words.checksum, hard, 6)
    index = game.words.guess_index[best]
    assert book.best == index
    replies = [value for (opener, _), value in table.replies.items() if opener == index]
    assert len(replies) == count and all(value.settled for value in replies)
    assert opener_cost(replies, len(game.words.answers)) == (book.exact[index], book.exact[index])
    largest = max(replies, key=lambda value: value.answers)
    after = game.step(game.initial_state(hard=hard), index, largest.pattern)
    valuation = value_position(game, after, budget=Budget(seconds=None, nodes=1))
    assert valuation.proved and valuation.value.low == (largest.low // SCALE) / largest.answers
    assert game.words.guesses[valuation.best] == largest.guess


@pytest.mark.parametrize("opener, total", [("salet", 7894), ("crane", 7902)])
def test_an_opener_the_book_only_bounds_is_proved_by_the_tables_replies(nyt_game, opener, total):
    """On the nyt lists the book bounds SALET and CRANE only (TARSE is its exact best); the table holds every reply of
    theirs settled, so the first position's valuation shows their totals proved, at one solver node, with no search."""
    index = nyt_game.words.guess_index[opener]
    book = opening_book(tuple(nyt_game.words.guesses), nyt_game.words.checksum, False, 6)
    assert index in book.lower and index not in book.exact
    replies = [value for (first, _), value in position_table(nyt_game, False, 6).replies.items() if first == index]
    assert replies and all(value.settled for value in replies)  # the oracle: the replies one by one
    valuation = value_position(nyt_game, nyt_game.initial_state(), [index], budget=Budget(seconds=None, nodes=1))
    value = valuation.guesses[index]
    assert value.proved and value.low == value.high == total / len(nyt_game.words.answers)
    assert opener_cost(replies, len(nyt_game.words.answers))[0] // SCALE == total


# -- every file checked before it is believed -------------------------------------------------------------
def test_a_build_never_writes_over_a_shipped_artefact(tmp_path, monkeypatch):
    """With the shipped folder and its checksums those of this game's book, building it again is refused, and the
    file is left as it was; elsewhere it is written as a new file."""
    import wordle.book_build as book_build

    path, shelf = make_book(tmp_path)
    before = path.read_bytes()
    monkeypatch.setattr(book_build, "FOLDER", tmp_path)
    monkeypatch.setattr(book_build, "SHIPPED", dict(shelf.checksums))
    (tmp_path / "runs").mkdir()
    run = make_run(tmp_path / "runs")
    with pytest.raises(UserError, match="a shipped artefact, named by its SHA-256 in wordle/book.py; a build never "
                                        "writes over it"):
        build_book(GAME, run, folder=tmp_path, command="test")
    assert path.read_bytes() == before
    built, digest, _ = build_book(GAME, run, folder=tmp_path / "new", command="test")
    assert built.parent == tmp_path / "new" and sha256(built.read_bytes()) == digest


def test_the_commands_default_folder_is_the_builds():
    from commands.book import OUT
    from wordle.book_build import OUT as BUILT
    assert OUT == BUILT and "data" not in OUT.parts


def test_a_run_whose_best_is_forged_builds_no_book(tmp_path):
    """A rejected opener's line edited into an exact total below the best, consistent in itself: the build solves
    the claimed best again and refuses, writing nothing."""
    run = make_run(tmp_path)
    lines = run.read_text().splitlines()
    rows = [json.loads(line) for line in lines[1:]]
    bounded = next(row for row in rows if row.get("exact") is False)
    total = min(row["total"] for row in rows if row.get("exact") and row["total"] >= 0) - 1
    forged = [lines[0], *(json.dumps(dict(row, total=total, exact=True, average=round(total / len(POOL_ANSWERS), 6)))
                          if row is bounded else json.dumps(row) for row in rows)]
    run.write_text("\n".join(forged) + "\n")
    with pytest.raises(UserError, match=f"its best {bounded['opener'].upper()} says total {total}, 0 games over 5, "
                                        "but solved again it is"):
        build_book(GAME, run, folder=tmp_path / "out", command="test")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("source, said", [("folder", "a folder, not an exact-openers run"),
                                          ("/dev/zero", "a device, FIFO or socket, not an exact-openers run")])
def test_a_run_that_is_no_file_is_refused_without_advice_to_remove_it(tmp_path, capsys, source, said):
    where = str(tmp_path) if source == "folder" else source
    code, _, err = run_cli(capsys, "book", "build", "--from", where, "--out", str(tmp_path / "out"))
    assert code == 2 and said in err and "remove" not in err and err.count("\n") == 1, err


def test_a_huge_sparse_book_is_refused_as_too_large(tmp_path):
    """A 3 GB sparse file where a book belongs: refused for its size (never read), not called 'not a regular file'."""
    path, shelf = make_book(tmp_path)
    with path.open("r+b") as handle:
        handle.truncate(3 * 2**30)
    with pytest.warns(BookRefused) as caught:
        assert opening_book(GUESSES, CHECKSUM, False, 6, shelf).best is None
    message = str(caught[0].message)
    assert f"{3 * 2**30} bytes, more than the" in message and "not a regular file" not in message


def test_verify_book_solves_every_exact_total_and_names_what_it_sampled(tmp_path, capsys):
    path, shelf = make_book(tmp_path)
    book = opening_book(GUESSES, CHECKSUM, False, 6, shelf)
    check = verify_book(GAME, False, sample=2, seed=1, shelf=shelf)
    assert check.problems == [] and check.exact == len(book.exact) == check.held["exact"] > 1
    assert check.checked["exact"][0] == GUESSES[book.best].upper()  # the best first, then every other exact one
    assert len(check.checked["bounds"]) == 2 and check.held["bounds"] == len(book.lower)
    assert all(" ≥ " in entry for entry in check.checked["bounds"])
    every = verify_book(GAME, False, sample=None, shelf=shelf)
    assert len(every.checked["bounds"]) == len(book.lower) and every.problems == []


def test_book_build_records_the_lists_it_was_built_over(tmp_path, capsys):
    """The recorded command names --answers and --guesses, so that it rebuilds the same book."""
    answers, guesses = tmp_path / "answers.txt", tmp_path / "guesses.txt"
    answers.write_text("\n".join(GAME.words.answers) + "\n")
    guesses.write_text("\n".join(GAME.words.guesses) + "\n")
    run = make_run(tmp_path)
    code, out, err = run_cli(capsys, "book", "build", "--from", str(run), "--out", str(tmp_path / "out"),
                             "--answers", str(answers), "--guesses", str(guesses))
    assert code == 0, err
    book = next((tmp_path / "out").glob("openers-*.json.gz"))
    command = json.loads(gzip.decompress(book.read_bytes()))["provenance"]["command"]
    assert f"--answers {answers}" in command and f"--guesses {guesses}" in command
