"""Leaderboards: a day's ranking of each game's ranked attempts, and the all-time boards.

A day's ranking: won before not won, then more cards home (Grounds for Divorce: in the
discard), fewer moves, less time (server-measured, start to last move), and who got there
first; an unfinished attempt ranks by its progress so far. The crafted boards below are built
in the reverse of their expected order, so the creation order (the last resort of any sort)
never explains a result: each tie-break has to decide on its own.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from games.daily import leaderboards
from games.models import Game
from games.rules import get_variant
from tests.games.helpers import (
    DAY,
    SLUGS,
    DailyClock,
    anonymous_client,
    assert_error,
    client_for,
    daily_game,
    detail,
    make_user,
    play,
    staff_challenge,
    start_daily,
)

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2031, 5, 10, 8, 0, tzinfo=dt.UTC)
ENTRY_KEYS = {"rank", "user", "status", "won", "cards_home", "moves", "time_seconds"}


def board(client: Any, slug: str, date: dt.date = DAY, **params: Any) -> dict[str, Any]:
    response = client.get(f"/api/leaderboards/daily/{date}/{slug}/", params)
    assert response.status_code == 200, response.content
    return response.json()


def alltime(client: Any, slug: str, **params: Any) -> dict[str, Any]:
    response = client.get(f"/api/leaderboards/{slug}/", params)
    assert response.status_code == 200, response.content
    return response.json()


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def craft(game_id: int, **fields: Any) -> None:
    Game.objects.filter(pk=game_id).update(**fields)


# -- a day's ranking --------------------------------------------------------------------------


def test_the_days_ranking_and_each_tie_break(clock: DailyClock) -> None:
    # name: status, cards home, moves, started (seconds after T0), the game's time (its active
    # time, games.core.clock; the last move comes that long after the start)
    expected = [
        ("ace", "won", 52, 90, 0, 350),
        ("bea", "won", 52, 90, 20, 350),  # as fast as ace, but got there 20 s later
        ("cid", "won", 52, 90, -100, 400),  # got there first, but slower
        ("dan", "won", 52, 100, 0, 100),  # the fastest and first, but more moves
        ("eve", "resigned", 52, 10, 0, 5),  # everything but a win
        ("fay", "lost", 40, 200, 0, 900),
        ("gus", "playing", 35, 3, 0, 20),  # still playing: ranked by progress so far
        ("hal", "resigned", 30, 1, 0, 1),
        ("ivy", "playing", 0, 0, 0, 0),  # started, no move yet: in play, on the board
    ]
    clients = {}
    for name, status, home, moves, start, taken in reversed(expected):
        clients[name] = client = client_for(make_user(name))
        game = start_daily(client, DAY, "gold-mine")
        craft(
            game["id"],
            status=status,
            cards_home=home,
            board_moves=moves,
            created_at=at(start),
            last_move_at=at(start + taken),
            active_ms=taken * 1000,
        )
    # Resigned with no move made: on no board, counted as neither played nor lost.
    jo = client_for(make_user("jo"))
    gave_up = start_daily(jo, DAY, "gold-mine")
    assert jo.post(f"/api/games/{gave_up['id']}/resign/", format="json").status_code == 200

    result = board(anonymous_client(), "gold-mine")
    assert result["count"] == len(expected)
    assert (result["page"], result["pages"]) == (1, 1)
    assert result["date"] == DAY.isoformat() and result["variant"] == "gold-mine"
    assert result["me"] is None
    assert all(set(entry) == ENTRY_KEYS for entry in result["results"])
    assert result["results"] == [
        {
            "rank": rank,
            "user": name,
            "status": status,
            "won": status == "won",
            "cards_home": home,
            "moves": moves,
            "time_seconds": float(taken),
        }
        for rank, (name, status, home, moves, _, taken) in enumerate(expected, start=1)
    ]
    for rank, (name, *_) in enumerate(expected, start=1):
        me = board(clients[name], "gold-mine")["me"]
        assert me == result["results"][rank - 1]
        challenges = clients[name].get("/api/daily/").json()["challenges"]
        (mine,) = [c for c in challenges if c["variant"] == "gold-mine"]
        assert mine["your_attempt"]["rank"] == rank
    assert board(jo, "gold-mine")["me"] is None


def first_moves(seed: int) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]] | None:
    """Selective Castle: a move home and a move within the tableau at the start, and one more
    within the tableau after the move home; None when the deal has not all three."""
    variant = get_variant("selective-castle")
    start = variant.deal(seed)

    def inside(state: Any) -> Any:
        return next((m for m in variant.legal_moves(state) if m.target.startswith("tab")), None)

    home = next(m for m in variant.legal_moves(start) if m.target.startswith("foundation"))
    tableau, after = inside(start), inside(variant.apply(start, home))
    if tableau is None or after is None:
        return None
    return home.to_json(), tableau.to_json(), after.to_json()


def test_the_days_ranking_of_attempts_played_through_the_api(clock: DailyClock) -> None:
    seed, (home, tableau, after) = next(
        (seed, moves) for seed in range(100) if (moves := first_moves(seed))
    )
    staff_challenge(DAY, "selective-castle", seed)
    players = {name: client_for(make_user(name)) for name in ("bob", "cat", "dee", "eli")}
    games = {name: start_daily(c, DAY, "selective-castle") for name, c in players.items()}
    play(players["bob"], games["bob"]["id"], tableau)  # nothing home, one move
    play(players["dee"], games["dee"]["id"], home)  # one home in one move
    play(players["eli"], games["eli"]["id"], home)
    done = play(players["eli"], games["eli"]["id"], after)  # one home in two moves
    assert done["counts"]["moves"] == 2
    resigned = players["eli"].post(f"/api/games/{games['eli']['id']}/resign/", format="json")
    assert resigned.status_code == 200
    # cat has not moved.

    result = board(players["cat"], "selective-castle")
    rows = [
        (e["rank"], e["user"], e["status"], e["won"], e["cards_home"], e["moves"])
        for e in result["results"]
    ]
    assert rows == [
        (1, "dee", "playing", False, 1, 1),
        (2, "eli", "resigned", False, 1, 2),
        (3, "cat", "playing", False, 0, 0),
        (4, "bob", "playing", False, 0, 1),
    ]
    times = {e["user"]: e["time_seconds"] for e in result["results"]}
    assert times["cat"] == 0.0, "no move yet: no time"
    for name in ("bob", "dee", "eli"):
        game = Game.objects.get(pk=games[name]["id"])
        # The game's time, as its player sees it (games.core.clock): here, under the cap, the
        # time to the last move (the resignation counts nothing).
        assert times[name] == detail(players[name], game.pk)["time_seconds"]
        assert 0 <= times[name] <= (game.last_move_at - game.created_at).total_seconds()
    assert result["me"] == result["results"][2]


def test_grounds_for_divorce_counts_the_cards_in_the_discard(clock: DailyClock) -> None:
    """A run completed earlier sits in the discard (written into the stored board, with its
    cards taken from the stock): the next move's progress counts it."""
    variant = get_variant("grounds-for-divorce")
    assert not any(pile.startswith("foundation") for pile in variant.pile_ids)
    run = [rank + "S" for rank in "KQJT98765432A"]

    def stock_holds_run(seed: int) -> bool:
        stock = variant.state_to_json(variant.deal(seed))["piles"]["stock"]["cards"]
        return all(card in stock for card in run)

    seed = next(seed for seed in range(2000) if stock_holds_run(seed))
    staff_challenge(DAY, "grounds-for-divorce", seed)
    client = client_for(make_user("gfd"))
    game = start_daily(client, DAY, "grounds-for-divorce")
    state = Game.objects.get(pk=game["id"]).state
    stock = state["piles"]["stock"]["cards"]
    for card in run:
        stock.remove(card)
    state["piles"]["stock"] = {"cards": stock, "face_down": len(stock)}
    state["piles"]["discard"] = {"cards": run, "face_down": 0}
    craft(game["id"], state=state)

    after = play(client, game["id"], {"type": "deal"})
    assert after["state"]["piles"]["discard"]["cards"] == run
    expected = variant.cards_home(variant.state_from_json(Game.objects.get(pk=game["id"]).state))
    assert expected == 13
    (entry,) = board(client, "grounds-for-divorce")["results"]
    assert (entry["user"], entry["cards_home"], entry["moves"]) == ("gfd", 13, 1)
    challenges = client.get("/api/daily/").json()["challenges"]
    (mine,) = [c for c in challenges if c["variant"] == "grounds-for-divorce"]
    assert mine["your_attempt"]["cards_home"] == 13


