"""Moves, undo, resign and end sent on the game's websocket: the same service and the same
``Idempotency-Key`` wrapper as REST, so the same answers and refusals, a key applied once
whichever way it came, the same one live update for the other watchers.

Each refusal is made twice, over REST on one game and over the socket on a twin of it (same
deal, same moves), and the two answers (status and body) must be equal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from games.models import Game, IdempotencyRecord
from games.play import services as play_services
from tests.games.helpers import DAY, DailyClock, client_for, daily_game, losing_line, make_user

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://testserver")
ILLEGAL = {"type": "move", "from": "foundation:0", "to": "tableau:0", "count": 1}
REST_PATH = {"move": "moves", "undo": "undo", "resign": "resign", "end": "end"}


def session_headers(user: Any) -> list[tuple[bytes, bytes]]:
    client = Client()
    client.force_login(user)
    return [ORIGIN, (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())]


class Socket:
    """A game's websocket as the page holds it: actions sent with a request id, their answers
    matched by it, the live updates kept apart."""

    def __init__(self, user: Any, game_id: int) -> None:
        self.user, self.game_id = user, game_id
        self.updates: list[dict[str, Any]] = []
        self.sent = 0

    async def open(self) -> dict[str, Any]:
        headers = await sync_to_async(session_headers)(self.user)
        self.ws = WebsocketCommunicator(application, f"/ws/games/{self.game_id}/", headers=headers)
        connected, code = await self.ws.connect(timeout=5)
        assert connected, code
        return await self.ws.receive_json_from(timeout=5)

    async def act(self, kind: str, body: dict[str, Any], key: str | None = None) -> tuple[int, Any]:
        self.sent += 1
        request_id = f"r{self.sent}"
        message = {"type": kind, "request_id": request_id, **body}
        if key is not None:
            message["idempotency_key"] = key
        await self.ws.send_json_to(message)
        while True:
            received = await self.ws.receive_json_from(timeout=10)
            if received["type"] == "update":
                self.updates.append(received)
                continue
            assert received["type"] == "answer", received
            assert received["request_id"] == request_id
            return received["status"], received["body"]

    async def drain(self) -> None:
        """Wait for the updates still on their way (the answer can come first)."""
        while not await self.ws.receive_nothing(timeout=0.2):
            self.updates.append(await self.ws.receive_json_from(timeout=1))

    async def close(self) -> None:
        await self.ws.disconnect()


def rest(client: Any, game_id: int, kind: str, body: dict[str, Any], key: str | None = None):
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    url = f"/api/games/{game_id}/{REST_PATH[kind]}/"
    response = client.post(url, body, format="json", **headers)
    return response.status_code, response.json()


def twins(slug: str = "gold-mine", seed: int = 7, moves: int = 2) -> tuple[Any, Game, Game]:
    """A player and two games of the same deal with the same first moves."""
    user = make_user()
    games = []
    for _ in range(2):
        outcome = play_services.create_game(user=user, variant_slug=slug, seed=seed)
        for _ in range(moves):
            outcome = play_services.play_move(
                user=user, game_id=outcome.game.pk, move=legal(outcome)[0]
            )
        games.append(outcome.game)
    return user, games[0], games[1]


def legal(outcome: Any) -> list[dict[str, Any]]:
    return [move.to_json() for move in outcome.variant.legal_moves(outcome.state)]


def versions(*games: Game) -> list[tuple[int, str]]:
    return [
        tuple(Game.objects.filter(pk=g.pk).values_list("move_number", "status")[0]) for g in games
    ]


def over_both(
    user: Any, over_rest: Game, over_socket: Game, kind: str, body: Callable[[Game], dict], **kw
) -> tuple[tuple[int, Any], tuple[int, Any]]:
    """The answer of the same request over REST (on one game) and over the socket (its twin)."""
    rest_answer = rest(client_for(user), over_rest.pk, kind, body(over_rest), **kw)

    @async_to_sync
    async def on_the_socket() -> tuple[int, Any]:
        socket = Socket(user, over_socket.pk)
        await socket.open()
        try:
            return await socket.act(kind, body(over_socket), **kw)
        finally:
            await socket.close()

    return rest_answer, on_the_socket()


def same_refusal(
    user: Any, a: Game, b: Game, kind: str, body: dict | Callable[[Game], dict], code: str, **kw
) -> dict[str, Any]:
    before = versions(a, b)
    rest_answer, socket_answer = over_both(
        user, a, b, kind, body if callable(body) else (lambda game: body), **kw
    )
    assert rest_answer == socket_answer
    status, answer = socket_answer
    assert status >= 400 and answer["error"]["code"] == code, socket_answer
    assert versions(a, b) == before, "a refusal changes nothing"
    return answer


# -- every refusal, over both ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "body", "code"),
    [
        ("move", {"move": ILLEGAL}, None),  # the engine's code
        ("move", {"move": {"type": "jump"}}, None),
        ("move", {}, "invalid"),
        ("move", {"move": {"type": "deal"}, "colour": "red"}, "unknown_field"),
        ("move", {"move": {"type": "deal"}, "expected_move_number": -1}, "invalid"),
        ("move", {"move": {"type": "deal"}, "expected_move_number": "two"}, "invalid"),
        ("move", {"move": {"type": "deal"}, "away_ms": 1.5}, "invalid"),
        ("move", {"move": {"type": "deal"}, "expected_move_number": 99}, "stale_move_number"),
        ("undo", {"expected_move_number": 0}, "stale_move_number"),
        ("undo", {"away_ms": "x"}, "invalid"),
        ("resign", {"expected_move_number": 5}, "stale_move_number"),
        ("resign", {"reason": "bored"}, "unknown_field"),
        ("end", {}, "not_at_dead_end"),
    ],
)
def test_a_refusal_is_the_same_over_rest_and_over_the_socket(kind, body, code) -> None:
    user, a, b = twins()
    if code is not None:
        answer = same_refusal(user, a, b, kind, body, code)
    else:  # an illegal move: the engine's own code
        before = versions(a, b)
        rest_answer, socket_answer = over_both(user, a, b, kind, lambda game: body)
        assert rest_answer == socket_answer and socket_answer[0] == 400
        assert versions(a, b) == before
        answer = socket_answer[1]
    assert answer["error"]["message"]


def test_an_action_on_a_finished_game_is_refused_alike() -> None:
    user, a, b = twins()
    for game in (a, b):
        play_services.resign_game(user=user, game_id=game.pk)
    for kind, body in [("move", {"move": {"type": "deal"}}), ("resign", {}), ("end", {})]:
        same_refusal(user, a, b, kind, body, "game_finished")
    same_refusal(user, a, b, "undo", {}, "game_finished")


def test_an_undo_with_nothing_to_take_back_is_refused_alike() -> None:
    user, a, b = twins(moves=0)
    same_refusal(user, a, b, "undo", {}, "nothing_to_undo")


def test_anyone_elses_game_is_not_found_alike() -> None:
    _, a, b = twins()
    stranger = make_user()
    rest_answer = rest(client_for(stranger), a.pk, "move", {"move": {"type": "deal"}})

    @async_to_sync
    async def staff_socket() -> tuple[int, Any]:
        # A stranger cannot open the socket at all (4404); staff who may watch can, and their
        # moves are refused as anyone's but the player's.
        from django.contrib.auth.models import Permission

        staff = await sync_to_async(make_user)()
        staff.is_staff = True
        await sync_to_async(staff.save)()
        permission = await sync_to_async(Permission.objects.get)(codename="view_game")
        await sync_to_async(staff.user_permissions.add)(permission)
        socket = Socket(staff, b.pk)
        assert (await socket.open())["type"] == "sync"
        try:
            return await socket.act("move", {"move": {"type": "deal"}})
        finally:
            await socket.close()

    before = versions(a, b)
    assert staff_socket() == rest_answer
    assert rest_answer[0] == 404 and rest_answer[1]["error"]["code"] == "not_found"
    assert versions(a, b) == before


def test_ranked_refusals_are_the_same_over_both(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = DailyClock(monkeypatch, DAY)
    user = make_user()
    # The player's attempts at two of the day's challenges: the same refusals, word for word.
    a = daily_game(user, DAY, "gold-mine")
    b = daily_game(user, DAY, "grandfathers-clock")
    same_refusal(user, a, b, "undo", {}, "undo_not_allowed")
    clock.advance(1)
    # The day has closed: the attempt is closed there and then, and the refusal says so.
    rest_answer, socket_answer = over_both(
        user, a, b, "move", lambda game: {"move": {"type": "deal"}}
    )
    assert rest_answer == socket_answer
    assert socket_answer[0] == 409 and socket_answer[1]["error"]["code"] == "challenge_closed"
    assert socket_answer[1]["error"]["status"] == "closed"
    assert [status for _, status in versions(a, b)] == ["closed", "closed"]


def test_bad_idempotency_keys_are_refused_alike() -> None:
    user, a, b = twins()
    same_refusal(
        user, a, b, "move", {"move": {"type": "deal"}}, "invalid_idempotency_key", key="k" * 101
    )
    same_refusal(user, a, b, "move", {"move": {"type": "deal"}}, "invalid_idempotency_key", key="")
    # A key used for one request, then for another.
    for game in (a, b):
        rest(client_for(user), game.pk, "move", {"move": {"type": "deal"}}, key=f"once-{game.pk}")
    for game in (a, b):
        status, answer = rest(client_for(user), game.pk, "undo", {}, key=f"once-{game.pk}")
        assert (status, answer["error"]["code"]) == (422, "idempotency_key_reused")

    @async_to_sync
    async def reused() -> tuple[int, Any]:
        socket = Socket(user, b.pk)
        await socket.open()
        try:
            return await socket.act("undo", {}, key=f"once-{b.pk}")
        finally:
            await socket.close()

    assert reused() == (status, answer)


# -- answers, keys and live updates -------------------------------------------------------------


def test_a_move_over_the_socket_answers_as_rest_and_updates_the_other_watchers_once() -> None:
    user, a, b = twins(moves=0)
    rest_status, rest_body = rest(client_for(user), a.pk, "move", {"move": {"type": "deal"}})

    @async_to_sync
    async def scenario() -> tuple[tuple[int, Any], list, list]:
        mover, other_tab = Socket(user, b.pk), Socket(user, b.pk)
        await mover.open()
        await other_tab.open()
        answer = await mover.act("move", {"move": {"type": "deal"}, "expected_move_number": 0})
        await mover.drain()
        await other_tab.drain()
        await mover.close()
        await other_tab.close()
        return answer, mover.updates, other_tab.updates

    (status, body), mover_updates, other_updates = scenario()
    assert status == rest_status == 201
    assert strip_times(body) == strip_times({**rest_body, "id": b.pk})
    assert body["move_number"] == 1 and "events" in body
    # One live update, the answer's game, to every other watcher (the player's other tab);
    # the mover's socket has it as its answer, and is not sent it again.
    assert [u["game"]["move_number"] for u in other_updates] == [1]
    assert mover_updates == []
    assert other_updates[0]["game"] == body


def strip_times(game: dict[str, Any]) -> dict[str, Any]:
    """A game's representation less what differs between two games played a moment apart."""
    differ = {"id", "created_at", "clock", "last_move_at", "time_seconds"}
    return {k: v for k, v in game.items() if k not in differ}


