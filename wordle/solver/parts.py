"""The parts of a big set: the subsets whose reply counts lend the set's replies tighter ceilings.

A ceiling on the replies a guess gets from a set of answers is a count of its replies from any superset, under
any hints: so a reply of a big set, held in the part of the set with some feature (a letter held, lacked, or held
at a place), gets the least of the set's count and each such part's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..hardmode import Hints

if TYPE_CHECKING:
    from .passes import BoundPasses

#: A part of a big set lends its replies ceilings only if it holds at most this share of the set.
PART_SHARE = 0.9


class Parts:
    """The parts of a big set that lend its replies tighter ceilings (`BoundPasses.reply_ceilings`).

    A part is the set's answers with one feature: holding a letter, lacking it, or holding a letter at a place. A
    reply every answer of which has the feature lies in that part, so no guess gets more different replies from it
    than from the part. A letter's parts of more than PART_SHARE of the set are left out (their counts cost a pass
    over nearly the whole set and are hardly below its own); the places' parts are always asked. Each part's counts
    are made on first use and kept with the set (the solver's memory keeps PARTS_KEPT sets' parts, at most 182 rows
    of counts each, about 19 MB with every allowed guess). Features are numbered: letter L held is L, lacked
    26 + L, held at place P 52 + 26 P + L (letters numbered from 0 for a).
    """

    def __init__(self, passes: "BoundPasses", answers: np.ndarray, hints: Hints | None) -> None:
        self.passes, self.answers, self.hints = passes, answers, hints
        self.places = passes.letters[0][answers].astype(np.int64)  # each answer's letter at each place
        self.masks = np.bitwise_or.reduce(np.int64(1) << self.places, axis=1)  # each answer's letters, as bits
        holders = ((self.masks[:, None] >> np.arange(26)) & 1).sum(axis=0)
        most = PART_SHARE * len(answers)
        # per feature number, whether its part is small enough to be worth its counts (places: always)
        self.worth = np.concatenate((holders <= most, (holders > 0) & (len(answers) - holders <= most),
                                     np.ones(26 * passes.letters[0].shape[1], bool)))
        self.counted = np.zeros(len(self.worth), bool)
        self.counts = np.empty((len(self.worth), len(passes.words)), np.int64)  # rows filled on first use
        self.ceiling = passes.ceilings(answers, hints)
        self.peak = int(self.ceiling[passes.allowed(hints)].max())  # no guess gets more replies from any subset

    def holding(self, group: np.ndarray) -> np.ndarray:
        """The features (numbered) every answer of `group` has whose part is small enough to be worth its counts."""
        return self.passes.features_of(self.passes.letters[0], group, self.worth)

    def count(self, feature: int) -> None:
        """Count each guess's different replies from the part with this feature, once."""
        if feature >= 52:
            place, letter = divmod(feature - 52, 26)
            inside = self.places[:, place] == letter
        else:
            inside = (self.masks >> (feature % 26) & 1).astype(bool) == (feature < 26)
        self.counts[feature] = self.passes.count_replies(self.answers[inside], self.hints)
        self.counted[feature] = True

    def ceilings_of(self, group: np.ndarray) -> tuple[np.ndarray, int]:
        """Each guess's ceiling on its different replies from `group` (a subset of the set): the least over the set
        and every part holding `group`; and the most of them (no guess gets more replies from `group`)."""
        features = self.holding(group)
        for feature in features[~self.counted[features]].tolist():
            self.count(feature)
        out = np.empty_like(self.ceiling)
        top = self.passes.least_of_rows(self.ceiling, self.counts, features, out)
        return out, int(top)
