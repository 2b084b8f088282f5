"""How a closed day's deal could be won: the solver's certificate, kept from everybody until
the day has closed (like the seed), then at GET /api/daily/{date}/{game}/solution/; and what
players may know before (a difficulty, "proven winnable")."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.test import Client

from games.daily import challenges
from games.models import DailyChallenge
from games.rules import describe, get_variant
from tests.games.helpers import (
    DAY,
    DailyClock,
    anonymous_client,
    assert_error,
    client_for,
    make_user,
    play,
    start_daily,
)

pytestmark = pytest.mark.django_db

CLOCK = "grandfathers-clock"
#: A move no board of Grandfather's Clock would list: it only ever comes from the certificate.
MARKER = {"type": "move", "from": "tableau:5", "to": "foundation:9", "count": 77}


@pytest.fixture
def certified(settings: Any) -> DailyChallenge:
    """Today's Grandfather's Clock, proven by the real solver on the service's budget."""
    settings.DAILY_SOLVER_POSITIONS = 2_000_000
    settings.DAILY_SOLVER_SECONDS = 10.0
    challenge, _ = challenges.prepare(DAY, CLOCK)
    assert challenge.proven
    return challenge


def solution_url(date: dt.date = DAY, slug: str = CLOCK) -> str:
    return f"/api/daily/{date}/{slug}/solution/"


def challenge_in(body: dict[str, Any], slug: str) -> dict[str, Any]:
    (found,) = [c for c in body["challenges"] if c["variant"] == slug]
    return found


def test_the_solution_is_not_yet_shown_while_the_day_is_open_or_to_come(
    clock: DailyClock, certified: DailyChallenge
) -> None:
    for client in (anonymous_client(), client_for()):
        error = assert_error(client.get(solution_url()), 404, "not_yet")
        assert "once its day has closed" in error["message"]
    tomorrow = DAY + dt.timedelta(days=1)
    assert_error(anonymous_client().get(solution_url(tomorrow)), 404, "not_yet")


def test_after_the_day_closes_anyone_sees_how_it_could_be_won(
    clock: DailyClock, certified: DailyChallenge
) -> None:
    clock.advance()
    response = anonymous_client().get(solution_url())
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {"date", "variant", "seed", "moves", "length", "said", "solver"}
    assert body["date"] == DAY.isoformat() and body["variant"] == CLOCK
    assert body["seed"] == certified.deal.seed
    assert body["moves"] == certified.solution and body["length"] == len(certified.solution)
    assert body["solver"] == certified.solver
    variant = get_variant(CLOCK)
    state = variant.deal(body["seed"])
    for move in body["moves"]:
        state = variant.apply(state, move)
    assert variant.status(state) == "won", "the line wins the deal"


def test_each_move_of_the_solution_names_its_cards_in_a_players_words(
    clock: DailyClock, certified: DailyChallenge
) -> None:
    clock.advance()
    body = anonymous_client().get(solution_url()).json()
    variant = get_variant(CLOCK)
    state = variant.deal(body["seed"])
    assert len(body["said"]) == len(body["moves"])
    for move, said in zip(body["moves"], body["said"], strict=True):
        pile = variant.state_to_json(state)["piles"][move["from"]]["cards"]
        card = describe.card_words(pile[-1])  # Grandfather's Clock moves one card at a time
        assert said.startswith(f"{card} from "), said
        assert "tableau" not in said and "\u2192" not in said
        state = variant.apply(state, move)
    assert body["said"][-1].endswith("the game is won")


def test_the_solution_steps_through_from_the_deal_to_the_win(
    clock: DailyClock, certified: DailyChallenge
) -> None:
    clock.advance()
    client = anonymous_client()
    variant = get_variant(CLOCK)
    deal = client.get(solution_url(), {"step": 0}).json()
    assert deal["step"] == 0 and deal["events"] == []
    assert deal["state"] == variant.state_to_json(variant.deal(certified.deal.seed))
    length = len(certified.solution)
    end = client.get(solution_url(), {"step": length}).json()
    assert variant.status(variant.state_from_json(end["state"])) == "won"
    assert {"type": "game_won"} in end["events"]
    for bad in (length + 1, -1, "x"):
        assert_error(client.get(solution_url(), {"step": bad}), 400, "invalid_step")