def test_a_key_retried_over_the_socket_is_applied_once() -> None:
    user, _, game = twins(moves=0)

    @async_to_sync
    async def scenario() -> list[tuple[int, Any]]:
        socket = Socket(user, game.pk)
        await socket.open()
        answers = [
            await socket.act("move", {"move": {"type": "deal"}}, key="s-1") for _ in range(2)
        ]
        # On another connection (the page reloaded) too.
        await socket.close()
        again = Socket(user, game.pk)
        await again.open()
        answers.append(await again.act("move", {"move": {"type": "deal"}}, key="s-1"))
        await again.close()
        return answers

    answers = scenario()
    assert answers[0][0] == 201
    assert answers[0] == answers[1] == answers[2]
    assert versions(game) == [(1, "playing")]
    assert IdempotencyRecord.objects.filter(user=user, key="s-1").count() == 1


def test_a_key_retried_over_rest_is_applied_once() -> None:
    user, _, game = twins(moves=0)
    client = client_for(user)
    first = rest(client, game.pk, "move", {"move": {"type": "deal"}}, key="r-1")
    second = rest(client, game.pk, "move", {"move": {"type": "deal"}}, key="r-1")
    assert first == second and first[0] == 201
    assert versions(game) == [(1, "playing")]


@pytest.mark.parametrize("first_over", ["rest", "socket"])
def test_a_move_sent_one_way_and_retried_the_other_with_its_key_is_applied_once(first_over) -> None:
    user, _, game = twins(moves=0)
    body = {"move": {"type": "deal"}, "expected_move_number": 0, "away_ms": 0}
    answers = []
    if first_over == "rest":
        answers.append(rest(client_for(user), game.pk, "move", body, key="both-ways"))

    @async_to_sync
    async def over_the_socket() -> tuple[int, Any]:
        socket = Socket(user, game.pk)
        await socket.open()
        try:
            return await socket.act("move", dict(reversed(list(body.items()))), key="both-ways")
        finally:
            await socket.close()

    answers.append(over_the_socket())
    if first_over == "socket":
        answers.append(rest(client_for(user), game.pk, "move", body, key="both-ways"))
    assert answers[0][0] == 201
    assert answers[0] == answers[1]
    assert versions(game) == [(1, "playing")]


