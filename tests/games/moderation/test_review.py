"""Staff review of games in the admin: every model's pages, the step-through review with every
card showing, verification of histories and snapshots, the staff API, the read-only histories
and audit log, and the audited staff actions. Players reach none of it."""

from __future__ import annotations

import datetime as dt
import html
import re
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.core.management import CommandError, call_command
from django.test import Client

from games.core import days
from games.daily import challenges
from games.daily import services as daily_services
from games.models import AuditLog, DailyChallenge, Deal, Game, GameFlag, Move
from games.moderation import services as moderation
from games.moderation.presenters import duration_text
from games.play import services as play_services
from games.rules import get_variant
from tests.games.helpers import assert_error, client_for, make_user, replay
from tests.support.api import make_superuser, signed_in

pytestmark = pytest.mark.django_db

GFD = "grounds-for-divorce"  # face-down cards in the tableau and a 54-card stock


@pytest.fixture
def staff(django_user_model: Any) -> Any:
    return make_superuser("referee")


@pytest.fixture
def staff_client(staff: Any) -> Client:
    return signed_in(staff)


@pytest.fixture
def player() -> Any:
    return make_user("alice")


@pytest.fixture
def player_client(player: Any) -> Client:
    client = Client()
    client.force_login(player)
    return client


def play_moves(user: Any, slug: str, seed: int | None, count: int) -> Game:
    """A game played ``count`` moves through the service (the first legal move each time)."""
    outcome = play_services.create_game(user=user, variant_slug=slug, seed=seed)
    for _ in range(count):
        move = outcome.variant.legal_moves(outcome.state)[0]
        outcome = play_services.play_move(user=user, game_id=outcome.game.pk, move=move.to_json())
    return Game.objects.select_related("deal").get(pk=outcome.game.pk)


@pytest.fixture
def game(player: Any) -> Game:
    return play_moves(player, GFD, 3, 5)


def review_url(game_id: int, **params: Any) -> str:
    query = "&".join(f"{key}={value}" for key, value in params.items())
    return f"/admin/games/game/{game_id}/review/" + (f"?{query}" if query else "")


def hidden_cards(state: dict[str, Any]) -> int:
    return sum(pile["face_down"] for pile in state["piles"].values())


SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
CARD = re.compile(r'<span class="rv-card( rv-red)?( rv-down)?" title="[^"]*">([^<]*)</span>')
PILE = re.compile(r'data-pile="([^"]+)"(.*?)</div>\s*</div>', re.S)


def drawn_boards(html: str) -> list[dict[str, list[tuple[str, bool]]]]:
    """Each board on the page: pile id -> its cards as drawn (rank and suit, face down?)."""
    boards = []
    for chunk in html.split('<div class="rv-board">')[1:]:
        piles = {}
        for pile_id, body in PILE.findall(chunk):
            if pile_id in piles:
                break
            piles[pile_id] = [(text, bool(down)) for _, down, text in CARD.findall(body)]
        boards.append(piles)
    return boards


def expected_board(state: dict[str, Any]) -> dict[str, list[tuple[str, bool]]]:
    return {
        pile_id: [
            (code[:-1].replace("T", "10") + SUITS[code[-1]], i < pile["face_down"])
            for i, code in enumerate(pile["cards"])
        ]
        for pile_id, pile in state["piles"].items()
    }


def full_state(game: Game, step: int) -> dict[str, Any]:
    from games.core.history import line_of_play

    variant = get_variant(game.deal.variant)
    entries = list(game.moves.order_by("number").values_list("payload", flat=True))[:step]
    return variant.state_to_json(line_of_play(variant, game.deal, entries)[-1])


# -- the admin's pages ------------------------------------------------------------------------