def test_the_days_ranking_is_paginated_with_my_entry_wherever_it_is(clock: DailyClock) -> None:
    users = [make_user(f"p{n:02d}") for n in range(53)]
    for n, user in reversed(list(enumerate(users))):
        # p00 has the most cards home, p52 the fewest.
        daily_game(user, DAY, "selective-castle", cards_home=52 - n, board_moves=10)
    me = client_for(users[51])

    first = board(me, "selective-castle")
    assert (first["count"], first["page"], first["pages"]) == (53, 1, 2)
    assert [e["user"] for e in first["results"]] == [f"p{n:02d}" for n in range(50)]
    assert [e["rank"] for e in first["results"]] == list(range(1, 51))
    assert first["me"]["rank"] == 52 and first["me"]["user"] == "p51"
    assert first["me"]["cards_home"] == 1

    second = board(me, "selective-castle", page=2)
    assert (second["count"], second["page"], second["pages"]) == (53, 2, 2)
    assert [(e["rank"], e["user"]) for e in second["results"]] == [
        (51, "p50"),
        (52, "p51"),
        (53, "p52"),
    ]
    assert second["me"] == second["results"][1]

    top = board(client_for(users[0]), "selective-castle", page=2)["me"]
    assert (top["rank"], top["user"]) == (1, "p00"), "my entry even when on another page"
    assert board(client_for(), "selective-castle")["me"] is None, "no attempt, no entry"
    assert board(anonymous_client(), "selective-castle", page=2)["me"] is None
    past = me.get(f"/api/leaderboards/daily/{DAY}/selective-castle/", {"page": 3})
    assert assert_error(past, 404, "not_found")["pages"] == 2


