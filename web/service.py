"""What the web page's JSON API does, free of any web framework: request data in, reply data out.

Values are from the Guesser's point of view: higher is better; an agent's own value is on its
own scale, and the figure every view shows for a guess is the terminal's: expected guesses to
finish by the one valuation (agents.model_value, wordle.valuation: a count, lower is better,
proved or shown as the bound it is). Every method takes the
request's JSON object (a dict; from a query string its values are text) and returns a
JSON-ready dict, or raises a `search.UserError` whose one-line message the API sends
with a 4xx status, the same message the command line prints.

One `Service` serves every request at once: the game (word lists and pattern matrix) is
shared read-only; agents keep per-instance caches, so each agent is lent to one request
at a time from a small pool; games people play live in a bounded table under a lock.
Work is bounded: searching agents get a node budget per decision, a watched game stops
at a time budget and says so, and at most `workers` agents think at once; a request that
waits too long for its turn is told the server is busy instead of hanging.
"""

from __future__ import annotations

import json
import math
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from functools import partial
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from agents import AGENTS, Agent, AgentError, Param, game_rng, make_agent, spec
from agents.answer_model import DEFAULT_MODEL, MODELS, AnswerModel, load_model, uniform_model
from agents.model_value import Valuer, value_turns
from agents.assistant import ADVISOR, Advice, StepError, advice_data, advise_model, make_advisor, parse_step
from agents.review import Review, grid_answer, grid_score, parse_game, review_data, review_game
from agents.base import draw_answer
from agents.indicators import Indicator, against_rngs, make_indicator
from agents.params import flag
from wordle import ALL_GREEN, State, Turn, Wordle, Words, decode_colours, format_pattern, load_words, parse_pattern
from plumbing.errors import UserError, clip
from wordle.familiarity import WORD_ORDERS
from wordle.feedback import GREEN, GREY, YELLOW
from wordle.game import DEFAULT_MAX_GUESSES
from wordle.patterns import share_grid
from wordle.screenshot import read_upload
from wordle.words import NAMED_ANSWERS, NAMED_GUESSES, guess_list_name
from tournament.charts import charts
from tournament.records import ResultsError, read_json_object
from tournament.stats import summary_problem

from .jobs import JobNotFound
from .variant_games import TooManyVariantGames, VariantGameNotFound, VariantGames
from .workers import Busy, OverBudget, OverMemory, RemoteError, WorkerPool

#: A watched step's alternatives valued beside its guess (as play's trace values them).
VALUED_ALTERNATIVES = 4
#: Node budget of one decision of a searching agent (the default expectimax opening takes about 35,000).
MAX_NODES = 100_000
#: Deepest look-ahead a request may ask of a searching agent.
MAX_DEPTH = 3
#: Most suggestions one advice request may ask for.
MAX_TOP = 50
#: A watched game stops after the decision that passes this many seconds, and says so.
WATCH_SECONDS = 15.0
#: The most seconds an agent may work for one request (watch, advise); past it the work is killed and
#: the request answered 503 saying so. The work runs in a worker process, so the worker is freed too.
REQUEST_SECONDS = 20.0
#: The safety cap of a review, or of the solver's advice (seconds): node budgets decide their values, as on the
#: command line, so the page waits for them (web/jobs.py shows what is known meanwhile); past this the machine is far
#: too busy and the work is stopped with one line saying so.
JOB_SECONDS = 600.0
#: How long a request waits for a free worker before it is told the server is busy.
QUEUE_SECONDS = 30.0
#: Games people are playing, kept at most; when full, the least recently played is forgotten if idle for
#: GAME_KEEP_SECONDS, else a new game is refused (503).
MAX_GAMES = 10_000
#: Unfinished games one client (one address) may hold; one more is refused (429), so a flood of new games from
#: one client forgets none of anyone's games.
CLIENT_GAMES = 100
#: A game untouched this long is forgotten (seconds).
GAME_IDLE_SECONDS = 3600.0
#: A game played within this many seconds is never forgotten to make room for another.
GAME_KEEP_SECONDS = 600.0
#: The fields a screenshot's review takes beside the picture (review's options; the picture gives the steps).
SCREENSHOT_OPTIONS = ("answers", "exclude", "hard", "max_guesses")
#: The Indicators a person can play against on the page besides the honest one.
PLAYABLE_INDICATORS = ("absurdle", "adversary", "random")
#: Answer models kept loaded at once (by name and exclude list; the oldest is forgotten first). One with an exclude
#: list holds a game of its own (about 140 MB), so at most MAX_EXCLUDE_MODELS of those are kept.
MAX_MODELS = 8
MAX_EXCLUDE_MODELS = 2
#: Answers listed by name when no more than this many are left.
LIST_ANSWERS = 30
DEFAULT_RESULTS = Path(__file__).resolve().parents[1] / "results" / "published" / "tournament-depth-2"
COLOUR_NAMES = {GREEN: "correct", YELLOW: "present", GREY: "absent"}


class RequestError(UserError):
    """A request field that is missing, of the wrong type or out of range (HTTP 400)."""


class NotFound(UserError):
    """Something the request names that does not exist: a game, a chart, the results (HTTP 404)."""