def test_every_models_changelist_and_change_page_render_for_staff(
    staff_client: Client, staff: Any, game: Game
) -> None:
    tomorrow = days.today() + dt.timedelta(days=1)
    challenge = daily_services.daily_challenge(tomorrow, "gold-mine")
    flag = moderation.flag_game(actor=staff, game_id=game.pk, reason="looks odd")
    entry = AuditLog.objects.get()
    move = game.moves.get(number=1)
    pages = {
        "auth/user": game.owner.pk,
        "games/deal": game.deal.pk,
        "games/dailychallenge": challenge.pk,
        "games/game": game.pk,
        "games/move": move.pk,
        "games/gameflag": flag.pk,
        "games/auditlog": entry.pk,
    }
    for model, pk in pages.items():
        listing = staff_client.get(f"/admin/{model}/")
        assert listing.status_code == 200, (model, listing.content[:500])
        page = staff_client.get(f"/admin/{model}/{pk}/change/")
        assert page.status_code == 200, (model, page.content[:500])
    # The game's page shows its history inline, read-only, and links to the review.
    page = staff_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "Moves" in page and review_url(game.pk) in page
    assert 'name="moves-0-payload"' not in page, "no editable history field"


def test_the_admin_is_the_sites_own_by_name(staff_client: Client) -> None:
    page = staff_client.get("/admin/").content.decode()
    assert "<title>Games, players and daily challenges | Patience staff</title>" in page
    assert "Patience staff" in re.search(r'<div id="site-name">(.*?)</div>', page, re.S)[1]
    assert "Django administration" not in page


def test_the_player_list_shows_when_players_joined_not_names_nobody_gives(
    staff_client: Client, game: Game
) -> None:
    page = staff_client.get("/admin/auth/user/").content.decode()
    columns = re.findall(r'<th scope="col"\s+class="[^"]*column-(\w+)', page)
    assert columns == ["username", "email", "is_staff", "date_joined", "last_login", "games"]


def test_game_list_columns_filters_and_search(
    staff_client: Client, staff: Any, game: Game, player: Any
) -> None:
    other = play_moves(make_user("bob"), "gold-mine", 77, 2)
    moderation.flag_game(actor=staff, game_id=other.pk, reason="check")
    listing = staff_client.get("/admin/games/game/").content.decode()
    for column in ("player", "seed", "status", "moves", "time", "ranked", "flagged", "excluded"):
        assert column in listing.lower()

    def ids(**params: Any) -> set[int]:
        response = staff_client.get("/admin/games/game/", params)
        assert response.status_code == 200, response.content[:500]
        return {row.pk for row in response.context["cl"].result_list}

    assert ids(q="alice") == {game.pk}
    assert ids(q="77") == {other.pk}, "search by seed"
    assert ids(flagged="yes") == {other.pk}
    assert ids(flagged="no") == {game.pk}
    assert ids(open_flag="staff") == {other.pk}
    assert ids(deal__variant__exact="gold-mine") == {other.pk}
    assert ids(status__exact="playing", ranked__exact="0") == {game.pk, other.pk}
    assert ids(owner__id__exact=player.pk) == {game.pk}, "the user list links here"
    assert ids(q=str(game.pk)) >= {game.pk}, "search by the game's number"
    users = staff_client.get("/admin/auth/user/")
    assert b"games" in users.content


def test_a_game_cannot_be_added_changed_or_deleted_in_the_admin(
    staff_client: Client, game: Game
) -> None:
    before = Game.objects.filter(pk=game.pk).values().get()
    assert staff_client.get("/admin/games/game/add/").status_code == 403
    response = staff_client.post(
        f"/admin/games/game/{game.pk}/change/", {"excluded": "on", "status": "won"}
    )
    assert response.status_code == 403
    assert staff_client.post(f"/admin/games/game/{game.pk}/delete/").status_code == 403
    assert Game.objects.filter(pk=game.pk).values().get() == before


def test_a_history_is_not_editable_by_anyone(staff_client: Client, game: Game) -> None:
    move = game.moves.get(number=2)
    before = (move.payload, move.events, move.received_at)
    forged = {"payload": '{"type": "deal"}', "events": "[]", "number": "2", "game": game.pk}
    assert staff_client.post(f"/admin/games/move/{move.pk}/change/", forged).status_code == 403
    assert staff_client.get("/admin/games/move/add/").status_code == 403
    assert staff_client.post("/admin/games/move/add/", forged).status_code == 403
    assert staff_client.post(f"/admin/games/move/{move.pk}/delete/").status_code == 403
    listing = staff_client.post(
        "/admin/games/move/", {"action": "delete_selected", "_selected_action": [move.pk]}
    )
    assert Move.objects.filter(pk=move.pk).exists(), listing.status_code
    move.refresh_from_db()
    assert (move.payload, move.events, move.received_at) == before
    assert game.moves.count() == 5


