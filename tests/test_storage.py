"""The storage module: atomic writes, checked output places, read-or-build caches, code versions, provenance."""

from __future__ import annotations

import multiprocessing
import os
import tempfile
import warnings

import pytest

from plumbing.errors import UserError
from plumbing import storage
from plumbing.storage import Cache, CacheWarning, code_version, json_payload, json_value, read_or_build


def counting_build(calls: list[int], value):
    """A build function that records each call."""
    return lambda: calls.append(1) or value


def test_cache_round_trip_and_every_kind_of_damage(tmp_path):
    cache = Cache("demo", {"lists": "abc"}, "v1", suffix=".json")
    calls: list[int] = []
    value = read_or_build(cache, counting_build(calls, [1, 2, 3]), json_payload, json_value, tmp_path)
    assert value == [1, 2, 3] and calls == [1]
    assert read_or_build(cache, counting_build(calls, None), json_payload, json_value, tmp_path) == [1, 2, 3]
    assert calls == [1]
    whole = cache.path(tmp_path).read_bytes()
    damages = [b"", whole[:-1], whole.replace(b"[1, 2, 3]", b"[1, 2, 4]"), whole.replace(b'"v1"', b'"v2"'),
               b"not a cache\n{}\n[1, 2, 3]"]
    for damage in damages:
        cache.path(tmp_path).write_bytes(damage)
        assert cache.read(tmp_path) is None
        assert read_or_build(cache, counting_build(calls, [1, 2, 3]), json_payload, json_value, tmp_path) == [1, 2, 3]
    assert len(calls) == 1 + len(damages)


def test_other_key_or_code_is_another_file():
    base = Cache("demo", {"lists": "abc"}, "v1")
    assert len({base.path(), Cache("demo", {"lists": "abd"}, "v1").path(), Cache("demo", {"lists": "abc"}, "v2").path()}) == 3


def test_a_fifo_where_a_cache_belongs_is_refused_in_one_line(tmp_path):
    cache = Cache("demo", {}, "v1")
    os.mkfifo(cache.path(tmp_path))
    with pytest.raises(UserError, match="not a regular file") as raised:
        read_or_build(cache, lambda: [1], json_payload, json_value, tmp_path)
    assert "\n" not in str(raised.value)


def test_a_folder_where_a_cache_belongs_is_refused(tmp_path):
    cache = Cache("demo", {}, "v1")
    cache.path(tmp_path).mkdir()
    with pytest.raises(UserError, match="is a folder"):
        cache.read(tmp_path)


def _read_in_child(cache: Cache, directory: str, pipe) -> None:
    """A forked child's read_or_build, reporting whether it had to build."""
    calls: list[int] = []
    read_or_build(cache, counting_build(calls, [7]), json_payload, json_value, directory)
    pipe.send(len(calls))


def test_an_unwritable_cache_is_built_once_with_one_warning_and_shared_with_forks(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    directory = blocker / "cache"
    cache = Cache("unwritable", {"n": len(str(tmp_path))}, "v1")
    calls: list[int] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            assert read_or_build(cache, counting_build(calls, [7]), json_payload, json_value, directory) == [7]
    assert calls == [1]
    assert [w.category for w in caught] == [CacheWarning] and "kept in memory" in str(caught[0].message)
    receiving, sending = multiprocessing.Pipe(duplex=False)
    child = multiprocessing.get_context("fork").Process(target=_read_in_child, args=(cache, directory, sending))
    child.start()
    child.join()
    assert receiving.recv() == 0  # the forked worker did not compute it again


def test_code_version_follows_imports_so_two_step_depends_on_the_entropy_agent():
    modules = storage._closure("agents.two_step")
    assert {"agents.entropy", "agents.greedy", "heuristics.partition", "wordle.game"} <= set(modules)
    assert "plumbing.storage" not in modules
    assert storage._closure("wordle.matrix") == ["plumbing.errors", "wordle.feedback", "wordle.matrix", "wordle.nyt",
                                                 "wordle.words"]
    assert code_version("wordle.matrix") != code_version("agents.two_step")


def test_code_version_changes_with_the_source_of_an_imported_module(tmp_path, monkeypatch):
    package = tmp_path / "agents_demo_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "leaf.py").write_text("VALUE = 1\n")
    (package / "top.py").write_text("from .leaf import VALUE\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(storage, "PROJECT_PACKAGES", (*storage.PROJECT_PACKAGES, "agents_demo_pkg"))
    before = code_version("agents_demo_pkg.top")
    (package / "leaf.py").write_text("VALUE = 2\n")
    code_version.cache_clear()
    assert code_version("agents_demo_pkg.top") != before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in read-only folders")
def test_a_read_only_folder_is_refused_before_any_work(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(UserError, match="cannot write in this folder"):
            storage.prepare_folder(folder)
    finally:
        folder.chmod(0o755)


def test_a_folder_that_refuses_files_is_one_line(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(UserError, match=r"cannot write in this folder \(Permission denied\)"):
        storage.prepare_folder(tmp_path)
    with pytest.raises(UserError, match="cannot write in this folder"):
        storage.prepare_output(tmp_path / "out.json")


def test_provenance_names_commit_versions_and_machine():
    record = storage.results_record("python x.py", 3, "abc")
    assert record["command"] == "python x.py" and record["seed"] == 3 and record["word_lists_sha256"] == "abc"
    assert record["commit"] and "numpy" in record["versions"]
    assert record["machine"]["cores"] == os.cpu_count() and record["machine"]["cpu"]


@pytest.mark.parametrize("code, models, dirty", [("", "", False), (" M cli.py", "", True), ("", " M results/models/ppo-hard.npz", True)])
def test_a_changed_model_makes_a_run_dirty_but_other_results_files_do_not(monkeypatch, code, models, dirty):
    # Results files are left out of `dirty` (git status excludes results/), except the learners' models, which play.
    def git(*arguments):
        return models if "results/models" in arguments else "abc123" if arguments[0] == "rev-parse" else code
    monkeypatch.setattr(storage, "_git", git)
    storage.provenance.cache_clear()
    try:
        assert storage.provenance()["dirty"] is dirty
    finally:
        storage.provenance.cache_clear()


def test_a_cache_reads_back_every_file_it_writes_and_writes_none_it_cannot(tmp_path):
    """Issue 49 item 1: a cache over the read cap was written once, then refused on every later read."""
    big = Cache("demo", {"size": 4000}, "v1", most_bytes=5000)
    calls: list[int] = []
    payload = b"x" * 4000
    assert read_or_build(big, counting_build(calls, payload), bytes, bytes, tmp_path) == payload
    assert read_or_build(big, counting_build(calls, payload), bytes, bytes, tmp_path) == payload and calls == [1]
    small = Cache("demo", {"size": 4000, "cap": "small"}, "v1", most_bytes=1000)
    with pytest.warns(CacheWarning, match="more than the 1000 this cache reads back"):
        read_or_build(small, counting_build(calls, payload), bytes, bytes, tmp_path)
    assert not small.path(tmp_path).exists()  # never written: it could not be read back


def test_the_longest_words_matrix_cache_is_read_back():
    """The 8- and 9-letter pattern matrices (about 300 MB, past the results files' 256 MiB cap) name their own size."""
    import numpy as np

    from variants import variant_words
    from wordle.matrix import code_type, matrix_cache

    for length in (8, 9):
        words = variant_words(length)
        size = len(words.guesses) * len(words.answers) * np.dtype(code_type(length)).itemsize
        assert size > storage.MOST_FILE_BYTES and matrix_cache(words).most_bytes > size + 1000
