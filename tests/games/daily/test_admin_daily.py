"""Staff set a future day's challenge seed in the admin; a started day cannot change."""

from __future__ import annotations

import datetime as dt

import pytest

from games.core import days
from games.daily import challenges
from games.daily import services as daily_services
from games.models import DailyChallenge
from games.play import services as play_services
from games.solver import ladder

pytestmark = pytest.mark.django_db


def test_staff_set_a_future_days_seed_and_that_day_deals_it(staff_client, monkeypatch):
    tomorrow = days.today() + dt.timedelta(days=1)
    response = staff_client.post(
        "/admin/games/dailychallenge/add/",
        {"date": tomorrow.isoformat(), "variant": "gold-mine", "seed": "1234"},
    )
    assert response.status_code == 302, response.content[:2000]
    challenge = DailyChallenge.objects.get(date=tomorrow, variant="gold-mine")
    assert (challenge.deal.seed, challenge.seed_set_by_staff) == (1234, True)

    monkeypatch.setattr(days, "today", lambda: tomorrow)
    user = staff_client.get("/admin/").wsgi_request.user
    attempt = daily_services.start_daily_attempt(user=user, date=tomorrow, variant_slug="gold-mine")
    assert attempt.game.deal.seed == 1234


def test_a_day_that_has_started_cannot_be_set_or_changed(staff_client):
    today = days.today()
    response = staff_client.post(
        "/admin/games/dailychallenge/add/",
        {"date": today.isoformat(), "variant": "gold-mine", "seed": "1"},
    )
    assert response.status_code == 200
    assert b"Only a future day" in response.content
    challenge = daily_services.daily_challenge(today, "gold-mine")
    response = staff_client.post(
        f"/admin/games/dailychallenge/{challenge.pk}/change/",
        {"date": today.isoformat(), "variant": "gold-mine", "seed": "1"},
    )
    assert response.status_code == 403
    challenge.refresh_from_db()
    assert challenge.deal.seed == days.daily_seed(today, "gold-mine")