class TooMany(UserError):
    """A client holds as many games as one client may (HTTP 429)."""


def status_of(error: UserError) -> int:
    """The HTTP status of a UserError: 404 for what does not exist, 503 when busy or over budget, else 400."""
    if isinstance(error, RemoteError):
        return error.status
    if isinstance(error, (TooMany, TooManyVariantGames)):
        return 429
    return 404 if isinstance(error, (NotFound, VariantGameNotFound, JobNotFound)) else 503 if isinstance(error, (Busy, OverBudget, OverMemory)) else 400


def worker_handler(game: Wordle, request_seconds: float, guesses: str | Path | None = None
                   ) -> Callable[[str, dict[str, Any]], Any]:
    """In a worker process: a Service of its own over `game`, its guess list and the server's budget, answering the
    expensive calls."""
    service = Service(game, workers=1, request_seconds=request_seconds, guesses=guesses)
    calls = {"watch": service.watch, "indicator": service.indicator_reply}
    reporting = {"advise": service.advise, "review": service.review, "review_screenshot": service.review_screenshot}
    return lambda method, body, report: (reporting[method](body, report) if method in reporting
                                         else calls[method](body))


# -- reading request fields -------------------------------------------------------------
def shown(value: Any) -> str:
    """A request's value as JSON text for a message, cut to a line."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = repr(type(value).__name__)
    return clip(text, 80)


def text_field(body: dict[str, Any], name: str, default: str | None = None) -> str:
    """A text field; missing means `default`, or a RequestError when there is none."""
    value = body.get(name, default)
    if value is None:
        raise RequestError(f"'{name}' is missing")
    if not isinstance(value, str):
        raise RequestError(f"'{name}' must be text, got {shown(value)}")
    return value.strip()


def bool_field(body: dict[str, Any], name: str, default: bool = False) -> bool:
    """A true/false field (JSON booleans, or 'true'/'false'/'1'/'0' from a query string)."""
    value = body.get(name, default)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "1", "yes", "on", "false", "0", "no", "off", ""):
        return value.strip().lower() in ("true", "1", "yes", "on")
    raise RequestError(f"'{name}' must be true or false, got {shown(value)}")


def modes(body: dict[str, Any]) -> tuple[bool, bool]:
    """The 'hard' and 'ultra' fields (ultra-hard mode's rule contains hard mode's: not both)."""
    hard, ultra = bool_field(body, "hard"), bool_field(body, "ultra")
    if hard and ultra:
        raise RequestError("'hard' and 'ultra' are one or the other: ultra-hard mode's rule contains hard mode's")
    return hard, ultra


def int_field(body: dict[str, Any], name: str, default: int, least: int, most: int) -> int:
    """A whole-number field within [least, most]."""
    value = body.get(name, default)
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?[0-9]{1,30}\s*", value):  # ASCII digits: not '²' or '--5'
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(f"'{name}' must be a whole number, got {shown(value)}")
    if not least <= value <= most:
        raise RequestError(f"'{name}' must be from {least} to {most}, got {value}")
    return value


def agent_settings(name: str, raw: Any, advising: bool = False) -> dict[str, Any]:
    """An agent's options from a request, parsed as the command line parses its flags, within the web's budget.

    Args:
        name: the agent (unknown: AgentError listing the known ones).
        raw: a JSON object of option name to value (numbers or text), or None.
        advising: for the assistant: with no options at all, the settings `assist` uses (none), whose
            advisor bounds its own decisions (agents.assistant.make_advisor), so the advice is the terminal's.

    Returns:
        Keyword settings for `make_agent`; a searching agent gets a node budget unless `advising` with no options.
    """
    agent_spec = spec(name)
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise RequestError(f"'options' must be an object of option names to values, got {shown(raw)}")
    settings: dict[str, Any] = {}
    for key, value in raw.items():
        key = str(key).replace("-", "_")
        param = agent_spec.param(key)
        if param is None:
            raise AgentError(f"agent '{name}' does not take {key}")
        if value is None or value == "":
            continue
        try:
            settings[key] = param.parse(value) if isinstance(value, str) else param.check(value)
        except ValueError as error:
            raise AgentError(str(error)) from None
    if settings.get("opener") == "best":
        raise RequestError("--opener best: solving for the best opener takes far longer than the web page's "
                           f"{REQUEST_SECONDS:g} s; name an opener, or run it with 'python cli.py solve'")
    if agent_spec.param("nodes") is not None and not (advising and not raw):
        if settings.get("nodes", 0) > MAX_NODES:
            raise RequestError(f"--nodes: the web page searches at most {MAX_NODES} nodes a decision, "
                               f"got {settings['nodes']}")
        settings.setdefault("nodes", MAX_NODES)
    if settings.get("depth", 0) > MAX_DEPTH:
        raise RequestError(f"--depth: the web page looks at most {MAX_DEPTH} guesses ahead, got {settings['depth']}")
    return settings


# -- shapes of replies ----------------------------------------------------------------------
def job_over_budget(what: str) -> str:
    """The one line of a review or an advice stopped at its safety cap (no option to change: the machine is busy)."""
    return (f"{what} took over {JOB_SECONDS:g} s and was stopped: the server's machine is far too busy; try again "
            "when it is quieter")


def review_reply(review: Review) -> dict[str, Any]:
    """A review as the API answers it: `review --json`'s data, each step's tiles' colours beside its pattern."""
    data = review_data(review)
    for step in data["steps"]:
        step["colours"] = colours(parse_pattern(step["pattern"]))
    return data


