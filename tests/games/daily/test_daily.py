"""Daily challenges: one secret deal per game and UTC day, one ranked attempt each, casual
replays, what a player may see before and after the day closes, and the streaks.

"Today" is whatever ``games.core.days.today`` says: the ``clock`` fixture sets it (and moves it
on),
so the tests never depend on the real date.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from games.core import days
from games.core.history import line_of_play
from games.daily import services as daily_services
from games.models import DailyChallenge, Game
from games.rules import MAX_SEED, get_variant
from tests.games.helpers import (
    DAY,
    REPRESENTATION_KEYS,
    SLUGS,
    DailyClock,
    anonymous_client,
    assert_error,
    client_for,
    daily_game,
    daily_url,
    detail,
    make_user,
    play,
    replay,
    solve,
    staff_challenge,
    start_daily,
    unchanged,
)

pytestmark = pytest.mark.django_db


def overview(client: Any, date: dt.date | None = None) -> dict[str, Any]:
    response = client.get("/api/daily/", {"date": date.isoformat()} if date else {})
    assert response.status_code == 200, response.content
    return response.json()


def challenge_of(body: dict[str, Any], slug: str) -> dict[str, Any]:
    (found,) = [c for c in body["challenges"] if c["variant"] == slug]
    return found


def stored(game_id: int) -> Game:
    return Game.objects.select_related("deal", "daily").get(pk=game_id)


def summary(client: Any, game_id: int) -> dict[str, Any]:
    response = client.get("/api/games/")
    assert response.status_code == 200, response.content
    (found,) = [g for g in response.json()["results"] if g["id"] == game_id]
    return found


def losing_line(slug: str, seed: int) -> list[dict[str, Any]]:
    """A line that loses the deal: deal whenever the stock allows, else the first legal move."""
    variant = get_variant(slug)
    state, line = variant.deal(seed), []
    for _ in range(300):
        if variant.status(state) != "playing":
            break
        moves = variant.legal_moves(state)
        move = next((m for m in moves if m.type == "deal"), moves[0])
        line.append(move.to_json())
        state = variant.apply(state, move)
    assert variant.status(state) == "lost", f"{slug} #{seed} is not lost this way"
    return line


def resign(client: Any, game_id: int) -> dict[str, Any]:
    response = client.post(f"/api/games/{game_id}/resign/", {}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


# -- the deal of the day ----------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_every_player_gets_the_same_deal_of_the_day(clock: DailyClock, slug: str) -> None:
    first, second = client_for(), client_for()
    mine = start_daily(first, DAY, slug)
    theirs = start_daily(second, DAY, slug)
    assert set(mine) == REPRESENTATION_KEYS
    assert mine["id"] != theirs["id"]
    assert mine["state"] == theirs["state"], "the same deal for everybody"
    assert mine["legal_moves"] == theirs["legal_moves"]
    # The day's first candidate, unless the solver proved it lost (then a later one: in
    # Blondes and Brunettes this day's first candidate is a reserve dead end).
    seed = DailyChallenge.objects.get(date=DAY, variant=slug).deal.seed
    candidates = [days.daily_seed(DAY, slug, n) for n in range(3)]
    assert seed in candidates
    variant = get_variant(slug)
    assert mine["state"] == variant.player_view(variant.deal(seed), reveal_seed=False)
    for game in (mine, theirs):
        assert game["variant"] == slug
        assert game["ranked"] is True
        assert game["daily"] == DAY.isoformat()
        assert game["seed"] is None and game["state"]["seed"] is None
        assert game["status"] == "playing" and game["move_number"] == 0
    games = Game.objects.filter(pk__in=[mine["id"], theirs["id"]])
    assert {(g.deal.seed, g.daily.date, g.daily.variant) for g in games} == {(seed, DAY, slug)}
    assert DailyChallenge.objects.filter(date=DAY, variant=slug).count() == 1


def test_each_day_and_game_has_its_own_seed() -> None:
    week = [DAY + dt.timedelta(days=n) for n in range(-3, 4)]
    seeds = [days.daily_seed(day, slug) for day in week for slug in SLUGS]
    assert len(set(seeds)) == len(seeds)
    assert all(0 <= seed <= MAX_SEED for seed in seeds)
    assert days.daily_seed(DAY, "gold-mine") == days.daily_seed(DAY, "gold-mine"), "stable"


def test_the_daily_seed_depends_on_the_server_secret(clock: DailyClock, settings: Any) -> None:
    """The date alone does not give the seed: another secret, another deal."""
    settings.DAILY_SECRET = "one server secret"
    first = {slug: days.daily_seed(DAY, slug) for slug in SLUGS}
    settings.DAILY_SECRET = "another server secret"
    second = {slug: days.daily_seed(DAY, slug) for slug in SLUGS}
    for slug in SLUGS:
        assert first[slug] != second[slug], slug
        assert first[slug] not in (DAY.toordinal(), int(DAY.strftime("%Y%m%d")))

    game = start_daily(client_for(), DAY, "gold-mine")
    assert stored(game["id"]).deal.seed == second["gold-mine"], "the secret in force deals"


def test_the_day_keeps_the_deal_it_was_made_with(clock: DailyClock, settings: Any) -> None:
    """The challenge is stored on first use: a later secret does not change today's deal."""
    settings.DAILY_SECRET = "one server secret"
    early = start_daily(client_for(), DAY, "selective-castle")
    settings.DAILY_SECRET = "another server secret"
    late = start_daily(client_for(), DAY, "selective-castle")
    assert stored(late["id"]).deal_id == stored(early["id"]).deal_id
    assert late["state"] == early["state"]


