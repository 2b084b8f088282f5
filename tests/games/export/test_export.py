"""``GET /api/me/export/``: everything kept about a player, face-down cards still hidden,
streamed game by game."""

from __future__ import annotations

import datetime as dt
import json
import random
import threading
from collections import defaultdict
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.renderers import JSONRenderer

from games.core import days
from games.daily import leaderboards
from games.daily import services as daily_services
from games.export import archive
from games.models import Game, Move
from games.play import selectors as play_selectors
from games.play import services as play_services
from tests.games.helpers import (
    anonymous_client,
    assert_error,
    client_for,
    history,
    make_user,
    new_game,
    play,
)
from tests.games.test_privacy import Watcher

pytestmark = pytest.mark.django_db


def download(client) -> Any:
    """The export's response, read to its end: ``content`` and ``json()`` as for any other."""
    response = client.get("/api/me/export/")
    assert response.status_code == 200
    assert response.streaming
    body = b"".join(response.streaming_content)
    return SimpleNamespace(response=response, content=body, json=lambda: json.loads(body))


def export(client) -> dict:
    return download(client).json()


def test_the_export_holds_the_account_statistics_and_every_game_with_its_history() -> None:
    user = make_user("exporter")
    user.email = "exporter@example.com"
    user.save()
    client = client_for(user)
    first = new_game(client, "gold-mine", seed=11)
    play(client, first["id"], {"type": "deal"})
    client.post(f"/api/games/{first['id']}/resign/", {}, format="json")
    second = new_game(client, "grandfathers-clock")
    new_game(client_for(), "gold-mine", seed=11)  # someone else's

    data = export(client)

    assert data["format"] == "patience-export/1"
    assert data["account"]["username"] == "exporter"
    assert data["account"]["email"] == "exporter@example.com"
    assert [g["id"] for g in data["games"]] == [first["id"], second["id"]]  # oldest first
    resigned, playing = data["games"]
    assert resigned["status"] == "resigned" and resigned["seed"] == 11
    # The recorded history as GET moves/ gives it, but for the cards and words it names them
    # with (worked out from the moves, which the export holds).
    derived = {"cards", "said"}
    recorded = [
        {k: v for k, v in e.items() if k not in derived} for e in history(client, first["id"])
    ]
    assert resigned["history"] == recorded
    assert [entry["number"] for entry in resigned["history"]] == [1, 2]
    assert playing["status"] == "playing" and playing["history"] == []
    assert playing["seed"] is None  # a random deal in play: its seed would show the cards
    assert {row["variant"] for row in data["stats"]} >= {"gold-mine", "grandfathers-clock"}
    assert set(data["daily_streaks"]) == {"overall", "by_variant"}


def test_the_export_is_a_download_no_cache_keeps() -> None:
    client = client_for()
    response = download(client).response
    assert response["Content-Disposition"].startswith('attachment; filename="patience-data-')
    assert response["Cache-Control"] == "no-store"
    # The headers of the API's other answers, but the length: a stream has none up front.
    other = client.get("/api/me/stats/")
    assert response["Content-Type"] == other["Content-Type"] == "application/json"
    assert set(response.headers) == (set(other.headers) - {"Content-Length"}) | {
        "Content-Disposition",
        "Cache-Control",
    }


def test_the_export_needs_a_signed_in_player() -> None:
    response = anonymous_client().get("/api/me/export/")
    assert response.status_code in (401, 403)
    assert "error" in response.json()


def test_the_export_reads_a_fixed_number_of_queries(django_assert_max_num_queries) -> None:
    user = make_user()
    client = client_for(user)
    for seed in range(12):
        game = new_game(client, "gold-mine", seed=seed)
        play(client, game["id"], {"type": "deal"})
    with django_assert_max_num_queries(6):
        assert len(export(client)["games"]) == 12  # the stream read to its end, inside


@pytest.mark.parametrize("slug", ["gold-mine", "blondes-and-brunettes", "grounds-for-divorce"])
def test_the_export_of_a_game_in_play_names_no_face_down_card_nor_its_seed(slug: str) -> None:
    rng = random.Random(f"export-{slug}")
    client = client_for()
    game = new_game(client, slug)
    watcher = Watcher(client, slug, game["id"])
    for turn in range(60):
        if game["status"] != "playing" or not game["legal_moves"]:
            break
        if turn % 10 == 0:
            body = watcher.check(download(client), f"export at move {turn}")
            assert body["games"][0]["seed"] is None
        game = play(client, game["id"], rng.choice(game["legal_moves"]))
    assert watcher.checked > 0


