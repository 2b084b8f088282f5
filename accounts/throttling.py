"""Throttling of failed sign-ins, counted in Django's cache.

Within ``LOGIN_FAILURE_WINDOW`` seconds (900), a username may fail ``LOGIN_FAILURE_LIMIT``
times (5) from one client IP, ``LOGIN_FAILURE_ACCOUNT_LIMIT`` times (50) from all addresses
together, and a client IP may fail ``LOGIN_FAILURE_IP_LIMIT`` times (20) whatever the usernames.
Past any limit the attempts it covers are refused with 429 until its window, which opens at its
first failure, closes. Settings override the defaults. The cache is Redis whenever
``REDIS_URL`` is set, so every server process shares the counts; the per-process locmem cache is
for development and tests only.

Why three counts: the one per username and address is what stops a guesser, and it locks out
only that address, so a stranger failing on purpose does not lock the owner out. The
account-wide one caps guessing spread over many addresses; reaching it takes ten addresses'
worth of failures, and then it does lock the account out for everyone until its window closes.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

DEFAULT_USERNAME_LIMIT = 5  # per username and client IP
DEFAULT_ACCOUNT_LIMIT = 50  # per username, all addresses together
DEFAULT_IP_LIMIT = 20
DEFAULT_WINDOW_SECONDS = 15 * 60

KEY_PREFIX = "accounts:login-failures"


class LoginThrottled(Throttled):
    """429 with a message saying when to retry; DRF's handler adds the Retry-After header."""

    def __init__(self, wait: float) -> None:
        seconds = max(1, math.ceil(wait))
        message = f"Too many failed sign-in attempts. Try again in {_duration(seconds)}."
        super().__init__(wait=None, detail=message)
        self.wait = seconds


def _duration(seconds: int) -> str:
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def _setting(name: str, default: int) -> int:
    # Read on each use, so an overridden setting (as in tests) takes effect at once.
    return int(getattr(settings, name, default))


def _digest(value: str) -> str:
    # Usernames and addresses are client-chosen: hash them into short, cache-safe keys.
    return hashlib.sha256(value.encode()).hexdigest()


def fold_username(username: str) -> str:
    """The form under which "Ada", "ADA" and "ada" count as one username."""
    return unicodedata.normalize("NFKC", username).casefold()


def client_ip(request: Request | HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or behind ``REST_FRAMEWORK["NUM_PROXIES"]`` proxies the
    address they recorded in X-Forwarded-For.

    Unlike DRF's own throttles, X-Forwarded-For is never trusted when NUM_PROXIES is unset: a
    client could otherwise send a new address with each guess.
    """
    remote_addr = request.META.get("REMOTE_ADDR") or ""
    num_proxies = api_settings.NUM_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if not num_proxies or not forwarded:
        return remote_addr
    addresses = [address.strip() for address in forwarded.split(",")]
    return addresses[-min(num_proxies, len(addresses))]


class ClientAddressThrottle(ScopedRateThrottle):
    """DRF's scoped rate throttle (the view's ``throttle_scope``), counted per ``client_ip``.

    DRF's own counts per X-Forwarded-For whenever a request carries one and NUM_PROXIES is
    unset, so a client sending a new made-up address each time was never throttled.
    """

    def get_ident(self, request: Request) -> str:
        return client_ip(request)


class PatchThrottle(ScopedRateThrottle):
    """A scope's limit on a view's PATCH alone (its other methods are not counted), its rate
    read on each use (DRF reads its rates once, at import): a changed setting counts."""

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method != "PATCH":
            return True
        return super().allow_request(request, view)

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class EmailChangeThrottle(PatchThrottle):
    """Email address changes (``PATCH /api/auth/me/``), per account: each PATCH counts,
    refused or not. A change refused because another account has the address says that it
    has one, which a password reset request never says: the limit keeps that from becoming
    a way to test a list of addresses."""


class SettingsChangeThrottle(PatchThrottle):
    """Saves of the account's settings (``PATCH /api/auth/settings/``), per account: each
    choice in the dialog is one, so the limit is a person's clicking, far above, and a script's
    loop below. Reading them is not counted."""


class AddressThrottled(Throttled):
    """429 for a ``ClientAddressThrottle``: ``message``, then when to retry as people read it
    ("Try again in 59 minutes", as ``LoginThrottled`` says it), not DRF's count of seconds."""

    def __init__(self, message: str, wait: float | None) -> None:
        if wait is None:
            super().__init__(detail=message)
            return
        seconds = max(1, math.ceil(wait))
        super().__init__(wait=None, detail=f"{message} Try again in {_duration(seconds)}.")
        self.wait = seconds


class TooManySignUps(AddressThrottled):
    def __init__(self, wait: float | None) -> None:
        super().__init__("Too many accounts have been created from this address.", wait)


class TooManyEmailChanges(AddressThrottled):
    def __init__(self, wait: float | None) -> None:
        super().__init__("Too many changes of email address from this account.", wait)


class TooManySettingsChanges(AddressThrottled):
    """429 ``throttled`` for ``SettingsChangeThrottle``."""

    def __init__(self, wait: float | None) -> None:
        super().__init__("Too many changes of settings in a short time.", wait)


class TooManyResetRequests(AddressThrottled):
    def __init__(self, wait: float | None) -> None:
        super().__init__("Too many new passwords have been asked for from this address.", wait)