def partial_review(review: Review, turns: Sequence[Turn]) -> dict[str, Any]:
    """A review under way as a job reports it: the steps valued so far (each final), 'done' false, and the steps
    still to value under 'pending' (their guess, reply and answers left, no value yet)."""
    data = review_reply(review)
    words = review.model.game.words
    data["pending"] = [{"number": number, "guess": words.guesses[turn.guess], "pattern": format_pattern(turn.pattern),
                        "colours": colours(turn.pattern), "before": turn.remaining_before,
                        "after": turn.remaining_after}
                       for number, turn in enumerate(turns, start=1) if number > len(review.steps)]
    data["done"] = False
    return data


def advice_reply(advice: Advice) -> dict[str, Any]:
    """An advice as the API answers it: `assist --json`'s data, each step's tiles' colours beside its pattern."""
    data = advice_data(advice.model.game, advice)
    data["steps"] = [dict(step, colours=colours(parse_pattern(step["pattern"]))) for step in data["steps"]]
    return data


def partial_advice(advice: Advice) -> dict[str, Any]:
    """An advice under way as a job reports it: the steps and the answers left, no suggestion yet, 'done' false."""
    return {**advice_reply(advice), "done": False}


def option_info(param: Param) -> dict[str, Any]:
    """What the page shows of an agent's parameter: its name as a flag, the form of its value, its help and default."""
    forms = {"whole number": f"{param.least}-{param.most}", "choice": "|".join(param.choices), "switch": "yes|no"}
    default = param.none_means if param.default is None else param.text(param.default)
    return {"name": param.name, "flag": flag(param.name),
            "metavar": forms.get(param.kind, ",".join(["X"] * param.count)), "help": param.help, "default": default}


def colours(pattern: int) -> list[str]:
    """A pattern as the page's tile classes, first letter first.

    >>> colours(int('20100', 3))
    ['correct', 'absent', 'present', 'absent', 'absent']
    """
    return [COLOUR_NAMES[colour] for colour in decode_colours(pattern)]


def keyboard(history: list[tuple[str, int]]) -> dict[str, str]:
    """Each letter guessed so far at its best state: correct over present over absent.

    >>> keyboard([("eerie", int('00200', 3)), ("spree", int('00022', 3))])
    {'e': 'correct', 'r': 'correct', 'i': 'absent', 's': 'absent', 'p': 'absent'}
    """
    rank = {"absent": 0, "present": 1, "correct": 2}
    best: dict[str, str] = {}
    for word, pattern in history:
        for letter, state in zip(word, colours(pattern)):
            if letter not in best or rank[state] > rank[best[letter]]:
                best[letter] = state
    return best


def share_text(history: list[tuple[str, int]], solved: bool, max_guesses: int, hard: bool) -> str:
    """The result as the usual emoji grid, e.g. 'wordle-arena 3/6*' then one row of squares a guess."""
    return share_grid([pattern for _, pattern in history], solved, max_guesses, hard)


@dataclass
class Played:
    """A game a person is playing: its hidden answer (None against an Indicator that holds none), the state,
    the seed that picked the answer, and the Indicator that replies (None: the honest one)."""

    answer: int | None
    state: State
    seed: int | None
    lock: threading.Lock = field(default_factory=threading.Lock)
    indicator: Indicator | None = None
    rng: np.random.Generator | None = None
    client: str = ""
    touched: float = field(default_factory=time.monotonic)


class AgentPool:
    """Agents lent one request at a time, kept by name and settings so their caches serve later requests."""

    def __init__(self, game: Wordle, keep: int = 32):
        """Keep idle agents for at most `keep` different (name, settings)."""
        self.game = game
        self.keep = keep
        self.idle: OrderedDict[tuple, list[Agent]] = OrderedDict()
        self.lock = threading.Lock()

    @contextmanager
    def lend(self, name: str, settings: dict[str, Any], advisor: bool = False) -> Iterator[Agent]:
        """An agent nobody else is using, returned to the pool afterwards (`advisor`: made as `assist` makes it)."""
        key = (name, json.dumps(settings, sort_keys=True, default=str), advisor)
        with self.lock:
            free = self.idle.get(key)
            agent = free.pop() if free else None
        if agent is None:
            agent = make_advisor(name, self.game, **settings) if advisor else make_agent(name, self.game, **settings)
        try:
            yield agent
        finally:
            with self.lock:
                self.idle.setdefault(key, []).append(agent)
                self.idle.move_to_end(key)
                while len(self.idle) > self.keep:
                    self.idle.popitem(last=False)