def test_the_audit_log_is_not_editable_by_anyone(
    staff_client: Client, staff: Any, game: Game
) -> None:
    moderation.flag_game(actor=staff, game_id=game.pk, reason="original reason")
    entry = AuditLog.objects.get()
    response = staff_client.post(
        f"/admin/games/auditlog/{entry.pk}/change/",
        {"reason": "rewritten", "action": "unflag", "actor_name": "someone"},
    )
    assert response.status_code == 403
    assert staff_client.post("/admin/games/auditlog/add/", {"reason": "x"}).status_code == 403
    assert staff_client.post(f"/admin/games/auditlog/{entry.pk}/delete/").status_code == 403
    entry.refresh_from_db()
    assert (entry.reason, entry.action, entry.actor_name) == ("original reason", "flag", "referee")
    # Not through the model either.
    entry.reason = "rewritten"
    with pytest.raises(ValueError, match="never changed"):
        entry.save()
    with pytest.raises(ValueError, match="never deleted"):
        entry.delete()
    # Flags change only through the audited actions.
    flag = GameFlag.objects.get()
    assert staff_client.post(f"/admin/games/gameflag/{flag.pk}/change/", {}).status_code == 403


# -- the review page --------------------------------------------------------------------------


def test_the_review_shows_every_card_before_and_after_the_selected_move(
    staff_client: Client, game: Game
) -> None:
    response = staff_client.get(review_url(game.pk, step=3))
    assert response.status_code == 200
    page = response.content.decode()
    before, after = full_state(game, 2), full_state(game, 3)
    assert "Before move 3" in page and "After move 3" in page
    # Every card of both boards, in order, face-down ones (the stock too) marked but shown.
    assert drawn_boards(page) == [expected_board(before), expected_board(after)]
    assert hidden_cards(before) > 50
    assert page.count("(face down)") == hidden_cards(before) + hidden_cards(after)
    move = game.moves.get(number=3)
    assert f"{move.received_at:%H:%M:%S}" in page, "each move's time"
    assert "after the one before" in page, "the time since the move before"
    for number in range(6):
        assert f'data-row="{number}"' in page, "the whole move list"


def test_the_review_says_what_the_automatic_checks_look_for(
    staff_client: Client, game: Game, settings: Any
) -> None:
    settings.FAIR_PLAY_MIN_SECONDS_PER_MOVE = 0.75
    page = staff_client.get(review_url(game.pk)).content.decode()
    [help_text] = re.findall(r'<p class="help" id="fair-play-help">(.*?)</p>', page, re.S)
    help_text = " ".join(help_text.split())
    assert "10 moves in a row each under 150 ms after the one before" in help_text
    assert "implausibly fast under 0.75 s a move" in help_text
    assert (
        "20 moves in a row taking under 3 s together, or most of them under 150 ms apart, are "
        "faster than a person reads and clicks" in help_text
    )
    assert "Every timing starts at the first move, not at the deal." in help_text
    assert "leaves out the final run of moves that only send cards to the foundations" in (
        help_text
    )


def test_the_review_steps_through_the_history(staff_client: Client, game: Game) -> None:
    deal = staff_client.get(review_url(game.pk, step=0)).content.decode()
    assert "The deal" in deal and "Before move" not in deal
    assert drawn_boards(deal) == [expected_board(full_state(game, 0))]
    # The script fetches a step alone: the fragment, not the page.
    fragment = staff_client.get(review_url(game.pk, step=4, partial=1))
    assert fragment.status_code == 200
    text = fragment.content.decode()
    assert 'id="rv-step" data-step="4"' in text and "<html" not in text
    assert "Move 4" in text and "Engine events" in text
    # Out of range: the nearest step.
    assert 'data-step="5"' in staff_client.get(review_url(game.pk, step=99)).content.decode()


