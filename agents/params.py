"""Typed parameters that agents declare: what each means, its default and the values it may take.

An agent lists its parameters when it registers. The registry checks the values an
agent is built with against them and records every one, defaults included, so a
recorded agent can be built again exactly. How a parameter is typed on a command line
(its flag, how its text is read) is the command line's business, not this module's.

>>> BEAM.check(12)
12
>>> BEAM.check(0)
Traceback (most recent call last):
...
ValueError: beam must be at least 1, got 0
>>> EVAL_MODE.check("zero")
'zero'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Any

from plumbing.errors import clip
from heuristics.evaluation import DEFAULT_THRESHOLD, DEFAULT_WEIGHTS, EVALUATIONS, MODES

#: The kinds of value a parameter takes.
WHOLE, NUMBERS, CHOICE, SWITCH, WORD = "whole number", "numbers", "choice", "switch", "word"
#: How a SWITCH parameter's value may be written, and how it is written back.
SWITCH_WORDS = {"yes": True, "on": True, "true": True, "1": True, "no": False, "off": False, "false": False, "0": False}
SWITCH_TEXT = {True: "yes", False: "no"}


def flag(name: str) -> str:
    """The command-line flag of a parameter called `name` (`eval_mode` is `--eval-mode`)."""
    return "--" + name.replace("_", "-")


@dataclass(frozen=True)
class Param:
    """One parameter of an agent.

    Attributes:
        name: the keyword the agent's factory takes.
        kind: WHOLE (an int in [least, most]), NUMBERS (`count` floats), CHOICE (one of
            `choices`), SWITCH (a bool) or WORD (five letters, or one of `choices`; whether the
            lists hold the word is the agent's to check).
        default: the value used when none is given; None only where `optional`.
        help: what the parameter does, in a few words.
        least, most: the range of a WHOLE parameter, both included.
        choices: the values a CHOICE parameter may take.
        count: how many numbers a NUMBERS parameter holds.
        optional: whether None is a value (meaning: not used, e.g. no node budget).
        none_means: what a None value stands for, in words; an optional parameter reads these
            words as None.
    """

    name: str
    kind: str
    default: Any
    help: str
    least: int = 0
    most: int = 0
    choices: tuple[str, ...] = ()
    count: int = 0
    optional: bool = False
    none_means: str = "none"

    def check(self, value: Any) -> Any:
        """The value as the agent takes it, or ValueError saying what is wrong (the parameter named)."""
        if value is None:
            if self.optional:
                return None
            raise ValueError(f"{self.name} needs a value")
        if self.kind == WHOLE:
            if (isinstance(value, bool) or not isinstance(value, (int, float))
                    or not math.isfinite(value) or value != math.floor(value)):
                raise ValueError(f"{self.name} must be a whole number, got {clip(repr(value), 60)}")
            if not self.least <= value <= self.most:
                bound = f"at least {self.least}" if value < self.least else f"at most {self.most}"
                raise ValueError(f"{self.name} must be {bound}, got {value}")
            return int(value)
        if self.kind == CHOICE:
            if value not in self.choices:
                raise ValueError(f"unknown {self.name} '{value}'; choose one of {', '.join(self.choices)}")
            return value
        if self.kind == WORD:
            if value in self.choices:
                return value
            if not (isinstance(value, str) and len(value) == 5 and value.isascii() and value.isalpha()):
                also = "".join(f" or '{choice}'" for choice in self.choices)
                raise ValueError(f"{self.name} must be a five-letter word{also}, got {clip(repr(value), 60)}")
            return value.lower()
        if self.kind == SWITCH:
            if not isinstance(value, bool):
                raise ValueError(f"{self.name} must be yes or no, got {clip(repr(value), 60)}")
            return value
        if self.kind == NUMBERS:
            numbers = list(value) if isinstance(value, (list, tuple)) else None
            if numbers is None or len(numbers) != self.count or not all(
                    isinstance(n, (int, float)) and not isinstance(n, bool) and math.isfinite(n) for n in numbers):
                raise ValueError(f"{self.name} takes {self.count} numbers, got {clip(repr(value), 60)}")
            return [float(n) for n in numbers]
        raise ValueError(f"parameter {self.name} has an unknown kind '{self.kind}'")

    def parse(self, text: str) -> Any:
        """The value written as `text` (a whole number, numbers separated by commas, a choice, yes or no), checked.

        >>> WEIGHTS.parse("0.5, 0.3,0.1,0.1")
        [0.5, 0.3, 0.1, 0.1]
        >>> SWITCH_WORDS["off"]
        False
        """
        text = text.strip()
        if self.optional and text.lower() == self.none_means:
            return None
        if self.kind == WHOLE:
            if not re.fullmatch(r"[+-]?[0-9]{1,30}", text):  # ASCII digits only: not '²', '--5' or 5000 digits
                raise ValueError(f"{self.name} must be a whole number, got '{clip(text, 40)}'")
            return self.check(int(text))
        if self.kind == NUMBERS:
            try:
                return self.check([float(part) for part in text.split(",")])
            except ValueError:
                raise ValueError(f"{self.name} takes {self.count} numbers separated by commas, got '{text}'") from None
        if self.kind == SWITCH:
            if text.lower() not in SWITCH_WORDS:
                raise ValueError(f"{self.name} must be yes or no, got '{text}'")
            return SWITCH_WORDS[text.lower()]
        return self.check(text.lower())

    def text(self, value: Any) -> str:
        """A value written as `parse` reads it back.

        >>> WEIGHTS.text([0.6, 0.2, 0.15, 0.05])
        '0.6,0.2,0.15,0.05'
        """
        if value is None:
            return self.none_means
        if self.kind == SWITCH:
            return SWITCH_TEXT[bool(value)]
        if self.kind == NUMBERS:
            return ",".join(f"{number:g}" for number in value)
        return str(value)

    def with_default(self, default: Any) -> Param:
        """The same parameter with another default (an agent whose default differs)."""
        return replace(self, default=self.check(default))


# -- the searching agents' parameters ---------------------------------------------------
#: Search depths past this cost hours; every search also stops at the end of the game.
MOST_DEPTH = 4
#: Wider beams than this multiply the work for no measured gain (see results/bench_search).
MOST_BEAM = 100
#: A search needs at most this many nodes before its node budget stops it.
MOST_NODES = 1_000_000_000

DEPTH = Param("depth", WHOLE, 2, "look-ahead in Guesser moves", least=1, most=MOST_DEPTH)
EVAL = Param("eval", CHOICE, "cost", "the evaluation at the horizon", choices=tuple(EVALUATIONS))
EVAL_MODE = Param("eval_mode", CHOICE, "local", "evaluate on the answers left (local), on the full lists (constant) "
                  "or not at all (zero: random tie-break)", choices=tuple(MODES))
THRESHOLD = Param("threshold", WHOLE, DEFAULT_THRESHOLD, "above this many distinct replies the constant evaluation "
                  "stands in for the local one", least=1, most=243)
BEAM = Param("beam", WHOLE, 10, "guesses expanded at each Guesser node", least=1, most=MOST_BEAM)
WEIGHTS = Param("weights", NUMBERS, None, "with eval weighted: the weights of entropy, greens, yellows and greys",
                count=4, optional=True, none_means=",".join(f"{w:g}" for w in DEFAULT_WEIGHTS))
NODES = Param("nodes", WHOLE, None, "node budget per decision; past it, nodes are valued as at the horizon and the "
              "decision says the budget was reached", least=1, most=MOST_NODES, optional=True, none_means="no budget")
POOL = Param("pool", WHOLE, 300, "below the root, value the answers left plus this many guesses best on the full lists",
             least=1, most=12972)

OPPONENT = Param("opponent", CHOICE, "worst", "the Indicator the search assumes: the reply worst for the Guesser, or "
                 "absurdle's own reply (then it looks first for the shortest win within depth guesses)",
                 choices=("worst", "absurdle"))

#: The parameters every searching agent takes.
SEARCH_PARAMS = (DEPTH, EVAL, EVAL_MODE, THRESHOLD, BEAM, WEIGHTS, NODES, POOL)

# -- what makes a searching agent an advisor (set by `assist` and the web assistant, no flags) --
KEEP_OPENING = Param("keep_opening", SWITCH, False, "keep the first two moves of each mode on disk, searched once")
ADVICE_NODES = Param("advice_nodes", NUMBERS, None, "node budgets of the decisions past the opening plan (second "
                     "move, later moves); past one, a shallower search decides", count=2, optional=True,
                     none_means="none")
#: The advice parameters every searching agent takes.
ADVICE_PARAMS = (KEEP_OPENING, ADVICE_NODES)