@dataclass(frozen=True)
class _Counter:
    """Attempts within a window that opens at the first one and lasts ``seconds``."""

    name: str
    limit: int
    seconds: int

    @property
    def count_key(self) -> str:
        return f"{KEY_PREFIX}:{self.name}"

    @property
    def reset_key(self) -> str:
        # Django's cache can't report a key's time to live, so the window's end is stored too.
        return f"{KEY_PREFIX}:{self.name}:reset"

    def hit(self) -> int:
        """Count one attempt; returns the count including it."""
        if cache.add(self.reset_key, time.time() + self.seconds, self.seconds):
            # A new window: start from 1 rather than add to whatever the last one left behind.
            cache.set(self.count_key, 1, self.seconds)
            return 1
        try:
            return cache.incr(self.count_key)  # atomic, so concurrent processes don't lose counts
        except ValueError:  # the count expired a moment before the window's end marker
            cache.set(self.count_key, 1, self.seconds)
            return 1

    def release(self) -> None:
        """Take back one attempt."""
        with contextlib.suppress(ValueError):  # the window has closed: nothing to take back
            cache.decr(self.count_key)

    def clear(self) -> None:
        cache.delete_many([self.count_key, self.reset_key])

    def retry_after(self) -> float:
        reset_at = cache.get(self.reset_key)
        return self.seconds if reset_at is None else reset_at - time.time()


class AddressQuota:
    """Attempts from one client address at a rate of ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``
    (``scope``), in a window that opens at the first; ``refusal`` is raised past it.

    Every attempt counts, refused ones too (a taken name, a weak password, a malformed body):
    otherwise refusals would be free probes, as they were. The attempt is counted before
    anything is checked or created, with the cache's atomic increment (Redis whenever
    ``REDIS_URL`` is set, so shared by every process): of 60 sign-ups sent at once against a
    limit of 30, exactly 30 go on; counting after creating let them all through.
    """

    scope: str
    refusal: type[AddressThrottled]

    def __init__(self, *, client_ip: str) -> None:
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
        self._counter: _Counter | None = None
        if rate:
            number, _, period = rate.partition("/")
            seconds = {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[0]]
            self._counter = _Counter(
                name=f"{self.scope}:{_digest(client_ip)}", limit=int(number), seconds=seconds
            )

    def reserve(self) -> None:
        """Count this attempt; raise ``refusal`` (429) past the limit."""
        if self._counter is None:
            return
        if self._counter.hit() > self._counter.limit:
            self._counter.release()  # a refused attempt holds no place
            raise self.refusal(self._counter.retry_after())


class SignUpQuota(AddressQuota):
    """Sign-ups from one client address: ``SIGN_UPS_PER_ADDRESS_PER_HOUR`` (30 an hour)."""

    scope = "register"
    refusal = TooManySignUps


class TooManyGuests(AddressThrottled):
    def __init__(self, wait: float | None) -> None:
        super().__init__(
            "Too many guest players have been started from this address: sign in or create "
            "an account to play.",
            wait,
        )


class GuestQuota(AddressQuota):
    """Guests made from one client address (``accounts.guests``):
    ``GUESTS_PER_ADDRESS_PER_HOUR`` (60 an hour)."""

    scope = "guest"
    refusal = TooManyGuests


class LoginGuard:
    """The failure counts one sign-in attempt is checked against: its username's from its IP,
    its username's from every IP, and its IP's.

    Usage: ``reserve()`` before checking the password, ``succeeded()`` if it was right; a wrong
    password needs nothing more, the reservation stands as the failure. Counting before the check
    rather than after it means a burst of parallel guesses can't all pass the same stale count.
    """

    def __init__(self, *, username: str, client_ip: str) -> None:
        window = _setting("LOGIN_FAILURE_WINDOW", DEFAULT_WINDOW_SECONDS)
        user, ip = _digest(fold_username(username)), _digest(client_ip)
        self._pair = _Counter(
            name=f"user-ip:{user}:{ip}",
            limit=_setting("LOGIN_FAILURE_LIMIT", DEFAULT_USERNAME_LIMIT),
            seconds=window,
        )
        self._account = _Counter(
            name=f"user:{user}",
            limit=_setting("LOGIN_FAILURE_ACCOUNT_LIMIT", DEFAULT_ACCOUNT_LIMIT),
            seconds=window,
        )
        self._ip = _Counter(
            name=f"ip:{ip}",
            limit=_setting("LOGIN_FAILURE_IP_LIMIT", DEFAULT_IP_LIMIT),
            seconds=window,
        )

    def reserve(self) -> None:
        """Count this attempt as a failure until it succeeds; raise LoginThrottled past a limit."""
        counters = (self._pair, self._account, self._ip)
        counts = [counter.hit() for counter in counters]
        exceeded = [c for c, count in zip(counters, counts, strict=True) if count > c.limit]
        if exceeded:
            # A refused attempt tests no password, so it mustn't count: an account locked by its
            # username's limit then doesn't also use up its owner's IP allowance.
            for counter in counters:
                counter.release()
            raise LoginThrottled(max(counter.retry_after() for counter in exceeded))

    def succeeded(self) -> None:
        """The password was right: forget this address's failures at the username, and take
        back this attempt's own counts. The account-wide failures stay: a guesser spread over
        many addresses must not get a fresh allowance each time the owner signs in."""
        self._pair.clear()
        self._account.release()
        self._ip.release()
