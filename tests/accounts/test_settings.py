"""An account's settings (``GET``/``PATCH /api/auth/settings/``, ``accounts.preferences``):
the defaults until saved, each setting one of its choices, bad input refused with nothing
changed, saves limited per account, guests refused (their browser keeps theirs), and every
page served with the signed-in account's settings so it draws them from the first paint."""

from __future__ import annotations

import typing
from datetime import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django.fixtures import Settings

from accounts import preferences, responses
from accounts.models import PlayerSettings
from accounts.selectors import settings_of
from accounts.services import save_settings
from tests.accounts.helpers import assert_error, url
from tests.accounts.test_guests import deal, visitor
from web.errors import ServiceError

pytestmark = pytest.mark.django_db

DEFAULTS = {
    "speed": "normal",
    "autoplay": "off",
    "sound": False,
    "card_back": "blue",
    "table": "green",
    "left_handed": False,
    "winnable_only": False,
}


def patch(client: Client, body: Any) -> Any:
    return client.patch(url("settings"), body, content_type="application/json")


def test_an_account_that_saved_nothing_has_the_defaults(signed_in: Client) -> None:
    answer = signed_in.get(url("settings"))
    assert answer.status_code == 200
    assert answer.json() == {**DEFAULTS, "saved": False, "saved_at": None}
    assert not PlayerSettings.objects.exists()  # reading creates nothing


def test_a_change_is_saved_and_the_other_settings_stay(signed_in: Client, ada: User) -> None:
    answer = patch(signed_in, {"table": "blue", "left_handed": True})
    assert answer.status_code == 200
    first = answer.json()
    saved_at = datetime.fromisoformat(first.pop("saved_at"))
    assert first == {**DEFAULTS, "table": "blue", "left_handed": True, "saved": True}
    assert saved_at == PlayerSettings.objects.get(user=ada).updated_at

    answer = patch(signed_in, {"speed": "slow", "winnable_only": True, "sound": True})
    expected = {
        **DEFAULTS,
        "table": "blue",
        "left_handed": True,
        "speed": "slow",
        "winnable_only": True,
        "sound": True,
        "saved": True,
    }
    last_saved = PlayerSettings.objects.get(user=ada).updated_at
    assert last_saved > saved_at  # the time of the last save
    expected["saved_at"] = last_saved.isoformat()
    assert answer.json() == expected
    assert signed_in.get(url("settings")).json() == expected
    assert settings_of(ada) == expected


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"table": "purple"}, "table"),
        ({"speed": ""}, "speed"),
        ({"autoplay": None}, "autoplay"),
        ({"card_back": ["red"]}, "card_back"),
        ({"sound": "on"}, "sound"),
        ({"left_handed": 1}, "left_handed"),
        ({"winnable_only": "true"}, "winnable_only"),
    ],
)
def test_a_value_that_is_not_one_of_the_choices_is_refused_and_nothing_changes(
    signed_in: Client, body: dict[str, Any], field: str
) -> None:
    assert patch(signed_in, {"table": "red"}).status_code == 200

    error = assert_error(patch(signed_in, {"speed": "fast", **body}), 400, "invalid")

    assert list(error["fields"]) == [field]
    assert signed_in.get(url("settings")).json()["speed"] == "normal"  # the good one not saved


def test_an_unknown_setting_is_refused_and_nothing_changes(signed_in: Client) -> None:
    error = assert_error(patch(signed_in, {"table": "red", "colour": "red"}), 400, "unknown_field")
    assert list(error["fields"]) == ["colour"]
    assert not PlayerSettings.objects.exists()


def test_a_body_that_is_not_an_object_is_refused(signed_in: Client) -> None:
    assert_error(patch(signed_in, ["table", "red"]), 400, "invalid")
    assert not PlayerSettings.objects.exists()


