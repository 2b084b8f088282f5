"""The API against its own OpenAPI schema: schemathesis fuzzes every operation of /api/schema/.

Each operation gets schema-driven requests, valid and invalid, signed in with a real API token
(staff for the staff endpoints). Real game ids, game slugs, usernames and today's date are mixed
into the generated values, so that requests get past "not found" into the code behind, and so are
numbers and days at the edges of what the service stores. Every answer must be no 5xx and conform
to the schema (status code, content type, body), every error must be the API's one JSON error
body, and a refused request must change nothing in the database.

Each generated request runs in a transaction rolled back afterwards, with the sign-in throttle's
counts cleared, so every example starts from the same state: examples are independent (Hypothesis
can replay and shrink them) and no endpoint has to be left out for changing the test's own
credentials (logout, password change, token revocation only last one example).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from werkzeug.test import Client as WSGIClient

from accounts.models import UserSession
from config.wsgi import application
from games.core import days
from games.models import (
    AuditLog,
    DailyChallenge,
    Deal,
    Game,
    GameFlag,
    IdempotencyRecord,
    Move,
    Race,
    RacePlayer,
    WinnableDeal,
)
from tests.games.helpers import SLUGS, new_game, play

pytestmark = pytest.mark.django_db

PASSWORD = "fuzz-patience-31"

# Where a 400 answers a request the schema cannot tell apart from a good one: wrong credentials,
# a password Django's validators refuse, a username taken, a reset or confirmation link that is
# not one, an email change with a wrong password, an illegal move, a step past the end of the
# history, following oneself, a deal number with "winnable": true (the schema says so with
# "not", which schemathesis does not heed when it generates). Everywhere else a schema-valid
# request must not get a 400.
SEMANTIC_400 = [
    "games_create",
    "auth_login_create",
    "auth_token_create",
    "auth_register_create",
    "auth_password_create",
    "auth_me_destroy",
    "auth_password_reset_confirm_create",
    "auth_email_confirm_create",
    "auth_me_partial_update",
    "games_moves_create",
    "games_replay",
    "staff_games_review",
    "players_follow",
]
# schemathesis's default for positive_data_acceptance, plus 400.
ACCEPTED_WITH_400 = ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]

# Values at the edges of what the service stores and computes, mixed into what is generated:
# integers past 32 and 64 bits (ids, pages, steps, move numbers) and the calendar's first and
# last day.
INTEGER_EDGES = [0, 1, 2**31 - 1, 2**31, 2**53 - 1, 2**53, 2**63 - 1, 2**63, 2**64]
CALENDAR_EDGES = [dt.date.min.isoformat(), dt.date.max.isoformat()]

CONFIG = schemathesis.Config.from_dict(
    {
        "dictionaries": {
            "integer_edges": {"values": INTEGER_EDGES},
            "calendar_edges": {"values": CALENDAR_EDGES},
        },
        "generation": {
            "dictionaries": {"integer": {"dictionary": "integer_edges", "probability": 0.2}}
        },
        "parameters": {
            "query.page": {"dictionary": "integer_edges", "probability": 0.5},
            "query.date": {"dictionary": "calendar_edges", "probability": 0.3},
            "path.date": {"dictionary": "calendar_edges", "probability": 0.2},
            "body.seed": {"dictionary": "integer_edges", "probability": 0.2},
            "body.expected_move_number": {"dictionary": "integer_edges", "probability": 0.2},
        },
        "operations": [
            {
                "include-operation-id": SEMANTIC_400,
                "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED_WITH_400}},
            }
        ],
    }
)

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application, config=CONFIG)


@dataclass
class World:
    """What the generated requests are pointed at: the fixture's users, tokens and games."""

    token: str
    staff_token: str
    game_ids: list[int]  # the player's game in play, their finished game, someone else's
    today: str  # the only day a daily attempt is open


world: World | None = None
WINNING_LINES = json.loads((Path(__file__).parents[1] / "rules" / "winning_lines.json").read_text())


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_date(value: Any) -> bool:
    """``YYYY-MM-DD``: what the schema asks of a date, in the path or the query."""
    return isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) is not None


# Only values the schema accepts are swapped for real ones: a generated invalid value stays, so
# that what schemathesis expects of an invalid request still holds. All of a path's parameters
# are swapped together, or none: a request has to get every one of them right to reach the code.
@schema.hook
def flatmap_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> Any:
    if world is None or not path_parameters:
        return st.just(path_parameters)
    real: dict[str, st.SearchStrategy[Any]] = {}
    for name, value in path_parameters.items():
        if name == "game_id" and _is_int(value):
            real[name] = st.sampled_from(world.game_ids)
        elif name == "variant" and isinstance(value, str):
            real[name] = st.sampled_from(SLUGS)
        elif name == "date" and _is_date(value):
            real[name] = st.just(world.today)
        elif name == "username" and isinstance(value, str):
            real[name] = st.sampled_from(["fuzzer", "fuzz-other"])
        else:
            real[name] = st.just(value)
    return st.just(path_parameters) | st.fixed_dictionaries(real)


@schema.hook
def flatmap_query(context: Any, query: dict[str, Any] | None) -> Any:
    if world is None or not query or not _is_date(query.get("date")):
        return st.just(query)
    return st.sampled_from([query, {**query, "date": world.today}])


