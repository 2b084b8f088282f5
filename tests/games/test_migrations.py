"""Data migrations fill what a new column says about games already stored."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from games.models import Game
from games.play import services as play_services
from games.rules import get_variant
from tests.games.helpers import make_user

pytestmark = pytest.mark.django_db

can_undo_migration = importlib.import_module("games.migrations.0004_game_can_undo")


def test_games_in_play_get_can_undo_from_their_history() -> None:
    player = make_user()
    castle = play_services.create_game(user=player, variant_slug="selective-castle", seed=5)
    first = get_variant("selective-castle").legal_moves(castle.state)[0]
    play_services.play_move(user=player, game_id=castle.game.pk, move=first.to_json())
    mine = play_services.create_game(user=player, variant_slug="gold-mine", seed=3).game
    play_services.play_move(user=player, game_id=mine.pk, move={"type": "deal"})
    fresh = play_services.create_game(user=player, variant_slug="gold-mine").game
    Game.objects.update(can_undo=False)  # as the column's default leaves them

    can_undo_migration.fill_can_undo(apps, None)

    flags = dict(Game.objects.values_list("pk", "can_undo"))
    assert flags == {castle.game.pk: True, mine.pk: False, fresh.pk: False}


dead_end_migration = importlib.import_module("games.migrations.0013_game_dead_end")


def test_casual_games_in_play_with_a_move_may_undo_it_whatever_it_showed() -> None:
    """Migration 0013: undo takes back a reveal now, so a game 0004 refused it to may undo."""
    player = make_user()
    mine = play_services.create_game(user=player, variant_slug="gold-mine", seed=3).game
    play_services.play_move(user=player, game_id=mine.pk, move={"type": "deal"})
    fresh = play_services.create_game(user=player, variant_slug="gold-mine", seed=4).game
    ranked = play_services.create_game(user=player, variant_slug="gold-mine", seed=5).game
    play_services.play_move(user=player, game_id=ranked.pk, move={"type": "deal"})
    Game.objects.filter(pk=ranked.pk).update(ranked=True)
    Game.objects.update(can_undo=False)  # as migration 0004's rule left them

    dead_end_migration.allow_undo_of_reveals(apps, None)

    flags = dict(Game.objects.values_list("pk", "can_undo"))
    assert flags == {mine.pk: True, fresh.pk: False, ranked.pk: False}