class Service:
    """The API's work, shared by every request of one server."""

    def __init__(self, game: Wordle, results: str | Path = DEFAULT_RESULTS, workers: int = 2, processes: bool = False,
                 request_seconds: float = REQUEST_SECONDS, guesses: str | Path | None = None):
        """Serve `game`, the tournament run folder `results`, with `workers` agents thinking at once.

        The answer models (Assist, Review) are built over `guesses`, the guess list by name or file; None: the
        served game's own where it is a shipped list (`wordle.words.guess_list_name`), else the 2022 list.

        With `processes` the agents think in worker processes, each request under
        REQUEST_SECONDS (`WorkerPool`); without, in this process's threads (the worker's own
        Service, and tests of the answers), where nothing can stop a request that runs long.
        `request_seconds` is that budget.
        """
        self.request_seconds = request_seconds
        self.game = game
        self.guesses = guesses if guesses is not None else guess_list_name(game.words.guesses)
        self.results_folder = Path(results)
        self.agents = AgentPool(game)
        self.workers = threading.BoundedSemaphore(workers)
        self.pool = WorkerPool(partial(worker_handler, game, request_seconds, self.guesses), status_of, workers,
                               QUEUE_SECONDS) if processes else None
        self.games: OrderedDict[str, Played] = OrderedDict()  # least recently played first
        self.client_games: dict[str, set[str]] = {}  # each client's unfinished games
        self.games_lock = threading.Lock()
        self.models: OrderedDict[tuple, AnswerModel] = OrderedDict()
        self.models_lock = threading.Lock()
        self.indicators: dict[str, Indicator] = {}
        self.indicators_lock = threading.Lock()
        self.indicator_locks: dict[str, threading.Lock] = {name: threading.Lock() for name in PLAYABLE_INDICATORS}
        # the variants play five-letter Wordle on the shipped 2022 lists, as on the command line (variants/words.py)
        variant_words = load_words()
        self.variants = VariantGames(game if game.words.checksum == variant_words.checksum else Wordle(variant_words))

    def variant_advise(self, body: dict[str, Any]) -> dict[str, Any]:
        """Advice on a variant game (web.variant_games), on a worker's turn."""
        with self.worker():
            return self.variants.advise(body)

    # -- helpers ------------------------------------------------------------------------
    @contextmanager
    def worker(self) -> Iterator[None]:
        """A turn to run an agent, or Busy after QUEUE_SECONDS."""
        if not self.workers.acquire(timeout=QUEUE_SECONDS):
            raise Busy(f"the server is busy: every worker stayed taken for {QUEUE_SECONDS:g} s; try again shortly")
        try:
            yield
        finally:
            self.workers.release()

    def word(self, index: int) -> str:
        """A guess index as its word."""
        return self.game.words.guesses[index]

    def guess_id(self, body: dict[str, Any], name: str = "guess") -> int:
        """The allowed guess a field names."""
        return self.game.words.guess_id(text_field(body, name).lower())

    def answer_id(self, body: dict[str, Any], name: str = "answer") -> int:
        """The possible answer a field names."""
        return self.game.words.answer_id(text_field(body, name).lower())

    def max_guesses(self, body: dict[str, Any]) -> int:
        """The request's guess limit (default 6)."""
        return int_field(body, "max_guesses", DEFAULT_MAX_GUESSES, 1, 20)

    def game_over(self, words: Words) -> Wordle:
        """The served game when the lists are its own, else a game over `words` (its matrix from the disk cache)."""
        return self.game if words.checksum == self.game.words.checksum else Wordle(words)

    def model(self, body: dict[str, Any], ultra: bool = False) -> AnswerModel:
        """The answer model a request names: 'answers' (a model's name, default DEFAULT_MODEL) less 'exclude'
        (a list of words that cannot be the answer today). `ultra`: ultra-hard mode's values take every answer
        alike, so the default is the original list there, and a weighted model is refused."""
        name = text_field(body, "answers", DEFAULT_MODEL)
        if ultra and name == DEFAULT_MODEL:  # the page's default: ultra-hard values take every answer alike
            name = "original"
        if name not in MODELS:
            raise RequestError(f"'answers' must be one of {', '.join(MODELS)}, got {json.dumps(name)}")
        if ultra and name not in NAMED_ANSWERS:
            raise RequestError(f"'ultra' values guesses with every answer equally likely; '{name}' weighs them (name "
                               f"a list: {', '.join(NAMED_ANSWERS)})")
        exclude = body.get("exclude") or []
        if not isinstance(exclude, list) or not all(isinstance(word, str) for word in exclude):
            raise RequestError(f"'exclude' must be a list of words, got {json.dumps(exclude)}")
        key = (name, tuple(sorted({word.strip().lower() for word in exclude})))
        with self.models_lock:
            if key not in self.models:
                self.models[key] = load_model(name, self.guesses, key[1], make_game=self.game_over)
                excluding = [held for held in self.models if held[1]]
                for held in excluding[:max(0, len(excluding) - MAX_EXCLUDE_MODELS)]:
                    del self.models[held]
                while len(self.models) > MAX_MODELS:
                    self.models.popitem(last=False)
            self.models.move_to_end(key)
            return self.models[key]

    # -- endpoints ------------------------------------------------------------------------
    def agents_info(self) -> dict[str, Any]:
        """Every agent with its summary and the options it takes; the default advisor, the answer models and the guess
        list they are over (by name, None for a file of the server's, and how many words it holds)."""
        return {"agents": [
            {"name": name, "summary": agent.summary,
             "options": [option_info(param) for param in agent.params]}
            for name, agent in AGENTS.items()],
            "advisor": ADVISOR,
            "answer_models": [{"name": name, "summary": summary} for name, summary in MODELS.items()],
            "answer_model": DEFAULT_MODEL,
            "guesses": {"list": None if self.guesses is None or str(self.guesses) not in NAMED_GUESSES
                        else str(self.guesses), "count": len(self.game.words.guesses)},
            "budget": {"nodes": MAX_NODES, "depth": MAX_DEPTH,
                       "watch_seconds": WATCH_SECONDS * self.request_seconds / REQUEST_SECONDS,
                       "request_seconds": self.request_seconds, "top": MAX_TOP}}

    def feedback(self, body: dict[str, Any]) -> dict[str, Any]:
        """The colours `guess` gets when `answer` is the hidden word."""
        guess, answer = self.guess_id(body), self.answer_id(body)
        pattern = self.game.reply(guess, answer)
        return {"guess": self.word(guess), "answer": self.game.words.answers[answer],
                "pattern": format_pattern(pattern), "code": pattern, "colours": colours(pattern)}

    def new_game(self, body: dict[str, Any], client: str = "") -> dict[str, Any]:
        """Start a game for `client` (its address) against a hidden answer: the one named, or one drawn from `seed`
        (random when absent), or against an Indicator."""
        hard = bool_field(body, "hard")
        max_guesses = self.max_guesses(body)
        seed = None
        against = body.get("indicator") or "honest"
        if against != "honest":
            if against not in PLAYABLE_INDICATORS:
                raise RequestError(f"'indicator' must be one of {', '.join(('honest', *PLAYABLE_INDICATORS))}, "
                                   f"got {shown(against)}")
            seed = int_field(body, "seed", secrets.randbelow(2**31), 0, 2**63 - 1)
            played = Played(answer=None, state=self.game.initial_state(hard=hard, max_guesses=max_guesses),
                            seed=seed, indicator=make_indicator(against, self.game),
                            rng=against_rngs(seed)[1], client=client)  # the Indicator's stream, as play --seed
            return self.keep(played, against)
        if body.get("answer") not in (None, ""):
            answer = self.answer_id(body)
        else:
            seed = int_field(body, "seed", secrets.randbelow(2**31), 0, 2**63 - 1)
            answer = draw_answer(seed, len(self.game.words.answers))
        played = Played(answer=answer, state=self.game.initial_state(hard=hard, max_guesses=max_guesses), seed=seed,
                        client=client)
        return self.keep(played, "honest")

    def forget(self, key: str) -> None:
        """Forget one game (the games lock held)."""
        played = self.games.pop(key)
        self.client_games.get(played.client, set()).discard(key)
        if not self.client_games.get(played.client, True):
            del self.client_games[played.client]

    def keep(self, played: Played, indicator: str) -> dict[str, Any]:
        """Keep a new game under a fresh key and describe it; TooMany when its client holds CLIENT_GAMES unfinished
        games, Busy when the table is full of games played within GAME_KEEP_SECONDS."""
        key = secrets.token_urlsafe(12)
        now = time.monotonic()
        with self.games_lock:
            while self.games and now - next(iter(self.games.values())).touched > GAME_IDLE_SECONDS:
                self.forget(next(iter(self.games)))
            mine = self.client_games.setdefault(played.client, set())
            if len(mine) >= CLIENT_GAMES:
                raise TooMany(f"this address already has {CLIENT_GAMES} unfinished games on this server; finish "
                              f"one, or wait: a game left alone is forgotten after {GAME_IDLE_SECONDS / 60:g} min")
            if len(self.games) >= MAX_GAMES:
                oldest = next(iter(self.games))
                if now - self.games[oldest].touched < GAME_KEEP_SECONDS:
                    raise Busy(f"the server holds {MAX_GAMES} games played in the last {GAME_KEEP_SECONDS / 60:g} "
                               "min; try again later")
                self.forget(oldest)
            self.games[key] = played
            mine.add(key)
        state = played.state
        return {"game": key, "hard": state.hard, "max_guesses": state.max_guesses,
                "remaining": len(state.candidates), "indicator": indicator}

    def guess(self, body: dict[str, Any]) -> dict[str, Any]:
        """Play one guess in a game: refused (400) if unknown or, in hard mode, breaking a revealed hint."""
        key = text_field(body, "game")
        with self.games_lock:
            played = self.games.get(key)
            if played is not None:
                played.touched = time.monotonic()
                self.games.move_to_end(key)
        if played is None:
            raise NotFound(f"no game '{key}' on this server (finished long ago, or the server restarted); start a new one")
        guess = self.guess_id(body)
        with played.lock:
            state = played.state
            if self.game.is_terminal(state):
                raise RequestError("the game is over; start a new one")
            if (broken := self.game.violation(state, guess)) is not None:
                raise RequestError(f"hard mode: {broken}")
            before = len(state.candidates)
            if played.indicator is None:
                state = self.game.step(state, guess, self.game.reply(guess, played.answer))
                choice = None
            else:
                pending = self.game.result(state, guess)
                if self.pool is not None:
                    reply = self.pool.call("indicator", {"indicator": played.indicator.name, "state": pending,
                                                         "rng": played.rng}, self.request_seconds,
                                           f"the {played.indicator.name} Indicator's reply")
                    choice, played.rng = reply["choice"], reply["rng"]
                else:
                    choice = self.indicator_reply({"indicator": played.indicator.name, "state": pending,
                                                   "rng": played.rng})["choice"]
                state = self.game.result(pending, choice.pattern)
            played.state = state
        if self.game.is_terminal(state):
            with self.games_lock:
                self.client_games.get(played.client, set()).discard(key)  # finished: no longer counts as held
        pattern = state.history[-1][1]
        history = self.game.history_words(state)
        over = self.game.is_terminal(state)
        reply = {"guess": self.word(guess), "pattern": format_pattern(pattern), "colours": colours(pattern),
                 "remaining": len(state.candidates), "bits": round(math.log2(before / len(state.candidates)), 6),
                 "guesses_used": state.guesses_used, "max_guesses": state.max_guesses, "solved": state.solved,
                 "over": over, "keyboard": keyboard(history)}
        if choice is not None:
            reply["indicator"] = {"name": played.indicator.name, "kept": choice.kept,
                                  "rejected": [[format_pattern(pattern), size] for pattern, size in choice.rejected[:8]]}
        if over:
            held = played.answer if played.answer is not None else (
                self.game.words.answer_rows.tolist().index(guess) if state.solved else None)
            reply.update(answer=None if held is None else self.game.words.answers[held], seed=played.seed,
                         share=share_text(history, state.solved, state.max_guesses, state.hard))
            if held is None:
                reply["still_possible"] = [self.game.words.answers[a] for a in state.candidates[:20]]
        return reply

    def against_indicator(self, body: dict[str, Any]) -> bool:
        """Whether the game a guess names is played against an Indicator (its reply is an agent's work)."""
        key = body.get("game")
        with self.games_lock:
            played = self.games.get(key) if isinstance(key, str) else None
        return played is not None and played.indicator is not None

    def indicator_reply(self, body: dict[str, Any]) -> dict[str, Any]:
        """An Indicator's reply to the pending guess of body's 'state', drawing from body's 'rng' (in a worker: the
        Indicator kept by name, so the adversary's values serve later replies); the choice and the stream after."""
        name = body["indicator"]
        with self.indicators_lock:
            if name not in self.indicators:
                self.indicators[name] = make_indicator(name, self.game)
            indicator = self.indicators[name]
        rng = body["rng"]
        with self.worker(), self.indicator_locks[name]:
            choice = indicator.reply(body["state"], rng)
        return {"choice": choice, "rng": rng}

    def close(self) -> None:
        """Stop the worker processes; requests in progress answer 503 at once."""
        if self.pool is not None:
            self.pool.close()

    def watch(self, body: dict[str, Any]) -> dict[str, Any]:
        """One agent's whole game on one answer, with what it weighed at each step (the `play --agent` trace)."""
        if self.pool is not None:
            return self.pool.call("watch", body, self.request_seconds, "watching this game")
        name = text_field(body, "agent")
        settings = agent_settings(name, body.get("options"))
        answer = self.answer_id(body)
        hard = bool_field(body, "hard")
        seed = int_field(body, "seed", 0, 0, 2**63 - 1)
        state = self.game.initial_state(hard=hard, max_guesses=self.max_guesses(body))
        rng = game_rng(seed, answer)
        steps: list[dict[str, Any]] = []
        played: list[tuple[int, list[int]]] = []  # each step's guess and the alternatives valued beside it
        stopped = None
        with self.worker(), self.agents.lend(name, settings) as agent:
            began = time.perf_counter()
            allowed = WATCH_SECONDS * self.request_seconds / REQUEST_SECONDS  # the same share of a budget set apart
            while not self.game.is_terminal(state):
                if (spent := time.perf_counter() - began) > allowed:
                    stopped = (f"stopped after {len(steps)} guesses: the web page gives a watched game "
                               f"{allowed:g} s and this one took {spent:.1f} s; ask for a smaller --nodes or --depth")
                    break
                tick = time.perf_counter()
                decision = agent.decide(state, rng)
                seconds = time.perf_counter() - tick
                before = len(state.candidates)
                weighed = decision.alternatives[:10]
                played.append((decision.guess, [g for g, _ in weighed[:VALUED_ALTERNATIVES]]))
                state = self.game.step(state, decision.guess, self.game.reply(decision.guess, answer))
                pattern = state.history[-1][1]
                left = state.candidates
                steps.append({
                    "guess": self.word(decision.guess), "pattern": format_pattern(pattern), "colours": colours(pattern),
                    "remaining_before": before, "remaining_after": len(left),
                    "bits": round(math.log2(before / len(left)), 6),
                    "value": None if decision.value is None else round(decision.value, 6),
                    "alternatives": [{"guess": self.word(g), "value": None if v is None else round(v, 6)}
                                     for g, v in weighed],
                    "nodes": decision.nodes, "depth": decision.depth, "seconds": round(seconds, 4),
                    "budget_reached": settings.get("nodes") is not None and decision.nodes >= settings["nodes"],
                    "answers_left": [self.game.words.answers[a] for a in left] if len(left) <= LIST_ANSWERS else None,
                })
            used = agent.settings()
            self.value_watched(steps, played, hard, state.max_guesses)
        return {"agent": name, "settings": used, "answer": self.game.words.answers[answer], "hard": hard, "seed": seed,
                "max_guesses": state.max_guesses, "solved": state.solved, "steps": steps, "stopped": stopped}

    def value_watched(self, steps: list[dict[str, Any]], played: list[tuple[int, list[int]]], hard: bool,
                      max_guesses: int) -> None:
        """Each watched step's guess (and its first VALUED_ALTERNATIVES alternatives) valued as review and assist
        value them: `guess_value` (agents.model_value.GuessValue.data: its text, bounds, whether proved)."""
        start = self.game.initial_state(hard=hard, max_guesses=max_guesses)
        turns = [(guess, parse_pattern(step["pattern"])) for (guess, _), step in zip(played, steps)]
        values = value_turns(Valuer(uniform_model(self.game)), start, turns, [others for _, others in played])
        for (guess, others), step, found in zip(played, steps, values):
            step["guess_value"] = found[0].data()
            by_guess = dict(zip([g for g in others if g != guess], (v.data() for v in found[1:])))
            by_guess[guess] = found[0].data()
            for alternative in step["alternatives"]:
                alternative["guess_value"] = by_guess.get(self.game.words.guess_index[alternative["guess"]])

    def steps(self, raw: Any) -> list[tuple[int, int]]:
        """Assistant steps from a request: 'tares:-y--g' texts or {"guess", "pattern"} objects."""
        if raw is None:
            return []
        if not isinstance(raw, list):
            raise RequestError(f"'steps' must be a list of steps such as \"tares:-y--g\", got {shown(raw)}")
        parsed = []
        for number, step in enumerate(raw, start=1):
            if isinstance(step, str):
                parsed.append(parse_step(self.game, step))
            elif isinstance(step, dict):
                parsed.append((self.guess_id(step), parse_pattern(text_field(step, "pattern"))))
            else:
                raise StepError(f"step {number} must be \"word:pattern\" or {{\"guess\", \"pattern\"}}, got {shown(step)}")
        return parsed

    def advise(self, body: dict[str, Any], report: Callable[[dict[str, Any]], None] | None = None,
               keep_going: Callable[[], bool] | None = None) -> dict[str, Any]:
        """The assistant: answers left after a real game's steps, and ranked suggestions with why each is good.

        `report` gets the advice so far before any guess is valued (the steps and the answers left, no suggestion:
        `partial_advice`). The solver's advice (the default advisor, no options) is bounded by node budgets and runs
        to the end (under JOB_SECONDS); an agent's, under the request's budget. `keep_going`: False stops the work.
        """
        if self.pool is not None:
            if text_field(body, "agent", ADVISOR) == ADVISOR and not body.get("options"):
                return self.pool.call("advise", body, JOB_SECONDS, "this advice", report, keep_going,
                                      over_budget=job_over_budget("this advice"))
            return self.pool.call("advise", body, self.request_seconds, "this advice", report, keep_going)
        name = text_field(body, "agent", ADVISOR)
        settings = agent_settings(name, body.get("options"), advising=True)
        steps = self.steps(body.get("steps"))
        hard, ultra = modes(body)
        top = int_field(body, "top", 10, 1, MAX_TOP)
        seed = int_field(body, "seed", 0, 0, 2**63 - 1)
        only_answers = bool_field(body, "only_answers")
        order = text_field(body, "words", "known")
        if order not in WORD_ORDERS:
            raise RequestError(f"'words' must be one of {', '.join(WORD_ORDERS)}, got {shown(order)}")
        model = self.model(body, ultra)
        # the default advisor without settings is the solver's values (as `assist`); any other, the agent's own
        solver = name == ADVISOR and not settings
        if ultra and not solver:
            raise RequestError("'ultra' is advised by the solver's values (the default advisor, no options): the "
                               "agents have no ultra-hard mode yet")
        with self.worker():
            so_far = None if report is None else (lambda advice: report(partial_advice(advice)))
            if solver:
                advice = advise_model(model, steps, None, hard=hard, top=top, max_guesses=self.max_guesses(body),
                                      only_answers=only_answers, make_game=self.game_over, ultra=ultra,
                                      words=order, partial=so_far)
            else:
                with self.agents.lend(name, settings, advisor=True) as lent:
                    advice = advise_model(model, steps, lambda over: lent if over is self.game else
                                          make_advisor(name, over, **settings), hard=hard, top=top, seed=seed,
                                          max_guesses=self.max_guesses(body), only_answers=only_answers,
                                          make_game=self.game_over, partial=so_far)
        return advice_reply(advice)

    def review(self, body: dict[str, Any], report: Callable[[dict[str, Any]], None] | None = None,
               keep_going: Callable[[], bool] | None = None) -> dict[str, Any]:
        """A finished game reviewed, as `review --json`: from 'steps' (as advise reads them), or 'answer' and
        'words', or 'grid' (a pasted share grid) and 'words'; 'answers' and 'exclude' name the model.

        `report` gets the review so far before each guess is valued (`partial_review`); the review runs to the end
        (under JOB_SECONDS), its values the command line's. `keep_going`: False stops the work.
        """
        if self.pool is not None:
            return self.pool.call("review", body, JOB_SECONDS, "this review", report, keep_going,
                                  over_budget=job_over_budget("this review"))
        hard, ultra = modes(body)
        model = self.model(body, ultra)
        puzzle = None
        answer = text_field(body, "answer", "") or None
        grid = text_field(body, "grid", "") or None
        if answer is not None or grid is not None:
            words = body.get("words")
            if not isinstance(words, list) or not all(isinstance(word, str) for word in words):
                raise RequestError(f"'words' must be a list of the guesses played, got {json.dumps(words)}")
            steps = parse_game(model.game, words, answer=answer, grid=grid)
            answer = grid_answer(grid, answer)  # a pasted grid's day gives its answer
            score = grid_score(grid)
            hard = (hard or bool(score and score.hard)) and not ultra  # a score line ending in *: a hard-mode game
            puzzle = score.puzzle if score else None
        else:
            steps = self.steps(body.get("steps"))
            if not steps:
                raise RequestError("no guesses to review: give 'steps', or 'answer' and 'words'")
        with self.worker():
            review = review_game(model, steps, hard=hard, max_guesses=self.max_guesses(body), answer=answer,
                                 make_game=self.game_over, puzzle=puzzle, ultra=ultra,
                                 partial=None if report is None else
                                 lambda review, turns: report(partial_review(review, turns)))
        data = review_reply(review)
        if len(steps) >= 2 and steps[0][1] != ALL_GREEN and steps[0][0] != steps[1][0]:  # as review --json says it
            from wordle.fixed_starts import StartCost
            data["fixed_start"] = StartCost(tuple(model.game.words.guesses[g] for g, _ in steps[:2]),
                                            reason="the web's review does not value a fixed start yet; `review` on "
                                                   "the command line does").data()
        return data

    def review_screenshot(self, body: dict[str, Any], report: Callable[[dict[str, Any]], None] | None = None,
                          keep_going: Callable[[], bool] | None = None) -> dict[str, Any]:
        """A game reviewed from a screenshot of its board, as `review --screenshot FILE --json`: 'image' (the
        picture's bytes) read by wordle/screenshot.py, its rows reviewed as /api/review reviews steps, and what was
        read under 'screenshot'. The other fields are review's options (SCREENSHOT_OPTIONS), as a query string gives
        them ('exclude' as words separated by commas or spaces, or a list).

        Raises:
            RequestError: a field that is not an option (the steps come from the picture), no picture.
            ScreenshotError: the picture is not an image, too large, or no Wordle board (wordle/screenshot.py).
        """
        options = {name: value for name, value in body.items() if name != "image"}
        if unknown := sorted(set(options) - set(SCREENSHOT_OPTIONS)):
            raise RequestError(f"a screenshot's review reads the guesses and colours from the picture and takes only "
                               f"{', '.join(SCREENSHOT_OPTIONS)} beside it, got {shown(unknown[0])}")
        image = body.get("image")
        if not isinstance(image, bytes) or not image:
            raise RequestError("no picture: send the screenshot of the board as the request's body")
        if isinstance(options.get("exclude"), str):
            options["exclude"] = options["exclude"].replace(",", " ").split()
        if self.pool is not None:  # read and reviewed in a worker, to the end (under JOB_SECONDS)
            return self.pool.call("review_screenshot", {**options, "image": image}, JOB_SECONDS, "this review",
                                  report, keep_going, over_budget=job_over_budget("this review"))
        board = read_upload(image)
        fields = {**options, "steps": board["steps"]}
        if report is None:
            return {**self.review(fields), "screenshot": board}
        return {**self.review(fields, lambda data: report({**data, "screenshot": board})), "screenshot": board}

    def results(self) -> dict[str, Any]:
        """The tournament's summary.json as it is stored, read by the results files' one reader and checked."""
        path = self.results_folder / "summary.json"
        shown_path = f"{self.results_folder.name}/summary.json"  # the server's own folders are not shown
        if not os.path.lexists(path):
            raise NotFound(f"{shown_path}: no tournament results there; run 'python cli.py tournament' or serve "
                           "--results DIR")
        try:
            document = read_json_object(path)
        except ResultsError as error:
            raise NotFound(f"cannot show the results: {str(error).replace(str(path), shown_path)}") from None
        problem = summary_problem(document.get("summary"))
        if problem is None:
            try:
                json.dumps(document, allow_nan=False)
            except (ValueError, TypeError, RecursionError):
                problem = "it holds a value JSON cannot carry (NaN or infinity)"
        if problem is not None:
            raise NotFound(f"{shown_path}: not a tournament summary the page can show: {problem}")
        return {"folder": self.results_folder.name, **document}

    def chart(self, name: str) -> str:
        """One of the tournament's charts, drawn from the summary as `tournament` draws it."""
        drawn = charts(self.results()["summary"])
        if name not in drawn:
            raise NotFound(f"no chart '{name}'; there are: {', '.join(drawn)}")
        return drawn[name]