# Two leniencies the API means to have, which schemathesis counts as accepting invalid input:
# - an empty query value (`?status=`) is no value at all, DRF's rule for the optional fields of a
#   query string, and of a repeated parameter the last value counts (Django's QueryDict);
# - a number with no fraction (`"seed": 0.0`) is that integer, as in JavaScript and in JSON Schema
#   since draft 6 (DRF's IntegerField reads it so).
# A request that is invalid in any other way must still be refused.
@schema.hook
def filter_failure(context: Any, failure: Any, case: Any, response: Any) -> bool:
    if type(failure).__name__ != "AcceptedNegativeData" or case.meta is None:
        return True
    negated = {loc.name for loc, info in case.meta.components.items() if info.mode.is_negative}
    if negated == {"QUERY"}:
        data = case.meta.phase.data
        names = {data.parameter, *(mutation.parameter for mutation in data.mutations)} - {None}
        sent = parse_qs(urlsplit(response.request.url).query, keep_blank_values=True)
        return not (names and all(sent.get(name, ["?"])[-1] == "" for name in names))
    if negated == {"BODY"}:
        body = _integral_floats_as_ints(case.body)
        changed = repr(body) != repr(case.body)
        return not (changed and any(option.is_valid(body) for option in case.operation.body))
    return True


def _integral_floats_as_ints(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _integral_floats_as_ints(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_integral_floats_as_ints(item) for item in value]
    return value


def error_body(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every error answer is JSON ``{"error": {"code": str, "message": str, ...}}``."""
    if response.status_code < 400:
        return None
    content_type = (response.headers.get("content-type") or [""])[0]
    assert content_type.startswith("application/json"), (
        f"{response.status_code} answered with {content_type!r}: {response.content[:300]!r}"
    )
    body = json.loads(response.content)
    assert isinstance(body, dict) and set(body) == {"error"}, body
    error = body["error"]
    assert isinstance(error.get("code"), str) and error["code"], body
    assert isinstance(error.get("message"), str) and error["message"], body
    assert isinstance(error.get("fields", {}), dict), body
    return True


MODELS = [
    Deal,
    DailyChallenge,
    Game,
    Move,
    IdempotencyRecord,
    GameFlag,
    AuditLog,
    Token,
    UserSession,
    Race,
    RacePlayer,
]


def database() -> dict[str, list[dict[str, Any]]]:
    """Every row the API can write, to compare before and after a refused request."""
    rows = {model.__name__: list(model.objects.order_by("pk").values()) for model in MODELS}
    rows["User"] = list(get_user_model().objects.order_by("pk").values())
    return rows


def signed_in(username: str, **fields: Any) -> tuple[APIClient, str]:
    """A real account, signed in the way a script signs in: a token from /api/auth/token/."""
    get_user_model().objects.create_user(username, password=PASSWORD, **fields)
    client = APIClient()
    response = client.post(
        "/api/auth/token/", {"username": username, "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200, response.content
    key = response.json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client, key


def game_in_progress(client: APIClient, slug: str = "grounds-for-divorce") -> dict[str, Any]:
    game = new_game(client, slug, seed=7)
    for _ in range(2):
        game = play(client, game["id"], game["legal_moves"][0])
    return game


@pytest.fixture
def fuzz_world(settings: Any) -> Iterator[World]:
    global world
    # Generated passwords are hashed on every sign-in and registration: keep that cheap.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    player, token = signed_in("fuzzer")
    _, staff_token = signed_in("fuzz-staff", is_staff=True)
    other, _ = signed_in("fuzz-other")
    playing = game_in_progress(player)
    finished = game_in_progress(player, "gold-mine")
    assert player.post(f"/api/games/{finished['id']}/resign/", format="json").status_code == 200
    foreign = game_in_progress(other)
    # A proven-winnable deal of each game in the pool (each request is rolled back, so one is
    # enough): "winnable": true is then answered, not refused for an empty pool.
    for slug, line in WINNING_LINES.items():
        WinnableDeal.objects.create(
            variant=slug, seed=line["seed"], moves=line["moves"], positions=0, seconds=0.0
        )
    world = World(
        token=token,
        staff_token=staff_token,
        game_ids=[playing["id"], finished["id"], foreign["id"]],
        today=days.today().isoformat(),
    )
    # As Django's test client does: the requests run inside the test's transaction, which
    # closing "old" connections at the end of each request would end.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield world
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
        world = None
        cache.clear()


@schema.parametrize()
@settings(
    max_examples=50,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_every_operation_answers_as_its_schema_says(case: Any, fuzz_world: World) -> None:
    """No 5xx, schema-conformant answers, one error format, and refusals change nothing."""
    token = fuzz_world.staff_token if case.path.startswith("/api/staff/") else fuzz_world.token
    cache.clear()
    with transaction.atomic():
        before = database()
        response = case.call_and_validate(
            # A new client for each request: no cookie carries over from one example to the next.
            session=WSGIClient(application),
            headers={"Authorization": f"Token {token}"},
            additional_checks=[error_body],
        )
        if response.status_code >= 400:
            assert database() == before, f"{case.method} {case.formatted_path} changed data"
        transaction.set_rollback(True)
