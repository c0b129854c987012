"""What `--budget` reads: a node count or a time cap, typed as text, turned into the engine's `Budget`.

>>> parse_budget("1.5M"), parse_budget("500ms")
(Budget(nodes=1500000, seconds=None), Budget(nodes=None, seconds=0.5))
"""

from __future__ import annotations

import argparse

from search.limits import Budget

#: Node counts --budget reads with a suffix (either case): 5000, 200k, 1.5M.
NODE_SUFFIXES = {"": 1, "k": 1_000, "m": 1_000_000}
#: Time units --budget reads as a safety cap: 500ms, 5s.
TIME_UNITS = {"ms": 0.001, "s": 1.0}
#: The range --budget accepts: nodes, and seconds for a cap.
MOST_BUDGET_NODES = 1_000_000_000
LEAST_BUDGET_SECONDS = 0.001
MOST_BUDGET_SECONDS = 86_400.0


def parse_budget(text: str) -> Budget:
    """A budget as typed: nodes (`5000`, `200k`, `1.5M`) or a safety cap in seconds (`5s`, `500ms`).

    Args:
        text: what follows --budget.

    Returns:
        A Budget of nodes alone or of seconds alone.

    Raises:
        ValueError: anything else: another unit, a value outside 1 to 1,000,000,000 nodes or 1 ms to
            86,400 s, a sign, an exponent, or digits that are not ASCII (one line naming the forms).
    """
    problem = ValueError(f"'{text}' is not a budget: write nodes (5000, 200k, 1.5M: 1 to 1000M) or a time cap "
                         "(500ms, 5s: 1ms to 86400s)")
    cleaned = text.strip().lower()
    number = cleaned.rstrip("kms")
    unit = cleaned[len(number):]
    digits = number.replace(".", "", 1)
    if not (cleaned.isascii() and digits.isdigit()) or unit not in (*TIME_UNITS, *NODE_SUFFIXES):
        raise problem
    amount = float(number)
    if unit in TIME_UNITS:
        seconds = amount * TIME_UNITS[unit]
        if not LEAST_BUDGET_SECONDS <= seconds <= MOST_BUDGET_SECONDS:
            raise problem
        return Budget(seconds=seconds)
    nodes = amount * NODE_SUFFIXES[unit]
    if nodes != int(nodes) or not 1 <= nodes <= MOST_BUDGET_NODES:
        raise problem
    return Budget(nodes=int(nodes))


def budget_argument(text: str) -> Budget:
    """argparse type: a budget as `parse_budget` reads it (nodes: 5000, 200k, 1.5M; a cap: 5s, 500ms)."""
    try:
        return parse_budget(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
