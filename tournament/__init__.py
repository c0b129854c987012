"""The tournament: every agent on every answer, in normal and hard mode, with results files that can be re-checked.

A run folder (default `results/tournament[-OPTION-VALUE...][-sample-N][-seed-S]`, or
`--out DIR`) holds, once the run is complete:

- `games.csv`: one line per game (agent, mode, answer, turns, guesses, patterns, solved,
  nodes, error), rows in the plan's canonical order and no wall-clock figure, so the same
  command and seed give a byte-identical file;
- `timings.csv`: seconds per game, the one figure that differs between runs, kept apart;
- `summary.json`: per agent and mode statistics and the hard-vs-normal comparison,
  derived from the two files above;
- `report.md`: the same as a table and a verdict;
- `histograms.svg`, `hard-vs-normal.svg`: the summary as charts (`charts.py`), shown by report.md.

While a run is under way, games go to `journal.csv` in the order they finish, flushed one
line at a time, and the run holds the folder's `.lock` (an OS lock, so one run at a time);
`--resume` reads the journal back and plays only what is missing. Every file starts with a
`#` metadata line recording the command, seed, word-list checksum, library versions, git
commit and machine. `verify` re-checks the rules and every derived figure; `verify
--replay` (tournament/replay.py) also plays the games again, move for move.
"""

from .plan import MODES, Plan, TournamentError, default_folder, make_plan
from .records import GameRecord, ResultsError
from .runner import RunOutcome, run_tournament
from .stats import AgentModeStats, PairedComparison, Summary, summarise
from .verify import verify_folder

__all__ = [
    "MODES", "AgentModeStats", "GameRecord", "PairedComparison", "Plan", "ResultsError", "RunOutcome",
    "Summary", "TournamentError", "default_folder", "make_plan", "run_tournament", "summarise", "verify_folder",
]