def test_a_page_past_the_last_is_not_found_as_on_the_games_list(clock: DailyClock) -> None:
    """Page 1 of an empty board is a page; a page after the last one is a 404, as GET
    /api/games/ answers, naming the last page (as ``pages``) for a client to go to."""
    client = client_for()
    daily_game(make_user(), DAY, "gold-mine", cards_home=3)
    games_list = assert_error(client.get("/api/games/", {"page": 999}), 404, "not_found")
    assert games_list["pages"] == 1
    assert games_list["message"] == "There is no page 999: the last is page 1."
    boards = [f"/api/leaderboards/daily/{DAY}/gold-mine/", "/api/leaderboards/gold-mine/"]
    for url in boards:
        assert client.get(url, {"page": 1}).status_code == 200
        assert assert_error(client.get(url, {"page": 999}), 404, "not_found") == games_list
        assert assert_error(client.get(url, {"page": 2}), 404, "not_found")["pages"] == 1
    empty = f"/api/leaderboards/daily/{DAY}/selective-castle/"
    assert board(client, "selective-castle")["results"] == []
    assert_error(client.get(empty, {"page": 2}), 404, "not_found")


def test_a_page_that_is_not_a_page_number_gets_the_games_lists_clear_error(
    clock: DailyClock,
) -> None:
    client = client_for()
    urls = [
        "/api/games/",
        f"/api/leaderboards/daily/{DAY}/gold-mine/",
        "/api/leaderboards/gold-mine/",
    ]
    message = "A page number is a whole number from 1 to 1000000."
    # As a link writes a number: not 1.0, +1 or another script's digits (U+0661 is 1).
    for page in ("0", "-1", "x", "1.5", "1000001", "1.0", "+1", " 1", "\u0661"):
        errors = [assert_error(client.get(url, {"page": page}), 400, "invalid") for url in urls]
        assert errors[0] == errors[1] == errors[2]
        assert errors[0]["fields"] == {"page": [message]}
        assert errors[0]["message"] == f"page: {message}"