def test_a_retried_refusal_over_the_socket_is_refused_the_same_way() -> None:
    user, _, game = twins()

    @async_to_sync
    async def scenario() -> list[tuple[int, Any]]:
        socket = Socket(user, game.pk)
        await socket.open()
        answers = [await socket.act("move", {"move": ILLEGAL}, key="bad") for _ in range(2)]
        await socket.close()
        return answers

    first, second = scenario()
    assert first == second and first[0] == 400
    assert rest(client_for(user), game.pk, "move", {"move": ILLEGAL}, key="bad") == first


def test_undo_resign_and_end_over_the_socket() -> None:
    slug = "gold-mine"
    seed, line = losing_line(slug)
    user = make_user()
    game = play_services.create_game(user=user, variant_slug=slug, seed=seed).game

    @async_to_sync
    async def scenario() -> list[tuple[int, Any]]:
        socket = Socket(user, game.pk)
        await socket.open()
        answers = [await socket.act("move", {"move": move}) for move in line]
        answers.append(await socket.act("undo", {}))
        answers.append(await socket.act("move", {"move": line[-1]}))
        answers.append(await socket.act("end", {}))
        answers.append(await socket.act("resign", {}))
        await socket.close()
        return answers

    answers = scenario()
    assert all(status == 201 for status, _ in answers[: len(line)])
    assert answers[len(line) - 1][1]["dead_end"] is True
    undone, moved_again, ended, resigned = answers[len(line) :]
    assert undone[0] == 200 and undone[1]["dead_end"] is False
    assert moved_again[0] == 201 and moved_again[1]["dead_end"] is True
    assert ended[0] == 200 and ended[1]["status"] == "lost"
    assert resigned[0] == 409 and resigned[1]["error"]["code"] == "game_finished"


