import datetime as dt
import re

import pytest
from django.conf import settings
from django.contrib.auth.tokens import PasswordResetTokenGenerator, default_token_generator
from django.test import Client
from django.utils.http import urlsafe_base64_encode

from frontend.games import GAMES
from games.play import services as play_services

EXPECTED_SLUGS = [
    "grounds-for-divorce",
    "gold-mine",
    "selective-castle",
    "grandfathers-clock",
    "blondes-and-brunettes",
]

# A phrase from each rule document, proving the page shows that game's own document.
PHRASES = {
    "grounds-for-divorce": "Grounds for Divorce Solitaire",
    "gold-mine": "Gold Mine Solitaire",
    "selective-castle": "Selective Castle Solitaire",
    "grandfathers-clock": "Grandfather&#x27;s Clock",
    "blondes-and-brunettes": "Blondes and Brunettes Solitaire",
}


def test_the_five_games() -> None:
    assert list(GAMES) == EXPECTED_SLUGS


def test_index_lists_every_game(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>Patience</title>" in html
    for slug, name in GAMES.items():
        assert f'href="/rules/{slug}/"' in html
        assert name.replace("'", "&#x27;") in html


@pytest.mark.parametrize("slug", EXPECTED_SLUGS)
def test_every_rules_page_says_a_stuck_game_may_be_resigned(client: Client, slug: str) -> None:
    """In every game a card can go back and forth for ever between two piles that take it, so
    a stuck game may stay in play by the rules: each page says what to do."""
    text = " ".join(client.get(f"/rules/{slug}/").content.decode().split())
    assert re.search(r"(no way forward, resign|You may also resign)", text), slug


@pytest.mark.parametrize("slug", EXPECTED_SLUGS)
def test_rules_page_shows_its_document(client: Client, slug: str) -> None:
    response = client.get(f"/rules/{slug}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert PHRASES[slug] in html
    assert f'href="/rules/{slug}.txt"' in html


@pytest.mark.parametrize("slug", EXPECTED_SLUGS)
def test_raw_rules_document(client: Client, slug: str) -> None:
    response = client.get(f"/rules/{slug}.txt")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    expected = (settings.RULE_DOCUMENTS_DIR / f"{slug}.txt").read_text(encoding="utf-8")
    assert response.content.decode() == expected


@pytest.mark.parametrize("path", ["/rules/klondike/", "/rules/klondike.txt", "/rules/..%2f/"])
def test_unknown_game_is_404(client: Client, path: str) -> None:
    assert client.get(path).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug (bin/run)"])
def test_a_page_that_is_not_there_or_not_yours_says_so_with_the_sites_header(
    client: Client, django_user_model, settings, debug: bool
) -> None:

    settings.DEBUG = debug  # with DEBUG on, Django would show its technical 404 page instead
    owner = django_user_model.objects.create_user("owner", password="x")
    game = play_services.create_game(user=owner, variant_slug="gold-mine").game
    client.force_login(django_user_model.objects.create_user("visitor", password="x"))
    paths = ("/no-such-page/", f"/play/{game.pk}/", f"/replay/{game.pk}/", "/rules/klondike/")
    for path in (*paths, "/players/nobody/", "/daily/2026-11-22/klondike/"):
        response = client.get(path)
        assert response.status_code == 404
        page = response.content.decode()
        assert 'class="site-header"' in page and "Back to the games" in page
        assert "Grandfather" in page  # the header's rules menu lists the games
        assert "URLconf" not in page and "DEBUG" not in page
    assert client.get("/api/no-such-endpoint/").json()["error"]["code"] == "not_found"


@pytest.mark.django_db
def test_a_404_says_what_kind_of_thing_is_not_there(client: Client, django_user_model) -> None:
    """A missing player or rules page is not explained by who may see a game."""

    owner = django_user_model.objects.create_user("owner", password="x")
    game = play_services.create_game(user=owner, variant_slug="gold-mine").game
    client.force_login(django_user_model.objects.create_user("visitor", password="x"))
    expected = {
        f"/play/{game.pk}/": "There is no such game, or it is not yours",
        f"/replay/{game.pk}/": "There is no such game, or it is not yours",
        "/players/nobody/": "There is no player of that name.",
        "/rules/klondike/": "There is no game of that name",
        "/daily/2026-11-22/klondike/": "There is no daily challenge at this address",
        "/no-such-page/": "There is no page at this address.",
    }
    for path, words in expected.items():
        page = client.get(path).content.decode()
        assert words in page, path
        if not path.startswith(("/play/", "/replay/")):
            assert "a game shows only to its player" not in page, path


@pytest.mark.django_db
def test_a_daily_board_says_whether_its_day_is_still_to_come_open_or_closed(
    client: Client,
) -> None:
    from games.core import days

    today = days.today()
    ahead, behind = today + dt.timedelta(days=3), today - dt.timedelta(days=1)

    upcoming = client.get(f"/daily/{ahead}/gold-mine/").content.decode()
    assert 'data-day="upcoming"' in upcoming
    notice = re.search(r'<p id="day-notice"[^>]*>(.*?)</p>', upcoming, re.S)
    assert notice, "a day still to come says so"
    words = " ".join(re.sub(r"<[^>]+>", "", notice.group(1)).split())
    assert words == (
        "Not started yet: this day's challenge opens at midnight UTC on "
        f"{ahead:%A} {ahead.day} {ahead:%B %Y}."
    )
    assert f'datetime="{ahead}T00:00:00Z"' in notice.group(1)

    closed = client.get(f"/daily/{behind}/gold-mine/").content.decode()
    assert 'data-day="closed"' in closed
    assert "This day has closed: the ranking is final." in closed

    open_day = client.get(f"/daily/{today}/gold-mine/").content.decode()
    assert 'data-day="open"' in open_day and 'id="day-notice"' not in open_day


def test_health(client: Client) -> None:
    response = client.get("/api/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_the_favicon_is_served_from_this_site(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("/static/frontend/favicon.svg")


# -- public player profiles -------------------------------------------------------------------


@pytest.fixture
def ada(django_user_model):
    return django_user_model.objects.create_user("ada", email="ada@example.org", password=None)


@pytest.mark.django_db
def test_a_players_public_page_names_them_and_never_shows_the_email(client: Client, ada) -> None:
    ada.date_joined = ada.date_joined.replace(year=2031, month=5, day=9)
    ada.save(update_fields=["date_joined"])
    for viewer in (None, ada):
        if viewer:
            client.force_login(viewer)
        response = client.get("/players/ada/")
        assert response.status_code == 200
        html = response.content.decode()
        assert '<h1 id="player-title">ada</h1>' in html
        assert 'data-username="ada"' in html
        assert '<time id="player-joined" datetime="2031-05-09">9 May 2031</time>' in html
        assert "frontend/js/player.js" in html
        assert "ada@example.org" not in html
        assert ("This is your public profile" in html) == (viewer is not None)


@pytest.mark.django_db
def test_an_unknown_or_closed_players_page_is_404(client: Client, ada) -> None:
    assert client.get("/players/nobody/").status_code == 404
    assert client.get("/players/ADA/").status_code == 404
    ada.is_active = False
    ada.save(update_fields=["is_active"])
    assert client.get("/players/ada/").status_code == 404


@pytest.mark.django_db
def test_a_name_is_text_on_the_page_and_escaped_in_links(client: Client, django_user_model) -> None:
    # Not a name sign-up accepts, but one the database can hold.
    odd = django_user_model.objects.create_user('<i>"x"', password=None)
    client.force_login(odd)
    html = client.get("/players/%3Ci%3E%22x%22/").content.decode()
    assert "<i>" not in html
    assert '<h1 id="player-title">&lt;i&gt;&quot;x&quot;</h1>' in html
    assert 'data-username="&lt;i&gt;&quot;x&quot;"' in html
    profile = client.get("/profile/").content.decode()
    assert 'id="public-profile-link" href="/players/%3Ci%3E%22x%22/"' in profile


@pytest.mark.django_db
def test_your_own_profile_links_to_your_public_profile(client: Client, ada) -> None:
    client.force_login(ada)
    html = client.get("/profile/").content.decode()
    assert '<a id="public-profile-link" href="/players/ada/">Your public profile</a>' in html
    assert "ada@example.org" not in html


# -- the emailed link to choose a new password -------------------------------------------------

RESET_SECTION = re.compile(r'<section class="auth-page".*?</section>', re.DOTALL)
INVALID_LINK = "This link to choose a new password is not valid"


def reset_link(user, generator=default_token_generator) -> str:
    uid = urlsafe_base64_encode(str(user.pk).encode())
    return f"/password/reset/{uid}/{generator.make_token(user)}/"


def reset_page(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    assert "no-cache" in response.get("Cache-Control", ""), "a reload checks the link again"
    (section,) = RESET_SECTION.findall(response.content.decode())
    return section


class TwoDaysAgo(PasswordResetTokenGenerator):
    def _now(self) -> dt.datetime:
        return super()._now() - dt.timedelta(days=2)


@pytest.mark.django_db
def test_a_good_reset_link_shows_the_form_and_viewing_it_uses_nothing(
    client: Client, django_user_model
) -> None:
    hopper = django_user_model.objects.create_user("hopper", password="old-passphrase")
    link = reset_link(hopper)
    for _ in range(2):
        section = reset_page(client, link)
        assert 'id="reset-confirm-form"' in section
        assert INVALID_LINK not in section
    uid, token = link.split("/")[3:5]
    answer = client.post(
        "/api/auth/password/reset/confirm/",
        {"uid": uid, "token": token, "new_password": "a-fresh-passphrase"},
        content_type="application/json",
    )
    assert answer.status_code == 204, answer.content


@pytest.mark.django_db
def test_a_used_expired_or_malformed_reset_link_says_so_at_once_and_alike(
    client: Client, django_user_model
) -> None:
    """No form to fill in for nothing: the page says the link is not valid and offers a new
    one, in the same words whatever is wrong, naming no account."""
    hopper = django_user_model.objects.create_user("hopper", password="old-passphrase")
    used = reset_link(hopper)
    uid, token = used.split("/")[3:5]
    assert (
        client.post(
            "/api/auth/password/reset/confirm/",
            {"uid": uid, "token": token, "new_password": "a-fresh-passphrase"},
            content_type="application/json",
        ).status_code
        == 204
    )
    closed = django_user_model.objects.create_user("closed", password="old-passphrase")
    closed_link = reset_link(closed)
    closed.is_active = False
    closed.save(update_fields=["is_active"])
    links = [
        used,
        reset_link(hopper, TwoDaysAgo()),  # expired
        closed_link,
        f"/password/reset/{uid}/not-a-token/",
        f"/password/reset/{uid}/{token[:-1]}x/",
        "/password/reset/bm90LWEtbnVtYmVy/x/",  # "not-a-number"
        "/password/reset/OTk5OTk5OTk5/x/",  # nobody's
        f"/password/reset/{urlsafe_base64_encode(str(10**30).encode())}/{token}/",  # no such id
        "/password/reset/%25%25%25/x/",
        f"/password/reset/{'M' * 200}/{token * 10}/",
    ]
    sections = {reset_page(client, link) for link in links}
    assert len(sections) == 1
    (section,) = sections
    assert INVALID_LINK in section
    assert 'id="reset-confirm-form"' not in section and "new_password" not in section
    assert 'href="/password/forgot/"' in section
    assert "hopper" not in section and uid not in section


@pytest.mark.django_db
def test_the_reset_pages_sign_in_links_do_not_carry_the_link(
    client: Client, django_user_model
) -> None:
    """The header's "Sign in" and "Sign up" carry the page to come back to; for a reset link
    that would copy its token into another address (and the history, and logs)."""
    hopper = django_user_model.objects.create_user("hopper", password="old-passphrase")
    link = reset_link(hopper)
    token = link.split("/")[4]
    page = client.get(link).content.decode()
    # Only the form, which sends it back to the API, holds the token.
    assert page.count(token) == 1 and f'data-token="{token}"' in page
    assert 'href="/signin/?next=/" id="sign-in"' in page


#: A right-pointing triangle as the icons draw one: "M5 3v10l8-5z".
RIGHT_TRIANGLE = re.compile(r"M[\d.]+ [\d.]+v[\d.]+l[\d.]+-[\d.]+z")


@pytest.mark.django_db
def test_the_replays_step_buttons_do_not_look_like_its_play_button(
    client: Client, django_user_model
) -> None:
    """Their labels are hidden on a phone: the icons alone tell them apart, and Forward was a
    right-pointing triangle a pixel narrower than Play's."""

    owner = django_user_model.objects.create_user("owner", password="x")
    game = play_services.create_game(user=owner, variant_slug="gold-mine").game
    client.force_login(owner)
    page = client.get(f"/replay/{game.pk}/").content.decode()
    icons = {
        button: re.search(rf'id="{button}".*?<path d="([^"]+)"', page).group(1)
        for button in ("first", "back", "play", "forward", "last")
    }
    assert len(set(icons.values())) == 5
    assert [b for b, path in icons.items() if RIGHT_TRIANGLE.fullmatch(path)] == ["play"]


# -- the sign-in pages for a visitor already signed in -------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "form", "other_account"),
    [
        ("/signin/", "signin-form", "To use another account, sign out first."),
        ("/signup/", "signup-form", "To create another account, sign out first."),
    ],
)
def test_a_signed_in_visitor_gets_who_they_are_a_way_on_and_a_way_out_not_a_form(
    client: Client, ada, path: str, form: str, other_account: str
) -> None:

    game = play_services.create_game(user=ada, variant_slug="gold-mine").game
    client.force_login(ada)

    html = client.get(f"{path}?next=/play/{game.pk}/%3Fx%3D1").content.decode()

    assert f'id="{form}"' not in html
    assert (
        '<p id="signed-in-as">You are signed in as <strong>ada</strong>. ' + other_account
    ) in html
    assert f'<a class="button primary" id="continue-signed-in" href="/play/{game.pk}/?x=1">' in (
        html
    )
    assert 'id="next-not-theirs"' not in html
    assert 'id="switch-account"' in html


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["play", "replay"])
@pytest.mark.parametrize("signin", ["/signin/", "/signup/"])
def test_the_way_on_from_a_game_of_another_account_is_the_lobby_and_the_page_says_why(
    client: Client, ada, django_user_model, page: str, signin: str
) -> None:
    """An old page of tabs' game, after this browser signed in as ada: "Sign in again" comes
    here with the game as next; continuing as ada to it would be "not found"."""

    tabs = django_user_model.objects.create_user("tabs", password=None)
    game = play_services.create_game(user=tabs, variant_slug="gold-mine").game
    client.force_login(ada)

    for gone in (game.pk, game.pk + 1000):  # another account's game, or none: the same answer
        html = client.get(signin, {"next": f"/{page}/{gone}/"}).content.decode()

        assert '<a class="button primary" id="continue-signed-in" href="/">Continue as ada</a>' in (
            html
        )
        assert (
            '<p id="next-not-theirs">The game you came from is not one of ada\'s: continuing '
            "as ada leads to the lobby. To go back to it, sign out, then sign in as the account "
            "that played it.</p>"
        ) in html
        assert 'id="switch-account"' in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    "next_page", ["https://evil.example/", "//evil.example/", "/\\evil.example", "/signin/", "x"]
)
def test_the_way_on_stays_on_this_site(client: Client, ada, next_page: str) -> None:
    client.force_login(ada)

    html = client.get("/signin/", {"next": next_page}).content.decode()

    assert 'id="continue-signed-in" href="/">' in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "form"), [("/signin/", "signin-form"), ("/signup/", "signup-form")]
)
def test_a_signed_out_visitor_gets_the_form(client: Client, path: str, form: str) -> None:
    html = client.get(f"{path}?next=/daily/").content.decode()

    assert f'<form id="{form}" class="form" novalidate data-next="/daily/">' in html
    assert 'id="signed-in-already"' not in html


