"""The pages a guest (accounts.guests) meets: the header offers to sign in or up from where they
are, the sign-in and sign-up forms say the games come along, and what is for accounts says so
with links back to the page; a shared deal's link keeps its deal in the sign-in links."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.test import Client

from accounts import guests

pytestmark = pytest.mark.django_db


@pytest.fixture
def guest_browser() -> Client:
    client = Client()
    guest = guests.create_guest(client_ip="192.0.2.1")
    client.force_login(guest)
    return client


def html(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode()


def test_a_shared_deals_page_keeps_the_deal_in_every_sign_in_link(client: Client) -> None:
    path = "/?deal=grandfathers-clock&seed=4242"
    page = html(client, path)
    next_ = quote(path)
    for link in ("prompt-sign-in", "prompt-sign-up", "sign-in", "sign-up"):
        assert f'id="{link}"' in page
    assert page.count(f"?next={next_}") == 4
    assert "No account needed" in page
    assert "data-guest" not in page


def test_a_guest_is_offered_an_account_from_the_page_they_are_on(guest_browser: Client) -> None:
    page = html(guest_browser, "/daily/")
    assert 'data-guest="true"' in page
    assert 'id="guest-games"' in page and 'id="sign-out"' not in page
    assert f'href="/signup/?next={quote("/daily/")}"' in page
    lobby = html(guest_browser, "/")
    assert 'id="account-required"' in lobby and 'id="saved-games"' in lobby


@pytest.mark.parametrize("path", ["/signin/", "/signup/"])
def test_a_guest_gets_the_form_and_is_told_the_games_come_along(
    guest_browser: Client, path: str
) -> None:
    page = html(guest_browser, f"{path}?next=/daily/")
    assert 'id="guest-keeps"' in page
    assert 'id="signed-in-already"' not in page
    assert 'data-next="/daily/"' in page


@pytest.mark.parametrize("path", ["/account/", "/leaderboards/", "/profile/"])
def test_what_is_for_accounts_says_so_to_a_guest(guest_browser: Client, path: str) -> None:
    page = html(guest_browser, path)
    assert 'id="account-required"' in page
    assert f"/signup/?next={quote(path)}" in page
    assert f"/signin/?next={quote(path)}" in page
    assert 'id="email-form"' not in page and 'id="public-profile-link"' not in page


def test_an_account_sees_none_of_it(client: Client, django_user_model) -> None:
    client.force_login(django_user_model.objects.create_user("ada", password="pw"))
    for path in ("/", "/account/", "/leaderboards/", "/profile/"):
        page = html(client, path)
        assert 'id="account-required"' not in page and "data-guest" not in page
