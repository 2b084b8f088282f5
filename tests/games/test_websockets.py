"""The websockets, through the whole ASGI stack (origin check, session or token sign-in).

In CI the channel layer is Redis (REDIS_URL), so these run against it; locally, in memory.
"""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Permission
from rest_framework.authtoken.models import Token

from config.asgi import application
from games import consumers
from games.core import days
from games.daily import challenges
from games.daily import services as daily_services
from games.play import hint_service as play_hints
from games.play import services as play_services
from tests.support.websockets import ORIGIN, connect, session_headers

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("watcher", password="x")


@pytest.fixture
def castle(player):
    return play_services.create_game(user=player, variant_slug="selective-castle", seed=21)


def move_of(outcome, index: int = 0) -> dict:
    return outcome.variant.legal_moves(outcome.state)[index].to_json()


play = database_sync_to_async(play_services.play_move)


def test_the_player_gets_the_game_then_every_new_version(player, castle):
    headers = session_headers(player)

    @async_to_sync
    async def scenario():
        ws, sync = await connect(f"/ws/games/{castle.game.pk}/", headers)
        assert sync["type"] == "sync" and sync["game"]["move_number"] == 0
        assert sync["game"]["legal_moves"]
        await play(user=player, game_id=castle.game.pk, move=move_of(castle))
        update = await ws.receive_json_from(timeout=5)
        assert update["type"] == "update"
        assert update["game"]["move_number"] == 1
        assert "events" in update["game"] and update["game"]["state"]["move_number"] == 1
        await ws.disconnect()

    scenario()


def test_a_hint_reaches_the_other_tabs_as_the_same_version_with_its_count(player, castle):
    headers = session_headers(player)
    hint = database_sync_to_async(play_hints.request_hint)

    @async_to_sync
    async def scenario():
        ws, sync = await connect(f"/ws/games/{castle.game.pk}/", headers)
        assert sync["game"]["counts"]["hints"] == 0
        await hint(user=player, game_id=castle.game.pk)
        update = await ws.receive_json_from(timeout=5)
        assert update["type"] == "update"
        assert update["game"]["move_number"] == 0
        assert update["game"]["counts"]["hints"] == 1
        assert update["game"]["events"] == [{"type": "hinted"}]
        assert update["game"]["state"] == sync["game"]["state"]
        await ws.disconnect()

    scenario()


def test_a_client_that_missed_versions_gets_them_on_reconnect(player, castle):
    outcome = castle
    for _ in range(3):
        outcome = play_services.play_move(
            user=player, game_id=castle.game.pk, move=move_of(outcome)
        )

    headers = session_headers(player)

    @async_to_sync
    async def scenario():
        ws, catch_up = await connect(f"/ws/games/{castle.game.pk}/?since=1", headers)
        assert catch_up["type"] == "catch_up" and catch_up["since"] == 1
        assert [entry["number"] for entry in catch_up["missed"]] == [2, 3]
        assert catch_up["game"]["move_number"] == 3
        await ws.disconnect()

    scenario()


def test_a_client_too_far_behind_gets_a_full_resync(player, castle, settings):
    settings.WEBSOCKET_CATCH_UP_LIMIT = 1
    outcome = castle
    for _ in range(3):
        outcome = play_services.play_move(
            user=player, game_id=castle.game.pk, move=move_of(outcome)
        )
    headers = session_headers(player)

    @async_to_sync
    async def scenario():
        ws, message = await connect(f"/ws/games/{castle.game.pk}/?since=0", headers)
        assert message["type"] == "sync" and message["game"]["move_number"] == 3
        await ws.disconnect()

    scenario()


def test_no_hidden_card_reaches_the_game_socket(player):
    outcome = play_services.create_game(user=player, variant_slug="grounds-for-divorce")
    headers = session_headers(player)

    @async_to_sync
    async def scenario():
        ws, sync = await connect(f"/ws/games/{outcome.game.pk}/", headers)
        assert sync["game"]["seed"] is None
        assert set(sync["game"]["state"]["piles"]["stock"]["cards"]) == {None}
        assert sync["game"]["state"]["piles"]["tableau:0"]["cards"][:4] == [None] * 4
        await ws.disconnect()

    scenario()