# -- streamed: the same document, a game at a time --------------------------------------------


def export_as_built_in_memory(user: Any, exported_at: dt.datetime) -> bytes:
    """The export as it was before it was streamed: the whole document as one dict, then
    rendered by the API's renderer (kept here to compare with, byte for byte)."""
    entries: dict[int, list[dict[str, Any]]] = defaultdict(list)
    moves = Move.objects.filter(game__owner=user).order_by("game_id", "number")
    for game_id, *row in moves.values_list("game_id", *play_selectors.HISTORY_FIELDS):
        entries[game_id].append(play_selectors.history_entry(*row))
    games = Game.objects.filter(owner=user).select_related("deal", "daily").order_by("pk")
    document = {
        "format": archive.EXPORT_FORMAT,
        "exported_at": exported_at,
        "account": {
            "username": user.get_username(),
            "email": user.email,
            "date_joined": user.date_joined,
        },
        "stats": play_selectors.player_stats(user),
        "daily_streaks": leaderboards.daily_streaks(user),
        "games": [
            {**play_selectors.game_summary(game), "history": entries[game.pk]} for game in games
        ],
    }
    return JSONRenderer().render(document)


def several_games(user: Any) -> dict[str, int]:
    """A won-or-resigned game, a ranked daily attempt, a chosen deal, and a random deal still
    in play with face-down cards and a history, besides someone else's game."""
    client = client_for(user)
    resigned = new_game(client, "gold-mine", seed=11)
    for _ in range(3):
        play(client, resigned["id"], {"type": "deal"})
    client.post(f"/api/games/{resigned['id']}/resign/", {}, format="json")
    ranked = daily_services.start_daily_attempt(
        user=user, date=days.today(), variant_slug="grandfathers-clock"
    ).game
    move = play_selectors.game_representation(ranked)["legal_moves"][0]
    play_services.play_move(user=user, game_id=ranked.pk, move=move)
    chosen = new_game(client, "selective-castle", seed=5)
    playing = new_game(client, "gold-mine")  # one deck: a card's code names that card only
    rng = random.Random("several")
    for _ in range(12):  # a random deal: its seed stays hidden while it is in play
        if playing["status"] != "playing" or playing["dead_end"]:
            break
        playing = play(client, playing["id"], rng.choice(playing["legal_moves"]))
    new_game(client_for(), "gold-mine", seed=11)  # someone else's
    return {"resigned": resigned["id"], "playing": playing["id"], "chosen": chosen["id"]}


def test_the_streamed_export_is_the_document_built_in_memory_byte_for_byte(monkeypatch) -> None:
    user = make_user("streamer")
    user.email = "streamer@example.com"
    user.save()
    ids = several_games(user)
    exported_at = timezone.now()  # the same moment for both: the seeds shown depend on it
    expected = export_as_built_in_memory(user, exported_at)
    monkeypatch.setattr(timezone, "now", lambda: exported_at)

    got = download(client_for(user))

    assert got.content == expected
    assert got.response["Content-Disposition"] == (
        f'attachment; filename="patience-data-{exported_at.date()}.json"'
    )
    body = got.json()
    assert len(body["games"]) == 4
    playing = next(g for g in body["games"] if g["id"] == ids["playing"])
    assert playing["status"] == "playing" and playing["seed"] is None
    assert len(playing["history"]) == Game.objects.get(pk=ids["playing"]).move_number > 0
    # Nothing of the board is exported: no face-down card, no stock order, no seed.
    game = Game.objects.get(pk=ids["playing"])
    hidden = [
        code
        for pile in game.state["piles"].values()
        for code in pile["cards"][: pile.get("face_down", 0)]
    ]
    assert hidden
    text = json.dumps(playing)
    assert all(f'"{code}"' not in text for code in hidden)
    assert str(game.deal.seed) not in text


def test_the_export_is_written_a_game_at_a_time(monkeypatch) -> None:
    user = make_user()
    client = client_for(user)
    for seed in range(5):
        game = new_game(client, "gold-mine", seed=seed)
        play(client, game["id"], {"type": "deal"})
    monkeypatch.setattr(archive, "EXPORT_CHUNK_BYTES", 1)
    response = client.get("/api/me/export/")
    chunks = list(response.streaming_content)
    assert len(chunks) == 6  # the head with the first game, each other game, the end
    assert [len(json.loads(b"".join(chunks))["games"])] == [5]
    assert all(chunk.startswith(b',{"id":') for chunk in chunks[1:-1])
    assert chunks[-1] == b"]}"


