"""The advisor: a Guesser that plays exactly what `assist` suggests first, so its advice can be measured.

Values are expected guesses to finish (lower is better), as `assist` shows them; the Decision's
value is minus that (the Guesser's scale, higher is better). Each decision replays the game's
guesses and replies under the answer model and takes the first suggestion of
`agents.assistant.advise_model` with the default advisor (the solver's values within the
node budget, ranked by `wordle.valuation.rank_key`), the same call `assist` makes, without the
wall-clock safety cap: its games are assist's advice on a machine the cap never cuts, whatever
the tournament's load (the cap, when it cuts, says the result may differ).
"""

from __future__ import annotations

import numpy as np

from wordle import State, Wordle

from .answer_model import MODELS, AnswerModel, load_model, uniform_model
from .base import Agent, Decision
from .params import CHOICE, Param
from .registry import register

#: The answer list of the game played, all equally likely (assist's `--answers` naming that list).
GAME_LIST = "game"
#: How many suggestions it asks for: assist's default (the first is the same for any number up to the shortlist).
ADVICE_TOP = 10
#: Decisions kept for positions seen again (the openings most games share).
DECISIONS_KEPT = 100_000
MODEL = Param("model", CHOICE, GAME_LIST, "the answer model it advises under: the game's answer list, equally "
              "likely, or a named model as assist --answers takes it", choices=(GAME_LIST, *MODELS))


@register("advisor", "plays assist's first suggestion (the solver's values within the node budget, ranked by what "
                     "is proved or achieved)", params=(MODEL,), named_only=True)
class AdvisorAgent(Agent):
    """Asks the assistant at every turn and plays its first suggestion."""

    def __init__(self, game: Wordle, model: str = MODEL.default):
        super().__init__(game)
        self.model_name = MODEL.check(model)
        self._model: AnswerModel | None = None
        self._valuer = None
        self._decided: dict[tuple, Decision] = {}  # a valuation's result depends on its position alone

    def model(self) -> AnswerModel:
        """The answer model, loaded on first use (its guesses must be the game's, so indices carry over)."""
        if self._model is None:
            from plumbing.errors import UserError
            model = uniform_model(self.game, GAME_LIST) if self.model_name == GAME_LIST else load_model(self.model_name)
            if model.game.words.guesses != self.game.words.guesses:
                raise UserError(f"the {self.model_name} model's guesses are not this game's: use --model game")
            self._model = model
        return self._model

    def decide(self, state: State, rng: np.random.Generator) -> Decision:
        """assist's first suggestion after the game's guesses and replies so far (the same position: the same answer).

        A position's valuation starts from an empty solver memory under a node budget, so it depends on
        the position alone: decisions are kept (up to DECISIONS_KEPT) and the games' shared openings
        valued once.
        """
        key = (state.history, state.mode, state.max_guesses)
        if key not in self._decided:
            if len(self._decided) >= DECISIONS_KEPT:
                self._decided.clear()
            self._decided[key] = self.advise(state)
        return self._decided[key]

    def advise(self, state: State) -> Decision:
        """Ask the assistant now."""
        from .assistant import advise_model
        from .model_value import Valuer

        model = self.model()
        if self._valuer is None or self._valuer.model is not model:
            self._valuer = Valuer(model, time_cap=False)
        advice = advise_model(model, list(state.history), hard=state.hard, top=ADVICE_TOP,
                              max_guesses=state.max_guesses, valuer=self._valuer, ultra=state.ultra)
        if advice.model is not self._valuer.model:  # widened: keep the wider model's valuer for the next turn
            self._valuer = Valuer(advice.model, time_cap=False)
        first = advice.suggestions[0]
        return Decision(guess=first.guess, value=-first.expected_guesses,
                        alternatives=tuple((s.guess, -s.expected_guesses) for s in advice.suggestions))
