"""Every write schedules its live update for after the commit, never before or on rollback."""

from __future__ import annotations

import asyncio
import os

import pytest
from django.db import transaction

from accounts.errors import ServiceError
from games.live import game_group
from games.play import selectors as play_selectors
from games.play import services as play_services
from tests.games.helpers import GroupInbox

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def inbox(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    messages = GroupInbox()
    inbox.watch = lambda game_id: messages.join(game_group(game_id))
    inbox.received = messages.received
    return inbox


def test_a_move_is_announced_with_its_move_number_after_the_commit(django_user_model, inbox):
    user = django_user_model.objects.create_user("live", password="x")
    game = play_services.create_game(user=user, variant_slug="gold-mine", seed=3).game
    inbox.watch(game.pk)
    with transaction.atomic():
        play_services.play_move(user=user, game_id=game.pk, move={"type": "deal"})
        assert inbox.received() == []  # not before the commit
    [message] = inbox.received()
    assert message["type"] == "game.update"
    assert (message["game"]["id"], message["game"]["move_number"]) == (game.pk, 1)
    assert message["game"]["state"]["piles"]["stock"]["cards"] == [None] * 49
    assert message["game"]["legal_moves"]


def test_an_illegal_move_announces_nothing(django_user_model, inbox):
    user = django_user_model.objects.create_user("quiet", password="x")
    game = play_services.create_game(user=user, variant_slug="gold-mine", seed=3).game
    inbox.watch(game.pk)
    with pytest.raises(ServiceError):
        play_services.play_move(
            user=user, game_id=game.pk, move={"type": "move", "from": "waste", "to": "tableau:0"}
        )
    assert inbox.received() == []


def test_undo_and_resign_are_announced_too(django_user_model, inbox):
    user = django_user_model.objects.create_user("undoer", password="x")
    outcome = play_services.create_game(user=user, variant_slug="selective-castle", seed=3)
    game = outcome.game
    inbox.watch(game.pk)
    move = outcome.variant.legal_moves(outcome.state)[0].to_json()
    play_services.play_move(user=user, game_id=game.pk, move=move)
    play_services.undo_move(user=user, game_id=game.pk)
    play_services.resign_game(user=user, game_id=game.pk)
    assert [m["game"]["move_number"] for m in inbox.received()] == [1, 2, 3]


class GatedLayer:
    """A channel layer that holds every group message until ``gate`` opens, recording the
    order in which they were handed to it."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.sent: list[tuple[str, dict]] = []

    async def group_send(self, group: str, message: dict) -> None:
        await self.gate.wait()
        self.sent.append((group, message))

    async def open_and_wait_for(self, count: int) -> None:
        self.gate.set()
        for _ in range(100):
            if len(self.sent) == count:
                return
            await asyncio.sleep(0.01)

    def numbers(self) -> list[int]:
        return [message["number"] for _, message in self.sent]


@pytest.fixture
def gated_layer(monkeypatch) -> GatedLayer:
    from web import publish

    layer = GatedLayer()
    monkeypatch.setattr(publish, "get_channel_layer", lambda: layer)
    return layer


async def publish_in_a_request(game_id: int, numbers: range) -> None:
    """Updates numbered ``numbers`` sent as a served request sends them: from its thread,
    with the event loop serving it known."""
    from asgiref.sync import sync_to_async

    from web import publish
    from web.handlers import request_loop

    def request_thread() -> None:
        for number in numbers:
            publish.publish(game_group(game_id), {"type": "game.update", "number": number})

    request_loop.set(asyncio.get_running_loop())
    await asyncio.wait_for(sync_to_async(request_thread)(), 5)


def test_in_a_served_request_updates_leave_in_order_without_the_request_waiting(gated_layer):
    async def serve() -> None:
        # Returns although no message could be sent yet: the request does not wait for Redis.
        await publish_in_a_request(7, range(1, 31))
        assert gated_layer.sent == []
        await gated_layer.open_and_wait_for(30)

    asyncio.run(serve())
    assert gated_layer.numbers() == list(range(1, 31))


class BrokenLayer:
    async def group_send(self, group: str, message: dict) -> None:
        raise ConnectionError("Redis is down")


def test_a_failed_live_update_neither_fails_nor_undoes_the_move(
    django_user_model, monkeypatch, caplog
):
    from web import publish

    monkeypatch.setattr(publish, "get_channel_layer", BrokenLayer)
    user = django_user_model.objects.create_user("unheard", password="x")
    game = play_services.create_game(user=user, variant_slug="gold-mine", seed=3).game

    outcome = play_services.play_move(user=user, game_id=game.pk, move={"type": "deal"})

    assert outcome.game.move_number == 1
    game.refresh_from_db()
    assert (game.move_number, game.moves.count()) == (1, 1)
    assert "Redis is down" in caplog.text


def test_a_move_builds_its_representation_once_for_the_answer_and_the_update(
    django_user_model, inbox, monkeypatch
):

    built = []
    original = play_selectors.game_representation
    monkeypatch.setattr(
        play_selectors, "game_representation", lambda *a, **k: built.append(1) or original(*a, **k)
    )
    user = django_user_model.objects.create_user("once", password="x")
    game = play_services.create_game(user=user, variant_slug="gold-mine", seed=3).game
    inbox.watch(game.pk)
    built.clear()

    outcome = play_services.play_move(user=user, game_id=game.pk, move={"type": "deal"})
    answer = outcome.representation_with_events()

    [message] = inbox.received()
    assert message["game"] == answer
    assert answer["events"] == outcome.events
    assert built == [1]


def test_while_redis_hangs_updates_wait_up_to_a_limit_then_the_oldest_go(
    gated_layer, monkeypatch, caplog
):
    from web import publish

    monkeypatch.setattr(publish, "MAX_WAITING", 10)

    async def serve() -> None:
        await publish_in_a_request(8, range(1, 2))
        await asyncio.sleep(0.05)  # the first is on its way, and Redis hangs
        await publish_in_a_request(8, range(2, 26))
        await asyncio.sleep(0.05)  # the callbacks that enqueue them have run
        await gated_layer.open_and_wait_for(11)

    asyncio.run(serve())
    # The first was already on its way when Redis hung; of the 24 behind it the newest 10 stay.
    assert gated_layer.numbers() == [1, *range(16, 26)]
    assert "dropping the oldest" in caplog.text
    assert "14 were dropped" in caplog.text


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (CI has it)")
def test_a_burst_of_updates_goes_to_redis_together_in_order_and_reaches_its_listeners(
    settings, monkeypatch
):
    from channels.layers import get_channel_layer
    from redis.asyncio.client import Pipeline

    from web import publish

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [os.environ["REDIS_URL"]], "prefix": "burst-test."},
        }
    }
    layer = get_channel_layer()
    round_trips = []
    execute = Pipeline.execute

    async def counted(pipeline, *args, **kwargs):
        round_trips.append(len(pipeline.command_stack))
        return await execute(pipeline, *args, **kwargs)

    monkeypatch.setattr(Pipeline, "execute", counted)

    async def serve() -> list[int]:
        listener = await layer.new_channel()
        await layer.group_add(game_group(9), listener)
        await publish_in_a_request(9, range(1, 201))
        received = []
        async with asyncio.timeout(10):
            while len(received) < 200:
                received.append((await layer.receive(listener))["number"])
        await layer.flush()
        return received

    assert asyncio.run(serve()) == list(range(1, 201))
    assert sum(round_trips) == 200 and len(round_trips) < 20
    assert max(round_trips) <= publish.MAX_BATCH
