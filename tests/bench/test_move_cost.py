"""The in-process move cost harness plays real moves (its figures are read, never asserted)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token

from bench.move_cost import MovePlayer, describe, measure


@pytest.mark.django_db(transaction=True)
def test_the_move_cost_harness_plays_legal_moves_through_the_api() -> None:
    user = get_user_model().objects.create_user("cost", password="a-long-password-1")
    token = Token.objects.create(user=user).key
    player = MovePlayer(Client(), token, seed=7)

    costs = measure(5, player.ready, player.move)

    assert len(costs) == 5
    assert player.game is not None and player.game["move_number"] >= 1
    assert "5 requests" in describe("move", costs)
