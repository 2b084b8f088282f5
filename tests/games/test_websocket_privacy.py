"""No websocket message shows a face-down card or the seed of an unfinished random deal.

The REST answers are checked in tests/games/test_privacy.py; here the same checks run on every
message a game's websocket carries, to its player and to a staff watcher, while a random deal of
each game is played through the services to its end: the first ``sync``, each ``update`` (moves,
undos, hints), and the ``catch_up`` or ``sync`` of a reconnect with and without ``?since=``. Each
message is checked against the server's own snapshot at that moment.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Permission
from django.test import Client

from config.asgi import application
from games.models import Game
from games.play import hint_service as play_hints
from games.play import services as play_services
from games.rules import get_variant
from tests.games.helpers import SLUGS
from tests.games.hidden_cards import (
    assert_outside_view_only_face_up,
    assert_text_hides,
    assert_view_hides,
    split_cards,
)
from web.live import games as live

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://testserver")
MAX_MOVES = 60  # the wrapping games can go on for ever: resign after this


def session_headers(user: Any) -> list[tuple[bytes, bytes]]:
    client = Client()
    client.force_login(user)
    return [ORIGIN, (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())]


def assert_message_hides(message: dict[str, Any], game: Game, where: str) -> None:
    """One websocket message against the server's snapshot of its game at that moment."""
    assert message["type"] in {"sync", "update", "catch_up", "answer"}, (where, message)
    if message["type"] == "answer":  # an action's answer on the socket: the game, as REST's
        assert message["status"] < 400, (where, message)
        message = {**message, "game": message.pop("body")}
    view = message["game"]
    assert view["move_number"] == game.move_number, where
    if game.is_finished:
        return  # over: its seed and cards are the player's to see
    text = json.dumps(message, ensure_ascii=False)
    assert_text_hides(text, game.state, game.deal.seed, where)
    outside = {key: value for key, value in message.items() if key != "game"}
    outside["game"] = {key: value for key, value in view.items() if key != "state"}
    assert_outside_view_only_face_up(outside, game.state, where)
    assert_view_hides(view["state"], game.state)
    assert view.get("seed") is None, where


class Table:
    """A game, its player's socket and a staff watcher's socket, every message checked."""

    def __init__(self, player: Any, game_id: int, headers: dict[str, list]) -> None:
        self.player, self.game_id, self.headers = player, game_id, headers
        self.sockets: dict[str, WebsocketCommunicator] = {}
        self.checked = 0

    async def snapshot(self) -> Game:
        return await database_sync_to_async(
            Game.objects.select_related("deal").get, thread_sensitive=True
        )(pk=self.game_id)

    async def open(self, who: str, since: int | None = None) -> None:
        path = f"/ws/games/{self.game_id}/" + ("" if since is None else f"?since={since}")
        socket = WebsocketCommunicator(application, path, headers=self.headers[who])
        connected, code = await socket.connect(timeout=5)
        assert connected, (who, code)
        self.sockets[who] = socket
        await self.receive(who, f"{who} connects since {since}")

    async def reopen(self, who: str, since: int | None) -> None:
        await self.sockets.pop(who).disconnect()
        await self.open(who, since)

    async def receive(self, who: str, where: str) -> dict[str, Any]:
        message = await self.sockets[who].receive_json_from(timeout=5)
        assert_message_hides(message, await self.snapshot(), f"{who}: {where}")
        self.checked += 1
        return message

    async def everyone_receives(self, where: str) -> dict[str, Any]:
        messages = [await self.receive(who, where) for who in list(self.sockets)]
        return messages[0]

    async def close(self) -> None:
        for socket in self.sockets.values():
            assert await socket.receive_nothing(timeout=0.05)  # nothing left unchecked
            await socket.disconnect()


async def through_the_services(table: Table, kind: str, where: str, **body: Any) -> dict:
    """An action made through the services (as a REST call makes it); its update, checked on
    every socket."""
    call = {
        "move": play_services.play_move,
        "undo": play_services.undo_move,
        "resign": play_services.resign_game,
    }[kind]
    await database_sync_to_async(call, thread_sensitive=True)(
        user=table.player, game_id=table.game_id, **body
    )
    return await table.everyone_receives(where)


