"""The exact opener job: the same proved totals locally and on a real Dask cluster, saved line by line, resumed."""

from __future__ import annotations

import json

import pytest

from search import UserError
from search.optimal import Solver
from tournament.exact_openers import ranked_openers, read_results, run_job, JobSettings

from .conftest import small_game
from .test_optimal import POOL_ANSWERS, POOL_GUESSES

ANSWERS = POOL_ANSWERS[:12]


def expected_totals(game, hard):
    """Each opener's proved total, straight from the solver (-1 where no tree wins every game)."""
    totals = {}
    for word in game.words.guesses:
        try:
            totals[word] = Solver(game, hard=hard).solve(game.words.guess_index[word]).total
        except UserError:
            totals[word] = -1
    return totals


@pytest.mark.parametrize("hard", [False, True])
def test_local_job_proves_every_opener_and_resumes(tmp_path, hard):
    game = small_game(ANSWERS, POOL_GUESSES)
    openers = ranked_openers(game, hard, 6)
    assert sorted(openers) == sorted(game.words.guesses)
    path = tmp_path / "exact.jsonl"
    results = run_job(game, hard, 6, openers[:3], path, "test", jobs=2)
    expected = expected_totals(game, hard)
    assert {r.opener: r.total for r in results} == {word: expected[word] for word in openers[:3]}
    # a kill mid-write leaves a torn last line: it is dropped, and the finished openers are not solved again
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2]) + "\n" + lines[2][:10])
    settings = JobSettings(hard=hard, max_guesses=6, word_lists_sha256=game.words.checksum)
    assert list(read_results(path, settings, openers[:3])) == [json.loads(lines[1])["opener"]]
    again = run_job(game, hard, 6, openers[:3], path, "test", jobs=1)
    assert {r.opener: r.total for r in again} == {r.opener: r.total for r in results}
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert records[0]["word_lists_sha256"] == game.words.checksum and "commit" in records[0]
    assert sum("session" in record for record in records) == 1 and len(records) == 1 + 3 + 1
    assert [r.total for r in again] == sorted((r.total for r in again), key=lambda total: (total < 0, total))  # none last


def test_a_results_file_of_another_job_is_refused(tmp_path):
    game = small_game(ANSWERS, POOL_GUESSES)
    path = tmp_path / "exact.jsonl"
    run_job(game, False, 6, ["cater"], path, "test", jobs=1)
    with pytest.raises(Exception, match="other settings"):
        run_job(game, True, 6, ["cater"], path, "test", jobs=1)
    assert len(path.read_text().splitlines()) == 2


def test_dask_job_on_a_local_cluster_of_two_workers_gives_the_same_totals(tmp_path):
    pytest.importorskip("distributed")
    game = small_game(ANSWERS, POOL_GUESSES)
    openers = ranked_openers(game, False, 6)[:6]
    results = run_job(game, False, 6, openers, tmp_path / "exact.jsonl", "test", engine="dask", jobs=2)
    expected = expected_totals(game, False)
    assert {r.opener: r.total for r in results} == {word: expected[word] for word in openers}
    assert len({r.worker for r in results}) >= 1
