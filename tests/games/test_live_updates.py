"""Every write schedules its live update for after the commit, never before or on rollback."""

from __future__ import annotations

import asyncio
import os
import threading
import time

import pytest
from django.db import transaction

from games.play import selectors as play_selectors
from games.play import services as play_services
from tests.games.helpers import GroupInbox
from web.errors import ServiceError
from web.live.games import game_group

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
    order in which they were sent and the event loop each was sent on."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.gate.set()
        self.sent: list[tuple[str, dict]] = []
        self.loops: set[asyncio.AbstractEventLoop] = set()

    async def group_send(self, group: str, message: dict) -> None:
        self.loops.add(asyncio.get_running_loop())
        await self.gate.wait()
        self.sent.append((group, message))

    def numbers(self) -> list[int]:
        return [message["number"] for _, message in self.sent]


@pytest.fixture
def gated_layer(monkeypatch) -> GatedLayer:
    from web.live import publish

    layer = GatedLayer()
    monkeypatch.setattr(publish, "get_channel_layer", lambda: layer)
    return layer


def publish_numbered(game_id: int, numbers: range) -> None:
    from web.live import publish

    for number in numbers:
        publish.publish(game_group(game_id), {"type": "game.update", "number": number})


def test_in_a_served_request_updates_are_sent_in_order_on_its_loop_before_it_answers(
    gated_layer,
):
    async def serve() -> asyncio.AbstractEventLoop:
        from asgiref.sync import sync_to_async

        # As the handler runs a view: on a thread of its own, the event loop waiting.
        await asyncio.wait_for(sync_to_async(publish_numbered)(7, range(1, 31)), 5)
        assert gated_layer.numbers() == list(range(1, 31))  # all sent before the answer
        return asyncio.get_running_loop()

    serving_loop = asyncio.run(serve())
    assert gated_layer.loops == {serving_loop}


def test_a_background_thread_told_the_servers_loop_sends_on_it(gated_layer):
    from web.live.publish import publish_through

    async def serve() -> asyncio.AbstractEventLoop:
        loop = asyncio.get_running_loop()

        def background() -> None:
            publish_through(loop)
            publish_numbered(8, range(1, 4))

        thread = threading.Thread(target=background)
        thread.start()
        await asyncio.to_thread(thread.join, 5)
        return loop

    serving_loop = asyncio.run(serve())
    assert gated_layer.numbers() == [1, 2, 3]
    assert gated_layer.loops == {serving_loop}


def test_while_redis_hangs_a_request_waits_no_longer_than_the_timeout(
    gated_layer, settings, caplog
):
    settings.LIVE_UPDATE_TIMEOUT_SECONDS = 0.2
    gated_layer.gate.clear()  # Redis answers nothing

    async def serve() -> float:
        from asgiref.sync import sync_to_async

        started = time.monotonic()
        await asyncio.wait_for(sync_to_async(publish_numbered)(9, range(1, 3)), 5)
        return time.monotonic() - started

    waited = asyncio.run(serve())
    # 0.2 s for each of the two updates, then the answer; the upper bound has a wide margin (a
    # loaded machine is slow, not wrong): what matters is that the gate never opened.
    assert 0.4 <= waited < 10
    assert gated_layer.sent == []
    assert caplog.text.count("Live update to game-9 not sent") == 2


class BrokenLayer:
    async def group_send(self, group: str, message: dict) -> None:
        raise ConnectionError("Redis is down")


def test_a_failed_live_update_neither_fails_nor_undoes_the_move(
    django_user_model, monkeypatch, caplog
):
    from web.live import publish

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


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (CI has it)")
def test_updates_sent_in_a_request_reach_listeners_through_redis_in_order(settings):
    from asgiref.sync import sync_to_async
    from channels.layers import get_channel_layer

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [os.environ["REDIS_URL"]], "prefix": "burst-test."},
        }
    }
    layer = get_channel_layer()

    async def serve() -> list[int]:
        listener = await layer.new_channel()
        await layer.group_add(game_group(9), listener)
        await sync_to_async(publish_numbered)(9, range(1, 201))
        received = []
        async with asyncio.timeout(10):
            while len(received) < 200:
                received.append((await layer.receive(listener))["number"])
        await layer.flush()
        return received

    assert asyncio.run(serve()) == list(range(1, 201))
