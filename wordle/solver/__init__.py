"""The exact solver: the optimal decision tree for a set of answers, proved by branch and bound.

The package is a few small objects around one search:

* `costs`: what a tree costs, packed into one integer per objective (`Objective`, `Outcome`, `SCALE`,
  `INFEASIBLE`, `unpack`), and `Costs`, what one answer, one set and one step cost under a guess limit.
* `bounds` and `kernels`: the one-step lower bounds over the pattern matrix, readable in numpy and compiled
  with numba (equal, the tests say); `parts` and `passes`: the bounds one solver searches by (`BoundPasses`:
  per guess, per set, per guess's replies).
* `memory`: `Memory`, every cache the search keeps, with the rules for forgetting it.
* `win_prover`: `WinProver`, whether a set can be won at all within its guesses, proved either way, with the
  lost cores (`lost_cores`), the endgames (`endgames`) and the compiled three-guess checks (`short_wins`).
* `budget`: what a search may consider (`Limits`) and spend, and what it has spent (`Spending`, `Stats`).
* `branch_and_bound`: `Solver`, the search itself, and `Solution`, what it returns.

Values here are costs, the Guesser's, lower is better. Importing the package imports no numba: the kernels are
compiled (or read from the cache) when a solver first needs them.
"""

from .branch_and_bound import Solution, Solver
from .budget import Limits, Stats
from .costs import FIRST, INFEASIBLE, LONG_GAME, SCALE, Objective, Outcome, unpack

__all__ = ["FIRST", "INFEASIBLE", "LONG_GAME", "SCALE", "Limits", "Objective", "Outcome", "Solution", "Solver",
           "Stats", "unpack"]
