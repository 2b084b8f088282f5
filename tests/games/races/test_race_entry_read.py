"""The race entry of a game, read on every action of a race's game as literal SQL
(``selectors.entry_of_game``, measured against the ORM in bench/README): the same entry, race,
player name and guest flag as the ORM's own query, for an account and for a guest, whatever
columns the models have; and no entry for a game of no race."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Exists, OuterRef
from rest_framework.test import APIClient

from accounts.models import GuestProfile
from games.races import selectors
from games.races.models import RacePlayer
from tests.games.helpers import client_for, make_user, new_game
from tests.games.races.helpers import open_race, post

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_countdown(settings: Any) -> None:
    settings.RACE_COUNTDOWN_SECONDS = 0


def fields_of(instance: Any) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_a_race_games_entry_reads_as_the_orm_reads_it() -> None:
    ada = client_for(make_user("ada"))
    visitor = APIClient(REMOTE_ADDR="203.0.113.9")
    assert visitor.get("/api/auth/csrf/").status_code == 200
    code = open_race(ada)["code"]
    assert post(visitor, code, "join").status_code == 200  # as a new guest
    assert post(ada, code, "start").status_code == 200
    guest = GuestProfile.objects.filter(user_id=OuterRef("player_id"))
    rows = RacePlayer.objects.select_related("race", "player").annotate(guest=Exists(guest))
    assert rows.exists()
    for expected in rows.filter(game__isnull=False):
        read = selectors.entry_of_game(expected.game_id)
        assert read is not None
        assert fields_of(read) == fields_of(expected)
        assert fields_of(read.race) == fields_of(expected.race)
        assert read.player.username == expected.player.username
        assert read.guest is expected.guest


def test_a_game_of_no_race_has_no_entry() -> None:
    client = client_for(make_user("bo"))
    game = new_game(client, "gold-mine")
    assert selectors.entry_of_game(game["id"]) is None