def test_excluded_attempts_replays_and_other_boards_stay_off_the_ranking(
    clock: DailyClock,
) -> None:
    keep, dropped, replayer = make_user("keep"), make_user("dropped"), make_user("replayer")
    daily_game(keep, DAY, "gold-mine", status="resigned", cards_home=3)
    cheat = daily_game(dropped, DAY, "gold-mine", status="won", cards_home=52)
    craft(cheat.pk, excluded=True)
    daily_game(replayer, DAY, "gold-mine", status="resigned", cards_home=1)
    daily_game(replayer, DAY, "gold-mine", ranked=False, status="won", cards_home=52)
    daily_game(keep, DAY, "gold-mine", ranked=False, status="won", cards_home=52)
    daily_game(dropped, DAY, "selective-castle", status="won", cards_home=52)
    daily_game(dropped, DAY - dt.timedelta(days=1), "gold-mine", status="won", cards_home=52)

    result = board(client_for(dropped), "gold-mine")
    assert [(e["user"], e["won"], e["cards_home"]) for e in result["results"]] == [
        ("keep", False, 3),
        ("replayer", False, 1),
    ]
    assert result["count"] == 2
    assert result["me"] is None, "an excluded attempt is nowhere on the board"
    assert [e["user"] for e in board(anonymous_client(), "selective-castle")["results"]] == [
        "dropped"
    ]
    yesterday = board(anonymous_client(), "gold-mine", DAY - dt.timedelta(days=1))
    assert [e["user"] for e in yesterday["results"]] == ["dropped"]


def test_an_empty_day_and_the_refusals(clock: DailyClock) -> None:
    client = client_for()
    empty = board(client, "blondes-and-brunettes", DAY + dt.timedelta(days=5))
    assert (empty["count"], empty["page"], empty["pages"]) == (0, 1, 1)
    assert empty["results"] == [] and empty["me"] is None

    assert_error(client.get(f"/api/leaderboards/daily/{DAY}/klondike/"), 404, "unknown_variant")
    for bad in ("today", "20310510"):
        response = anonymous_client().get(f"/api/leaderboards/daily/{bad}/gold-mine/")
        assert_error(response, 404, "not_found")
    for bad in ("2031-02-30", "2031-13-01"):  # a day's shape, not a day: said in words
        response = anonymous_client().get(f"/api/leaderboards/daily/{bad}/gold-mine/")
        assert_error(response, 404, "no_such_day")
    for page in ("0", "-1", "two", "1000001", str(2**63 - 1)):
        response = client.get(f"/api/leaderboards/daily/{DAY}/gold-mine/", {"page": page})
        assert_error(response, 400, "invalid")
        # A page past any the database could skip to is refused, not a crash.
        assert_error(client.get("/api/leaderboards/gold-mine/", {"page": page}), 400, "invalid")


# -- all-time boards --------------------------------------------------------------------------


def results(user: Any, slug: str, spec: str, *, first_day: int = 1, **times: Any) -> None:
    """Ranked attempts on consecutive past days, one per character of ``spec``: ``W`` won,
    ``L`` lost, ``R`` resigned, ``P`` still playing. ``won_time``/``other_time``: seconds."""
    statuses = {"W": "won", "L": "lost", "R": "resigned", "P": "playing"}
    for n, mark in enumerate(spec):
        status = statuses[mark]
        taken = times.get("won_time" if status == "won" else "other_time", 600)
        if isinstance(taken, list):
            taken = taken[n]
        daily_game(
            user,
            DAY - dt.timedelta(days=first_day + n),
            slug,
            status=status,
            created_at=at(0),
            last_move_at=at(taken),
            active_ms=taken * 1000,
        )


