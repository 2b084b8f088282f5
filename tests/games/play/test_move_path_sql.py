"""The move path's SQL (``games.play.services``: the game's lock and its history entry;
``games.play.idempotency``: the key's record) reads and writes what the ORM would."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.core import days
from games.daily import services as daily_services
from games.errors import GameError
from games.models import DailyChallenge, Deal, Game, Move
from games.play import idempotency
from games.play import services as play_services
from games.rules import get_variant
from games.rules.notation import move_to_json
from tests.games.helpers import make_user

pytestmark = pytest.mark.django_db


def test_locking_a_game_loads_it_with_its_deal_and_challenge_in_one_query(
    django_assert_num_queries: Any,
) -> None:
    player = make_user()
    game = daily_services.start_daily_attempt(
        user=player, date=days.today(), variant_slug="gold-mine"
    ).game

    with transaction.atomic(), django_assert_num_queries(1):
        locked = play_services.lock_game(player, game.pk)
        seen = (locked.deal.variant, locked.deal.seed, locked.daily.date, locked.daily.variant)

    expected = Game.objects.select_related("deal", "daily").get(pk=game.pk)
    assert seen == (
        expected.deal.variant,
        expected.deal.seed,
        expected.daily.date,
        expected.daily.variant,
    )
    assert [getattr(locked, f.attname) for f in Game._meta.concrete_fields] == [
        getattr(expected, f.attname) for f in Game._meta.concrete_fields
    ]
    assert not [name for name in vars(locked) if name.startswith(("deal__", "daily__"))]


def test_a_casual_game_locks_without_a_challenge() -> None:
    player = make_user()
    game = play_services.create_game(user=player, variant_slug="selective-castle", seed=7).game

    with transaction.atomic():
        locked = play_services.lock_game(player, game.pk)

    assert locked.daily is None
    assert (locked.deal.seed, locked.deal.variant) == (7, "selective-castle")


def test_someone_elses_game_or_no_game_is_not_found() -> None:
    owner, other = make_user(), make_user()
    game = play_services.create_game(user=owner, variant_slug="gold-mine").game

    with transaction.atomic():
        with pytest.raises(GameError, match="no such game"):
            play_services.lock_game(other, game.pk)
        with pytest.raises(GameError, match="no such game"):
            play_services.lock_game(owner, game.pk + 1000)


def test_appending_an_entry_writes_the_move_and_the_game_fields() -> None:
    game = play_services.create_game(user=make_user(), variant_slug="gold-mine").game
    now = timezone.now()
    game.move_number, game.status, game.finished_at = 1, Game.Status.RESIGNED, now
    game.state = {"changed": ["é", 1, None]}

    with transaction.atomic():
        play_services.append_entry(game, {"type": "resign"}, [], now)

    move = Move.objects.get(game=game)
    assert (move.number, move.payload, move.events, move.received_at) == (
        1,
        {"type": "resign"},
        [],
        now,
    )
    saved = Game.objects.get(pk=game.pk)
    assert (saved.move_number, saved.status, saved.finished_at, saved.state) == (
        1,
        "resigned",
        now,
        {"changed": ["é", 1, None]},
    )


def test_a_duplicate_move_number_is_refused_by_the_database() -> None:
    game = play_services.create_game(user=make_user(), variant_slug="gold-mine").game
    game.move_number = 1
    with transaction.atomic():
        play_services.append_entry(game, {}, [], timezone.now())

    with pytest.raises(IntegrityError), transaction.atomic():
        play_services.append_entry(game, {}, [], timezone.now())
    assert Move.objects.filter(game=game).count() == 1


def test_the_joined_rows_carry_the_types_the_orm_gives() -> None:
    player = make_user()
    game = daily_services.start_daily_attempt(
        user=player, date=days.today(), variant_slug="gold-mine"
    ).game

    with transaction.atomic():
        locked = play_services.lock_game(player, game.pk)

    expected = Game.objects.select_related("deal", "daily").get(pk=game.pk)
    for joined, orm in [(locked.deal, expected.deal), (locked.daily, expected.daily)]:
        for field in type(orm)._meta.concrete_fields:
            mine, theirs = getattr(joined, field.attname), getattr(orm, field.attname)
            assert (mine, type(mine)) == (theirs, type(theirs)), field.name


@pytest.mark.parametrize("returning", [True, False], ids=["insert-returning", "get-or-create"])
def test_an_idempotency_key_is_claimed_once_and_its_response_kept(
    returning: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.models import IdempotencyRecord

    # Without INSERT ... RETURNING (SQLite before 3.35) the ORM's get_or_create does it.
    if not returning:
        monkeypatch.setattr(idempotency, "_insert_returns_rows", lambda: False)
    player, other = make_user(), make_user()
    with transaction.atomic():
        first = idempotency.claim(player.pk, "k", "f" * 64)
        assert idempotency.claim(player.pk, "k", "f" * 64) is None
        assert idempotency.claim(other.pk, "k", "f" * 64) not in (None, first)
        idempotency.store(first, 201, {"id": 7, "events": [{"type": "x"}]})

    record = IdempotencyRecord.objects.get(pk=first)
    assert (record.user_id, record.key, record.fingerprint) == (player.pk, "k", "f" * 64)
    assert (record.status_code, record.body) == (201, {"id": 7, "events": [{"type": "x"}]})
    assert record.created_at is not None


def test_the_locked_game_carries_the_types_the_orm_gives() -> None:
    player = make_user()
    game = play_services.create_game(user=player, variant_slug="gold-mine").game
    Game.objects.filter(pk=game.pk).update(last_move_at=timezone.now(), can_undo=True)

    with transaction.atomic():
        locked = play_services.lock_game(player, game.pk)

    expected = Game.objects.get(pk=game.pk)
    for field in Game._meta.concrete_fields:
        mine, theirs = getattr(locked, field.attname), getattr(expected, field.attname)
        assert (mine, type(mine)) == (theirs, type(theirs)), field.name
    assert not locked._state.adding


def test_a_game_number_past_any_row_is_not_found() -> None:
    player = make_user()

    with transaction.atomic(), pytest.raises(GameError, match="no such game"):
        play_services.lock_game(player, 2**63)


def test_the_lock_reads_every_column_of_the_game_its_deal_and_its_challenge() -> None:
    # The lock's SQL lists the columns by hand: a field added to a model goes into it too.
    from games.core import locks

    for names, model in [
        (locks._GAME_FIELDS, Game),
        (locks._DEAL_FIELDS, Deal),
        (locks._DAILY_FIELDS, DailyChallenge),
    ]:
        assert names == tuple(f.attname for f in model._meta.concrete_fields), (
            f"{model.__name__}'s columns changed: list them in games/core/locks.py's SQL too"
        )
    assert locks._LOCK_GAME.count(",") + 1 == sum(
        len(names) for names in (locks._GAME_FIELDS, locks._DEAL_FIELDS, locks._DAILY_FIELDS)
    )


def test_a_casual_games_move_never_looks_for_a_race(
    django_assert_max_num_queries: Any,
) -> None:
    """Only a race's game (``Game.in_race``) has its race looked up: the race rules' read on
    every action of every game cost 11-15 % of a move's server CPU (bench/README.md)."""
    player = make_user()
    game = play_services.create_game(user=player, variant_slug="selective-castle", seed=7).game
    variant = get_variant("selective-castle")
    first = move_to_json(variant.legal_moves(variant.state_from_json(game.state))[0])

    with django_assert_max_num_queries(20) as queries:
        play_services.play_move(user=player, game_id=game.pk, move=first, expected_move_number=0)

    assert Move.objects.filter(game=game).count() == 1
    assert not game.in_race
    assert not [q["sql"] for q in queries.captured_queries if "games_race" in q["sql"]]