def test_staff_set_a_future_days_seed_and_that_day_deals_it(clock: DailyClock) -> None:
    slug, day = "grounds-for-divorce", DAY + dt.timedelta(days=2)
    staff_challenge(day, slug, 4242)
    assert days.daily_seed(day, slug) != 4242
    client = client_for()

    ahead = challenge_of(overview(client, day), slug)
    assert ahead["seed"] is None, "a chosen seed is as secret as a computed one"
    assert ahead["can_attempt"] is False
    assert_error(client.post(daily_url(day, slug, "attempt")), 409, "challenge_not_open")

    clock.advance(2)
    variant = get_variant(slug)
    expected = variant.player_view(variant.deal(4242), reveal_seed=False)
    for player in (client, client_for()):
        game = start_daily(player, day, slug)
        assert game["state"] == expected
        assert game["seed"] is None
        assert stored(game["id"]).deal.seed == 4242
    assert challenge_of(overview(client), slug)["seed"] is None
    other = start_daily(client, day, "gold-mine")
    assert stored(other["id"]).deal.seed == days.daily_seed(day, "gold-mine"), "only that game"

    clock.advance()
    assert challenge_of(overview(client, day), slug)["seed"] == 4242


# -- starting an attempt ----------------------------------------------------------------------


def test_one_ranked_attempt_per_player_game_and_day(clock: DailyClock) -> None:
    user = make_user()
    client = client_for(user)
    first = start_daily(client, DAY, "gold-mine")
    response = client.post(daily_url(DAY, "gold-mine", "attempt"), format="json")
    error = assert_error(response, 409, "attempt_exists")
    assert error["game_id"] == first["id"]
    resign(client, first["id"])
    error = assert_error(client.post(daily_url(DAY, "gold-mine", "attempt")), 409, "attempt_exists")
    assert error["game_id"] == first["id"], "a finished attempt still counts"
    assert Game.objects.filter(owner=user, ranked=True).count() == 1

    # The other games of the day, and other players, are not affected.
    start_daily(client, DAY, "selective-castle")
    start_daily(client_for(), DAY, "gold-mine")
    assert Game.objects.filter(owner=user, ranked=True).count() == 2


def test_an_attempt_is_only_made_on_its_own_day(clock: DailyClock) -> None:
    user = make_user()
    client = client_for(user)
    for offset, code in ((-1, "challenge_closed"), (-30, "challenge_closed")):
        day = DAY + dt.timedelta(days=offset)
        assert_error(client.post(daily_url(day, "gold-mine", "attempt")), 409, code)
    for offset in (1, 7):
        day = DAY + dt.timedelta(days=offset)
        response = client.post(daily_url(day, "gold-mine", "attempt"))
        assert_error(response, 409, "challenge_not_open")
    assert not Game.objects.filter(owner=user).exists()