def test_the_exports_queries_do_not_grow_with_its_games(monkeypatch) -> None:
    """Read in batches (here of 2 games and 3 entries, to cross many), the same queries for 2
    games as for 9 with longer histories."""
    monkeypatch.setattr(archive, "EXPORT_GAMES_PER_FETCH", 2)
    monkeypatch.setattr(archive, "EXPORT_ENTRIES_PER_FETCH", 3)

    def queries(games: int, deals: int) -> int:
        user = make_user()
        client = client_for(user)
        for seed in range(games):
            game = new_game(client, "gold-mine", seed=seed)
            for _ in range(deals):
                play(client, game["id"], {"type": "deal"})
        with CaptureQueriesContext(connection) as captured:
            body = export(client)
        assert [len(g["history"]) for g in body["games"]] == [deals] * games
        return len(captured)

    assert queries(2, 1) == queries(9, 4) <= 6


def test_a_refused_export_is_still_a_json_error() -> None:
    response = client_for().get("/api/me/export/", HTTP_ACCEPT="text/html")
    assert response.status_code == 406
    assert response.json()["error"]["code"] == "not_acceptable"
    response = client_for().post("/api/me/export/")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


@pytest.mark.django_db(transaction=True)
@pytest.mark.filterwarnings("error:StreamingHttpResponse must consume:Warning")
def test_under_asgi_the_export_streams_without_being_gathered_first() -> None:
    """Served by the ASGI application, the export is sent as it is read (Django gathers a
    synchronous iterator into a list first, and warns: here the warning is an error), and
    it is the same document as the test client's."""
    from asgiref.sync import async_to_sync

    import config.asgi
    from tests.config.test_asgi import asgi_request

    user = make_user("asgi")
    several_games(user)
    key = Token.objects.create(user=user).key
    headers = [(b"authorization", f"Token {key}".encode())]
    status, body = async_to_sync(asgi_request)(
        config.asgi.application, "GET", "/api/me/export/", [b""], headers
    )
    assert status == 200, body[:500]
    streamed, direct = json.loads(body), export(client_for(user))
    assert streamed.pop("exported_at") and direct.pop("exported_at")
    assert streamed == direct


@pytest.mark.django_db(transaction=True)
def test_the_export_reads_one_moment_while_the_player_plays_on(monkeypatch) -> None:
    """PostgreSQL: a move committed elsewhere after the statistics were read (here: from
    another thread, mid-export) is in none of the document: it is all one snapshot."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite exports without a snapshot (a transaction there locks writers)")
    user = make_user("mover")
    client = client_for(user)
    game = new_game(client, "gold-mine", seed=11)
    play(client, game["id"], {"type": "deal"})
    real_streaks = leaderboards.daily_streaks

    def streaks_then_a_move_elsewhere(player: Any) -> Any:
        result = real_streaks(player)

        def move() -> None:
            play_services.play_move(user=user, game_id=game["id"], move={"type": "deal"})
            connection.close()

        mover = threading.Thread(target=move)
        mover.start()
        mover.join()
        return result

    monkeypatch.setattr(archive, "daily_streaks", streaks_then_a_move_elsewhere)
    body = export(client)
    [exported] = body["games"]
    assert Game.objects.get(pk=game["id"]).move_number == 2  # the move was made
    assert exported["move_number"] == 1
    assert [entry["number"] for entry in exported["history"]] == [1]


@pytest.mark.django_db(transaction=True)  # as served: no transaction around the requests
def test_one_download_at_a_time_per_player() -> None:
    # A download held open (a slow or stalled client) keeps a database connection: a player
    # may hold one, not many, and gets it back as soon as it closes, finished or not.
    user = make_user("exporter")
    client, other_device = client_for(user), client_for(user)
    new_game(client, "gold-mine")
    held = client.get("/api/me/export/")
    assert held.status_code == 200
    error = assert_error(other_device.get("/api/me/export/"), 429, "export_in_progress")
    assert "already being downloaded" in error["message"]
    assert download(client_for()).json()["account"]["username"] != "exporter"  # others may

    held.close()  # cut short before its first piece
    assert download(other_device).json()["account"]["username"] == "exporter"
    assert download(client).json()["account"]["username"] == "exporter"  # each one released