def test_the_review_shows_the_engines_events(staff_client: Client, player: Any) -> None:
    gold = play_moves(player, "gold-mine", 5, 0)
    play_services.play_move(user=player, game_id=gold.pk, move={"type": "deal"})
    page = staff_client.get(review_url(gold.pk, step=1)).content.decode()
    assert "<code>deal</code>" in page
    events = Move.objects.get(game=gold, number=1).events
    for event in events:
        assert event["type"] in page


def test_the_reviews_events_name_piles_and_cards_as_its_boards_do(
    staff_client: Client, player: Any
) -> None:
    """An event's pile is "Tableau pile 7" beside a move of "Tableau pile 7", not the engine's
    "tableau:6", and its card is "2♥" as on the boards, not "2H"."""
    outcome = play_services.create_game(user=player, variant_slug="blondes-and-brunettes", seed=1)
    events: list[dict[str, Any]] = []
    while not any("pile" in event for event in events):
        move = outcome.variant.legal_moves(outcome.state)[0]
        outcome = play_services.play_move(user=player, game_id=outcome.game.pk, move=move.to_json())
        events = outcome.events
    filled = next(event for event in events if "pile" in event)
    number = outcome.game.move_number
    page = staff_client.get(review_url(outcome.game.pk, step=number)).content.decode()
    text = " ".join(re.sub(r"<[^>]+>", " ", html.unescape(page)).split())
    index = int(filled["pile"].partition(":")[2])
    rank, suit = filled["card"][:-1], filled["card"][-1]
    shown = ("10" if rank == "T" else rank) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[suit]
    expected = f"{filled['type']}: pile Tableau pile {index + 1}, from Stock, card {shown}"
    assert text.count(expected) == 2, text  # the move list and the step
    assert filled["pile"] not in text and f"card={filled['card']}" not in text


def test_the_review_names_piles_as_the_play_page_does(staff_client: Client, player: Any) -> None:
    """Not the engine's ids counted from 0 ("tableau:0 → foundation:6") beside boards counted
    from 1: the play page's names in the move list, the step and the boards."""
    clock = play_services.create_game(user=player, variant_slug="grandfathers-clock", seed=1).game
    move = {"type": "move", "from": "tableau:0", "to": "foundation:6"}
    play_services.play_move(user=player, game_id=clock.pk, move=move)
    page = staff_client.get(review_url(clock.pk, step=1)).content.decode()
    page = html.unescape(page)
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert text.count("Tableau pile 1 \u2192 6 o'clock foundation") == 2  # the list and the step
    labels = re.findall(r'<div class="rv-label">([^<]*?) <span>', page)
    assert labels[:12] == ["12 o'clock foundation"] + [
        f"{h} o'clock foundation" for h in range(1, 12)
    ]
    assert "Tableau pile 8" in labels
    assert "foundation:6" not in text and "Foundation 7" not in text


def test_the_reviews_boards_set_the_piles_out_as_the_games_table_does(
    staff_client: Client, player: Any
) -> None:
    """Rows as the play page's: Gold Mine's stock, waste and foundations, then its tableau;
    each card named in words as the engine names it."""
    gold = play_services.create_game(user=player, variant_slug="gold-mine", seed=1).game
    play_services.play_move(user=player, game_id=gold.pk, move={"type": "deal"})
    page = html.unescape(staff_client.get(review_url(gold.pk, step=1)).content.decode())
    board = page[page.index('<div class="rv-board">') :]
    board = board[: board.index('<div class="rv-board">', 1)]
    rows = [re.findall(r'data-pile="([^"]+)"', row) for row in board.split('class="rv-row ')[1:]]
    assert rows == [
        ["stock", "waste", *(f"foundation:{i}" for i in range(4))],
        [f"tableau:{i}" for i in range(7)],
    ]
    titles = re.findall(r'<span class="rv-card[^"]*" title="([^"]+)"', board)
    assert titles and all(" of " in title for title in titles)
    assert any(title.endswith("(face down)") for title in titles)


