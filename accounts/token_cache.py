"""API keys recently signed in with, kept by each server process.

Every API call a script makes signs in with its token: a query per request that cost a move a
fifth of its server time, and PostgreSQL a round trip (``bench/README.md``). A process keeps
the user's row for each key it has seen, for ``API_TOKEN_CACHE_SECONDS``, and forgets a user's
keys the moment anything about the user or their token changes:

- in this process, through the models' signals (a token deleted or revoked, a user saved,
  deactivated or deleted);
- in every other process, through Redis (``REDIS_URL``): the change is published after its
  transaction commits, and each process listens on a thread of its own. A process that is not
  listening (Redis away, reconnecting) keeps nothing, and forgets everything when it listens
  again, so a message it missed can never leave a revoked key signed in.

What neither covers (a ``QuerySet.update`` of users, which sends no signal; a change whose
message was lost because Redis was away when it was published; without Redis, a change made
by another process, a management command) lasts at most the cache's time.
A row is kept only if nothing changed while it was being read, so a change that commits
during the read is not undone by it.

What it buys, measured against DRF's own ``TokenAuthentication`` (a query through the ORM on
every request) with ``bench/players_bench.py`` (200 players, three interleaved pairs,
2026-11-28): server CPU per move 5.63, 6.33, 5.93 ms with the cache, 6.92, 6.85, 8.07 ms with
DRF's: 18 % less CPU a move, 22 % more moves on the same cores. A key not kept is read
through the ORM (``accounts.authentication.token_owner``): once per key, process and
``API_TOKEN_CACHE_SECONDS``, too rare to be worth SQL of our own.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

#: Keys kept per process; when full, the oldest go first.
MAX_KEYS = 50_000
#: Between attempts to listen again after Redis failed.
RECONNECT_SECONDS = 1.0


class TokenCache:
    """Key → (the user's id, their row as read, when it expires), per process."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[Any, Sequence[Any], float]] = {}
        self._lock = threading.Lock()
        # Bumped by every change: a row read before a change is not kept after it.
        self.generation = 0
        self.listening = threading.Event()
        self._listener: threading.Thread | None = None

    # -- reading --------------------------------------------------------------------------

    def row(self, key: str) -> Sequence[Any] | None:
        """The user's row kept for ``key``, or None: read it, and ``keep`` it."""
        if not self.usable():
            return None
        found = self._entries.get(key)
        if found is None:
            return None
        if found[2] < time.monotonic():
            with self._lock:
                self._entries.pop(key, None)
            return None
        return found[1]

    def keep(self, key: str, user_id: Any, row: Sequence[Any], generation: int) -> None:
        """Keep ``row``, read for ``key`` when ``generation`` was current, if still current."""
        if not self.usable():
            return
        expires = time.monotonic() + settings.API_TOKEN_CACHE_SECONDS
        with self._lock:
            if generation != self.generation:
                return  # something changed while the row was read: it may be stale
            if len(self._entries) >= MAX_KEYS:
                del self._entries[next(iter(self._entries))]
            self._entries[key] = (user_id, tuple(row), expires)

    def usable(self) -> bool:
        """Keep and serve keys only while every change can reach this process."""
        if settings.API_TOKEN_CACHE_SECONDS <= 0:
            return False
        if not settings.REDIS_URL:
            return True  # one process: the signals reach it
        self._start_listening()
        return self.listening.is_set()

    # -- forgetting -----------------------------------------------------------------------

    def forget_user(self, user_id: Any) -> None:
        with self._lock:
            self.generation += 1
            stale = [key for key, entry in self._entries.items() if entry[0] == user_id]
            for key in stale:
                del self._entries[key]

    def forget_everything(self) -> None:
        with self._lock:
            self.generation += 1
            self._entries.clear()

    # -- listening to other processes ------------------------------------------------------

    def _start_listening(self) -> None:
        if self._listener is not None and self._listener.is_alive():
            return
        with self._lock:
            if self._listener is not None and self._listener.is_alive():
                return
            self._listener = threading.Thread(
                target=self._listen, args=(settings.REDIS_URL,), name="token-cache", daemon=True
            )
            self._listener.start()

    def _listen(self, redis_url: str) -> None:
        failing = False
        while True:
            try:
                with _redis(redis_url).pubsub() as pubsub:
                    pubsub.subscribe(changes_channel(redis_url))
                    self._await_subscription(pubsub)
                    # Changes published while no one listened here are unknown: start afresh.
                    self.forget_everything()
                    self.listening.set()
                    if failing:
                        logger.warning("API token cache: listening to Redis again")
                        failing = False
                    while True:
                        # A timeout, so that the connection's health is checked while quiet.
                        message = pubsub.get_message(timeout=5)
                        if message is not None and message["type"] == "message":
                            self.forget_user(_user_id(message["data"]))
            except Exception:
                # Once per outage, not once per attempt.
                if not failing:
                    logger.warning("API token cache: not listening to Redis", exc_info=True)
                failing = True
            finally:
                self.listening.clear()
                self.forget_everything()
            time.sleep(RECONNECT_SECONDS)

    @staticmethod
    def _await_subscription(pubsub: Any) -> None:
        """Until Redis confirms the subscription, changes published would not reach here."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            message = pubsub.get_message(timeout=1)
            if message is not None and message["type"] == "subscribe":
                return
        raise TimeoutError("Redis did not confirm the subscription")


_clients: dict[str, Any] = {}


def _redis(url: str) -> Any:
    """One client (and connection pool) per URL and process."""
    import redis

    client = _clients.get(url)
    if client is None:
        client = _clients[url] = redis.Redis.from_url(
            url, socket_connect_timeout=5, socket_timeout=15, health_check_interval=10
        )
    return client


def _user_id(data: bytes) -> Any:
    text = data.decode()
    return int(text) if text.isdigit() else text


def changes_channel(redis_url: str) -> str:
    """Named after REDIS_URL's database, as the channel layer's prefix is: pub/sub channels
    are not per database, and services given different databases stay apart."""
    from redis.connection import parse_url

    return f"patience-db{parse_url(redis_url).get('db', 0)}.api-token-changes"


cache = TokenCache()


def user_changed(user_id: Any) -> None:
    """Forget the user's keys here now, and in every process once the change commits (and
    here again then, in case a request read the old row meanwhile)."""
    cache.forget_user(user_id)
    transaction.on_commit(_after_commit(user_id), robust=True)


def _after_commit(user_id: Any) -> Callable[[], None]:
    def tell_everyone() -> None:
        cache.forget_user(user_id)
        if settings.REDIS_URL:
            _redis(settings.REDIS_URL).publish(changes_channel(settings.REDIS_URL), str(user_id))

    return tell_everyone