@pytest.mark.parametrize("action", ["attempt", "replay"])
def test_daily_paths_refuse_unknown_games_bad_dates_and_anonymous_players(
    clock: DailyClock, action: str
) -> None:
    client = client_for()
    assert_error(client.post(daily_url(DAY, "klondike", action)), 404, "unknown_variant")
    for bad in ("20310510", "today", "2031-5-10"):
        response = client.post(f"/api/daily/{bad}/gold-mine/{action}/")
        assert_error(response, 404, "not_found")
    for bad in ("2031-02-30", "2031-13-01"):  # a day's shape, not a day: said in words
        response = client.post(f"/api/daily/{bad}/gold-mine/{action}/")
        error = assert_error(response, 404, "no_such_day")
        assert error["message"] == (
            f"There is no day {bad}. A day is a date of the calendar, written YYYY-MM-DD."
        )
    assert_error(
        anonymous_client().post(daily_url(DAY, "gold-mine", action)), 401, "not_authenticated"
    )
    assert not Game.objects.exists()


def test_a_ranked_attempt_has_no_undo(clock: DailyClock) -> None:
    """Selective Castle shows every card, so only rankedness can refuse the undo."""
    client = client_for()
    game = start_daily(client, DAY, "selective-castle")
    play(client, game["id"], game["legal_moves"][0])
    with unchanged(client, game["id"]):
        response = client.post(f"/api/games/{game['id']}/undo/", {}, format="json")
        assert_error(response, 409, "undo_not_allowed")
    assert stored(game["id"]).undo_count == 0

    # The casual replay of the same deal, once the day has closed, may undo.
    resign(client, game["id"])
    clock.advance()
    casual = start_daily(client, DAY, "selective-castle", "replay")
    play(client, casual["id"], casual["legal_moves"][0])
    response = client.post(f"/api/games/{casual['id']}/undo/", {}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["state"] == casual["state"]


# -- what a player sees before and after the day closes -------------------------------------


def assert_replays(client: Any, game_id: int, *, full: bool) -> None:
    """Every step of the replay is the server's board at that step: the player's view (no
    face-down card, no stock order, no seed) or, with ``full``, every card and the seed."""
    game = stored(game_id)
    variant = get_variant(game.deal.variant)
    payloads = list(game.moves.order_by("number").values_list("payload", flat=True))
    line = line_of_play(variant, game.deal, payloads)
    for step, state in enumerate(line):
        shown = replay(client, game_id, step)
        assert shown["step"] == step and shown["move_number"] == len(payloads)
        if full:
            assert shown["state"] == variant.state_to_json(state), step
            assert all(c is not None for p in shown["state"]["piles"].values() for c in p["cards"])
        else:
            assert shown["state"] == variant.player_view(state, reveal_seed=False), step
            assert shown["state"]["seed"] is None


def assert_seed_hidden(client: Any, game_id: int) -> None:
    game = detail(client, game_id)
    assert game["seed"] is None and game["state"]["seed"] is None
    assert summary(client, game_id)["seed"] is None
    assert challenge_of(overview(client, DAY), game["variant"])["seed"] is None
    text = b"".join(
        client.get(url).content
        for url in ("/api/games/", f"/api/games/{game_id}/", f"/api/games/{game_id}/moves/")
    )
    seed = stored(game_id).deal.seed
    if seed > 10**6:  # a short number could turn up anywhere
        assert str(seed).encode() not in text


def assert_seed_shown(client: Any, game_id: int) -> None:
    seed = stored(game_id).deal.seed
    game = detail(client, game_id)
    assert game["seed"] == seed and game["state"]["seed"] == seed
    assert summary(client, game_id)["seed"] == seed
    assert challenge_of(overview(client, DAY), game["variant"])["seed"] == seed


@pytest.mark.parametrize("slug", SLUGS)
def test_a_resigned_attempt_keeps_the_deal_secret_until_the_day_closes(
    clock: DailyClock, slug: str
) -> None:
    client = client_for()
    game = start_daily(client, DAY, slug)
    for _ in range(3):
        legal = game["legal_moves"]
        game = play(client, game["id"], next((m for m in legal if m["type"] == "deal"), legal[0]))
    finished = resign(client, game["id"])
    assert finished["status"] == "resigned"
    assert finished["seed"] is None and finished["state"]["seed"] is None
    assert finished["state"] == game["state"], "resigning turns no card over"
    assert_seed_hidden(client, game["id"])
    assert_replays(client, game["id"], full=False)
    attempt = challenge_of(overview(client), slug)["your_attempt"]
    assert attempt["status"] == "resigned"

    clock.advance()
    assert_seed_shown(client, game["id"])
    assert_replays(client, game["id"], full=True)
    assert challenge_of(overview(client), slug)["seed"] is None, "the new day is secret"


@pytest.mark.parametrize(("slug", "seed"), [("gold-mine", 0), ("grounds-for-divorce", 12)])
def test_a_lost_attempt_keeps_the_deal_secret_until_the_day_closes(
    clock: DailyClock, slug: str, seed: int
) -> None:
    line = losing_line(slug, seed)
    staff_challenge(DAY, slug, seed)
    client = client_for()
    game = start_daily(client, DAY, slug)
    for move in line:
        game = play(client, game["id"], move)
    assert game["status"] == "lost"
    assert game["seed"] is None and game["state"]["seed"] is None
    assert_seed_hidden(client, game["id"])
    assert_replays(client, game["id"], full=False)
    assert challenge_of(overview(client), slug)["your_attempt"]["status"] == "lost"

    clock.advance()
    assert_seed_shown(client, game["id"])
    assert_replays(client, game["id"], full=True)


def test_a_won_attempt_keeps_the_seed_secret_until_the_day_closes(clock: DailyClock) -> None:
    line = solve("grandfathers-clock", 0)
    assert line is not None
    staff_challenge(DAY, "grandfathers-clock", 0)
    client = client_for()
    game = start_daily(client, DAY, "grandfathers-clock")
    for move in line:
        game = play(client, game["id"], move)
    assert game["status"] == "won"
    assert game["seed"] is None and game["state"]["seed"] is None
    assert_seed_hidden(client, game["id"])
    assert_replays(client, game["id"], full=False)
    attempt = challenge_of(overview(client), "grandfathers-clock")["your_attempt"]
    assert attempt == {
        "game_id": game["id"],
        "status": "won",
        "cards_home": 52,
        "moves": len(line),
        "rank": 1,
    }

    clock.advance()
    assert_seed_shown(client, game["id"])
    assert detail(client, game["id"])["seed"] == 0
    assert_replays(client, game["id"], full=True)


def test_a_casual_replay_of_a_closed_days_deal_shows_it_as_the_attempt_does(
    clock: DailyClock,
) -> None:
    client = client_for()
    attempt = start_daily(client, DAY, "gold-mine")
    resign(client, attempt["id"])

    clock.advance()
    casual = start_daily(client, DAY, "gold-mine", "replay")
    assert casual["seed"] == detail(client, attempt["id"])["seed"] is not None
    play(client, casual["id"], {"type": "deal"})
    resign(client, casual["id"])
    assert_seed_shown(client, casual["id"])
    assert_replays(client, casual["id"], full=True)


def test_an_unfinished_attempt_cannot_be_played_on_once_the_day_has_closed(
    clock: DailyClock,
) -> None:
    """After midnight the seed, and so every hidden card, is public: an attempt still in play
    must not go on improving its rank with the whole deal known."""
    client = client_for()
    game = start_daily(client, DAY, "gold-mine")
    game = play(client, game["id"], {"type": "deal"})
    board_before = client.get(f"/api/leaderboards/daily/{DAY}/gold-mine/").json()

    clock.advance()
    assert detail(client, game["id"])["seed"] == stored(game["id"]).deal.seed
    before = detail(client, game["id"])
    response = client.post(
        f"/api/games/{game['id']}/moves/", {"move": {"type": "deal"}}, format="json"
    )
    assert_error(response, 409, "challenge_closed")
    # The move is not played: the attempt stands as it was left (closed by the refusal, if the
    # day closer had not reached it, as the closer would have), and so does its rank.
    after = detail(client, game["id"])
    assert after["state"] == before["state"] and after["counts"] == before["counts"]
    assert after["status"] == "closed"
    board_after = client.get(f"/api/leaderboards/daily/{DAY}/gold-mine/").json()
    assert without_status(board_after) == without_status(board_before)


def without_status(board: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in entry.items() if k != "status"} for entry in board["results"]]


