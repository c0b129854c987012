"""The web's variants: a person's Dordle, Quordle, Octordle or Fibble game, and advice on one played elsewhere.

Five-letter words only (the other lengths' pattern matrices are built once by the command line, and
a request must not wait for that). A game's answers (and Fibble's lies) come from its seed as
`play --boards K --seed S` draws them, so the same seed deals the same game on the page and in the
terminal. Bad input is a RequestError (a 400 with one line).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents import make_player, player_settings
from agents.base import deal_answers, lie_rng
from agents.board_advice import advice_data, advise_boards
from plumbing.errors import UserError
from variants import Boards, BoardsState, Fibble, FibbleState, GameSpec, game_of
from variants.boards import Reply
from wordle import Wordle, format_pattern
from wordle.feedback import decode_colours

#: The boards the page offers (1 is today's Wordle, played on the Play page).
WEB_BOARDS = (2, 4, 8)
#: Variant games kept at once, and per client.
MAX_VARIANT_GAMES, CLIENT_VARIANT_GAMES = 2_000, 20
#: A variant game left alone this long is forgotten.
IDLE_SECONDS = 3600.0
#: Who advises on the page: the quick player (the searches may take longer than a request may wait).
WEB_ADVISER = "entropy"
#: Steps an advice request may hold, and suggestions it may ask for.
MOST_STEPS, MOST_TOP = 40, 50
_STATES = ("absent", "present", "correct")


class VariantRequestError(UserError):
    """A variant request the page cannot serve: a bad field, a word or step that does not fit (HTTP 400)."""


class VariantGameNotFound(UserError):
    """A guess for a variant game this server does not hold (HTTP 404)."""


class TooManyVariantGames(UserError):
    """A client holds as many variant games as one client may (HTTP 429)."""


@dataclass
class VariantPlayed:
    """A variant game a person is playing: the variant, its game, the state, the hidden answers, the seed and
    (Fibble) the lies' stream."""

    variant: GameSpec
    game: Boards | Fibble
    state: BoardsState | FibbleState
    answers: tuple[int, ...]
    seed: int
    lies: np.random.Generator | None
    client: str
    lock: threading.Lock = field(default_factory=threading.Lock)
    touched: float = field(default_factory=time.monotonic)


def variant_from(body: dict[str, Any]) -> GameSpec:
    """The variant a request names: 'boards' (2, 4 or 8) or 'fibble': true; five letters."""
    fibble, boards, length = body.get("fibble", False), body.get("boards", 1), body.get("length", 5)
    if not isinstance(fibble, bool):
        raise VariantRequestError(f"'fibble' must be true or false, got {fibble!r}"[:200])
    if length != 5:
        raise VariantRequestError("the web plays five-letter words; other lengths: python cli.py play --length N")
    if fibble:
        if boards not in (1, None):
            raise VariantRequestError("fibble plays one board: leave out 'boards'")
        return GameSpec(lies=1)
    if not isinstance(boards, int) or isinstance(boards, bool) or boards not in WEB_BOARDS:
        raise VariantRequestError(f"'boards' must be one of {', '.join(map(str, WEB_BOARDS))} (or 'fibble': true), "
                                  f"got {boards!r}"[:200])
    return GameSpec(boards=boards)


def colours(pattern: int) -> list[str]:
    """A pattern's tiles as the page's states."""
    return [_STATES[colour] for colour in decode_colours(pattern)]


