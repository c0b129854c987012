"""The one tie-break rule: order moves by sort keys, most important first, then by index.

Every key is lower-is-better; float keys are rounded to `DECIMALS` places first, so that
sums taken in different orders tie when they are equal in real arithmetic. A player that
values moves higher-is-better passes minus its values, then any keys of its game (a move
that can end the game at once before one that cannot, say), then the lower move.

>>> best_first(np.array([4, 7, 9]), np.array([-1.0, -2.0, -2.0]), np.array([True, True, False])).tolist()
[2, 1, 0]
"""

from __future__ import annotations

from typing import overload

import numpy as np

#: Values are rounded to this many decimals so that equal partitions tie exactly.
DECIMALS = 9


@overload
def rounded(values: float) -> float: ...


@overload
def rounded(values: np.ndarray) -> np.ndarray: ...


def rounded(values: np.ndarray | float) -> np.ndarray | float:
    """`values` rounded to DECIMALS places (a float stays a float)."""
    return round(values, DECIMALS) if isinstance(values, float) else np.round(values, DECIMALS)


def best_first(moves: np.ndarray, *keys: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
    """Positions of `moves`, best first: by each key in turn (lower first), then the lower move.

    Args:
        moves: move indices (the last tie-break).
        keys: sort keys aligned with `moves`, most important first, each lower-is-better.
        rng: when given, the last tie-break is this generator's random order instead of the index.

    Returns:
        An index array into `moves`.
    """
    last = np.asarray(moves) if rng is None else rng.permutation(len(moves))
    ordered = [rounded(key) if key.dtype.kind == "f" else key for key in keys]
    return np.lexsort([last] + ordered[::-1])
