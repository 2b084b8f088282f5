"""Shared helpers for the games API tests: users, clients, requests, error checks, a tiny solver.

Plain functions rather than fixtures, so that the test modules stay independent of any
``conftest.py`` other suites in this directory may add.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import count
from pathlib import Path
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.daily import services as daily_services
from games.rules import get_variant
from games.rules.state import Move
from tests.support.api import assert_error as assert_error  # the one check, shared

#: Deals whose winning line is known, per game (``{"seed": n, "moves": [...]}``).
WINNING_LINES = json.loads((Path(__file__).parents[1] / "rules" / "winning_lines.json").read_text())

SLUGS = [
    "grounds-for-divorce",
    "gold-mine",
    "selective-castle",
    "grandfathers-clock",
    "blondes-and-brunettes",
]

REPRESENTATION_KEYS = {
    "id",
    "variant",
    "seed",
    "status",
    "move_number",
    "ranked",
    "daily",
    "winnable",
    "state",
    "legal_moves",
    "safe_home_moves",
    "finishes_home",
    "counts",
    "can_undo",
    "dead_end",
    "created_at",
    "last_move_at",
    "finished_at",
    "time_seconds",
    "clock",
    "race",
}

_names = count(1)


def make_user(name: str | None = None) -> Any:
    name = name or f"player{next(_names)}"
    # No password: hashing one costs a third of a second, and these clients never sign in.
    return get_user_model().objects.create_user(username=name, password=None)


def client_for(user: Any = None) -> APIClient:
    """An API client signed in as ``user`` (a new player when omitted)."""
    client = APIClient()
    client.force_authenticate(user or make_user())
    return client


def anonymous_client() -> APIClient:
    return APIClient()


def crash_tolerant(client: APIClient) -> APIClient:
    """Let a 500 come back as a response instead of re-raising the view's exception."""
    client.raise_request_exception = False
    return client


def new_game(
    client: APIClient, variant: str, seed: int | None = None, **fields: Any
) -> dict[str, Any]:
    data: dict[str, Any] = {"variant": variant, **fields}
    if seed is not None:
        data["seed"] = seed
    response = client.post("/api/games/", data, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def started_game(
    client: APIClient, variant: str, seed: int | None = None, **fields: Any
) -> dict[str, Any]:
    """A new game with one move made (its first legal one): a game in progress, which the
    lists show, unlike an untouched one (``models.UNTOUCHED``)."""
    game = new_game(client, variant, seed, **fields)
    return play(client, game["id"], game["legal_moves"][0])


def post_move(
    client: APIClient, game_id: int, move: Any, expected: int | None = None, **extra: Any
) -> Any:
    data: dict[str, Any] = {"move": move}
    if expected is not None:
        data["expected_move_number"] = expected
    return client.post(f"/api/games/{game_id}/moves/", data, format="json", **extra)


def play(client: APIClient, game_id: int, move: Any) -> dict[str, Any]:
    """A move that must be accepted."""
    response = post_move(client, game_id, move)
    assert response.status_code == 201, response.content
    return response.json()


def post_raw(client: APIClient, url: str, raw: str | bytes, **extra: Any) -> Any:
    return client.generic("POST", url, raw, content_type="application/json", **extra)


def detail(client: APIClient, game_id: int) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}/")
    assert response.status_code == 200, response.content
    return response.json()


def history(client: APIClient, game_id: int) -> list[dict[str, Any]]:
    response = client.get(f"/api/games/{game_id}/moves/")
    assert response.status_code == 200, response.content
    return response.json()


def replay(client: APIClient, game_id: int, step: int) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}/replay/", {"step": step})
    assert response.status_code == 200, response.content
    return response.json()


