"""Management commands: verify_games and the demo data of bin/run."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from games.models import Deal, Game, Move
from games.play import services as play_services
from games.rules import DEAL_VERSION

pytestmark = pytest.mark.django_db


@pytest.fixture
def played_game(django_user_model):
    user = django_user_model.objects.create_user("verifier", password="x")
    outcome = play_services.create_game(user=user, variant_slug="selective-castle", seed=9)
    for _ in range(6):
        move = outcome.variant.legal_moves(outcome.state)[0]
        outcome = play_services.play_move(user=user, game_id=outcome.game.pk, move=move.to_json())
    play_services.undo_move(user=user, game_id=outcome.game.pk)
    return Game.objects.get(pk=outcome.game.pk)


def test_verify_games_passes_a_game_played_through_the_service(played_game, capsys):
    call_command("verify_games")
    assert "1 games checked, 0 failed" in capsys.readouterr().out


def test_verify_games_catches_a_tampered_move(played_game, capsys):
    move = Move.objects.get(game=played_game, number=3)
    move.payload = {"type": "move", "from": "tableau:0", "to": "tableau:0", "count": 1}
    move.save()
    with pytest.raises(CommandError):
        call_command("verify_games", played_game.pk)
    assert "step 3 does not replay" in capsys.readouterr().err


def test_verify_games_catches_a_tampered_snapshot(played_game, capsys):
    played_game.state["piles"]["tableau:0"]["cards"].reverse()
    played_game.save()
    with pytest.raises(CommandError):
        call_command("verify_games")
    assert "snapshot differs" in capsys.readouterr().err


def test_verify_games_catches_an_undo_flag_the_history_does_not_give(played_game, capsys):
    Game.objects.filter(pk=played_game.pk).update(can_undo=not played_game.can_undo)
    with pytest.raises(CommandError):
        call_command("verify_games")
    assert "can_undo" in capsys.readouterr().err


def test_verify_games_catches_a_dead_end_flag_the_history_does_not_give(played_game, capsys):
    Game.objects.filter(pk=played_game.pk).update(dead_end=True)
    with pytest.raises(CommandError):
        call_command("verify_games")
    assert "dead_end" in capsys.readouterr().err


def test_verify_games_reports_a_deal_of_an_algorithm_version_it_cannot_deal(played_game, capsys):
    # A database written by a later release (a second deal algorithm) is reported, not
    # replayed from some other deal.
    Deal.objects.filter(pk=played_game.deal_id).update(deal_version=DEAL_VERSION + 1)
    with pytest.raises(CommandError):
        call_command("verify_games")
    assert f"deal algorithm version {DEAL_VERSION + 1}" in capsys.readouterr().err


def test_verify_games_names_a_game_that_does_not_exist():
    with pytest.raises(CommandError, match="no game with id 424242"):
        call_command("verify_games", 424242)


def test_setup_demo_creates_the_accounts_and_saved_games_once(
    settings, django_user_model, monkeypatch
):
    from games.management.commands import setup_demo
    from games.play import winnable_pool

    # The quickest game only: Selective Castle's deals take the solver longer.
    monkeypatch.setattr(setup_demo, "QUICK_GAMES", ("grandfathers-clock",))
    settings.DEBUG = True
    call_command("setup_demo")
    call_command("setup_demo")
    demo = django_user_model.objects.get(username="demo")
    assert demo.check_password("demo-patience")
    assert django_user_model.objects.get(username="admin").is_staff
    assert demo.games.count() == 5
    call_command("verify_games")
    # A few winnable deals are ready, topped up (not added to) on the second run.
    assert winnable_pool.sizes()["grandfathers-clock"] == setup_demo.DEMO_POOL_SIZE


def test_setup_demo_refuses_to_run_in_production(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="local development"):
        call_command("setup_demo")