# -- casual replays ---------------------------------------------------------------------------


def test_no_replay_while_the_day_is_open_not_even_after_ones_own_attempt(
    clock: DailyClock,
) -> None:
    """A replay deals the day's deal face up to the end of its stock: a second account would
    then play its ranked attempt knowing every card. So it waits for the day to close."""
    user = make_user()
    client = client_for(user)
    url = daily_url(DAY, "grounds-for-divorce", "replay")
    assert_error(client.post(url), 409, "replay_after_day")
    attempt = start_daily(client, DAY, "grounds-for-divorce")
    assert_error(client.post(url), 409, "replay_after_day")
    play(client, attempt["id"], attempt["legal_moves"][0])
    resign(client, attempt["id"])
    error = assert_error(client.post(url), 409, "replay_after_day")
    assert "once the day closes at midnight UTC" in error["message"]
    assert Game.objects.filter(owner=user).count() == 1

    clock.advance()
    casual = start_daily(client, DAY, "grounds-for-divorce", "replay")
    assert set(casual) == REPRESENTATION_KEYS
    assert casual["ranked"] is False
    assert casual["daily"] == DAY.isoformat()
    assert casual["id"] != attempt["id"]
    assert casual["move_number"] == 0 and casual["status"] == "playing"
    assert stored(casual["id"]).deal_id == stored(attempt["id"]).deal_id


