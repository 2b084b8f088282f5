import pytest
from django.conf import settings
from django.test import Client

from frontend.games import GAMES

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
    expected = (settings.SEEDS_DIR / f"{slug}.txt").read_text(encoding="utf-8")
    assert response.content.decode() == expected


@pytest.mark.parametrize("path", ["/rules/klondike/", "/rules/klondike.txt", "/rules/..%2f/"])
def test_unknown_game_is_404(client: Client, path: str) -> None:
    assert client.get(path).status_code == 404


def test_health(client: Client) -> None:
    response = client.get("/api/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_the_favicon_is_served_from_this_site(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("/static/frontend/favicon.svg")
