"""The games a server holds for people playing: a bounded table that never drops a game played in the last minutes.

A table holds at most `most` games. A client (one address) may hold `per_client` unfinished games; a
finished game no longer counts, so a player who finishes games is never locked out. A game left
alone for `idle_seconds` is forgotten. When the table is full, a new game takes the place of a
finished game first, then of the unfinished game played least recently if it was left alone for
`keep_seconds`; when only games played within `keep_seconds` are left, the new game is refused
(Busy: HTTP 503) and none is dropped. Memory stays bounded by `most` games.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable, Generic, TypeVar

from plumbing.errors import UserError

from .workers import Busy

Game = TypeVar("Game")


@dataclass
class Kept(Generic[Game]):
    """One game in the table: the game, its client and when it was last played (the table's clock)."""

    game: Game
    client: str
    touched: float


class GameTable(Generic[Game]):
    """Games by key, least recently played first; thread-safe (every method takes the table's lock)."""

    def __init__(self, most: int, per_client: int, idle_seconds: float, keep_seconds: float, noun: str = "games",
                 too_many: type[UserError] = UserError, clock: Callable[[], float] = time.monotonic):
        """A table of at most `most` games, `per_client` unfinished a client; `too_many` is raised past that (its
        HTTP status is the caller's: 429), and `noun` names the games in the refusals."""
        self.most, self.per_client = most, per_client
        self.idle_seconds, self.keep_seconds = idle_seconds, keep_seconds
        self.noun, self.too_many, self.clock = noun, too_many, clock
        self.kept: OrderedDict[str, Kept[Game]] = OrderedDict()  # least recently played first
        self.finished: OrderedDict[str, None] = OrderedDict()  # finished games, first finished first
        self.unfinished: dict[str, set[str]] = {}  # each client's unfinished games
        self.lock = threading.Lock()

    def __len__(self) -> int:
        """Games held."""
        return len(self.kept)

    def add(self, game: Game, client: str) -> str:
        """Keep a new game for `client` under a fresh key and return the key.

        Raises:
            too_many: the client holds `per_client` unfinished games.
            Busy: the table is full of unfinished games played within `keep_seconds`.
        """
        key = secrets.token_urlsafe(12)
        now = self.clock()
        with self.lock:
            while self.kept and now - next(iter(self.kept.values())).touched > self.idle_seconds:
                self._forget(next(iter(self.kept)))
            mine = self.unfinished.get(client, set())
            if len(mine) >= self.per_client:
                raise self.too_many(f"this address already has {self.per_client} unfinished {self.noun} on this "
                                    f"server; finish one, or wait: a game left alone is forgotten after "
                                    f"{self.idle_seconds / 60:g} min")
            if len(self.kept) >= self.most:
                if self.finished:
                    self._forget(next(iter(self.finished)))
                else:
                    oldest = next(iter(self.kept))
                    if now - self.kept[oldest].touched < self.keep_seconds:
                        raise Busy(f"the server holds {self.most} unfinished {self.noun}, each played in the last "
                                   f"{self.keep_seconds / 60:g} min; try again in a few minutes")
                    self._forget(oldest)
            self.kept[key] = Kept(game, client, now)
            self.unfinished.setdefault(client, set()).add(key)
        return key

    def get(self, key: object) -> Game | None:
        """The game under `key`, marked as played now; None when the table does not hold it."""
        with self.lock:
            kept = self.kept.get(key) if isinstance(key, str) else None
            if kept is None:
                return None
            kept.touched = self.clock()
            self.kept.move_to_end(key)
            return kept.game

    def finish(self, key: str) -> None:
        """Mark a game finished: it no longer counts toward its client's games, and is the first to make room."""
        with self.lock:
            kept = self.kept.get(key)
            if kept is None or key in self.finished:
                return
            self.finished[key] = None
            self._release(kept.client, key)

    def _forget(self, key: str) -> None:
        """Drop one game (the lock held)."""
        kept = self.kept.pop(key)
        self.finished.pop(key, None)
        self._release(kept.client, key)

    def _release(self, client: str, key: str) -> None:
        """Take `key` out of its client's unfinished games, and the client out once it holds none (the lock held)."""
        mine = self.unfinished.get(client)
        if mine is not None:
            mine.discard(key)
            if not mine:
                del self.unfinished[client]