def test_a_second_account_learns_nothing_of_the_open_days_deal_from_the_firsts_replay(
    clock: DailyClock,
) -> None:
    """The attack of issue 45: resign the ranked attempt at once, replay the deal, deal the
    whole stock, and play a second account's attempt knowing every card."""
    first = client_for(make_user("first"))
    attempt = start_daily(first, DAY, "gold-mine")
    resign(first, attempt["id"])
    url = daily_url(DAY, "gold-mine", "replay")
    with unchanged(first, attempt["id"]):
        assert_error(first.post(url), 409, "replay_after_day")
    assert list(Game.objects.values_list("pk", flat=True)) == [attempt["id"]]
    assert detail(first, attempt["id"])["seed"] is None

    second = client_for(make_user("second"))
    assert_error(second.post(url), 409, "replay_after_day")
    second_attempt = start_daily(second, DAY, "gold-mine")
    assert second_attempt["seed"] is None and second_attempt["state"]["seed"] is None

    # Once the day has closed, the replay opens to both (the deal is public then).
    clock.advance()
    for client in (first, second):
        casual = start_daily(client, DAY, "gold-mine", "replay")
        assert casual["seed"] == days.daily_seed(DAY, "gold-mine")


def test_a_refused_replay_makes_nothing_not_even_the_days_challenge(clock: DailyClock) -> None:
    url = daily_url(DAY, "selective-castle", "replay")
    assert_error(client_for().post(url), 409, "replay_after_day")
    assert not DailyChallenge.objects.filter(date=DAY).exists()


def test_the_calendars_last_day_has_an_overview(clock: DailyClock) -> None:
    body = overview(anonymous_client(), dt.date.max)
    assert body["date"] == "9999-12-31"
    assert body["closes_at"].startswith("9999-12-31T23:59:59")


def test_a_replay_is_open_to_anyone_once_the_day_is_over_and_never_before_it(
    clock: DailyClock,
) -> None:
    client = client_for()
    past = DAY - dt.timedelta(days=3)
    casual = start_daily(client, past, "blondes-and-brunettes", "replay")
    assert casual["ranked"] is False and casual["daily"] == past.isoformat()
    seed = days.daily_seed(past, "blondes-and-brunettes")
    assert casual["seed"] == seed, "the day has closed: its seed is public"
    variant = get_variant("blondes-and-brunettes")
    assert casual["state"] == variant.player_view(variant.deal(seed), reveal_seed=True)
    assert not Game.objects.filter(ranked=True).exists()

    future = DAY + dt.timedelta(days=1)
    response = client.post(daily_url(future, "blondes-and-brunettes", "replay"))
    assert_error(response, 409, "challenge_not_open")


def test_a_replay_is_no_attempt_and_never_ranks(clock: DailyClock) -> None:
    user = make_user("replayer")
    client = client_for(user)
    attempt = start_daily(client, DAY, "gold-mine")
    play(client, attempt["id"], attempt["legal_moves"][0])
    resign(client, attempt["id"])
    error = assert_error(client.post(daily_url(DAY, "gold-mine", "attempt")), 409)
    assert error["code"] == "attempt_exists" and error["game_id"] == attempt["id"]
    clock.advance()
    casual = start_daily(client, DAY, "gold-mine", "replay")
    Game.objects.filter(pk=casual["id"]).update(status="won", cards_home=52, board_moves=1)

    challenge = challenge_of(overview(client, DAY), "gold-mine")
    assert challenge["attempts"] == 1
    assert challenge["can_attempt"] is False
    assert challenge["your_attempt"]["game_id"] == attempt["id"]
    board = client.get(f"/api/leaderboards/daily/{DAY}/gold-mine/").json()
    assert board["count"] == 1
    assert [(e["user"], e["status"]) for e in board["results"]] == [("replayer", "resigned")]