def test_players_do_not_reach_the_admin(client, django_user_model):
    player = django_user_model.objects.create_user("player", password="pw")
    client.force_login(player)
    response = client.get("/admin/games/dailychallenge/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_a_past_days_challenge_shows_its_ranking_with_links_to_each_review(
    staff_client, django_user_model, monkeypatch
):
    yesterday = days.today() - dt.timedelta(days=1)
    monkeypatch.setattr(days, "today", lambda: yesterday)
    winner = django_user_model.objects.create_user("winner", password="pw")
    runner_up = django_user_model.objects.create_user("runner_up", password="pw")
    first = daily_services.start_daily_attempt(
        user=winner, date=yesterday, variant_slug="gold-mine"
    )
    second = daily_services.start_daily_attempt(
        user=runner_up, date=yesterday, variant_slug="gold-mine"
    )
    # No cards home yet on either side: fewer moves ranks first.
    play_services.play_move(user=runner_up, game_id=second.game.pk, move={"type": "deal"})
    monkeypatch.undo()

    challenge = DailyChallenge.objects.get(date=yesterday, variant="gold-mine")
    page = staff_client.get(f"/admin/games/dailychallenge/{challenge.pk}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    review = f"/admin/games/game/{first.game.pk}/review/"
    assert review in text
    assert text.index("runner_up") > text.index(review)  # the winner comes first
    assert staff_client.get(review).status_code == 200


def test_the_challenge_list_counts_attempts_in_a_fixed_number_of_queries(
    staff_client, django_user_model, django_assert_max_num_queries
):
    today = days.today()
    for number in range(12):
        player = django_user_model.objects.create_user(f"p{number}")
        daily_services.start_daily_attempt(user=player, date=today, variant_slug="gold-mine")
        daily_services.daily_challenge(today + dt.timedelta(days=number + 1), "gold-mine")
    with django_assert_max_num_queries(8):
        page = staff_client.get("/admin/games/dailychallenge/")
    assert page.status_code == 200
    rows = {row.date: row for row in page.context["cl"].result_list}
    assert page.context["cl"].model_admin.attempts(rows[today]) == 12
    assert page.context["cl"].model_admin.attempts(rows[today + dt.timedelta(days=1)]) == 0


def test_a_seed_staff_set_is_solved_and_shown_proven_winnable(staff_client, settings):
    settings.DAILY_SOLVER_POSITIONS, settings.DAILY_SOLVER_SECONDS = 2_000_000, 10.0
    tomorrow = days.today() + dt.timedelta(days=1)
    response = staff_client.post(
        "/admin/games/dailychallenge/add/",
        {"date": tomorrow.isoformat(), "variant": "grandfathers-clock", "seed": "7"},
        follow=True,
    )
    assert response.status_code == 200
    assert b"not proven winnable" not in response.content
    challenge = DailyChallenge.objects.get(date=tomorrow, variant="grandfathers-clock")
    assert (challenge.outcome, challenge.candidate, challenge.seed_set_by_staff) == (
        "proven",
        None,
        True,
    )
    assert challenge.difficulty in ("easy", "medium", "hard", "expert")
    assert challenge.solution, "the certificate is kept"
    page = staff_client.get(f"/admin/games/dailychallenge/{challenge.pk}/change/")
    text = page.content.decode()
    assert f"Proven winnable ({challenge.difficulty})" in text
    assert '"type": "move"' not in text and "&quot;type&quot;" not in text, "never the line"
    listing = staff_client.get("/admin/games/dailychallenge/").content.decode()
    assert "proven" in listing.lower()


def test_a_seed_staff_set_is_solved_on_the_full_budget_even_in_a_game_with_a_first_rung(
    staff_client, settings, monkeypatch
):
    """The day's ladder (games.solver.ladder) is for choosing among candidates: the one deal
    staff name gets the whole budget."""
    settings.DAILY_SOLVER_POSITIONS = 5_000_000
    assert ladder.first_rung("blondes-and-brunettes", 5_000_000) is not None
    asked = []

    def stand_in(slug, seed, *, pool="daily", positions=None):
        asked.append((slug, seed, pool, positions))
        return challenges.Certificate(slug, seed, "won", [{"type": "deal"}], {}, "easy")

    monkeypatch.setattr(challenges, "solve_seed", stand_in)
    tomorrow = days.today() + dt.timedelta(days=1)
    response = staff_client.post(
        "/admin/games/dailychallenge/add/",
        {"date": tomorrow.isoformat(), "variant": "blondes-and-brunettes", "seed": "77"},
    )
    assert response.status_code == 302, response.content[:2000]
    assert asked == [("blondes-and-brunettes", 77, "admin", None)]
    challenge = DailyChallenge.objects.get(date=tomorrow, variant="blondes-and-brunettes")
    assert challenge.proven and challenge.seed_set_by_staff


def test_staff_are_warned_when_their_seed_is_not_proven_winnable_and_may_keep_it(
    staff_client, settings
):
    settings.DAILY_SOLVER_POSITIONS = 50  # the solver cannot prove Gold Mine on this
    tomorrow = days.today() + dt.timedelta(days=1)
    response = staff_client.post(
        "/admin/games/dailychallenge/add/",
        {"date": tomorrow.isoformat(), "variant": "gold-mine", "seed": "99"},
        follow=True,
    )
    text = response.content.decode()
    assert "Kept, but deal 99 is not proven winnable" in text
    assert "the solver&#x27;s budget ran out" in text or "the solver's budget ran out" in text
    challenge = DailyChallenge.objects.get(date=tomorrow, variant="gold-mine")
    assert (challenge.deal.seed, challenge.outcome) == (99, "unknown")
    assert challenge.solution is None and challenge.difficulty == ""
    page = staff_client.get(f"/admin/games/dailychallenge/{challenge.pk}/change/")
    assert "Not proven winnable: the solver" in page.content.decode()
