"""Run folders of the removed variants tournament (`variant-games v1`) converted into the one tournament's format by
benchmarks/convert_variant_results.py: a sound one passes verify (and its replay), a damaged one is refused in one line
with nothing written."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tournament import verify_folder

ROOT = Path(__file__).resolve().parent.parent
#: The first lines of results/tournament-dordle-sample-1000-seed-0 as the variants tournament wrote them (commit
#: 4fac12f): its metadata line, and the first three games of games.csv and timings.csv.
REAL_META = (
    '{"command": "python cli.py tournament --boards 2 --agents entropy,random --mode normal --seed 0 --sample 1000", '
    '"provenance": {"commit": "4fac12fd41f2acc49a9c6d499bcbdf88ef48df6c", "dirty": false, "machine": {"cores": 2, '
    '"cpu": "AMD EPYC", "system": "Linux x86_64"}, "versions": {"numpy": "2.4.6", "python": "3.11.7", "rich": '
    '"15.0.0", "scipy": "1.17.1", "wordle-arena": "0.1.0"}, "word_lists_sha256": '
    '"c7e2ce7dc7b4f0921818c2b1abceeb54cc73e7c3a16504a4ef0effb37177564d"}, "sessions": [{"commit": '
    '"4fac12fd41f2acc49a9c6d499bcbdf88ef48df6c", "dirty": false, "machine": {"cores": 2, "cpu": "AMD EPYC", "system": '
    '"Linux x86_64"}, "versions": {"numpy": "2.4.6", "python": "3.11.7", "rich": "15.0.0", "scipy": "1.17.1", '
    '"wordle-arena": "0.1.0"}, "word_lists_sha256": "c7e2ce7dc7b4f0921818c2b1abceeb54cc73e7c3a16504a4ef0effb37177564d"}'
    '], "settings": {"agent_settings": {"entropy": {}, "random": {}}, "games": 1000, "modes": ["normal"], "seed": 0, '
    '"variant": {"boards": 2, "fibble": false, "length": 5, "max_guesses": 7}}}')
REAL_GAMES = [
    "entropy,normal,0,quirk sonic,4,soare fluty quirk sonic,---g-/gg--- --y--/----- ggggg/--y-- ./ggggg,1,0,",
    "entropy,normal,1,drown amend,4,soare clint amend drown,-y-y-/--y-y ---y-/---g- ---yy/ggggg ggggg/.,1,0,",
    "entropy,normal,2,pride maple,5,soare guilt damps pride maple,---yg/--y-g --g--/---g- y--y-/-gyy- ggggg/y---g "
    "./ggggg,1,0,",
]
REAL_SECONDS = ["4.938396", "0.271384", "0.208860"]
GAME_HEADER = "agent,mode,game,answers,turns,guesses,replies,won,nodes,error"


def converter():
    """The converter script as a module."""
    spec = importlib.util.spec_from_file_location("convert_variant_results",
                                                  ROOT / "benchmarks" / "convert_variant_results.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def legacy_folder(tmp_path: Path, rows: list[str] = REAL_GAMES) -> Path:
    """An old-format run of the entropy player's first three Dordle games, as the variants tournament wrote it (the
    settings and command cut to those games, the summary as it computed it)."""
    meta = json.loads(REAL_META)
    meta["command"] = meta["command"].replace("entropy,random", "entropy").replace("--sample 1000", "--sample 3")
    meta["settings"].update(games=3, agent_settings={"entropy": {}})
    folder = tmp_path / "tournament-dordle-sample-3-seed-0"
    folder.mkdir()
    line = json.dumps(meta, sort_keys=True)
    (folder / "games.csv").write_text(f"# wordle-arena variant-games v1 {line}\n{GAME_HEADER}\n"
                                      + "".join(row + "\n" for row in rows))
    (folder / "timings.csv").write_text(f"# wordle-arena variant-timings v1 {line}\nagent,mode,game,seconds\n"
                                        + "".join(f"entropy,normal,{n},{s}\n" for n, s in enumerate(REAL_SECONDS)))
    turns = [4, 4, 5]
    figures = {"games": 3, "won": 3, "win_rate": 1.0, "mean_guesses": round(13 / 3, 6),
               "mean_guesses_won": round(13 / 3, 6), "errors": 0,
               "seconds_per_game": round(sum(float(s) for s in REAL_SECONDS) / 3, 6)}
    assert sum(turns) == 13
    (folder / "summary.json").write_text(json.dumps({**meta, "summary": {"entropy normal": figures}}, indent=2,
                                                    sort_keys=True) + "\n")
    (folder / "report.md").write_text("# dordle: 2 board(s), 5 letters, 7 guesses\n")
    return folder


def test_an_old_folder_converts_keeping_its_games_and_provenance_and_passes_verify(tmp_path, capsys):
    folder = legacy_folder(tmp_path)
    old_meta = json.loads(REAL_META)
    assert converter().main([str(folder)]) == 0
    assert "3 games converted from wordle-arena variant-games v1" in capsys.readouterr().out
    first = (folder / "games.csv").read_text().splitlines()[0]
    assert first.startswith("# wordle-arena games v1 ")
    meta = json.loads(first.split(" ", 4)[4])
    assert meta["converted"]["format"] == "wordle-arena variant-games v1"
    assert meta["provenance"] == [old_meta["provenance"]]  # its commit and machine
    assert meta["command"].endswith("--seed 0 --sample 3")
    assert meta["settings"]["seed"] == 0 and meta["settings"]["game"] == {"boards": 2, "length": 5, "lies": 0}
    assert meta["settings"]["words"]["word_lists_sha256"] == old_meta["provenance"]["word_lists_sha256"]
    assert [row.split(",")[3] for row in (folder / "games.csv").read_text().splitlines()[2:]] == [
        "quirk sonic", "drown amend", "pride maple"]
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["converted"] == meta["converted"] and summary["sessions"] == [{"provenance": old_meta["provenance"]}]
    assert summary["summary"]["results"][0]["mean"] == pytest.approx(13 / 3)
    result = verify_folder(folder)
    assert result.ok and result.games == 3, result.problems
    assert "Converted from the `wordle-arena variant-games v1` format" in (folder / "report.md").read_text()
    assert converter().main([str(folder)]) == 2  # once converted, it is no longer of the old format
    assert "not a file of the removed variants tournament" in capsys.readouterr().err


@pytest.mark.slow
def test_a_converted_folder_replays_move_for_move(tmp_path, capsys):
    folder = legacy_folder(tmp_path)
    assert converter().main([str(folder)]) == 0
    code, out, _ = run_cli(capsys, "verify", "--replay", str(folder))
    assert code == 0 and "3 games replayed move for move" in out


def _damage_row(rows: list[str], index: int, column: int, value: str) -> list[str]:
    """The rows with one field of one row replaced."""
    fields = rows[index].split(",")
    fields[column] = value
    return rows[:index] + [",".join(fields)] + rows[index + 1:]


@pytest.mark.parametrize("damage, message", [
    (lambda folder: legacy_folder(folder, _damage_row(REAL_GAMES, 1, 7, "2")), "games.csv, line 4: solved must be 0"),
    (lambda folder: legacy_folder(folder, _damage_row(REAL_GAMES, 0, 4, "5")), "games.csv, line 3: turns says 5"),
    (lambda folder: legacy_folder(folder, _damage_row(REAL_GAMES, 2, 8, "-1")), "games.csv, line 5: nodes '-1'"),
    (lambda folder: legacy_folder(folder, _damage_row(REAL_GAMES, 0, 1, "hard")), "exactly once"),
    (lambda folder: legacy_folder(folder, _damage_row(REAL_GAMES, 0, 3, "quirk")), "one a board"),
    (lambda folder: legacy_folder(folder, REAL_GAMES[:2]), "does not hold each of the 3 planned games exactly once"),
    (lambda folder: legacy_folder(folder, REAL_GAMES[:2] + REAL_GAMES[1:2]), "exactly once"),
    (lambda folder: legacy_folder(folder, [REAL_GAMES[0][:-3]] + REAL_GAMES[1:]), "games.csv, line 3: 8 fields, expected 10"),
])
def test_a_damaged_old_game_row_is_refused_in_one_line_and_nothing_is_written(tmp_path, capsys, damage, message):
    folder = damage(tmp_path)
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    assert converter().main([str(folder)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before


@pytest.mark.parametrize("file, old, new, message", [
    ("summary.json", '"won": 3', '"won": 2', "summary.json: its figures are not the ones its games make"),
    ("summary.json", '"seed": 0', '"seed": 1', "its command, provenance and settings are not games.csv's"),
    ("timings.csv", '"games": 3', '"games": 4', "timings.csv, line 1: its metadata differs"),
    ("timings.csv", "0.271384", "fast", "timings.csv, line 4: seconds 'fast' is not a number"),
    ("games.csv timings.csv", '"max_guesses": 7', '"max_guesses": 0', "the metadata's variant names no game"),
    ("games.csv timings.csv", '"games": 3', '"games": true', "games or seed is not a whole number"),
    ("games.csv timings.csv", '"commit": "4fac', '"commit": "zz4fac', "a provenance is not the commit"),
    ("games.csv timings.csv", "--sample 3", "--sample 3 --depth 3", "flags other than"),
    ("games.csv timings.csv", "--boards 2", "--boards 4", "the command's --boards disagrees"),
    ("games.csv timings.csv", "# wordle-arena variant-games v1 {", "# wordle-arena variant-games v1 [", "not valid JSON"),
])
def test_a_damaged_old_folder_is_refused_in_one_line(tmp_path, capsys, file, old, new, message):
    folder = legacy_folder(tmp_path)
    for name in file.split():  # a metadata line is damaged alike in both files
        path = folder / name
        kind = "variant-timings" if name == "timings.csv" else "variant-games"
        text = path.read_text().replace(old.replace("variant-games", kind), new.replace("variant-games", kind))
        assert text != path.read_text()
        path.write_text(text)
    assert converter().main([str(folder)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


def test_verify_refuses_a_damaged_conversion_note_in_one_line(tmp_path, capsys):
    folder = legacy_folder(tmp_path)
    assert converter().main([str(folder)]) == 0
    for name in ("games.csv", "timings.csv"):
        path = folder / name
        path.write_text(path.read_text().replace('"format": "wordle-arena', '"formats": "wordle-arena', 1))
    result = verify_folder(folder)
    assert result.problems == [f"{folder / 'games.csv'}, line 1: the metadata's 'converted' is not a conversion's "
                               "note (format, by, commit)"]