def test_only_the_owner_and_staff_who_review_games_may_watch_a_game(
    django_user_model, player, castle
):
    stranger = django_user_model.objects.create_user("stranger", password="x")
    staff = django_user_model.objects.create_user("referee", password="x", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_game"))
    bare_staff = django_user_model.objects.create_user("helpdesk", password="x", is_staff=True)
    stranger_headers, staff_headers = session_headers(stranger), session_headers(staff)
    bare_staff_headers = session_headers(bare_staff)

    @async_to_sync
    async def scenario():
        path = f"/ws/games/{castle.game.pk}/"
        _, refused = await connect(path, stranger_headers)
        assert refused == 4404
        _, refused = await connect(path, [ORIGIN])
        assert refused == 4401
        _, refused = await connect(path, bare_staff_headers)
        assert refused == 4404
        ws, first = await connect(path, staff_headers)
        assert first["type"] == "sync"
        await ws.disconnect()

    scenario()


def test_scripts_sign_in_with_a_token_header_never_in_the_url(player, castle):
    """A key in the URL would be written to access logs (tests/accounts/
    test_websocket_token_in_url.py): it is refused at the handshake."""
    key = Token.objects.create(user=player).key

    @async_to_sync
    async def scenario():
        path = f"/ws/games/{castle.game.pk}/"
        ws, first = await connect(path, [ORIGIN, (b"authorization", f"Token {key}".encode())])
        assert first["type"] == "sync"
        await ws.disconnect()
        _, refused = await connect(f"{path}?token={key}", [ORIGIN])
        assert refused == 4400
        _, refused = await connect(path, [ORIGIN, (b"authorization", b"Token wrong")])
        assert refused == 4401

    scenario()


def test_a_connection_from_another_site_is_refused(player, castle):
    headers = [(b"origin", b"https://evil.example"), *session_headers(player)[1:]]

    @async_to_sync
    async def scenario():
        communicator = WebsocketCommunicator(application, f"/ws/games/{castle.game.pk}/", headers)
        connected, _ = await communicator.connect(timeout=5)
        assert not connected, "refused at the handshake"

    scenario()


@pytest.mark.parametrize(
    ("origin", "scheme", "accepted"),
    [
        (b"http://testserver", "ws", True),
        (b"https://testserver", "wss", True),  # behind the TLS proxy
        (b"http://testserver:8001", "ws", False),  # another service on the same host
        (b"https://testserver", "ws", False),
        (b"http://testserver", "wss", False),  # a plain-HTTP page, the site on HTTPS
        (b"http://testserver.evil.example", "ws", False),
        (b"null", "ws", False),
    ],
)
def test_only_the_sites_own_pages_may_open_its_websockets(player, castle, origin, scheme, accepted):
    headers = [(b"origin", origin), (b"host", b"testserver"), *session_headers(player)[1:]]

    @async_to_sync
    async def scenario():
        communicator = WebsocketCommunicator(application, f"/ws/games/{castle.game.pk}/", headers)
        communicator.scope["scheme"] = scheme
        connected, _ = await communicator.connect(timeout=5)
        assert connected is accepted
        await communicator.disconnect()

    scenario()


def test_an_origin_in_csrf_trusted_origins_may_open_websockets(player, castle, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.testserver"]
    headers = [(b"origin", b"https://play.testserver"), (b"host", b"testserver")]
    headers += session_headers(player)[1:]
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "play.testserver"]

    @async_to_sync
    async def scenario():
        ws, first = await connect(f"/ws/games/{castle.game.pk}/", headers)
        assert first["type"] == "sync"
        await ws.disconnect()

    scenario()


@pytest.mark.parametrize(
    "path", ["/ws/nowhere/", "/ws/leaderboards/daily/2026-02-30/gold-mine/", "/ws/games/x/"]
)
def test_a_websocket_path_that_leads_nowhere_is_closed_with_4404(path):
    @async_to_sync
    async def scenario():
        _, refused = await connect(path, [ORIGIN])
        assert refused == 4404

    scenario()


def test_a_frame_nested_too_deep_to_read_is_ignored_like_any_other_junk(player, castle):
    headers = session_headers(player)

    @async_to_sync
    async def scenario():
        ws, _ = await connect(f"/ws/games/{castle.game.pk}/", headers)
        # Deeper than the JSON decoder goes, and within WEBSOCKET_MAX_MESSAGE_BYTES (a larger
        # message is not read at all: tests/games/test_websocket_size.py).
        await ws.send_to(text_data="[" * 2_000 + "]" * 2_000)
        await ws.send_json_to({"type": "ping"})
        assert await ws.receive_json_from(timeout=5) == {"type": "pong"}
        await ws.disconnect()

    scenario()


def test_a_client_that_floods_is_disconnected_with_a_clear_code(player, castle, settings):
    settings.WEBSOCKET_MESSAGE_LIMIT = 5
    headers = session_headers(player)

    @async_to_sync
    async def scenario():
        ws, _ = await connect(f"/ws/games/{castle.game.pk}/", headers)
        await ws.send_json_to({"type": "ping"})
        assert await ws.receive_json_from(timeout=5) == {"type": "pong"}
        for _ in range(10):
            await ws.send_json_to({"type": "ping"})
        messages = []
        while True:
            output = await ws.receive_output(timeout=5)
            if output["type"] == "websocket.close":
                assert output["code"] == 4429
                break
            messages.append(output)
        assert any("too_many_messages" in m.get("text", "") for m in messages)

    scenario()


# -- the daily leaderboard -------------------------------------------------------------------


def test_anyone_watches_a_leaderboard_that_updates_as_attempts_move(player):
    today = days.today()

    @async_to_sync
    async def scenario():
        path = f"/ws/leaderboards/daily/{today.isoformat()}/selective-castle/"
        ws, first = await connect(path, [ORIGIN])
        assert first == {
            "type": "leaderboard", "date": today.isoformat(), "variant": "selective-castle",
            "count": 0, "results": [], "me": None,
        }  # fmt: skip
        attempt = await database_sync_to_async(daily_services.start_daily_attempt)(
            user=player, date=today, variant_slug="selective-castle"
        )
        board = await ws.receive_json_from(timeout=5)
        assert board["count"] == 1 and board["results"][0]["user"] == "watcher"
        await play(user=player, game_id=attempt.game.pk, move=move_of(attempt))
        board = await ws.receive_json_from(timeout=5)
        assert board["results"][0]["moves"] == 1
        await ws.disconnect()

    scenario()


def test_leaderboard_pushes_are_throttled_and_carry_the_watchers_own_entry(player, settings):
    settings.LEADERBOARD_PUSH_INTERVAL = 0.5
    today = days.today()
    attempt = daily_services.start_daily_attempt(user=player, date=today, variant_slug="gold-mine")
    headers = session_headers(player)

    @async_to_sync
    async def scenario():
        path = f"/ws/leaderboards/daily/{today.isoformat()}/gold-mine/"
        ws, first = await connect(path, headers)
        assert first["me"]["user"] == "watcher"
        for _ in range(6):  # six changes in quick succession
            await play(user=player, game_id=attempt.game.pk, move={"type": "deal"})
        pushes = []
        while not await ws.receive_nothing(timeout=1.5):
            pushes.append(await ws.receive_json_from(timeout=5))
        assert 1 <= len(pushes) <= 3, "changes within the interval are sent together"
        assert pushes[-1]["me"]["moves"] == 6
        await ws.disconnect()

    scenario()


def test_an_unknown_leaderboard_is_refused():
    @async_to_sync
    async def scenario():
        _, refused = await connect("/ws/leaderboards/daily/2026-01-01/poker/", [ORIGIN])
        assert refused == 4404

    scenario()


def test_a_leaderboard_of_a_day_without_its_challenge_or_too_far_ahead_is_refused(settings):
    """Anyone may open a board, but not of any date: each would be an entry in every server
    process's cache (20,000 dates cost a process 155-168 MB)."""
    today = days.today()
    beyond = today + dt.timedelta(days=settings.DAILY_PREPARE_DAYS + 1)

    @async_to_sync
    async def scenario():
        for date in (today - dt.timedelta(days=1), dt.date(2020, 1, 1), beyond):
            _, refused = await connect(f"/ws/leaderboards/daily/{date}/gold-mine/", [ORIGIN])
            assert refused == 4404, date

    scenario()


def test_a_past_days_board_is_served_while_its_challenge_is_kept():
    yesterday = days.today() - dt.timedelta(days=1)
    challenges.prepare(yesterday, "gold-mine")

    @async_to_sync
    async def scenario():
        ws, board = await connect(f"/ws/leaderboards/daily/{yesterday}/gold-mine/", [ORIGIN])
        assert board["type"] == "leaderboard" and board["date"] == yesterday.isoformat()
        await ws.disconnect()
        _, refused = await connect(
            f"/ws/leaderboards/daily/{yesterday}/selective-castle/", [ORIGIN]
        )
        assert refused == 4404  # that day has no challenge of this game

    scenario()


def test_a_process_keeps_only_the_boards_watched_last(settings, monkeypatch):
    """Today's board and the days prepared ahead, three boards, in a cache of two: the one
    used least recently goes, and a board read again comes back."""
    settings.DAILY_PREPARE_DAYS = 2
    monkeypatch.setattr(consumers, "boards", consumers.BoardCache(size=2))
    dates = [days.today() + dt.timedelta(days=n) for n in range(3)]

    @async_to_sync
    async def scenario():
        for date in [*dates, dates[1]]:
            ws, board = await connect(f"/ws/leaderboards/daily/{date}/gold-mine/", [ORIGIN])
            assert board["type"] == "leaderboard"
            await ws.disconnect()

    scenario()
    kept = list(consumers.boards.boards)
    assert kept == [(dates[2].isoformat(), "gold-mine"), (dates[1].isoformat(), "gold-mine")]


def test_a_change_during_a_board_read_still_reaches_the_watcher(player, settings, monkeypatch):
    """The board read for one change may finish after a second change committed: the
    watcher must get a board with the second change too, not keep the stale one."""
    settings.LEADERBOARD_PUSH_INTERVAL = 0.05
    today = days.today()
    attempt = daily_services.start_daily_attempt(user=player, date=today, variant_slug="gold-mine")

    class SlowBoards(consumers.BoardCache):
        dawdling = asyncio.Event()

        async def ranking(self, date, variant, changed_at):
            ranking = await super().ranking(date, variant, changed_at)
            self.dawdling.set()
            # A slow read is the case under test: meanwhile the board changes again.
            await asyncio.sleep(0.4)
            return ranking

    @async_to_sync
    async def scenario():
        path = f"/ws/leaderboards/daily/{today.isoformat()}/gold-mine/"
        ws, first = await connect(path, [ORIGIN])
        assert first["results"][0]["moves"] == 0
        slow = SlowBoards()
        monkeypatch.setattr(consumers, "boards", slow)
        await play(user=player, game_id=attempt.game.pk, move={"type": "deal"})
        await asyncio.wait_for(slow.dawdling.wait(), 5)  # the read for the first deal is done
        await play(user=player, game_id=attempt.game.pk, move={"type": "deal"})
        boards = []
        while not await ws.receive_nothing(timeout=1.5):
            boards.append(await ws.receive_json_from(timeout=5))
        assert boards and boards[-1]["results"][0]["moves"] == 2
        await ws.disconnect()

    scenario()
