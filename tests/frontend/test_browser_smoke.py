"""The browser harness itself: a real chromium loads pages from a real server."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_lobby_loads_in_a_real_browser_without_errors(site, new_context):
    page = new_context().new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(site + "/")
    assert "Patience" in page.title()
    for name in ("Grounds for Divorce", "Gold Mine", "Grandfather"):
        assert name in page.content()
    assert errors == []