def test_a_players_replay_of_an_unfinished_game_never_shows_hidden_cards(
    player: Any, player_client: Client, staff: Any
) -> None:
    game = play_moves(player, GFD, None, 5)  # a deal the player did not choose
    api = client_for(player)
    for step in range(game.move_number + 1):
        state = replay(api, game.pk, step)["state"]
        for pile in state["piles"].values():
            assert pile["cards"][: pile["face_down"]] == [None] * pile["face_down"]
        assert state["seed"] is None
    # Staff see it all, the same game at the same time.
    staff_view = client_for(staff).get(f"/api/staff/games/{game.pk}/review/").json()
    assert staff_view["after"] == game.state and staff_view["game"]["seed"] == game.deal.seed
    # And the staff pages are closed to the player.
    response = player_client.get(review_url(game.pk, step=0))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert_error(api.get(f"/api/staff/games/{game.pk}/review/"), 403, "permission_denied")


# -- verification -----------------------------------------------------------------------------


def test_verify_passes_a_game_played_through_the_service(staff_client: Client, game: Game) -> None:
    page = staff_client.get(review_url(game.pk, verify=1)).content.decode()
    assert "replays and matches the stored snapshot" in page


def test_verify_points_at_a_move_edited_in_the_database(staff_client: Client, game: Game) -> None:
    Move.objects.filter(game=game, number=3).update(
        payload={"type": "move", "from": "tableau:0", "to": "tableau:0", "count": 1}
    )
    page = staff_client.get(review_url(game.pk, verify=1)).content.decode()
    assert "step 3 does not replay" in page
    assert "?step=3&amp;verify=1" in page, "a link to the first bad step"
    # The review still shows the history up to the break, and says where it stops.
    assert "Before move 2" in staff_client.get(review_url(game.pk, step=2)).content.decode()
    broken = staff_client.get(review_url(game.pk, step=3)).content.decode()
    assert "does not replay from step 3" in broken and "Before move 3" in broken
    assert "After move 3" not in broken
    with pytest.raises(CommandError):
        call_command("verify_games", game.pk)


def test_verify_points_at_a_legal_move_swapped_in_the_database(
    staff_client: Client, player: Any
) -> None:
    castle = play_moves(player, "selective-castle", 9, 4)
    variant = get_variant("selective-castle")
    before = variant.state_from_json(full_state(castle, 1))
    played = castle.moves.get(number=2).payload
    other = next(m.to_json() for m in variant.legal_moves(before) if m.to_json() != played)
    Move.objects.filter(game=castle, number=2).update(payload=other)
    from games.moderation.verification import verification

    check = verification(Game.objects.get(pk=castle.pk))
    assert not check.ok and check.step is not None
    assert "does not replay" in check.problem or "snapshot differs" in check.problem


def test_verify_catches_a_tampered_snapshot(staff_client: Client, game: Game) -> None:
    state = game.state
    state["piles"]["tableau:0"]["cards"].reverse()
    Game.objects.filter(pk=game.pk).update(state=state)
    page = staff_client.get(review_url(game.pk, verify=1)).content.decode()
    assert "the stored snapshot differs from the replay of the history (piles tableau:0" in page
    assert "The stored snapshot" in page