async def over_the_socket(table: Table, kind: str, where: str, **body: Any) -> dict:
    """An action sent on the player's socket, as the page sends it: its answer comes to that
    socket (the update of that version is not sent to it again), the update to the staff
    watcher's; each checked."""
    await table.sockets["player"].send_json_to({"type": kind, "request_id": where, **body})
    answer = await table.receive("player", f"{where} (over the socket)")
    assert answer["type"] == "answer", answer  # and no update follows it: Table.close checks
    return await table.receive("staff", where)


async def play_to_the_end(
    table: Table, slug: str, rng: random.Random, over_socket: bool = False
) -> dict[str, Any]:
    variant = get_variant(slug)
    action = over_the_socket if over_socket else through_the_services
    hint = database_sync_to_async(play_hints.request_hint, thread_sensitive=True)
    await table.open("player")
    await table.open("staff")
    view: dict[str, Any] = {}
    for turn in range(MAX_MOVES):
        game = await table.snapshot()
        if game.is_finished or game.dead_end:
            break
        state = variant.state_from_json(game.state)
        move = rng.choice(variant.legal_moves(state)).to_json()
        view = await action(table, "move", f"move {turn + 1}: {move}", move=move)
        if view["game"]["status"] != "playing" or view["game"]["dead_end"]:
            break
        if turn % 9 == 4:
            given = await hint(user=table.player, game_id=table.game_id)
            if given.move is not None:  # a hint with no move is not counted: nothing is sent
                await table.everyone_receives(f"hint after move {turn + 1}")
        if turn % 7 == 5 and view["game"]["can_undo"]:
            await action(table, "undo", f"undo after move {turn + 1}")
        if turn % 10 == 7:
            number = view["game"]["move_number"]
            await table.reopen("player", rng.randrange(number + 1))  # catch-up
            await table.reopen("staff", None)  # a fresh sync
    game = await table.snapshot()
    if not game.is_finished:
        view = await action(table, "resign", "resigned")
    await table.close()
    return view


def set_table(django_user_model: Any, slug: str, seed: int) -> Table:
    player = django_user_model.objects.create_user(f"p-{slug}", password="x")
    staff = django_user_model.objects.create_user(f"s-{slug}", password="x", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_game"))
    # A server-chosen ("random") deal, as a player gets it: the seed stays hidden until the end.
    game = play_services.start_game(
        player, get_variant(slug), play_services.deal_of(slug, seed), seed_chosen=False
    ).game
    headers = {"player": session_headers(player), "staff": session_headers(staff)}
    return Table(player, game.pk, headers)


@pytest.mark.parametrize("over_socket", [False, True], ids=["services", "socket-actions"])
@pytest.mark.parametrize("slug", SLUGS)
def test_no_websocket_message_shows_a_face_down_card_or_the_seed(
    slug: str, over_socket: bool, django_user_model: Any
) -> None:
    """``socket-actions``: the player's moves, undos and resignation sent on the socket, their
    answers checked as every other message."""
    rng = random.Random(f"ws-privacy-{slug}")
    seed = rng.randrange(10**9)
    table = set_table(django_user_model, slug, seed)
    try:
        last = async_to_sync(play_to_the_end)(table, slug, rng, over_socket)
    except AssertionError as failure:
        failure.add_note(f"{slug}: deal {seed} (random.Random('ws-privacy-{slug}') picks it)")
        raise
    assert last["game"]["status"] != "playing"
    assert table.checked >= 20


def test_the_websocket_check_catches_a_face_down_card_in_an_update(
    django_user_model: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check above is not vacuous: an update that carries one face-down card fails it."""
    slug = "grounds-for-divorce"
    table = set_table(django_user_model, slug, 730_214_659)  # long: no other number matches it
    real_schedule = live.schedule_game_update

    def leaking(game: Game, body: Any) -> None:
        def with_a_hidden_card() -> dict[str, Any]:
            down, up = split_cards(game.state)
            hidden = next(code for code in down if not up[code])
            return {**body(), "message": f"next up: {hidden}"}

        real_schedule(game, with_a_hidden_card)

    monkeypatch.setattr(live, "schedule_game_update", leaking)
    with pytest.raises(AssertionError, match="face-down cards"):
        async_to_sync(play_to_the_end)(table, slug, random.Random(1))