# -- GET /api/daily/ --------------------------------------------------------------------------


def test_the_days_challenges_for_an_anonymous_visitor(clock: DailyClock) -> None:
    body = overview(anonymous_client())
    assert set(body) == {"date", "today", "open", "closes_at", "challenges", "streaks"}
    assert body["date"] == body["today"] == DAY.isoformat()
    assert body["open"] is True
    closes = dt.datetime.fromisoformat(body["closes_at"].replace("Z", "+00:00"))
    assert closes == dt.datetime(2031, 5, 11, tzinfo=dt.UTC)
    assert body["streaks"] is None
    assert [c["variant"] for c in body["challenges"]] == SLUGS
    for challenge in body["challenges"]:
        assert challenge == {
            "variant": challenge["variant"],
            "name": get_variant(challenge["variant"]).name,
            "seed": None,
            "attempts": 0,
            "can_attempt": False,
            "your_attempt": None,
            "ready": False,  # nothing prepared the day here (tests/games/daily/test_challenges.py)
            "proven_winnable": False,
            "difficulty": None,
            "solution_available": False,
            "leader": None,  # nobody on the board yet
        }


def test_the_days_challenges_with_my_attempt(clock: DailyClock) -> None:
    client = client_for()
    body = overview(client)
    assert all(c["can_attempt"] and c["your_attempt"] is None for c in body["challenges"])
    assert body["streaks"] is not None

    game = start_daily(client, DAY, "selective-castle")
    mine = challenge_of(overview(client), "selective-castle")
    assert mine["can_attempt"] is False
    assert mine["attempts"] == 1
    assert mine["your_attempt"] == {
        "game_id": game["id"],
        "status": "playing",
        "cards_home": 0,
        "moves": 0,
        "rank": 1,
    }
    others = [c for c in overview(client)["challenges"] if c["variant"] != "selective-castle"]
    assert all(c["can_attempt"] and c["your_attempt"] is None for c in others)

    # Another player puts a card home: they pass me.
    rival = client_for()
    theirs = start_daily(rival, DAY, "selective-castle")
    home = next(m for m in theirs["legal_moves"] if m["to"].startswith("foundation"))
    play(rival, theirs["id"], home)
    mine = challenge_of(overview(client), "selective-castle")
    assert mine["attempts"] == 2
    assert mine["your_attempt"]["rank"] == 2
    assert challenge_of(overview(rival), "selective-castle")["your_attempt"] == {
        "game_id": theirs["id"],
        "status": "playing",
        "cards_home": 1,
        "moves": 1,
        "rank": 1,
    }


def test_another_days_challenges(clock: DailyClock) -> None:
    user = make_user()
    client = client_for(user)
    past = DAY - dt.timedelta(days=2)
    game = daily_game(user, past, "gold-mine", status="resigned", board_moves=4)
    prepared = {slug: daily_services.daily_challenge(past, slug) for slug in SLUGS}
    body = overview(client, past)
    assert body["date"] == past.isoformat() and body["today"] == DAY.isoformat()
    assert body["open"] is False
    for challenge in body["challenges"]:
        made = prepared[challenge["variant"]]
        assert challenge["seed"] == made.deal.seed
        assert made.deal.seed == days.daily_seed(past, challenge["variant"], made.candidate)
        assert challenge["can_attempt"] is False
    mine = challenge_of(body, "gold-mine")["your_attempt"]
    assert mine == {
        "game_id": game.pk,
        "status": "resigned",
        "cards_home": 0,
        "moves": 4,
        "rank": 1,
    }

    future = overview(client, DAY + dt.timedelta(days=1))
    assert future["open"] is False
    assert all(c["seed"] is None and not c["can_attempt"] for c in future["challenges"])

    # Only YYYY-MM-DD, as in the paths: not 2031-5-1, nor the ISO basic
    # form, nor other scripts' digits.
    for date in (
        "2031-02-30",
        "31-05-10",
        "today",
        "2031-5-1",
        "20310501",
        "\u0662\u0660\u0663\u0661-\u0660\u0665-\u0660\u0661",
    ):
        error = assert_error(client.get("/api/daily/", {"date": date}), 400, "invalid")
        assert error["fields"] == {"date": ["A day is a date of the calendar, written YYYY-MM-DD."]}


