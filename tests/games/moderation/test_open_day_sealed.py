"""Staff who may review games cannot see today's daily deal, or the boards of its ranked
attempts, while the day is open: staff can play ranked too. Once the day closes, they can."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from games.core import days
from games.daily import challenges
from games.daily import services as daily_services
from games.models import DailyChallenge, Game
from tests.games.helpers import assert_error, client_for, make_user

pytestmark = pytest.mark.django_db

VARIANT = "gold-mine"


@pytest.fixture
def attempt() -> Game:
    player = make_user("alice")
    outcome = daily_services.start_daily_attempt(
        user=player, date=days.today(), variant_slug=VARIANT
    )
    return Game.objects.select_related("deal", "daily").get(pk=outcome.game.pk)


@pytest.fixture
def day_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    # The clock moves to tomorrow: the sealing reads the day in SQL (``date >= today``), so
    # moving ``days.today`` moves every reader of it at once.
    tomorrow = days.today() + dt.timedelta(days=1)
    monkeypatch.setattr(days, "today", lambda: tomorrow)


def seed_of(game: Game) -> str:
    return str(game.deal.seed)


def test_the_staff_review_api_hides_an_open_days_attempt(
    staff_client: Client, attempt: Game
) -> None:
    response = staff_client.get(f"/api/staff/games/{attempt.pk}/review/")

    assert_error(response, 404, "not_yet")
    assert seed_of(attempt) not in response.content.decode()


def test_the_staff_review_api_shows_it_once_the_day_closed(
    staff_client: Client, attempt: Game, day_closed: None
) -> None:
    response = staff_client.get(f"/api/staff/games/{attempt.pk}/review/")

    assert response.status_code == 200
    assert response.json()["game"]["seed"] == attempt.deal.seed


def test_the_admin_review_page_hides_an_open_days_attempt(
    staff_client: Client, attempt: Game
) -> None:
    response = staff_client.get(f"/admin/games/game/{attempt.pk}/review/", follow=True)

    assert "still open" in response.content.decode()
    assert 'class="board' not in response.content.decode()
    assert f"Deal {seed_of(attempt)}" not in response.content.decode()


def test_the_admin_game_pages_hide_an_open_days_seed_and_snapshot(
    staff_client: Client, attempt: Game
) -> None:
    listing = staff_client.get("/admin/games/game/").content.decode()
    page = staff_client.get(f"/admin/games/game/{attempt.pk}/change/").content.decode()

    assert f'<td class="field-seed">{seed_of(attempt)}</td>' not in listing
    assert "hidden until the day closes" in listing
    assert '"face_down"' not in page
    assert "hidden until the day closes" in page


def test_the_admin_game_pages_show_them_once_the_day_closed(
    staff_client: Client, attempt: Game, day_closed: None
) -> None:
    listing = staff_client.get("/admin/games/game/").content.decode()
    review = staff_client.get(f"/admin/games/game/{attempt.pk}/review/")

    assert f'<td class="field-seed">{seed_of(attempt)}</td>' in listing
    assert review.status_code == 200


def test_the_daily_challenge_admin_hides_todays_seed(staff_client: Client, attempt: Game) -> None:
    challenge = DailyChallenge.objects.get(date=days.today(), variant=VARIANT)

    page = staff_client.get(f"/admin/games/dailychallenge/{challenge.pk}/change/")

    assert page.status_code == 200
    assert f'value="{challenge.deal.seed}"' not in page.content.decode()
    assert f">{challenge.deal.seed}<" not in page.content.decode()


def test_the_deals_list_and_a_search_by_seed_hide_an_open_days_deal(
    staff_client: Client, attempt: Game
) -> None:
    listed = staff_client.get("/admin/games/deal/").content.decode()
    assert "hidden until the day closes" in listed and seed_of(attempt) not in listed
    page = staff_client.get(f"/admin/games/deal/{attempt.deal_id}/change/")
    assert page.status_code == 403 and seed_of(attempt) not in page.content.decode()
    # Searching for the number finds neither the deal nor the games dealt it.
    for path in ("/admin/games/deal/", "/admin/games/game/"):
        found = staff_client.get(path, {"q": seed_of(attempt)})
        assert found.status_code == 200
        assert len(found.context["cl"].result_list) == 0, path


def test_once_the_day_closed_a_search_by_seed_finds_its_deal_and_games(
    staff_client: Client, attempt: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    tomorrow = days.today() + dt.timedelta(days=1)
    monkeypatch.setattr(days, "today", lambda: tomorrow)
    deals = staff_client.get("/admin/games/deal/", {"q": seed_of(attempt)})
    assert [deal.pk for deal in deals.context["cl"].result_list] == [attempt.deal_id]
    assert seed_of(attempt) in deals.content.decode()
    games = staff_client.get("/admin/games/game/", {"q": seed_of(attempt)})
    assert [game.pk for game in games.context["cl"].result_list] == [attempt.pk]


def test_a_casual_game_on_the_open_days_deal_is_sealed_as_the_attempt_is(
    staff_client: Client, attempt: Game
) -> None:
    """The deal row is what they share: a player who typed today's number (or a replay made
    before replays waited for the day) deals the very cards of the attempt."""
    bob = make_user("bob")
    numbered = client_for(bob).post(
        "/api/games/", {"variant": VARIANT, "seed": attempt.deal.seed}, format="json"
    )
    assert numbered.status_code == 201, numbered.content
    casual = Game.objects.get(pk=numbered.json()["id"])
    assert casual.deal_id == attempt.deal_id and casual.daily_id is None

    response = staff_client.get(f"/api/staff/games/{casual.pk}/review/")
    assert_error(response, 404, "not_yet")
    listing = staff_client.get("/admin/games/game/").content.decode()
    page = staff_client.get(f"/admin/games/game/{casual.pk}/change/").content.decode()
    review = staff_client.get(f"/admin/games/game/{casual.pk}/review/", follow=True)
    for text in (listing, page, review.content.decode(), response.content.decode()):
        assert seed_of(attempt) not in text
    assert 'class="board' not in review.content.decode()


def test_a_day_to_come_shows_staff_their_own_seed_but_never_the_workers(
    staff_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    tomorrow = days.today() + dt.timedelta(days=1)
    prepared = challenges.prepare(tomorrow, VARIANT)[0]
    assert not prepared.seed_set_by_staff
    page = staff_client.get(f"/admin/games/dailychallenge/{prepared.pk}/change/")
    assert page.status_code == 200
    assert str(prepared.deal.seed) not in page.content.decode()
    assert (
        staff_client.get("/admin/games/dailychallenge/")
        .content.decode()
        .count(str(prepared.deal.seed))
        == 0
    )

    form = {"date": tomorrow.isoformat(), "variant": VARIANT, "seed": "4242", "reason": "mine"}
    response = staff_client.post(f"/admin/games/dailychallenge/{prepared.pk}/change/", form)
    assert response.status_code == 302, response.content[:2000]
    page = staff_client.get(f"/admin/games/dailychallenge/{prepared.pk}/change/")
    assert 'value="4242"' in page.content.decode()


def test_staff_may_not_sort_or_filter_a_list_by_seed(staff_client: Client, attempt: Game) -> None:
    """53 probes sorting the games by seed found a sealed attempt's seed by binary search."""
    for url in ("/admin/games/game/", "/admin/games/deal/"):
        listing = staff_client.get(url)
        seed_column = [header for header in listing.context["cl"].list_display if "seed" in header]
        assert seed_column, url
        headers = listing.content.decode()
        assert 'class="sortable column-seed' not in headers
        assert 'class="sortable column-shown_seed' not in headers
    for url, lookup in (
        ("/admin/games/deal/", "seed__lt"),
        ("/admin/games/game/", "deal__seed__lt"),
        ("/admin/games/game/", "state__contains"),
        ("/admin/games/move/", "game__deal__seed__lt"),
        ("/admin/games/dailychallenge/", "deal__seed__lt"),
        ("/admin/games/dailychallenge/", "solution__isnull"),
    ):
        response = staff_client.get(url, {lookup: "1"})
        assert response.status_code == 400, (url, lookup)
