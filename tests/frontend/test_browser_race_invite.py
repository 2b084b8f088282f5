"""A friend's race invitation in the browser, at desktop and phone sizes: ada, in a race's
room, invites bea from her Friends list there; bea's lobby shows the invitation live (her
account's websocket), and one tap on Join puts her in the race's room, joined."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.frontend.browser_helpers import call_api, create_players, sign_in, watch_errors
from tests.frontend.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", SIZES)
def test_a_friend_invited_from_the_room_joins_from_the_lobby_with_one_tap(
    site, new_context, django_user_model, size
):
    create_players(django_user_model, "ada", "bea", "cy")
    ada, bea = (new_context(viewport=SIZES[size]).new_page() for _ in range(2))
    errors = watch_errors(ada) + watch_errors(bea)
    sign_in(ada, site, "ada")
    sign_in(bea, site, "bea")
    for name in ("bea", "cy"):
        assert call_api(ada, "POST", f"/api/players/{name}/follow/", {})["status"] in (200, 201)
    bea.goto(f"{site}/")
    expect(bea.locator("#race-invitations")).to_be_hidden()

    body = {"variant": "gold-mine", "listed": False}
    code = call_api(ada, "POST", "/api/races/", body)["body"]["code"]
    ada.goto(f"{site}/races/{code}/")
    invite = ada.locator("#race-invite")
    expect(invite.get_by_role("button", name="Invite cy")).to_be_visible()
    invite.get_by_role("button", name="Invite bea").click()
    expect(invite.get_by_role("button", name="bea is invited")).to_be_disabled()
    screenshot(ada, f"race-invite-room-{size}")

    # Live on bea's lobby, no reload.
    invitation = bea.locator("#race-invitations")
    expect(invitation).to_contain_text("ada invites you to race Gold Mine")
    screenshot(bea, f"race-invite-lobby-{size}")
    invitation.get_by_role("button", name="Join ada's race of Gold Mine").click()
    bea.wait_for_url(f"{site}/races/{code}/")
    expect(bea.get_by_role("button", name="Ready")).to_be_visible()
    expect(ada.locator("#race-players tbody tr")).to_have_count(2)
    # In the race now: the invitation is gone from her lobby.
    assert call_api(bea, "GET", "/api/me/race-invitations/")["body"]["results"] == []
    bea.goto(f"{site}/")
    expect(bea.locator("#race-invitations")).to_be_hidden()
    assert errors == []