class VariantGames:
    """The variant games of one server, and its variant advice."""

    def __init__(self, rules: Wordle):
        """Serve the variants over `rules` (five-letter Wordle's lists and matrix)."""
        self.rules = rules
        self.games: OrderedDict[str, VariantPlayed] = OrderedDict()
        self.lock = threading.Lock()
        self.players: dict[tuple[str, GameSpec], Any] = {}
        self.players_lock = threading.Lock()

    def new_game(self, body: dict[str, Any], client: str = "") -> dict[str, Any]:
        """Start a game of the variant named, its answers drawn from 'seed' (random when absent)."""
        variant = variant_from(body)
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**31)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise VariantRequestError(f"'seed' must be a whole number from 0 to 2**63 - 1, got {seed!r}"[:200])
        game = game_of(variant, self.rules)
        answers = deal_answers(variant.boards, len(self.rules.words.answers), seed, 0)
        state = game.initial_state(variant.max_guesses)
        played = VariantPlayed(variant, game, state, answers, seed, lie_rng(seed, 0) if variant.lies else None,
                               client)
        key = secrets.token_urlsafe(12)
        now = time.monotonic()
        with self.lock:
            while self.games and now - next(iter(self.games.values())).touched > IDLE_SECONDS:
                self.games.popitem(last=False)
            if sum(1 for kept in self.games.values() if kept.client == client) >= CLIENT_VARIANT_GAMES:
                raise TooManyVariantGames(f"this address already has {CLIENT_VARIANT_GAMES} variant games on this "
                                          "server; a game left alone is forgotten after an hour")
            if len(self.games) >= MAX_VARIANT_GAMES:
                self.games.popitem(last=False)
            self.games[key] = played
        return {"game": key, "name": variant.name, "boards": variant.boards, "length": variant.length,
                "fibble": bool(variant.lies), "max_guesses": variant.max_guesses, "seed": seed}

    def guess(self, body: dict[str, Any]) -> dict[str, Any]:
        """Play one guess: each board's reply (None once solved), whether it is over, the answers once it is."""
        key = body.get("game")
        with self.lock:
            played = self.games.get(key) if isinstance(key, str) else None
            if played is not None:
                played.touched = time.monotonic()
                self.games.move_to_end(key)
        if played is None:
            raise VariantGameNotFound(f"no variant game {str(key)[:40]!r} on this server (forgotten, or the server "
                                      "restarted); start a new one")
        word = body.get("guess")
        if not isinstance(word, str) or len(word.strip()) != 5:
            raise VariantRequestError(f"'guess' must be a five-letter word, got {str(word)[:40]!r}")
        guess = self.rules.words.guess_id(word)
        with played.lock:
            game, state = played.game, played.state
            if game.is_terminal(state):
                raise VariantRequestError("the game is over; start a new one")
            asked = game.result(state, guess)
            if isinstance(game, Fibble):
                reply: int | Reply = game.reply(guess, played.answers[0], played.lies)
                replies = (reply,)
            else:
                reply = game.reply(asked, played.answers)
                replies = reply
            state = played.state = game.result(asked, reply)
        over = game.is_terminal(state)
        solved = [bool(state.won)] if isinstance(game, Fibble) else list(state.solved)
        answer = {"guess": self.rules.words.guesses[guess], "solved": solved, "won": bool(state.won), "over": over,
                  "guesses_used": state.guesses_used, "max_guesses": state.max_guesses,
                  "replies": [None if p is None else {"pattern": format_pattern(p), "colours": colours(p)}
                              for p in replies]}
        if over:
            answer.update(answers=[self.rules.words.answers[a] for a in played.answers], seed=played.seed)
        return answer

    def player(self, name: str, variant: GameSpec) -> Any:
        """The advising player `name` for `variant`, kept so its cached decisions serve later requests."""
        key = (name, variant)
        with self.players_lock:
            if key not in self.players:
                player_settings(name, variant)  # a player that does not play this game: refused in one line
                self.players[key] = make_player(name, game_of(variant, self.rules), variant)
            return self.players[key]

    def advise(self, body: dict[str, Any]) -> dict[str, Any]:
        """The advice after 'steps' (assist's step form: one pattern a board, ',' between them) on the variant named."""
        variant = variant_from(body)
        steps, name, top = body.get("steps", []), body.get("agent", WEB_ADVISER), body.get("top", 10)
        if not isinstance(steps, list) or len(steps) > MOST_STEPS or not all(isinstance(s, str) for s in steps):
            raise VariantRequestError(f"'steps' must be a list of at most {MOST_STEPS} texts such as 'crane:--g-y,g----'")
        if name != WEB_ADVISER:
            raise VariantRequestError(f"'agent': the web advises on variants with {WEB_ADVISER} (the searching "
                                      f"players advise in the terminal: python cli.py assist --boards K --agent NAME)")
        if not isinstance(top, int) or isinstance(top, bool) or not 1 <= top <= MOST_TOP:
            raise VariantRequestError(f"'top' must be a whole number from 1 to {MOST_TOP}, got {top!r}"[:200])
        player = self.player(name, variant)
        return advice_data(player.game, advise_boards(variant, player.game, player, steps, top=top))