def test_the_all_time_board_orders_by_wins_then_win_rate_then_best_time(
    clock: DailyClock, settings: Any
) -> None:
    settings.LEADERBOARD_MIN_GAMES = 3
    users = {name: make_user(name) for name in ("nil", "al", "bo", "cleo", "dora", "few")}
    results(users["nil"], "gold-mine", "LLR")
    results(users["al"], "gold-mine", "WWWLL", won_time=10)  # fastest, lower win rate
    results(users["bo"], "gold-mine", "WWWL", won_time=[300, 450, 500, 0])
    results(users["cleo"], "gold-mine", "WWWL", won_time=[700, 200, 250, 0], other_time=1)
    results(users["dora"], "gold-mine", "WWWWLLLLLL", won_time=500)  # the most wins
    # Two finished ranked games: too few, whatever else few has.
    results(users["few"], "gold-mine", "WW", won_time=5)
    results(users["few"], "gold-mine", "P", first_day=10)
    daily_game(users["few"], DAY, "gold-mine", status="won", ranked=False)
    eleven_days_ago = DAY - dt.timedelta(days=11)
    daily_game(users["few"], eleven_days_ago, "gold-mine", status="won", excluded=True)
    results(users["few"], "selective-castle", "WWW", won_time=5)
    # al's wins at another game do not count here.
    results(users["al"], "grandfathers-clock", "WWWWWWW", first_day=20)

    result = alltime(anonymous_client(), "gold-mine")
    assert result["variant"] == "gold-mine" and result["min_games"] == 3
    assert (result["count"], result["page"], result["pages"]) == (5, 1, 1)
    assert result["results"] == [
        {"rank": 1, "user": "dora", "played": 10, "wins": 4, "win_rate": 0.4,
         "best_time_seconds": 500.0},
        {"rank": 2, "user": "cleo", "played": 4, "wins": 3, "win_rate": 0.75,
         "best_time_seconds": 200.0},
        {"rank": 3, "user": "bo", "played": 4, "wins": 3, "win_rate": 0.75,
         "best_time_seconds": 300.0},
        {"rank": 4, "user": "al", "played": 5, "wins": 3, "win_rate": 0.6,
         "best_time_seconds": 10.0},
        {"rank": 5, "user": "nil", "played": 3, "wins": 0, "win_rate": 0.0,
         "best_time_seconds": None},
    ]  # fmt: skip

    castle = alltime(anonymous_client(), "selective-castle")["results"]
    assert [(e["user"], e["played"], e["wins"]) for e in castle] == [("few", 3, 3)]
    clock_board = alltime(anonymous_client(), "grandfathers-clock")["results"]
    assert [(e["user"], e["win_rate"]) for e in clock_board] == [("al", 1.0)]


def test_equal_records_on_the_all_time_board_share_a_rank(clock: DailyClock, settings: Any) -> None:
    """Ties share the rank of the first of them (1, 2, 2, 4), on every page; the name only
    orders them."""
    settings.LEADERBOARD_MIN_GAMES = 2
    results(make_user("ace"), "grandfathers-clock", "WL", won_time=30)
    for name in ("zed", "bea", "max"):  # made out of order: the name decides only the order
        results(make_user(name), "grandfathers-clock", "LL")
    results(make_user("won"), "grandfathers-clock", "LLL", first_day=5)

    result = alltime(anonymous_client(), "grandfathers-clock")
    assert [(e["rank"], e["user"]) for e in result["results"]] == [
        (1, "ace"), (2, "bea"), (2, "max"), (2, "won"), (2, "zed")
    ]  # fmt: skip
    second_page = leaderboards.alltime_leaderboard("grandfathers-clock", page=2, size=2)
    assert [(e["rank"], e["user"]) for e in second_page["results"]] == [(2, "max"), (2, "won")]


def test_the_all_time_board_needs_the_minimum_of_finished_ranked_games(
    clock: DailyClock, settings: Any
) -> None:
    settings.LEADERBOARD_MIN_GAMES = 5
    results(make_user("five"), "blondes-and-brunettes", "WLLLL")
    results(make_user("four"), "blondes-and-brunettes", "WWWWP")
    result = alltime(client_for(), "blondes-and-brunettes")
    assert result["min_games"] == 5
    assert [e["user"] for e in result["results"]] == ["five"]

    settings.LEADERBOARD_MIN_GAMES = 4
    result = alltime(client_for(), "blondes-and-brunettes")
    assert [e["user"] for e in result["results"]] == ["four", "five"]


