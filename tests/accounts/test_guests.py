"""Guests (accounts.guests): a visitor's "New deal" plays at once as a guest kept in the
session; signing up keeps the guest's games, signing in moves them to the account; what needs
an account refuses a guest (403 account_required); guest creation is limited per address;
guests untouched for GUEST_TTL_DAYS are removed by the worker's job."""

from __future__ import annotations

import datetime as dt
import random
import threading
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import guests
from accounts.models import GuestProfile
from games.background import worker
from games.models import Game, IdempotencyRecord
from tests.accounts.helpers import PASSWORD
from tests.games.helpers import (
    DAY,
    DailyClock,
    client_for,
    daily_url,
    make_user,
    play,
    staff_challenge,
)
from tests.games.test_privacy import play_random_game
from tests.support.api import assert_error

pytestmark = pytest.mark.django_db

User = get_user_model()


def visitor(address: str = "203.0.113.7", **kwargs: Any) -> APIClient:
    """A browser with no account that has opened a page: the CSRF cookie every page sets,
    and the session's cookie once it has one (kept between requests)."""
    client = APIClient(REMOTE_ADDR=address, **kwargs)
    assert client.get("/api/auth/csrf/").status_code == 200
    return client


def deal(client: APIClient, variant: str = "grandfathers-clock", **fields: Any) -> Any:
    return client.post("/api/games/", {"variant": variant, **fields}, format="json")


def guest_of(client: APIClient) -> Any:
    me = client.get("/api/auth/me/")
    assert me.status_code == 200, me.content
    return User.objects.get(pk=me.json()["id"])


def test_a_visitors_new_deal_signs_in_a_guest_who_plays_like_anyone() -> None:
    client = visitor()
    response = deal(client, seed=7)
    assert response.status_code == 201, response.content
    game = response.json()
    guest = guest_of(client)
    assert guests.is_guest(guest)
    assert guest.username.startswith("guest-")
    assert not guest.has_usable_password()
    assert Game.objects.get(pk=game["id"]).owner_id == guest.pk
    # Moves, history and stats as for anyone, validated by the engine.
    moved = play(client, game["id"], game["legal_moves"][0])
    assert moved["move_number"] == 1
    refused = client.post(
        f"/api/games/{game['id']}/moves/",
        {"move": {"type": "move", "from": "nowhere", "to": "nowhere"}},
        format="json",
    )
    assert refused.status_code == 400
    assert len(client.get(f"/api/games/{game['id']}/moves/").json()) == 1
    # A second deal is the same guest's.
    second = deal(client).json()
    assert Game.objects.get(pk=second["id"]).owner_id == guest.pk
    assert GuestProfile.objects.count() == 1


def test_a_guests_game_never_shows_a_face_down_card_or_the_seed() -> None:
    """The hidden-card checks of tests/games/test_privacy.py, on a game a guest plays."""
    client = visitor()
    game_id, status = play_random_game(client, "blondes-and-brunettes", random.Random("guest"))
    assert guests.is_guest(Game.objects.get(pk=game_id).owner)
    assert status in {"won", "lost", "resigned"}


def test_reading_signed_out_makes_no_guest() -> None:
    client = visitor()
    assert_error(client.get("/api/games/"), 401, "not_authenticated")
    assert_error(client.get("/api/me/stats/"), 401, "not_authenticated")
    assert_error(
        client.post("/api/games/1/moves/", {"move": {}}, format="json"), 401, "not_authenticated"
    )
    assert GuestProfile.objects.count() == 0


def test_a_new_deal_without_the_csrf_token_makes_no_guest() -> None:
    """Another site cannot make a visitor's browser a guest: the CSRF check comes first."""
    client = visitor(enforce_csrf_checks=True)
    assert_error(deal(client), 403, "csrf_failed")
    assert GuestProfile.objects.count() == 0
    token = client.cookies["csrftoken"].value
    response = client.post(
        "/api/games/", {"variant": "gold-mine"}, format="json", HTTP_X_CSRFTOKEN=token
    )
    assert response.status_code == 201, response.content
    assert GuestProfile.objects.count() == 1


def test_a_client_without_a_cookie_is_told_to_sign_in_not_made_a_guest() -> None:
    """A script that forgot its token keeps its 401: only a browser that opened a page (the
    CSRF cookie) plays as a guest."""
    assert_error(deal(APIClient()), 401, "not_authenticated")
    assert GuestProfile.objects.count() == 0