def test_verify_catches_tampered_counts_of_a_ranked_attempt(
    staff_client: Client, player: Any, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The leaderboards rank by these columns: a ranked attempt's must match the replay too.
    attempt = daily_services.start_daily_attempt(
        user=player, date=days.today(), variant_slug="gold-mine"
    ).game
    play_services.play_move(user=player, game_id=attempt.pk, move={"type": "deal"})
    Game.objects.filter(pk=attempt.pk).update(board_moves=0)
    # Reviewed once its day has closed (test_open_day_sealed.py: not before).
    tomorrow = days.today() + dt.timedelta(days=1)
    monkeypatch.setattr(days, "today", lambda: tomorrow)
    page = staff_client.get(review_url(attempt.pk, verify=1)).content.decode()
    assert "the stored board_moves is 0, the replay says 1" in page
    # A casual game is ranked by nothing (and older ones predate the columns).
    Game.objects.filter(pk=game.pk).update(board_moves=0, cards_home=0)
    page = staff_client.get(review_url(game.pk, verify=1)).content.decode()
    assert "replays and matches" in page


# -- the staff API ----------------------------------------------------------------------------


def test_the_staff_api_reviews_any_game_with_every_card(staff: Any, game: Game) -> None:
    api = client_for(staff)
    response = api.get(f"/api/staff/games/{game.pk}/review/", {"step": 2})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["step"] == 2 and body["game"]["owner"] == "alice"
    assert body["game"]["seed"] == 3, "staff see the seed of a game in play"
    assert body["before"] == full_state(game, 1) and body["after"] == full_state(game, 2)
    assert None not in body["after"]["piles"]["stock"]["cards"]
    assert body["entry"]["number"] == 2 and body["entry"]["gap_ms"] >= 0
    assert [e["number"] for e in body["timeline"]] == [1, 2, 3, 4, 5]
    assert body["verification"] == {"ok": True, "step": None, "problem": None}
    assert body["flags"] == [] and body["game"]["flagged"] is False
    assert_error(api.get("/api/staff/games/999999/review/"), 404, "not_found")
    assert_error(api.get(f"/api/staff/games/{game.pk}/review/", {"step": 9}), 400, "invalid_step")


def test_the_staff_api_refuses_players_and_strangers(game: Game, player: Any) -> None:
    url = f"/api/staff/games/{game.pk}/review/"
    refused = client_for(player).get(url)
    assert_error(refused, 403, "permission_denied")
    assert refused.json()["error"]["message"].startswith("Only staff allowed to review games")
    assert_error(client_for().get(url), 403, "permission_denied")
    from rest_framework.test import APIClient

    assert_error(APIClient().get(url), 401, "not_authenticated")


# -- staff actions, audited -------------------------------------------------------------------


def moderate(client: Client, game_id: int, action: str, reason: str = "because") -> Any:
    return client.post(
        f"/admin/games/game/{game_id}/moderate/", {"action": action, "reason": reason}
    )


def test_staff_flag_and_unflag_a_game_with_a_reason_and_both_are_audited(
    staff_client: Client, staff: Any, game: Game
) -> None:
    response = moderate(staff_client, game.pk, "flag", "moves look scripted")
    assert response.status_code == 302 and response["Location"] == review_url(game.pk)
    flag = GameFlag.objects.get(game=game)
    assert (flag.reason, flag.detail, flag.automatic, flag.created_by) == (
        "staff", "moves look scripted", False, staff
    )  # fmt: skip
    page = staff_client.get(review_url(game.pk)).content.decode()
    assert "moves look scripted" in page and "Unflag" in page

    moderate(staff_client, game.pk, "unflag", "talked to the player: a fast mouse")
    flag.refresh_from_db()
    assert flag.cleared_at is not None and flag.cleared_by == staff
    assert flag.cleared_reason == "talked to the player: a fast mouse"
    log = list(AuditLog.objects.order_by("pk").values("actor", "actor_name", "action", "reason"))
    assert log == [
        {"actor": staff.pk, "actor_name": "referee", "action": "flag",
         "reason": "moves look scripted"},
        {"actor": staff.pk, "actor_name": "referee", "action": "unflag",
         "reason": "talked to the player: a fast mouse"},
    ]  # fmt: skip
    entry = AuditLog.objects.first()
    assert entry.game == game and entry.target == f"game {game.pk} ({GFD}, alice)"
    assert entry.created_at is not None
    audit_page = staff_client.get("/admin/games/auditlog/").content.decode()
    assert "moves look scripted" in audit_page and "referee" in audit_page


def test_a_staff_action_needs_a_reason_and_changes_nothing_without_one(
    staff_client: Client, game: Game
) -> None:
    response = moderate(staff_client, game.pk, "flag", "   ")
    assert response.status_code == 302
    assert not GameFlag.objects.exists() and not AuditLog.objects.exists()
    messages = [str(m) for m in staff_client.get(review_url(game.pk)).context["messages"]]
    assert any("say why" in m for m in messages)
    moderate(staff_client, game.pk, "unflag")  # nothing to clear
    moderate(staff_client, game.pk, "exclude")  # a casual game is on no leaderboard
    assert not AuditLog.objects.exists()
    assert Game.objects.get(pk=game.pk).excluded is False


def test_staff_set_and_remove_a_days_seed_and_both_are_audited(
    staff_client: Client, staff: Any
) -> None:
    tomorrow = days.today() + dt.timedelta(days=1)
    response = staff_client.post(
        "/admin/games/dailychallenge/add/",
        {"date": tomorrow.isoformat(), "variant": "gold-mine", "seed": "1234",
         "reason": "anniversary deal"},
    )  # fmt: skip
    assert response.status_code == 302, response.content[:2000]
    challenge = DailyChallenge.objects.get(date=tomorrow, variant="gold-mine")
    response = staff_client.post(
        f"/admin/games/dailychallenge/{challenge.pk}/change/",
        {"date": tomorrow.isoformat(), "variant": "gold-mine", "seed": "99", "reason": "typo"},
    )
    assert response.status_code == 302, response.content[:2000]
    assert Deal.objects.get(daily_challenges=challenge).seed == 99
    staff_client.post(f"/admin/games/dailychallenge/{challenge.pk}/delete/", {"post": "yes"})
    assert not DailyChallenge.objects.filter(pk=challenge.pk).exists()
    log = list(AuditLog.objects.order_by("pk"))
    assert [e.action for e in log] == ["set_seed", "set_seed", "remove_seed"]
    assert all(e.actor == staff and e.actor_name == "referee" for e in log)
    assert log[0].reason == "anniversary deal" and log[1].reason == "typo"
    assert log[0].details == {
        "date": tomorrow.isoformat(),
        "variant": "gold-mine",
        "seed": 1234,
        "outcome": "unknown",
    }
    assert log[1].details["previous"]["seed"] == 1234 and log[1].details["seed"] == 99
    assert log[2].details["seed"] == 99
    assert log[0].target == f"daily challenge {tomorrow} gold-mine"


def test_the_audit_log_never_names_the_seed_the_worker_chose_for_a_day_to_come(
    staff_client: Client, staff: Any
) -> None:
    """Removing a worker-prepared day, or setting a seed over it, must not write the worker's
    seed down: once staff's seed is gone the worker deals that same seed again (it is the
    day's own), and every staff member reads the log."""
    tomorrow = days.today() + dt.timedelta(days=1)
    later = tomorrow + dt.timedelta(days=1)
    prepared = [challenges.prepare(day, "gold-mine")[0] for day in (tomorrow, later)]
    worker_seeds = [challenge.deal.seed for challenge in prepared]
    daily_services.remove_daily_challenge(actor=staff, challenge=prepared[0], reason="redo")
    form = {"date": later.isoformat(), "variant": "gold-mine", "seed": "77", "reason": "mine"}
    response = staff_client.post(f"/admin/games/dailychallenge/{prepared[1].pk}/change/", form)
    assert response.status_code == 302, response.content[:2000]

    removed, replaced = AuditLog.objects.order_by("pk")
    assert removed.details == {
        "date": tomorrow.isoformat(),
        "variant": "gold-mine",
        "seed": None,
        "candidate": prepared[0].candidate,
    }
    assert replaced.details["seed"] == 77
    assert replaced.details["previous"] == {
        "date": later.isoformat(),
        "variant": "gold-mine",
        "seed": None,
        "candidate": prepared[1].candidate,
    }
    # The worker deals the day again: its seed is the one it chose before, named nowhere.
    assert challenges.prepare(tomorrow, "gold-mine")[0].deal.seed == worker_seeds[0]
    page = staff_client.get("/admin/games/auditlog/").content.decode()
    for entry in (removed, replaced):
        page += staff_client.get(f"/admin/games/auditlog/{entry.pk}/change/").content.decode()
    assert not any(str(seed) in page for seed in worker_seeds)


# -- who gets in ------------------------------------------------------------------------------


ADMIN_PAGES = [
    "/admin/",
    "/admin/auth/user/",
    "/admin/games/deal/",
    "/admin/games/dailychallenge/",
    "/admin/games/game/",
    "/admin/games/move/",
    "/admin/games/gameflag/",
    "/admin/games/auditlog/",
]


def test_players_and_strangers_reach_no_admin_or_review_page(
    player_client: Client, game: Game
) -> None:
    pages = [
        *ADMIN_PAGES,
        f"/admin/games/game/{game.pk}/change/",
        review_url(game.pk),
        review_url(game.pk, step=1, partial=1),
    ]
    for client in (player_client, Client()):
        for url in pages:
            response = client.get(url)
            assert response.status_code == 302, url
            assert response["Location"].startswith("/admin/login/"), url
            assert b"face down" not in response.content
        for action in ("flag", "exclude"):
            response = moderate(client, game.pk, action)
            assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert not GameFlag.objects.exists() and not AuditLog.objects.exists()


def test_staff_without_permissions_cannot_review_or_act(django_user_model: Any, game: Game) -> None:
    helper = django_user_model.objects.create_user("helper", password="pw", is_staff=True)
    client = Client()
    client.force_login(helper)
    assert client.get(review_url(game.pk)).status_code == 403
    assert moderate(client, game.pk, "flag").status_code == 403
    # Nor does the staff API show such an account a single card.
    api_url = f"/api/staff/games/{game.pk}/review/"
    assert_error(client_for(helper).get(api_url), 403, "permission_denied")
    # Viewing is not acting: the review opens, the actions do not.
    helper.user_permissions.add(Permission.objects.get(codename="view_game"))
    helper = django_user_model.objects.get(pk=helper.pk)
    client.force_login(helper)
    page = client.get(review_url(game.pk))
    assert page.status_code == 200 and b"Staff actions" not in page.content
    assert client_for(helper).get(api_url).status_code == 200
    assert moderate(client, game.pk, "flag").status_code == 403
    assert not GameFlag.objects.exists()


def test_the_review_of_a_missing_game_is_404(staff_client: Client) -> None:
    assert staff_client.get(review_url(424242)).status_code == 404


def test_players_api_tokens_are_not_shown_or_made_in_the_admin(
    staff_client: Client, player: Any
) -> None:
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=player)
    for url in ("/admin/authtoken/tokenproxy/", "/admin/authtoken/tokenproxy/add/"):
        response = staff_client.get(url)
        assert response.status_code == 404, url
        assert token.key not in response.content.decode()
    index = staff_client.get("/admin/").content.decode()
    assert "tokenproxy" not in index.lower()