def test_the_sign_up_hint_says_the_username_rule_the_api_keeps(client: Client) -> None:
    """The hint and the API's refusal name the same characters, in the same words."""
    from accounts.usernames import USERNAME_CHARACTERS_MESSAGE

    page = client.get("/signup/").content.decode()

    rule = "the letters A to Z (no accents or other alphabets), digits, and . - _"
    assert rule in USERNAME_CHARACTERS_MESSAGE
    assert rule[0].upper() + rule[1:] in page
    assert "@ . +" not in page


def test_rules_page_shows_how_often_the_game_can_be_won(client: Client, monkeypatch) -> None:
    from frontend import views

    figures = {
        "deals": 1000,
        "won": 812,
        "lost": 150,
        "unknown": 38,
        "seconds_budget": 10.0,
        "positions_budget": 2000000,
        "interval": [0.7869, 0.8458],
        "point": 0.812,
    }
    monkeypatch.setattr(views, "read_winnability_summary", lambda: {"gold-mine": figures})
    text = " ".join(client.get("/rules/gold-mine/").content.decode().split())
    assert "How often can it be won?" in text
    assert (
        "Of 1,000 deals searched by our solver with a budget of 10 s each, 812 were won, "
        "150 proven lost, 38 unknown: between <strong>78.7 %</strong> and "
        "<strong>84.6 %</strong> of deals can be won (Wilson 95 %"
    ) in text
    # A game without figures yet says nothing about it.
    other = client.get("/rules/selective-castle/").content.decode()
    assert "How often can it be won?" not in other


