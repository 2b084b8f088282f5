"""No staff path shows an open day's deal: the walk over every admin page and staff endpoint.

Today's and tomorrow's challenges are the worker's (not staff-set), and games are dealt them: a
ranked attempt whose moves turned cards up, a casual game on the same deal row with no daily (a
player who typed the number), an older replay of today's daily, and a casual game on tomorrow's
deal. A superuser then fetches every list and page the admin has, found through its public app
list (``AdminSite.get_app_list`` and ``get_model_admin``, so a new registration is walked as it
is added): each list plain, sorted by each of its columns both ways, searched for each sealed
seed, and filtered by lookups that would read a seed, a snapshot or a winning line; each
object's change, history and delete pages; each game's review page; every ``/api/staff/``
endpoint of the URLconf; and the game websocket's catch-up. None may show a sealed seed, a run of
the sealed deals' cards in their order (by code, symbol or name), or the day's winning line, or
find a sealed row by any of them. A game on a deal of no open day (a control) is walked too and
must show its seed and cards: a walk that saw nothing would prove nothing.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.apps import apps
from django.contrib import admin
from django.db.models import Model
from django.test import Client, RequestFactory
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from config.asgi import application
from games.core import days, sealing
from games.daily import challenges
from games.daily import services as daily_services
from games.models import AuditLog, DailyChallenge, Deal, Game, GameFlag, Move
from games.moderation import services as moderation
from games.play import services as play_services
from games.rules import MAX_SEED, get_variant
from games.rules.cards import CODE, card_name
from tests.games.helpers import client_for, daily_game, make_user
from tests.support.api import make_superuser

pytestmark = pytest.mark.django_db

VARIANT = "gold-mine"
#: A deal of no open day, shown in full to staff: what the walk must see, to prove it looks.
CONTROL_SEED = 4_503_599_627_370_497
#: The winning line stored on today's challenge: the walk must not find it anywhere.
SOLUTION_MARK = "line-of-the-open-day-q7z"
#: A run this long of a sealed deal's cards, in its order, is the deal showing (a run of five
#: given cards turning up by chance on a page of other games' boards: about one in 3e8).
RUN = 5
#: The models the walk must find (it fails loudly if the admin's list of them changes shape).
EXPECTED_MODELS = {Game, Deal, Move, DailyChallenge, GameFlag, AuditLog}

SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
CARD_TOKEN = re.compile(
    r"(?<![A-Za-z0-9])([A2-9TJQK][CDHS])(?![A-Za-z0-9])"  # "7H" (JSON, data attributes)
    r"|(10|[A2-9JQK])\s*([♣♦♥♠])"  # "7♥", "10♠" (the boards' text)
    r"|\b(" + "|".join(card_name(card) for card in range(52)) + r")\b",  # "Seven of hearts"
    re.IGNORECASE,
)
CODE_BY_NAME = {card_name(card).lower(): CODE[card] for card in range(52)}


def cards_in_order(text: str) -> list[str]:
    """Every card ``text`` names, in the order it names them, as codes: the page as it is, and
    without its tags (a board's rank and suit in spans of their own)."""
    found: list[str] = []
    for page in (html.unescape(text), html.unescape(re.sub(r"<[^>]+>", "", text))):
        for code, rank, suit, name in CARD_TOKEN.findall(page):
            if code:
                found.append(code.upper())
            elif rank:
                found.append(("T" if rank == "10" else rank.upper()) + SUITS[suit])
            else:
                found.append(CODE_BY_NAME[name.lower()])
        found.append("|")  # no run across the two readings
    return found


def runs(cards: list[str]) -> set[tuple[str, ...]]:
    return {tuple(cards[i : i + RUN]) for i in range(len(cards) - RUN + 1)}


def deal_runs(seed: int, game: Game | None = None) -> set[tuple[str, ...]]:
    """The runs of a deal's cards as they lie at the deal, pile by pile, and as they lie in a
    game's snapshot now (the cards its moves turned up included)."""
    variant = get_variant(VARIANT)
    states = [variant.state_to_json(variant.deal(seed))]
    if game is not None:
        game.refresh_from_db()
        states.append(game.state)
    found: set[tuple[str, ...]] = set()
    for state in states:
        for pile in state["piles"].values():
            found |= runs(pile["cards"])
            found |= runs(list(reversed(pile["cards"])))
    return found


def number_in(number: int, text: str) -> bool:
    return re.search(rf"(?<!\d){number}(?!\d)", text) is not None


class Walk:
    """A superuser's look at everything, each answer checked as it comes."""

    def __init__(self, open_days: dict[str, Any]) -> None:
        self.seeds, self.runs = open_days["seeds"], open_days["runs"]
        #: The cards still face down in the ranked attempt's stock, in their order.
        self.hidden_cards = attempt_stock_run(open_days["attempt"])
        self.boss = make_superuser("walker")
        self.client = Client()
        self.client.force_login(self.boss)
        self.seen: list[str] = []  # every URL fetched, for the counts and the messages
        self.control_seen = False

    def get(self, url: str, *, expect: set[int] | None = None) -> Any:
        response = self.client.get(url, follow=True)
        assert response.status_code != 500, url
        if expect is not None:
            assert response.status_code in expect, (url, response.status_code)
        self.check(url, response.content.decode())
        self.seen.append(url)
        return response

    def check(self, where: str, text: str) -> None:
        for seed in self.seeds:
            assert not number_in(seed, text), f"{where}: a sealed seed ({seed})"
        leaked = runs(cards_in_order(text)) & self.runs
        assert not leaked, f"{where}: a sealed deal's cards in order: {sorted(leaked)[:3]}"
        assert SOLUTION_MARK not in text, f"{where}: the open day's winning line"
        self.control_seen |= number_in(CONTROL_SEED, text)


def registered_admins(boss: Any) -> Iterator[tuple[type[Model], admin.ModelAdmin]]:
    """Every model the admin lists, with its ModelAdmin, through the site's public API (its app
    list, as the index page draws it). Fails loudly if that API stops finding the models."""
    request = RequestFactory().get("/admin/")
    request.user = boss
    models = [entry["model"] for app in admin.site.get_app_list(request) for entry in app["models"]]
    missing = EXPECTED_MODELS - set(models)
    assert not missing, f"the admin's app list no longer lists {missing}: update this walk"
    for model in models:
        yield model, admin.site.get_model_admin(model)


def staff_routes() -> list[str]:
    """The URLconf's routes under ``api/staff/``, as patterns ("api/staff/games/<...>/review/")."""
    found: list[str] = []

    def visit(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                visit(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern) and route.startswith("api/staff/"):
                found.append(route)

    visit(get_resolver().url_patterns, "")
    assert found, "no /api/staff/ endpoint found in the URLconf: update this walk"
    return found


def attempt_stock_run(attempt: Game) -> list[str]:
    """The first cards of the attempt's stock now, still face down, in their order."""
    attempt.refresh_from_db()
    return attempt.state["piles"]["stock"]["cards"][:RUN]


@pytest.fixture
def open_days() -> dict[str, Any]:
    """Today's and tomorrow's worker-prepared challenges and the games on their deals."""
    today = days.today()
    tomorrow = today + dt.timedelta(days=1)
    today_challenge = challenges.prepare(today, VARIANT)[0]
    tomorrow_challenge = challenges.prepare(tomorrow, VARIANT)[0]
    assert not today_challenge.seed_set_by_staff and not tomorrow_challenge.seed_set_by_staff
    DailyChallenge.objects.filter(pk=today_challenge.pk).update(
        solution=[{"type": "deal", "note": SOLUTION_MARK}]
    )
    staff = make_superuser("moderator")
    # A day after tomorrow, prepared by the worker, removed by staff, prepared again: the
    # audit log's entry for the removal must not name the seed the worker deals again.
    later = tomorrow + dt.timedelta(days=1)
    daily_services.remove_daily_challenge(
        actor=staff, challenge=challenges.prepare(later, VARIANT)[0], reason="try another"
    )
    later_challenge = challenges.prepare(later, VARIANT)[0]

    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    attempt = daily_services.start_daily_attempt(user=alice, date=today, variant_slug=VARIANT).game
    for _ in range(3):  # each deal turns up a row of cards
        play_services.play_move(user=alice, game_id=attempt.pk, move={"type": "deal"})
    moderation.flag_game(actor=staff, game_id=attempt.pk, reason="looks quick")
    # Gold Mine's deals turn cards up without an event; a move that turns up a face-down card
    # records it as ``turned_up`` (games.rules.variant). The history shows five, the next
    # cards of the stock in their order, as such moves would have told them.
    turned = attempt_stock_run(attempt)
    Move.objects.filter(game=attempt, number=1).update(
        events=[{"type": "turned_up", "pile": "tableau:0", "card": code} for code in turned]
    )
    # Verification tells a history that does not replay in the engine's words, naming cards:
    # here five still face down, in their order (what the walk looks for).
    hidden = attempt_stock_run(attempt)
    named = ", ".join(card_name(CODE.index(code)) for code in hidden)
    GameFlag.objects.create(
        game=attempt,
        reason=GameFlag.Reason.HISTORY_INVALID,
        detail=f"step 2 does not replay: {named} cannot move",
        automatic=True,
    )
    numbered = client_for(bob).post(
        "/api/games/", {"variant": VARIANT, "seed": today_challenge.deal.seed}, format="json"
    )
    assert numbered.status_code == 201, numbered.content
    old_replay = daily_game(bob, today, VARIANT, ranked=False)  # one made before replays waited
    ahead = client_for(carol).post(
        "/api/games/", {"variant": VARIANT, "seed": tomorrow_challenge.deal.seed}, format="json"
    )
    assert ahead.status_code == 201, ahead.content
    control = client_for(carol).post(
        "/api/games/", {"variant": VARIANT, "seed": CONTROL_SEED}, format="json"
    )
    assert control.status_code == 201, control.content

    sealed_games = [attempt, Game.objects.get(pk=numbered.json()["id"]), old_replay]
    sealed_games.append(Game.objects.get(pk=ahead.json()["id"]))
    assert all(sealing.game_sealed(game) for game in sealed_games)
    seeds = [c.deal.seed for c in (today_challenge, tomorrow_challenge, later_challenge)]
    sealed_runs = set().union(*(deal_runs(seed) for seed in seeds), deal_runs(seeds[0], attempt))
    return {
        "seeds": seeds,
        "runs": sealed_runs,
        "sealed_games": sealed_games,
        "attempt": attempt,
        "control": Game.objects.get(pk=control.json()["id"]),
    }


def test_no_admin_page_or_staff_endpoint_shows_or_finds_an_open_days_deal(
    open_days: dict[str, Any],
) -> None:
    walk = Walk(open_days)
    for model, model_admin in registered_admins(walk.boss):
        walk_list(walk, model, model_admin, open_days["seeds"])
        name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        walk.get(reverse(f"{name}_add"), expect={200, 403})
        for pk in model._default_manager.values_list("pk", flat=True):
            for page in ("change", "history", "delete"):
                walk.get(reverse(f"{name}_{page}", args=[pk]), expect={200, 403, 404})
    for model in apps.get_models():  # the admin's autocomplete names each row by str()
        for field in model._meta.get_fields():
            if field.is_relation and field.many_to_one and field.concrete:
                where = {"app_label": model._meta.app_label, "model_name": model._meta.model_name}
                for term in ["", *map(str, open_days["seeds"])]:
                    query = {**where, "field_name": field.name, "term": term}
                    walk.get(f"/admin/autocomplete/?{urlencode(query)}", expect={200, 403, 404})
    for game in Game.objects.all():
        review = f"/admin/games/game/{game.pk}/review/"
        walk.get(review)
        for step in range(game.move_number + 1):
            walk.get(f"{review}?step={step}&partial=1")
        walk.get(f"{review}?verify=1")
    for route in staff_routes():
        for game in Game.objects.all():
            url = "/" + re.sub(r"<[^>]*game_id>", str(game.pk), route)
            assert "<" not in url, f"{route}: a parameter this walk cannot fill: update it"
            for step in range(game.move_number + 1):
                walk.get(f"{url}?step={step}")
            walk.get(url)
    assert walk.control_seen, "the walk never saw the control game's seed: it looked nowhere"
    assert len(walk.seen) > 100, walk.seen


def walk_list(walk: Walk, model: type[Model], model_admin: Any, seeds: list[int]) -> None:
    """A changelist plain, sorted by each column both ways, searched and filtered."""
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
    plain = walk.get(url, expect={200})
    changelist = plain.context["cl"]
    for column in range(len(changelist.list_display)):
        for order in (f"{column}", f"-{column}"):
            sorted_list = walk.get(f"{url}?o={order}", expect={200})
            assert_not_ordered_by_a_secret(f"{url}?o={order}", sorted_list)
    nobody = str(MAX_SEED - 11)  # a number no deal has, to compare against
    if model_admin.get_search_fields(None):
        for seed in seeds:
            for term in (str(seed), f'"{seed}"', f"{seed} {seed}"):
                assert found(walk, url, {"q": term}) == found(walk, url, {"q": nobody}), term
    for seed in seeds:
        for path in ("", "deal__", "game__deal__", "daily__deal__", "game__daily__deal__"):
            below = found(walk, url, {f"{path}seed__lt": str(seed)})
            up_to = found(walk, url, {f"{path}seed__lte": str(seed)})
            assert below == up_to, f"{url}?{path}seed__lte={seed} finds a sealed row"
    # The snapshot of every card: ?state__icontains=… tests a guess of a run of the stock, and
    # ?state__piles__stock__cards__0=… of its top card.
    stock = walk.hidden_cards
    for path in ("", "game__"):
        for lookup, right in (
            (f"{path}state__icontains", ", ".join(f'"{code}"' for code in stock[:2])),
            (f"{path}state__piles__stock__cards__0", stock[0]),
        ):
            assert found(walk, url, {lookup: right}) == found(walk, url, {lookup: "no card"}), (
                f"{url}?{lookup}={right} finds a sealed row"
            )
    for lookup in ("solution__icontains", "daily__solution__icontains"):
        assert found(walk, url, {lookup: SOLUTION_MARK}) == found(walk, url, {lookup: "zz9"})


def found(walk: Walk, url: str, query: dict[str, str]) -> tuple[int, list[int] | None]:
    """The answer's status and, for a list, the rows it lists (their ids)."""
    response = walk.client.get(url, query)
    assert response.status_code != 500, (url, query)
    text = response.content.decode()
    for typed in query.values():  # what staff typed, echoed back (the search box): theirs
        for word in [typed, html.escape(typed), *typed.replace('"', " ").split()]:
            text = text.replace(word, "")
    walk.check(f"{url}?{query}", text)
    changelist = response.context["cl"] if response.context and "cl" in response.context else None
    if response.status_code != 200 or changelist is None:
        return response.status_code, None
    return 200, [row.pk for row in changelist.result_list]


def assert_not_ordered_by_a_secret(where: str, response: Any) -> None:
    query = str(response.context["cl"].queryset.query)
    ordering = query.rsplit("ORDER BY", 1)[-1] if "ORDER BY" in query else ""
    for secret in ('"seed"', '"state"', '"solution"'):
        assert secret not in ordering, f"{where} sorts by {secret}: {ordering}"


@pytest.mark.django_db(transaction=True)
def test_staff_get_nothing_of_a_sealed_game_on_its_websocket(open_days: dict[str, Any]) -> None:
    """Its catch-up would give every move and the cards they turned up: staff are refused as
    any other player is; its own player still gets it; a game of no open day stays watchable."""
    boss = session_headers(make_superuser("watcher"))
    for game in open_days["sealed_games"]:
        for since in ("?since=0", ""):
            messages = async_to_sync(socket_messages)(boss, f"/ws/games/{game.pk}/{since}")
            assert messages == [], (game.pk, messages)
    attempt = open_days["attempt"]
    owner = session_headers(attempt.owner)
    owner_sees = async_to_sync(socket_messages)(owner, f"/ws/games/{attempt.pk}/?since=0")
    assert owner_sees and owner_sees[0]["type"] == "catch_up"
    control = open_days["control"]
    staff_sees = async_to_sync(socket_messages)(boss, f"/ws/games/{control.pk}/?since=0")
    assert staff_sees and staff_sees[0]["type"] in {"catch_up", "sync"}


def session_headers(user: Any) -> list[tuple[bytes, bytes]]:
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    return [(b"origin", b"http://testserver"), (b"cookie", cookie)]


async def socket_messages(headers: list[tuple[bytes, bytes]], path: str) -> list[dict[str, Any]]:
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect()
    messages = []
    if connected:
        while not await socket.receive_nothing(timeout=0.5):
            output = await socket.receive_output()
            if output["type"] == "websocket.send":
                messages.append(json.loads(output["text"]))
            elif output["type"] == "websocket.close":
                break
    await socket.disconnect()
    return messages