def test_a_bad_token_is_refused_not_turned_into_a_guest() -> None:
    client = visitor()
    client.credentials(HTTP_AUTHORIZATION="Token nonsense")
    assert deal(client).status_code == 401
    assert GuestProfile.objects.count() == 0


def test_guest_creation_is_limited_per_address(settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "guest": "2/hour",
        },
    }
    for _ in range(2):
        assert deal(visitor("198.51.100.1")).status_code == 201
    refused = deal(visitor("198.51.100.1"))
    body = assert_error(refused, 429, "throttled")
    assert "sign in or create an account" in body["message"]
    assert int(refused["Retry-After"]) > 3000
    assert GuestProfile.objects.count() == 2
    # Another address has its own count; a guest already made plays on.
    assert deal(visitor("198.51.100.2")).status_code == 201


def sign_up(client: APIClient, username: str = "newcomer", **fields: Any) -> Any:
    body = {"username": username, "password": PASSWORD, **fields}
    return client.post("/api/auth/register/", body, format="json")


def test_signing_up_as_a_guest_turns_the_guest_into_the_account() -> None:
    client = visitor()
    first = deal(client, seed=3).json()
    play(client, first["id"], first["legal_moves"][0])
    deal(client)
    guest = guest_of(client)
    stats_before = client.get("/api/me/stats/").json()
    response = sign_up(client)
    assert response.status_code == 201, response.content
    assert response.json()["id"] == guest.pk
    account = User.objects.get(pk=guest.pk)
    assert account.username == "newcomer"
    assert account.check_password(PASSWORD)
    assert not guests.is_guest(account)
    assert GuestProfile.objects.count() == 0
    # Still signed in, in the same browser, with the same games and statistics.
    assert client.get("/api/auth/me/").json()["username"] == "newcomer"
    assert Game.objects.filter(owner_id=account.pk).count() == 2
    assert [g["id"] for g in client.get("/api/games/").json()["results"]] == [first["id"]]
    assert client.get("/api/me/stats/").json() == stats_before
    play(client, first["id"], client.get(f"/api/games/{first['id']}/").json()["legal_moves"][0])
    # And a sign-in elsewhere with the new password finds them.
    elsewhere = APIClient()
    assert (
        elsewhere.post(
            "/api/auth/login/", {"username": "newcomer", "password": PASSWORD}, format="json"
        ).status_code
        == 200
    )
    assert elsewhere.get(f"/api/games/{first['id']}/").status_code == 200


def test_a_guests_refused_sign_up_leaves_it_a_guest() -> None:
    make_user("taken")
    client = visitor()
    deal(client)
    assert_error(sign_up(client, "taken"), 400, "invalid")
    assert_error(sign_up(client, "guest-me"), 400, "invalid")
    guest = guest_of(client)
    assert guests.is_guest(guest)
    assert Game.objects.filter(owner_id=guest.pk).count() == 1