def test_a_day_without_a_proven_line_has_no_solution_to_show(
    clock: DailyClock, settings: Any
) -> None:
    settings.DAILY_SOLVER_POSITIONS = 10  # nothing is proven on this budget
    past = DAY - dt.timedelta(days=1)
    challenge, _ = challenges.prepare(past, "gold-mine")
    assert not challenge.proven
    assert_error(anonymous_client().get(solution_url(past, "gold-mine")), 404, "no_solution")
    other = DAY - dt.timedelta(days=9)  # never prepared: said as such, not as unproven
    response = anonymous_client().get(solution_url(other, "gold-mine"))
    assert_error(response, 404, "no_challenge")
    assert response.json()["error"]["message"] == f"There was no Gold Mine challenge on {other}."
    assert_error(anonymous_client().get(solution_url(past, "klondike")), 404, "unknown_variant")
    response = anonymous_client().get("/api/daily/2031-02-30/gold-mine/solution/")
    assert_error(response, 404, "no_such_day")


def test_each_day_says_how_hard_its_deals_are_and_that_they_are_proven_winnable(
    clock: DailyClock, certified: DailyChallenge
) -> None:
    today = challenge_in(anonymous_client().get("/api/daily/").json(), CLOCK)
    assert today["ready"] is True and today["proven_winnable"] is True
    assert today["difficulty"] == certified.difficulty
    assert today["difficulty"] in ("easy", "medium", "hard", "expert")
    assert today["solution_available"] is False and today["seed"] is None
    clock.advance()
    before = {"date": DAY.isoformat()}
    closed = challenge_in(anonymous_client().get("/api/daily/", before).json(), CLOCK)
    assert closed["solution_available"] is True
    assert closed["seed"] == certified.deal.seed


# -- the certificate stays secret until the day has closed -------------------------------------


def leaks(content: bytes) -> list[str]:
    """What of the certificate a response shows: the key it is stored under, or its line."""
    text = content.decode()
    found = [key for key in ('"solution"', "'solution'", "certificate") if key in text]
    squeezed = text.replace(" ", "")
    if json.dumps(MARKER, separators=(",", ":")) in squeezed or '"count":77' in squeezed:
        found.append("a move of the line")
    return found


def test_the_certificate_reaches_nobody_before_the_day_has_closed(
    clock: DailyClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    def stand_in(
        slug: str, seed: int, *, pool: str = "daily", positions: int | None = None
    ) -> challenges.Certificate:
        return challenges.Certificate(slug, seed, "won", [MARKER] * 3, {"positions": 5}, "easy")

    monkeypatch.setattr(challenges, "solve_seed", stand_in)
    challenges.prepare(DAY, CLOCK)
    user = make_user("keen")
    api = client_for(user)
    game = start_daily(api, DAY, CLOCK)
    home = next((m for m in game["legal_moves"] if m["to"].startswith("foundation")), None)
    play(api, game["id"], home or game["legal_moves"][0])
    api.post(f"/api/games/{game['id']}/resign/", {}, format="json")

    browser = Client()
    browser.force_login(user)
    staff = make_user("boss")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    staff_api = client_for(staff)
    responses = {
        "overview": api.get("/api/daily/"),
        "overview, anonymous": anonymous_client().get("/api/daily/"),
        "the attempt": api.get(f"/api/games/{game['id']}/"),
        "its history": api.get(f"/api/games/{game['id']}/moves/"),
        "its replay": api.get(f"/api/games/{game['id']}/replay/", {"step": 1}),
        "the games": api.get("/api/games/"),
        "the day's board": api.get(f"/api/leaderboards/daily/{DAY}/{CLOCK}/"),
        "the profile": api.get(f"/api/players/{user.username}/"),
        "the solution": api.get(solution_url()),
        "staff review": staff_api.get(f"/api/staff/games/{game['id']}/review/"),
        "daily page": browser.get("/daily/"),
        "board page": browser.get(f"/daily/{DAY}/{CLOCK}/"),
        "replay page": browser.get(f"/replay/{game['id']}/"),
    }
    export = api.get("/api/me/export/")
    responses["export"] = type("R", (), {"content": b"".join(export.streaming_content)})()
    for what, response in responses.items():
        assert not leaks(response.content), (what, leaks(response.content))

    clock.advance()
    assert leaks(anonymous_client().get(solution_url()).content) == ["a move of the line"]
