"""Every write schedules its live update for after the commit, never before or on rollback."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from config.api import ApiError
from games import services
from games.live import game_group

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def inbox(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()

    def watch(game_id: int) -> None:
        async_to_sync(layer.group_add)(game_group(game_id), channel)

    @async_to_sync
    async def received() -> list[dict]:
        messages = []
        while True:
            try:
                messages.append(await asyncio.wait_for(layer.receive(channel), 0.05))
            except TimeoutError:
                return messages

    inbox.watch, inbox.received = watch, received
    return inbox


def test_a_move_is_announced_with_its_move_number_after_the_commit(django_user_model, inbox):
    user = django_user_model.objects.create_user("live", password="x")
    game = services.create_game(user=user, variant_slug="gold-mine", seed=3).game
    inbox.watch(game.pk)
    with transaction.atomic():
        services.play_move(user=user, game_id=game.pk, move={"type": "deal"})
        assert inbox.received() == []  # not before the commit
    [message] = inbox.received()
    assert message["type"] == "game.update"
    assert (message["game"]["id"], message["game"]["move_number"]) == (game.pk, 1)
    assert message["game"]["state"]["piles"]["stock"]["cards"] == [None] * 49
    assert message["game"]["legal_moves"]


def test_an_illegal_move_announces_nothing(django_user_model, inbox):
    user = django_user_model.objects.create_user("quiet", password="x")
    game = services.create_game(user=user, variant_slug="gold-mine", seed=3).game
    inbox.watch(game.pk)
    with pytest.raises(ApiError):
        services.play_move(
            user=user, game_id=game.pk, move={"type": "move", "from": "waste", "to": "tableau:0"}
        )
    assert inbox.received() == []


def test_undo_and_resign_are_announced_too(django_user_model, inbox):
    user = django_user_model.objects.create_user("undoer", password="x")
    outcome = services.create_game(user=user, variant_slug="selective-castle", seed=3)
    game = outcome.game
    inbox.watch(game.pk)
    move = outcome.variant.legal_moves(outcome.state)[0].to_json()
    services.play_move(user=user, game_id=game.pk, move=move)
    services.undo_move(user=user, game_id=game.pk)
    services.resign_game(user=user, game_id=game.pk)
    assert [m["game"]["move_number"] for m in inbox.received()] == [1, 2, 3]
