"""A removed player (account closed, or deleted by staff) leaves the daily leaderboards, and the
boards' live watchers are told once the removal commits."""

from __future__ import annotations

import pytest
from django.db import transaction

from games import daily, selectors, services
from games.live import leaderboard_group
from tests.games.helpers import GroupInbox

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def board_inbox(settings):
    """The messages sent to today's Gold Mine leaderboard group."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    inbox = GroupInbox()
    inbox.join(leaderboard_group(daily.today(), "gold-mine"))
    return inbox.received


def attempt(user) -> None:
    game = services.start_daily_attempt(user=user, date=daily.today(), variant_slug="gold-mine")
    services.resign_game(user=user, game_id=game.game.pk)


def names_on_todays_board() -> list[str]:
    board = selectors.daily_leaderboard(daily.today(), "gold-mine", None)
    return [entry["user"] for entry in board["results"]]


def test_a_deleted_player_leaves_the_board_and_its_watchers_hear_after_the_commit(
    django_user_model, board_inbox
):
    leaving = django_user_model.objects.create_user("leaving", password="x")
    staying = django_user_model.objects.create_user("staying", password="x")
    attempt(leaving)
    attempt(staying)
    board_inbox()  # the attempts' own updates
    assert sorted(names_on_todays_board()) == ["leaving", "staying"]

    with transaction.atomic():
        leaving.delete()  # as the admin and closing an account both do
        assert board_inbox() == []  # not before the commit

    assert [m["type"] for m in board_inbox()] == ["leaderboard.changed"]
    assert names_on_todays_board() == ["staying"]


def test_a_rolled_back_removal_tells_no_one(django_user_model, board_inbox):
    player = django_user_model.objects.create_user("player", password="x")
    attempt(player)
    board_inbox()
    with pytest.raises(RuntimeError), transaction.atomic():
        player.delete()
        raise RuntimeError("rolled back")
    assert board_inbox() == []
    assert names_on_todays_board() == ["player"]


def test_a_player_without_daily_attempts_announces_nothing(django_user_model, board_inbox):
    casual = django_user_model.objects.create_user("casual", password="x")
    services.create_game(user=casual, variant_slug="gold-mine", seed=3)
    casual.delete()
    assert board_inbox() == []