# -- limits --------------------------------------------------------------------------------------


def test_actions_past_the_connections_limit_are_refused_and_the_socket_kept(settings) -> None:
    settings.WEBSOCKET_ACTION_LIMIT = 3
    user, _, game = twins(slug="grandfathers-clock", moves=0)

    @async_to_sync
    async def scenario() -> list[tuple[int, Any]]:
        socket = Socket(user, game.pk)
        sync = await socket.open()
        moves = sync["game"]["legal_moves"]
        answers = []
        for _ in range(4):
            answers.append(await socket.act("undo", {}))
        # Pings are not actions: the connection still answers them.
        await socket.ws.send_json_to({"type": "ping"})
        assert await socket.ws.receive_json_from(timeout=5) == {"type": "pong"}
        answers.append(await socket.act("move", {"move": moves[0]}))
        await socket.close()
        return answers

    answers = scenario()
    assert [status for status, _ in answers[:3]] == [409, 409, 409]  # nothing to undo, counted
    for status, body in answers[3:]:
        assert status == 429 and body["error"]["code"] == "throttled"
        assert "Nothing was done" in body["error"]["message"]
    assert versions(game) == [(0, "playing")]


def test_the_per_account_connection_cap_bounds_a_players_sockets(settings) -> None:
    """A player's moves over sockets are bounded by the connections an account may hold (times
    each connection's limit): one socket more than the cap is refused, as for watching."""
    settings.WEBSOCKET_CONNECTIONS_PER_ACCOUNT = 1
    user, _, game = twins(moves=0)

    @async_to_sync
    async def scenario() -> Any:
        first = Socket(user, game.pk)
        await first.open()
        second = Socket(user, game.pk)
        headers = await sync_to_async(session_headers)(user)
        second.ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
        await second.ws.connect(timeout=5)
        refused = await second.ws.receive_json_from(timeout=5)
        closed = await second.ws.receive_output(timeout=5)
        status, _ = await first.act("move", {"move": {"type": "deal"}})
        await first.close()
        return refused, closed, status

    refused, closed, status = scenario()
    assert refused["code"] == "too_many_connections" and closed["code"] == 4430
    assert status == 201


def test_a_message_that_is_not_an_action_is_not_answered_as_one() -> None:
    user, _, game = twins(moves=0)

    @async_to_sync
    async def scenario() -> bool:
        socket = Socket(user, game.pk)
        await socket.open()
        await socket.ws.send_json_to({"type": "teleport", "request_id": "x"})
        quiet = await socket.ws.receive_nothing(timeout=0.3)
        await socket.close()
        return quiet

    assert scenario()
    assert versions(game) == [(0, "playing")]
