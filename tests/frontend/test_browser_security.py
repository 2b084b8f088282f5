"""The site's Content-Security-Policy blocks nothing of its own: the staff pages and the API
reference, which no other browser test opens, load and work under it. (The ``new_context``
fixture fails any browser test whose pages the policy blocked something on.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.play import services as play_services
from tests.frontend.browser_helpers import PASSWORD, release_connection, watch_errors

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_api_reference_renders_every_operation(site, new_context):
    page = new_context().new_page()
    errors = watch_errors(page)
    response = page.goto(site + "/api/docs/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible()
    expect(page.locator(".swagger-ui")).to_contain_text("/api/games/{game_id}/moves/")
    assert errors == []


def test_staff_sign_in_to_the_admin_and_step_through_a_review(site, new_context, django_user_model):
    django_user_model.objects.create_user(
        "referee", password=PASSWORD, is_staff=True, is_superuser=True
    )
    player = django_user_model.objects.create_user("ada", password=PASSWORD)
    game = play_services.create_game(user=player, variant_slug="gold-mine", seed=4).game
    for _ in range(2):
        play_services.play_move(user=player, game_id=game.pk, move={"type": "deal"})
    release_connection()

    page = new_context().new_page()
    errors = watch_errors(page)
    page.goto(site + "/admin/")
    page.fill("#id_username", "referee")
    page.fill("#id_password", PASSWORD)
    page.locator("input[type=submit]").click()
    expect(page.locator("#user-tools")).to_contain_text("referee")
    # The admin's own scripts: a list's filters, a form's calendar widget.
    page.goto(f"{site}/admin/games/game/?status__exact=playing")
    expect(page.locator("#result_list")).to_be_visible()
    page.goto(f"{site}/admin/games/dailychallenge/add/")
    page.locator(".datetimeshortcuts a", has_text="Today").first.click()
    expect(page.locator("input[name=date]")).not_to_have_value("")

    page.goto(f"{site}/admin/games/game/{game.pk}/review/?step=0")
    expect(page.locator("#rv-step")).to_have_attribute("data-step", "0")
    page.evaluate("window.notReloaded = true")
    page.locator("#rv-step .rv-nav a", has_text="next").click()
    expect(page.locator("#rv-step")).to_have_attribute("data-step", "1")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#rv-step")).to_have_attribute("data-step", "2")
    assert page.evaluate("window.notReloaded") is True  # stepped by the script, no reload
    assert page.url.endswith("?step=2")
    assert errors == []