def test_an_excluded_attempt_has_no_rank_and_is_not_counted(clock: DailyClock) -> None:
    user = make_user()
    client = client_for(user)
    game = start_daily(client, DAY, "gold-mine")
    start_daily(client_for(), DAY, "gold-mine")
    Game.objects.filter(pk=game["id"]).update(excluded=True)
    challenge = challenge_of(overview(client), "gold-mine")
    assert challenge["attempts"] == 1
    assert challenge["your_attempt"]["game_id"] == game["id"]
    assert challenge["your_attempt"]["rank"] is None
    assert challenge["can_attempt"] is False


# -- streaks ----------------------------------------------------------------------------------


def streaks(client: Any) -> dict[str, Any]:
    return overview(client)["streaks"]


def won_on(user: Any, days_ago: int, slug: str, status: str = "won", **fields: Any) -> Game:
    return daily_game(user, DAY - dt.timedelta(days=days_ago), slug, status=status, **fields)


def test_streaks_per_game_and_overall(clock: DailyClock) -> None:
    user = make_user()
    client = client_for(user)
    for days_ago in (1, 2, 3, 5):
        won_on(user, days_ago, "gold-mine")
    won_on(user, 4, "grandfathers-clock")
    won_on(user, 2, "grandfathers-clock")
    won_on(user, 8, "selective-castle")
    # None of these counts: a lost or a resigned attempt, a won casual replay, another
    # player's win.
    won_on(user, 6, "gold-mine", status="lost")
    won_on(user, 7, "gold-mine", status="resigned")
    won_on(user, 6, "selective-castle", ranked=False)
    won_on(make_user(), 6, "grandfathers-clock")
    won_on(user, 10, "blondes-and-brunettes", excluded=True)  # staff took it off the boards

    body = streaks(client)
    assert set(body) == {"overall", "by_variant"}
    assert set(body["by_variant"]) == set(SLUGS)
    # Yesterday was won and today is not played yet: the streaks are alive.
    assert body["overall"] == {"current": 5, "best": 5}
    assert body["by_variant"]["gold-mine"] == {"current": 3, "best": 3}
    assert body["by_variant"]["grandfathers-clock"] == {"current": 0, "best": 1}
    assert body["by_variant"]["selective-castle"] == {"current": 0, "best": 1}
    assert body["by_variant"]["grounds-for-divorce"] == {"current": 0, "best": 0}
    assert body["by_variant"]["blondes-and-brunettes"] == {"current": 0, "best": 0}

    # Today's win extends them.
    game = start_daily(client, DAY, "gold-mine")
    assert streaks(client)["overall"] == {"current": 5, "best": 5}, "still playing"
    Game.objects.filter(pk=game["id"]).update(status="won")
    body = streaks(client)
    assert body["overall"] == {"current": 6, "best": 6}
    assert body["by_variant"]["gold-mine"] == {"current": 4, "best": 4}

    # A day later, with today's challenge not yet won, they are still alive; a day more, gone.
    clock.advance()
    assert streaks(client)["by_variant"]["gold-mine"] == {"current": 4, "best": 4}
    clock.advance()
    body = streaks(client)
    assert body["overall"] == {"current": 0, "best": 6}
    assert body["by_variant"]["gold-mine"] == {"current": 0, "best": 4}


def test_a_streak_ends_with_a_day_not_won(clock: DailyClock) -> None:
    user = make_user()
    client = client_for(user)
    won_on(user, 2, "blondes-and-brunettes")
    won_on(user, 3, "blondes-and-brunettes")
    won_on(user, 1, "blondes-and-brunettes", status="lost")
    body = streaks(client)
    assert body["overall"] == {"current": 0, "best": 2}
    assert body["by_variant"]["blondes-and-brunettes"] == {"current": 0, "best": 2}

    won_on(user, 0, "grounds-for-divorce")
    body = streaks(client)
    assert body["overall"] == {"current": 1, "best": 2}
    assert body["by_variant"]["grounds-for-divorce"] == {"current": 1, "best": 1}
    assert body["by_variant"]["blondes-and-brunettes"] == {"current": 0, "best": 2}


def test_a_new_player_has_no_streak(clock: DailyClock) -> None:
    body = streaks(client_for())
    assert body["overall"] == {"current": 0, "best": 0}
    assert all(s == {"current": 0, "best": 0} for s in body["by_variant"].values())
