"""Limits on the costly requests of play: starting a game (a daily replay and a ranked attempt
included), asking for a winnable deal (one out of a pool the solver fills slowly) and asking a
hint (a search of up to ``HINT_SECONDS`` of a hint process's CPU), per player **and** per
client address: a request passes only when both budgets have room.

- Per player: counted per account, a guest (``accounts.guests``) at a guest's share of an
  account's budget (``GUEST_SHARE_PERCENT``), and per client address for a caller without
  one. The rates are ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``'s ``game_create``, ``hint``
  and ``winnable`` (``<scope>_guest`` for a guest; config/settings.py).
- Per address (``<scope>_address``): every player behind one address together, so 40 guests
  made from one address share one budget, which is larger than one player's for the accounts
  behind a school's or an office's NAT. An IPv6 address counts with the rest of its /64.

DRF's throttling way (classes on the view, 429 ``throttled`` with Retry-After), but not DRF's
counting: ``SimpleRateThrottle`` reads a history, checks it, then writes it back, so requests
sent at once all read the same history and all pass (60 games started in 0.27 s were). Here
each budget's count is one atomic increment in the cache (Redis's INCR in production, shared
by every server process), in windows of the rate's period: at most the limit per window, and
so at most twice the limit across a window's edge. A request refused by one budget takes its
counts back from the others: a player over their own limit does not use up their address's.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

from accounts.guests import is_guest
from accounts.throttling import client_ip


@dataclass(frozen=True)
class Budget:
    """At most ``limit`` requests per window of ``seconds``, counted at ``key``."""

    key: str
    limit: int
    seconds: int

    def window_key(self, now: float) -> str:
        return f"{self.key}:{int(now // self.seconds)}"

    def wait(self, now: float) -> float:
        """Seconds until the window ``now`` is in ends."""
        return (int(now // self.seconds) + 1) * self.seconds - now


def rate_of(scope: str) -> tuple[int, int] | None:
    """A scope's rate as (requests, seconds), read on each use (DRF reads its rates once, at
    import: a changed setting counts); None: no limit."""
    rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope)
    if not rate:
        return None
    return ScopedRateThrottle().parse_rate(rate)  # type: ignore[return-value]


def counted_address(address: str) -> str:
    """A client address as its budget counts it: IPv4 as is, IPv6 as its /64 (one household's
    or machine's, which may change its last half at will)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


def player_key(scope: str, user: Any, address: str) -> str:
    """The player's count: the account's (a guest's), else the address's."""
    ident = user.pk if user is not None and user.is_authenticated else address
    return f"throttle_{scope}_{ident}"


def budgets_of(scope: str, user: Any, address: str) -> list[Budget]:
    """The budgets a request of ``scope`` from ``user`` at ``address`` is counted against:
    the player's (at a guest's share for a guest) and the address's, those with a rate."""
    budgets = []
    player_scope = f"{scope}_guest" if is_guest(user) else scope
    player_rate = rate_of(player_scope)
    if player_rate is not None:
        budgets.append(Budget(player_key(scope, user, address), *player_rate))
    address_rate = rate_of(f"{scope}_address")
    if address_rate is not None:
        digest = hashlib.sha256(counted_address(address).encode()).hexdigest()[:32]
        budgets.append(Budget(f"throttle_{scope}_address_{digest}", *address_rate))
    return budgets


def _count(key: str, seconds: int) -> int:
    if cache.add(key, 1, seconds + 1):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired between the two calls: a new window
        cache.add(key, 1, seconds + 1)
        return 1


@dataclass
class Spent:
    """What one request counted: ``wait`` None when every budget had room (its counts stand,
    at ``keys``), else the seconds until the last exceeded window ends (its counts taken back
    already)."""

    wait: float | None
    keys: list[str]

    def give_back(self) -> None:
        """Take back a passed request's counts: it turned out to cost nothing."""
        if self.wait is None:
            _take_back(self.keys)
            self.keys = []


def _take_back(keys: Sequence[str]) -> None:
    for key in keys:
        with contextlib.suppress(ValueError):  # its window has just closed
            cache.decr(key)


def spend(budgets: Sequence[Budget], now: float | None = None) -> Spent:
    """Count one request against every budget; if one has no room, take the request's counts
    back from all of them."""
    now = time.time() if now is None else now
    keys = [budget.window_key(now) for budget in budgets]
    counts = [_count(key, budget.seconds) for key, budget in zip(keys, budgets, strict=True)]
    exceeded = [b for b, n in zip(budgets, counts, strict=True) if n > b.limit]
    if not exceeded:
        return Spent(None, keys)
    _take_back(keys)
    return Spent(max(budget.wait(now) for budget in exceeded), [])


def spend_on(scope: str, request: Request) -> Spent:
    """``spend`` for a request of ``scope`` (its player's and its address's budgets),
    remembered on the request for ``give_back``."""
    spent = spend(budgets_of(scope, request.user, client_ip(request)))
    request._request.__dict__.setdefault(_SPENT, []).append(spent)
    return spent


def give_back(request: Request) -> None:
    """Take back what this request was counted (it was refused before it cost anything: a
    hint refused because a search was already running searched nothing)."""
    for spent in request._request.__dict__.get(_SPENT, []):
        spent.give_back()


_SPENT = "_patience_spent_budgets"


class PlayerThrottle(ScopedRateThrottle):
    """The view's ``throttle_scope``, per player and per address, for the methods in
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
        if not self.scope:
            return True
        self.wait_seconds = spend_on(self.scope, request).wait
        return self.wait_seconds is None

    def wait(self) -> float | None:
        return self.wait_seconds


class GameCreationThrottle(PlayerThrottle):
    """``POST /api/games/``, a daily replay and a ranked attempt; a list (GET) is not
    counted."""


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
    return TooManyRequests(
        "You (or the players sharing your address) have started too many games in a short time.",
        wait,
    )


def too_many_hints(wait: float | None) -> TooManyRequests:
    return TooManyRequests(
        "You (or the players sharing your address) have asked for too many hints in a short time.",
        wait,
    )


def too_many_winnable(wait: float | None) -> TooManyRequests:
    return TooManyRequests(
        "You (or the players sharing your address) have asked for too many winnable deals in "
        "a short time: play one you have, or start a random deal.",
        wait,
    )
