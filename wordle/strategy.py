"""How Wordle is searched: one frozen Strategy, read only by the Wordle policies (wordle/policies.py).

What a search may spend is apart from it (search/limits.py: `Limit`), and so is how guesses
are valued (the evaluation, with its own indication threshold). Values are from the
Guesser's point of view, higher is better, on the scale of `Wordle.utility`.

>>> Strategy(beam=8).pool
300
>>> Strategy(opening=3, opening_top=3).shallow().opening
0
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Strategy:
    """How a Wordle search chooses, widens and extends what it searches.

    Attributes:
        beam: how many of the best-valued guesses are expanded at each Guesser node.
        pool: below the root, the guesses valued at a node are its possible answers plus
            the `pool` guesses the evaluation values best on the full answer list (in hard
            mode, every legal guess when there are at most `pool` of them).
        widen: when every guess of a node's beam shows a loss (expectimax: some chance of
            one; minimax: a value at or below -loss), the node searches further guesses, a
            beam at a time in the evaluation's order, until one shows none or it has
            searched this many (at most `beam`: never widen).
        loss: how far below 0 (the utility of a lost game) the search values a loss, so
            that it prefers a longer win to a gamble on the last guess.
        endgame: a Guesser node with at most this many guesses left is searched to the
            end of the game, whatever the depth (0: never).
        endgame_answers: so is a hard-mode node (or any node of a search whose Guesser
            guesses only possible answers) with at most this many possible answers and at
            most endgame + 1 guesses left (0: never). Hard mode's traps (_OUND,
            _ASTE, _ATCH) are sets whose legal guesses test one letter at a time; searched
            to the end they show their losses a guess before they are entered.
        opening: the depth of a search from a game's first move (no guess made yet), when
            deeper than the limit's depth (0: that depth). Every game shares its opening, so
            a player can afford to look further there, far enough to see the traps an
            opener leads into.
        opening_top: when above 0 and `opening` is deeper than the limit's depth, the first
            move is searched that deep over the whole beam, and only its `opening_top` best
            guesses are searched again `opening` deep to choose among them (0: the whole
            beam is searched `opening` deep).
    """

    beam: int = 10
    pool: int = 300
    widen: int = 500
    loss: float = 10.0
    endgame: int = 3
    endgame_answers: int = 30
    opening: int = 0
    opening_top: int = 0

    def __post_init__(self) -> None:
        """Refuse a strategy no search can follow."""
        for name in ("beam", "pool"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        for name in ("widen", "loss", "endgame", "endgame_answers", "opening", "opening_top"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be at least 0, got {getattr(self, name)}")

    def shallow(self) -> Strategy:
        """The same rankings (beam, pool, loss) with no endgame search, no widening and no deeper opening."""
        return Strategy(beam=self.beam, pool=self.pool, widen=0, loss=self.loss, endgame=0, endgame_answers=0)
