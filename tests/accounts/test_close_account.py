"""Closing an account: ``DELETE /api/auth/me/`` with the password deletes the player for good."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token

from games.models import AuditLog, Game, Move
from games.moderation import services as moderation
from games.play import services as play_services
from tests.accounts.helpers import PASSWORD, assert_error, login, post, url

pytestmark = pytest.mark.django_db


def close(client: Client, password: Any = PASSWORD, **extra: Any) -> Any:
    body = {} if password is None else {"password": password}
    return client.delete(url("me"), body, content_type="application/json", **extra)


def test_closing_deletes_the_player_their_games_and_histories_and_signs_out(
    signed_in: Client, ada: User
) -> None:
    game = play_services.create_game(user=ada, variant_slug="gold-mine", seed=3).game
    play_services.play_move(user=ada, game_id=game.pk, move={"type": "deal"})
    Token.objects.create(user=ada)

    response = close(signed_in)

    assert response.status_code == 204
    assert not User.objects.filter(username="ada").exists()
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not Move.objects.filter(game_id=game.pk).exists()
    assert not Token.objects.exists()
    assert signed_in.get(url("me")).status_code in (401, 403)  # the session ended
    assert login(signed_in).status_code == 400  # the credentials are gone


def test_the_name_is_free_again_once_an_account_is_closed(signed_in: Client) -> None:
    assert close(signed_in).status_code == 204
    again = post(signed_in, "register", {"username": "ada", "password": PASSWORD})
    assert again.status_code == 201


def test_a_wrong_or_missing_password_closes_nothing(signed_in: Client, ada: User) -> None:
    game = play_services.create_game(user=ada, variant_slug="gold-mine", seed=3).game

    wrong = assert_error(close(signed_in, "not-my-password"), 400, "invalid")
    assert "password" in wrong["fields"]
    missing = assert_error(close(signed_in, None), 400, "invalid")
    assert "password" in missing["fields"]

    assert User.objects.filter(pk=ada.pk).exists()
    assert Game.objects.filter(pk=game.pk).exists()
    assert signed_in.get(url("me")).status_code == 200  # still signed in


def test_wrong_passwords_count_toward_the_sign_in_throttle(signed_in: Client, ada: User) -> None:
    for _ in range(5):
        assert close(signed_in, "guess").status_code == 400
    assert_error(close(signed_in), 429, "throttled")  # even the right one, until the window ends
    assert User.objects.filter(pk=ada.pk).exists()


def test_a_staff_account_cannot_close_itself(signed_in: Client, ada: User) -> None:
    ada.is_staff = True
    ada.save()
    assert_error(close(signed_in), 403, "staff_account")
    assert User.objects.filter(pk=ada.pk).exists()


def test_closing_needs_a_signed_in_player(client: Client, ada: User) -> None:
    assert close(client).status_code in (401, 403)
    assert User.objects.filter(pk=ada.pk).exists()


def test_a_script_closes_its_account_with_its_token(client: Client, ada: User) -> None:
    token = Token.objects.create(user=ada)
    response = close(client, HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 204
    assert not User.objects.filter(pk=ada.pk).exists()


def test_other_players_and_the_audit_log_stay(signed_in: Client, ada: User) -> None:
    other = User.objects.create_user("grace", password=PASSWORD)
    staff = User.objects.create_user("staff", password=PASSWORD, is_staff=True)
    theirs = play_services.create_game(user=other, variant_slug="gold-mine", seed=4).game
    mine = play_services.create_game(user=ada, variant_slug="gold-mine", seed=5).game
    moderation.flag_game(actor=staff, game_id=mine.pk, reason="looked odd")

    assert close(signed_in).status_code == 204

    assert Game.objects.filter(pk=theirs.pk).exists()
    entry = AuditLog.objects.get()
    assert entry.game is None and entry.actor == staff  # the record of the staff action stays


def test_closing_ones_own_account_is_not_a_staff_action_and_leaves_no_audit_entry(
    signed_in: Client, ada: User
) -> None:
    play_services.create_game(user=ada, variant_slug="gold-mine", seed=3)
    assert close(signed_in).status_code == 204
    assert not AuditLog.objects.exists()