def test_rules_pages_show_the_repository_figures(client: Client) -> None:
    from games.solver.winnability import read_summary

    for slug, figures in read_summary().items():
        text = " ".join(client.get(f"/rules/{slug}/").content.decode().split())
        assert f"Of {figures['deals']:,} deals searched" in text, slug


def test_the_lobby_offers_winnable_deals_only(client: Client) -> None:
    html = client.get("/").content.decode()
    assert '<input type="checkbox" id="winnable-only"' in html
    assert "Winnable deals only" in html


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["play", "replay"])
def test_signed_out_a_game_page_is_404_alike_whether_the_game_exists_or_not(
    client: Client, django_user_model, kind: str
) -> None:
    """No existence oracle: an existing game, a missing one and a malformed id all get the
    same 404 page for a signed-out visitor (before, a numeric id went to the sign-in page)."""

    owner = django_user_model.objects.create_user("owner", password="x")
    game = play_services.create_game(user=owner, variant_slug="gold-mine").game
    pages = []
    for game_id in (game.pk, 999999, "abc"):
        response = client.get(f"/{kind}/{game_id}/")
        assert response.status_code == 404, game_id
        page = response.content.decode()
        assert "There is no such game, or it is not yours" in page
        assert "sign in to see it" in page
        assert f'href="/signin/?next=/{kind}/{game_id}/"' in page  # a way to sign in and back
        pages.append(re.search(r'<section class="auth-page".*?</section>', page, re.S)[0])
    assert pages[0] == pages[1] == pages[2]
    client.force_login(owner)
    assert client.get(f"/{kind}/{game.pk}/").status_code == 200


def test_a_shared_days_link_previews_the_day_and_its_games(client: Client) -> None:
    """The day's page, as a link preview reads it (signed out): Open Graph and Twitter meta
    naming the day and the five games, and the project's picture, which exists."""
    import html as html_module

    page = client.get("/daily/?date=2026-12-02")
    assert page.status_code == 200
    text = page.content.decode()
    meta = {
        m[0]: html_module.unescape(m[1])
        for m in re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)"', text)
    }
    assert meta["og:title"] == "Patience daily challenges · 2 December 2026"
    assert meta["twitter:title"] == meta["og:title"]
    assert meta["twitter:card"] == "summary_large_image"
    for name in GAMES.values():
        assert name in meta["og:description"]
    assert "2 December 2026" in meta["og:description"]
    assert meta["og:url"] == "http://testserver/daily/?date=2026-12-02"
    assert meta["og:image"].startswith("http://testserver/") and meta["og:image"].endswith(".png")
    from pathlib import Path

    png = Path("frontend/static/frontend/share/daily.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    # No ?date=, or one that is not a day: today's preview.
    assert "Patience daily challenges · " in client.get("/daily/?date=nope").content.decode()