def snapshot(client: APIClient, game_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Everything a player can read about a game, to compare before and after a refusal."""
    return detail(client, game_id), history(client, game_id)


@contextmanager
def unchanged(client: APIClient, game_id: int) -> Iterator[None]:
    before = snapshot(client, game_id)
    yield
    assert snapshot(client, game_id) == before


def solve(slug: str, seed: int) -> list[dict[str, Any]] | None:
    """A naive depth-first search for a winning line: foundation moves first, a visited set on
    the piles. Good enough for easy deals (Grandfather's Clock, seed 0)."""
    variant = get_variant(slug)
    start = variant.deal(seed)
    seen = {start.piles}
    line: list[Move] = []

    def search(state: Any) -> bool:
        if variant.status(state) == "won":
            return True
        moves = sorted(
            variant.legal_moves(state),
            key=lambda m: not (m.target or "").startswith("foundation"),
        )
        for move in moves:
            after = variant.apply(state, move)
            if after.piles in seen:
                continue
            seen.add(after.piles)
            line.append(move)
            if search(after):
                return True
            line.pop()
        return False

    return [move.to_json() for move in line] if search(start) else None


# -- daily challenges -------------------------------------------------------------------------


#: The day the daily tests play on (a future one, so no real day's challenge is in the way).
DAY = datetime.date(2031, 5, 10)


class DailyClock:
    """Sets the UTC day the service sees: every caller reads it through ``games.core.days.today``
    (``day_closed`` and ``closes_at`` included), so one monkeypatch moves them all."""

    def __init__(self, monkeypatch: Any, day: Any) -> None:
        from games.core import days

        self.day = day
        monkeypatch.setattr(days, "today", lambda: self.day)

    def advance(self, days: int = 1) -> None:
        import datetime as dt

        self.day += dt.timedelta(days=days)


def daily_url(date: Any, slug: str, action: str) -> str:
    """``/api/daily/{date}/{slug}/{action}/`` (``attempt`` or ``replay``)."""
    return f"/api/daily/{date}/{slug}/{action}/"


def start_daily(client: APIClient, date: Any, slug: str, action: str = "attempt") -> dict[str, Any]:
    """A ranked attempt (or a casual ``replay``) that must be granted: the game."""
    response = client.post(daily_url(date, slug, action), format="json")
    assert response.status_code == 201, response.content
    return response.json()


def staff_challenge(date: Any, slug: str, seed: int) -> Any:
    """A day's challenge whose seed staff chose, set before the day (as staff would)."""
    from games.models import DailyChallenge, Deal

    deal, _ = Deal.objects.get_or_create(variant=slug, seed=seed)
    return DailyChallenge.objects.create(date=date, variant=slug, deal=deal, seed_set_by_staff=True)


def daily_game(user: Any, date: Any, slug: str, *, ranked: bool = True, **fields: Any) -> Any:
    """A game on a day's challenge written straight to the database (any day, past or
    future), its fresh deal stored as the service stores it, then given ``fields``: by default
    as if one move had been made (``board_moves`` 1), since the leaderboards and profiles count
    no game where no move was made (``models.UNTOUCHED``); and with ``created_at`` and
    ``last_move_at`` given, with the time between them as the game's time (``active_ms``), as if
    no two of its moves had been further apart than the clock's cap."""
    from games.models import Game

    if "active_ms" not in fields and fields.get("last_move_at") and fields.get("created_at"):
        taken = fields["last_move_at"] - fields["created_at"]
        fields["active_ms"] = max(0, taken // datetime.timedelta(milliseconds=1))

    challenge = daily_services.daily_challenge(date, slug)
    variant = get_variant(slug)
    state = variant.deal(challenge.deal.seed)
    return Game.objects.create(
        owner=user,
        deal=challenge.deal,
        daily=challenge,
        state=variant.state_to_json(state),
        ranked=ranked,
        cards_home=fields.pop("cards_home", variant.cards_home(state)),
        board_moves=fields.pop("board_moves", 1),
        **fields,
    )


# -- live updates -----------------------------------------------------------------------------


class GroupInbox:
    """A channel on the current channel layer that joins groups and collects what they get.
    Set ``CHANNEL_LAYERS`` to the in-memory layer before making one."""

    def __init__(self) -> None:
        self.layer = get_channel_layer()
        self.channel = async_to_sync(self.layer.new_channel)()

    def join(self, group: str) -> None:
        async_to_sync(self.layer.group_add)(group, self.channel)

    def received(self) -> list[dict[str, Any]]:
        """Everything delivered so far (waiting 50 ms for more)."""
        return async_to_sync(self._drain)()

    async def _drain(self) -> list[dict[str, Any]]:
        messages = []
        while True:
            try:
                messages.append(await asyncio.wait_for(self.layer.receive(self.channel), 0.05))
            except TimeoutError:
                return messages


def losing_line(slug: str) -> tuple[int, list[dict[str, Any]]]:
    """A seed and a random line of play that reaches a dead end within 60 moves (engine only)."""
    variant = get_variant(slug)
    for seed in range(100):
        rng = random.Random(seed)
        state, line = variant.deal(seed), []
        while variant.status(state) == "playing" and len(line) < 60:
            move = rng.choice(variant.legal_moves(state))
            state = variant.apply(state, move)
            line.append(move.to_json())
        if variant.status(state) == "lost":
            return seed, line
    raise AssertionError("no losing line found")