def test_the_service_checks_names_and_values_itself(ada: User) -> None:
    """Whoever calls it (not only the API's body), nothing is written from a bad change."""
    with pytest.raises(ServiceError) as refused:
        save_settings(user=ada, changes={"table": "blue", "felt": "red"})
    assert refused.value.code == "unknown_field"
    with pytest.raises(ServiceError) as refused:
        save_settings(user=ada, changes={"table": "blue", "sound": "yes"})
    assert refused.value.code == "invalid"
    assert refused.value.extra["fields"] == {"sound": ["Send true or false."]}
    assert not PlayerSettings.objects.exists()
    assert save_settings(user=ada, changes={"table": "blue"})["table"] == "blue"


def test_signed_out_is_told_to_sign_in(client: Client) -> None:
    assert_error(client.get(url("settings")), 401, "not_authenticated")
    assert_error(patch(client, {"table": "red"}), 401, "not_authenticated")


def test_a_guest_keeps_its_settings_in_its_browser_not_here() -> None:
    client = visitor()
    assert deal(client).status_code == 201  # now a guest
    assert_error(client.get(url("settings")), 403, "account_required")
    assert_error(
        client.patch(url("settings"), {"table": "red"}, format="json"), 403, "account_required"
    )
    assert not PlayerSettings.objects.exists()


def test_saves_are_limited_per_account_and_reading_is_not(
    signed_in: Client, settings: Settings
) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "settings_change": "3/min",
        },
    }
    for table in ("red", "blue", "grey"):
        assert patch(signed_in, {"table": table}).status_code == 200

    refused = patch(signed_in, {"table": "green"})

    error = assert_error(refused, 429, "throttled")
    assert error["message"].startswith("Too many changes of settings in a short time.")
    assert int(refused["Retry-After"]) >= 1
    assert signed_in.get(url("settings")).json()["table"] == "grey"


def test_the_settings_are_closed_with_the_account(ada: User) -> None:
    save_settings(user=ada, changes={"table": "red"})
    ada.delete()
    assert not PlayerSettings.objects.exists()


def test_the_answer_the_schema_and_the_choices_agree() -> None:
    """The answer's documented choices (responses.PlayerSettings) are accounts.preferences'."""
    hints = typing.get_type_hints(responses.PlayerSettings, include_extras=True)
    for name, allowed in preferences.CHOICES.items():
        hint = hints[name]
        base = typing.get_args(hint)[0] if typing.get_origin(hint) is typing.Annotated else hint
        if allowed is bool:
            assert base is bool, name
        else:
            assert typing.get_args(base) == allowed, name
    assert preferences.DEFAULTS == DEFAULTS


# -- served with the page --------------------------------------------------------------------


def test_a_page_carries_the_accounts_settings_on_html(signed_in: Client, ada: User) -> None:
    save_settings(user=ada, changes={"table": "blue", "card_back": "red", "left_handed": True})
    html = signed_in.get("/").content.decode()
    first = html[: html.index(">", html.index("<html")) + 1]
    assert 'data-settings="account"' in first
    assert 'data-table="blue"' in first
    assert 'data-back="red"' in first
    assert 'data-hand="left"' in first
    assert '<script id="player-settings" type="application/json">' in html
    assert "{#" not in html  # the template's comments stay out of the page


def test_an_account_that_saved_nothing_is_marked_so_its_page_adopts_the_browsers(
    signed_in: Client,
) -> None:
    html = signed_in.get("/").content.decode()
    first = html[: html.index(">", html.index("<html")) + 1]
    assert 'data-settings="account-unsaved"' in first
    assert "data-table" not in first and "data-hand" not in first


def test_a_guests_and_a_visitors_pages_carry_no_settings(client: Client) -> None:
    html = client.get("/").content.decode()
    assert "data-settings" not in html and 'id="player-settings"' not in html
    guest = visitor()
    assert deal(guest).status_code == 201
    html = guest.get("/").content.decode()
    assert "data-settings" not in html and 'id="player-settings"' not in html