def test_signing_in_as_a_guest_moves_its_games_to_the_account() -> None:
    account = User.objects.create_user("ada", password=PASSWORD)
    own = client_for(account)
    own_game = deal(own).json()
    client = visitor()
    game = deal(client, seed=11).json()
    played = play(client, game["id"], game["legal_moves"][0])
    other = client.post(
        "/api/games/", {"variant": "gold-mine"}, format="json", HTTP_IDEMPOTENCY_KEY="k1"
    ).json()
    play(client, other["id"], other["legal_moves"][0])
    assert client.post(f"/api/games/{other['id']}/resign/", {}, format="json").status_code == 200
    guest = guest_of(client)
    assert IdempotencyRecord.objects.filter(user_id=guest.pk).exists()
    guest_played = {row["variant"]: row["played"] for row in client.get("/api/me/stats/").json()}
    own_played = {row["variant"]: row["played"] for row in own.get("/api/me/stats/").json()}
    assert guest_played["gold-mine"] == 1
    response = client.post(
        "/api/auth/login/", {"username": "ada", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200, response.content
    assert not User.objects.filter(pk=guest.pk).exists()
    assert GuestProfile.objects.count() == 0
    assert not IdempotencyRecord.objects.filter(user_id=guest.pk).exists()
    assert client.get("/api/auth/me/").json()["username"] == "ada"
    assert Game.objects.filter(owner_id=account.pk).count() == 3
    assert client.get(f"/api/games/{own_game['id']}/").status_code == 200
    # The moved game goes on, its history whole.
    assert client.get(f"/api/games/{game['id']}/").json()["move_number"] == played["move_number"]
    assert len(client.get(f"/api/games/{game['id']}/moves/").json()) == 1
    # The account's statistics count the guest's games with its own.
    after = {row["variant"]: row["played"] for row in client.get("/api/me/stats/").json()}
    assert after == {v: guest_played[v] + own_played[v] for v in after}


def test_a_wrong_password_from_a_guest_session_moves_nothing() -> None:
    User.objects.create_user("ada", password=PASSWORD)
    client = visitor()
    deal(client)
    guest = guest_of(client)
    response = client.post(
        "/api/auth/login/", {"username": "ada", "password": "wrong"}, format="json"
    )
    assert_error(response, 400, "invalid_credentials")
    assert guests.is_guest(User.objects.get(pk=guest.pk))
    assert Game.objects.filter(owner_id=guest.pk).count() == 1


def test_a_ranked_daily_attempt_is_for_accounts(monkeypatch: pytest.MonkeyPatch) -> None:
    DailyClock(monkeypatch, DAY)
    staff_challenge(DAY, "gold-mine", 5)
    client = visitor()
    deal(client)
    refused = client.post(daily_url(DAY, "gold-mine", "attempt"), format="json")
    body = assert_error(refused, 403, "account_required")
    assert "Create an account" in body["message"]
    assert not Game.objects.filter(ranked=True).exists()
    day = client.get("/api/daily/", {"date": DAY.isoformat()}).json()
    assert not any(challenge["can_attempt"] for challenge in day["challenges"])
    # An account on the same day may.
    assert client_for().post(daily_url(DAY, "gold-mine", "attempt")).status_code == 201


def test_a_guest_has_no_public_profile_nor_account_settings() -> None:
    client = visitor()
    deal(client)
    guest = guest_of(client)
    assert_error(client.get(f"/api/players/{guest.username}/"), 404)
    assert_error(APIClient().get(f"/api/players/{guest.username}/"), 404)
    body = {"old_password": "x", "new_password": "something-long-enough"}
    assert_error(client.post("/api/auth/password/", body, format="json"), 403, "account_required")
    assert_error(
        client.patch("/api/auth/me/", {"email": "a@example.org", "password": "x"}, format="json"),
        403,
        "account_required",
    )
    assert client.get("/api/auth/me/").status_code == 200


def _age(guest: Any, days: int, *, last_move_days: int | None = None) -> None:
    then = timezone.now() - dt.timedelta(days=days)
    GuestProfile.objects.filter(user_id=guest.pk).update(created_at=then)
    moved = None if last_move_days is None else timezone.now() - dt.timedelta(days=last_move_days)
    Game.objects.filter(owner_id=guest.pk).update(created_at=then, last_move_at=moved)


def test_guests_untouched_for_the_set_time_are_removed_with_their_games(settings: Any) -> None:
    settings.GUEST_TTL_DAYS = 30
    stale, recent_move, new = (guests.create_guest(client_ip=f"10.0.0.{n}") for n in (1, 2, 3))
    old_account = make_user("old-timer")
    for player in (stale, recent_move, new, old_account):
        deal(client_for(player))
    _age(stale, 40, last_move_days=31)
    _age(recent_move, 40, last_move_days=2)
    Game.objects.filter(owner=old_account).update(
        created_at=timezone.now() - dt.timedelta(days=400)
    )
    assert set(guests.stale_guests().values_list("pk", flat=True)) == {stale.pk}
    assert guests.remove_stale_guests(batch=1) == 1
    assert not User.objects.filter(pk=stale.pk).exists()
    assert not Game.objects.filter(owner_id=stale.pk).exists()
    assert set(User.objects.values_list("pk", flat=True)) >= {
        recent_move.pk,
        new.pk,
        old_account.pk,
    }
    # A guest with no game at all counts from its making.
    idle = guests.create_guest(client_ip="10.0.0.9")
    _age(idle, 31)
    assert guests.remove_stale_guests() == 1
    assert not User.objects.filter(pk=idle.pk).exists()


def test_the_worker_has_the_guests_job(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "guests" in worker.JOBS
    calls = []
    stop = threading.Event()

    def sweep(now: Any = None) -> int:
        calls.append(now)
        stop.set()
        return 0

    monkeypatch.setattr(guests, "sweep_once", sweep)
    worker.JOBS["guests"].run(stop)
    assert calls == [None]
