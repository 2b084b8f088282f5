"""The race page's shell: served for a room's link to anyone, 404 for an unknown code; the
lobby offers the Race box."""

from __future__ import annotations

import pytest
from django.test import Client

from games.races import services
from tests.games.helpers import make_user

pytestmark = pytest.mark.django_db


def test_a_rooms_link_opens_its_page_for_anyone() -> None:
    code = services.open_race(user=make_user("ada"), variant_slug="gold-mine").race.code
    client = Client()
    page = client.get(f"/races/{code}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f'data-code="{code}"' in html and "Race: Gold Mine" in html
    assert "frontend/js/race.js" in html
    # A visitor who joins plays as a guest: the page sets the CSRF cookie that takes.
    assert "csrftoken" in page.cookies


def test_an_unknown_rooms_page_is_404() -> None:
    assert Client().get("/races/nosuchroom/").status_code == 404


def test_the_lobby_offers_a_race() -> None:
    html = Client().get("/").content.decode()
    assert 'id="race-form"' in html and 'id="quick-race"' in html
    assert "frontend/js/race_lobby.js" in html