def test_the_all_time_boards_refusals() -> None:
    assert_error(anonymous_client().get("/api/leaderboards/klondike/"), 404, "unknown_variant")
    response = anonymous_client().get("/api/leaderboards/gold-mine/", {"page": "0"})
    assert_error(response, 400, "invalid")
    for slug in SLUGS:
        empty = alltime(anonymous_client(), slug)
        assert empty["results"] == [] and empty["count"] == 0


def test_an_all_time_best_time_of_no_time_at_all_is_a_time(
    clock: DailyClock, settings: Any
) -> None:
    settings.LEADERBOARD_MIN_GAMES = 1
    results(make_user("instant"), "gold-mine", "W", won_time=0)
    [entry] = alltime(anonymous_client(), "gold-mine")["results"]
    assert entry["best_time_seconds"] == 0.0


# -- the week's board and today's leaders -------------------------------------------------


def week(client: Any, slug: str, **params: Any) -> dict[str, Any]:
    response = client.get(f"/api/leaderboards/{slug}/week/", params)
    assert response.status_code == 200, response.content
    return response.json()


def attempt(
    name: str, days_ago: int, status: str, *, home: int, taken: int = 600, **more: Any
) -> Any:
    """A ranked Gold Mine attempt of ``name`` (made on first use) ``days_ago`` days before DAY."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(username=name).first() or make_user(name)
    return daily_game(
        user,
        DAY - dt.timedelta(days=days_ago),
        "gold-mine",
        status=status,
        cards_home=home,
        created_at=at(0),
        last_move_at=at(taken),
        active_ms=taken * 1000,
        **more,
    )


def test_one_finished_ranked_game_puts_a_player_on_the_weeks_board(
    clock: DailyClock, settings: Any
) -> None:
    """The all-time board waits for LEADERBOARD_MIN_GAMES finished games; the week's board
    shows a player from the first."""
    settings.LEADERBOARD_MIN_GAMES = 5
    attempt("newcomer", 0, "lost", home=12, taken=95)

    result = week(anonymous_client(), "gold-mine")
    assert (result["since"], result["to"]) == (str(DAY - dt.timedelta(days=6)), str(DAY))
    assert (result["count"], result["page"], result["pages"]) == (1, 1, 1)
    assert result["results"] == [
        {"rank": 1, "user": "newcomer", "played": 1, "wins": 0, "best_cards_home": 12,
         "best_time_seconds": None},
    ]  # fmt: skip
    assert alltime(anonymous_client(), "gold-mine")["results"] == []
    assert week(anonymous_client(), "gold-mine", page=1)["results"][0]["user"] == "newcomer"
    for slug in SLUGS:
        if slug != "gold-mine":
            assert week(anonymous_client(), slug)["results"] == []


def test_the_weeks_board_orders_by_wins_then_most_cards_home_then_best_time(
    clock: DailyClock,
) -> None:
    """Made in the reverse of the expected order, so creation order explains nothing."""
    attempt("hal", 2, "lost", home=30)  # as close as ben: they share a rank
    attempt("ben", 1, "lost", home=30)
    attempt("ben", 8, "won", home=52, taken=5)  # eight days ago: not this week
    attempt("eli", 3, "resigned", home=40)  # nobody closer without a win
    attempt("ann", 6, "lost", home=20)  # six days ago: still this week
    attempt("ann", 0, "won", home=52, taken=300)
    attempt("dee", 4, "won", home=52, taken=100)  # one win, as ann, but faster
    attempt("cat", 1, "won", home=52, taken=500)
    attempt("cat", 2, "won", home=52, taken=400)  # the most wins
    # Off the board: in play (no result yet), ended with no move made, excluded by staff.
    attempt("fay", 0, "playing", home=51)
    attempt("gil", 1, "resigned", home=4, board_moves=0)
    attempt("gus", 1, "won", home=52, taken=1, excluded=True)

    result = week(anonymous_client(), "gold-mine")
    assert [(e["rank"], e["user"], e["played"], e["wins"], e["best_cards_home"],
             e["best_time_seconds"]) for e in result["results"]] == [
        (1, "cat", 2, 2, 52, 400.0),
        (2, "dee", 1, 1, 52, 100.0),
        (3, "ann", 2, 1, 52, 300.0),
        (4, "eli", 1, 0, 40, None),
        (5, "ben", 1, 0, 30, None),
        (5, "hal", 1, 0, 30, None),
    ]  # fmt: skip
    second_page = leaderboards.week_leaderboard("gold-mine", page=2, size=4)
    assert [(e["rank"], e["user"]) for e in second_page["results"]] == [(5, "ben"), (5, "hal")]

    clock.advance(3)  # the week moves on: dee's win and ann's loss, 4 and 6 days before, drop off
    moved = week(anonymous_client(), "gold-mine")
    assert [(e["user"], e["played"]) for e in moved["results"]] == [
        ("cat", 2), ("ann", 1), ("eli", 1), ("ben", 1), ("hal", 1)
    ]  # fmt: skip


def test_the_weeks_boards_refusals() -> None:
    assert_error(anonymous_client().get("/api/leaderboards/klondike/week/"), 404, "unknown_variant")
    for page in ("0", "two", "1000001"):
        response = anonymous_client().get("/api/leaderboards/gold-mine/week/", {"page": page})
        assert_error(response, 400, "invalid")
    assert_error(
        anonymous_client().get("/api/leaderboards/gold-mine/week/", {"page": "2"}), 404, "not_found"
    )


def test_the_days_overview_names_each_boards_leader_and_nothing_hidden(clock: DailyClock) -> None:
    """What the Leaderboards page shows of today's live boards: each board's first row, as
    the board itself shows it, and no seed while the day is open."""
    for slug in SLUGS:
        staff_challenge(DAY, slug, seed=7)
    attempt("slow", 0, "won", home=52, taken=900)
    attempt("quick", 0, "playing", home=30, taken=20)
    attempt("first", 0, "won", home=52, taken=200)
    # On no board, so counted on none: ended with no move made, or excluded by staff.
    attempt("quitter", 0, "resigned", home=0, board_moves=0)
    attempt("cheat", 0, "won", home=52, taken=1, excluded=True)

    overview = anonymous_client().get("/api/daily/").json()
    challenges = {c["variant"]: c for c in overview["challenges"]}
    leader = challenges["gold-mine"]["leader"]
    assert leader == board(anonymous_client(), "gold-mine")["results"][0]
    assert set(leader) == ENTRY_KEYS
    assert (leader["user"], leader["rank"], leader["time_seconds"]) == ("first", 1, 200.0)
    assert (
        challenges["gold-mine"]["attempts"] == 3 == board(anonymous_client(), "gold-mine")["count"]
    )
    for slug, challenge in challenges.items():
        assert challenge["seed"] is None
        if slug != "gold-mine":
            assert challenge["leader"] is None and challenge["attempts"] == 0


@pytest.mark.parametrize("day", ["2026-02-30", "2031-13-01", "2030-00-10"])
def test_a_day_the_calendar_has_not_is_refused_in_words_on_every_daily_path(day: str) -> None:
    """In the words of ?date= on /api/daily/, not a bare "Not found." for a path the API
    lacks: a 404, as a path naming an unknown game is."""
    message = "A day is a date of the calendar, written YYYY-MM-DD."
    client = client_for()
    query = assert_error(client.get("/api/daily/", {"date": day}), 400, "invalid")
    assert query["fields"] == {"date": [message]}
    answers = [
        anonymous_client().get(f"/api/leaderboards/daily/{day}/gold-mine/"),
        client.post(f"/api/daily/{day}/gold-mine/attempt/"),
        client.post(f"/api/daily/{day}/gold-mine/replay/"),
    ]
    for response in answers:
        error = assert_error(response, 404, "no_such_day")
        assert error["message"] == f"There is no day {day}. {message}"
    assert not Game.objects.exists()
