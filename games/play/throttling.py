"""Limits on the costly requests of play: starting a game and asking a hint (a search of up
to ``HINT_SECONDS`` of a worker's CPU), per player.

DRF's throttling (its cache, its ``Retry-After``), counted per account, or per client address
(``accounts.throttling.client_ip``) for a caller without one: guests, once they exist, are
limited by address. The rates are ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``'s ``hint`` and
``game_create`` (config/settings.py: ``HINTS_PER_MINUTE``, ``GAMES_CREATED_PER_MINUTE``).

DRF's ``SimpleRateThrottle`` reads a history, checks it, then writes it back: requests sent at
once all read the same history and all pass (60 games started in 0.27 s were). Here the count
is one atomic increment in the cache (Redis's INCR in production, shared by every process),
in windows of the rate's period: at most the limit per window, and so at most twice the
limit across a window's edge.
"""

from __future__ import annotations

import math
from typing import Any

from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

from accounts.throttling import client_ip


class PlayerThrottle(ScopedRateThrottle):
    """The view's ``throttle_scope``, counted per account (or address), for the methods in
    ``methods`` only, atomically."""

    methods: frozenset[str] = frozenset({"POST"})

    def get_rate(self) -> str | None:
        # Read on each use (DRF reads its rates once, at import): a changed setting counts.
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_ident(self, request: Request) -> str:
        return client_ip(request)

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method not in self.methods:
            return True
        self.scope = getattr(view, self.scope_attr, None)
        self.rate = self.get_rate() if self.scope else None
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        now = self.timer()
        window = int(now // self.duration)
        self.wait_seconds = (window + 1) * self.duration - now
        key = f"{self.key}:{window}"
        if self.cache.add(key, 1, self.duration + 1):
            count = 1
        else:
            try:
                count = self.cache.incr(key)
            except ValueError:  # expired between the two calls: a new window
                self.cache.add(key, 1, self.duration + 1)
                count = 1
        return count <= self.num_requests

    def wait(self) -> float:
        return self.wait_seconds


class GameCreationThrottle(PlayerThrottle):
    """``POST /api/games/``; the list (GET) is not counted."""


class HintThrottle(PlayerThrottle):
    """``POST /api/games/<id>/hint/``."""


class TooManyRequests(Throttled):
    """429 ``throttled``: ``message``, then when to retry as people read it; DRF's handler
    adds the Retry-After header."""

    def __init__(self, message: str, wait: float | None) -> None:
        if wait is None:
            super().__init__(detail=message)
            return
        seconds = max(1, math.ceil(wait))
        unit = "second" if seconds == 1 else "seconds"
        super().__init__(wait=None, detail=f"{message} Try again in {seconds} {unit}.")
        self.wait = seconds


def too_many_games(wait: float | None) -> TooManyRequests:
    return TooManyRequests("You have started too many games in a short time.", wait)


def too_many_hints(wait: float | None) -> TooManyRequests:
    return TooManyRequests("You have asked for too many hints in a short time.", wait)