def test_the_flag_list_names_the_player_and_filters_by_game_and_day(
    staff_client: Client, staff: Any, game: Game, django_assert_max_num_queries: Any
) -> None:
    other = play_moves(make_user("bob"), "gold-mine", 77, 2)
    for flagged in (game, other):
        moderation.flag_game(actor=staff, game_id=flagged.pk, reason="check")
    with django_assert_max_num_queries(8):
        response = staff_client.get("/admin/games/gameflag/")
    text = response.content.decode()
    assert "alice" in text and "bob" in text
    listing = staff_client.get("/admin/games/gameflag/", {"game__deal__variant": "gold-mine"})
    assert listing.status_code == 200
    assert [flag.game_id for flag in listing.context["cl"].result_list] == [other.pk]


@pytest.mark.parametrize(
    ("ms", "text"),
    [
        (0, "0 ms"),
        (999.4, "999 ms"),
        (999.6, "1.00 s"),
        (59_994, "59.99 s"),
        (59_999, "1 min 0 s"),
        (119_600, "2 min 0 s"),
        (3_599_400, "59 min 59 s"),
        (3_599_600, "1 h 0 min"),
        (5_460_000, "1 h 31 min"),
    ],
)
def test_times_are_rounded_before_they_are_split_into_units(ms: float, text: str) -> None:
    assert duration_text(ms) == text


def test_the_audit_logs_actions_are_labelled_alike_in_its_filter_and_column() -> None:
    labels = [str(label) for label in AuditLog.Action.labels]
    assert all(label[0].isupper() for label in labels), labels
