"""The admin's player forms follow sign-up's rule for a username."""

from __future__ import annotations

import pytest

from accounts.usernames import USERNAME_CHARACTERS_MESSAGE

pytestmark = pytest.mark.django_db

CYRILLIC_ALICE = "\u0430lice"  # "alice" with a Cyrillic a: it would pass for alice


def _add(staff_client, username: str):
    form = {
        "username": username,
        "usable_password": "true",
        "password1": "a-long-password-77",
        "password2": "a-long-password-77",
    }
    return staff_client.post("/admin/auth/user/add/", form)


def _change(staff_client, user, username: str):
    form = {
        "username": username,
        "email": user.email,
        "is_active": "on",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
    }
    return staff_client.post(f"/admin/auth/user/{user.pk}/change/", form)


@pytest.mark.parametrize("username", [CYRILLIC_ALICE, "ada@home", "..", "jos\u00e9"])
def test_staff_cannot_add_a_player_whose_name_sign_up_refuses(
    staff_client, django_user_model, username
):
    page = _add(staff_client, username)

    assert page.status_code == 200  # the form again, with the reason beside the field
    assert not django_user_model.objects.filter(username=username).exists()
    html = page.content.decode()
    assert ("letter or digit" in html) or (USERNAME_CHARACTERS_MESSAGE.split(" (")[0] in html)


def test_staff_add_a_player_with_a_name_sign_up_takes(staff_client, django_user_model):
    assert _add(staff_client, "grace.hopper-1").status_code == 302
    assert django_user_model.objects.filter(username="grace.hopper-1").exists()


def test_staff_cannot_rename_a_player_to_a_look_alike(staff_client, django_user_model):
    grace = django_user_model.objects.create_user("grace", "grace@example.com", "pw-123456789")

    page = _change(staff_client, grace, CYRILLIC_ALICE)

    assert page.status_code == 200
    grace.refresh_from_db()
    assert grace.username == "grace"
    assert _change(staff_client, grace, "grace_h").status_code == 302
    grace.refresh_from_db()
    assert grace.username == "grace_h"


def test_a_name_made_under_the_older_rule_may_stay_as_it_is(staff_client, django_user_model):
    old = django_user_model.objects.create_user("jos\u00e9", "jose@example.com", "pw-123456789")

    assert _change(staff_client, old, "jos\u00e9").status_code == 302  # its email, say
    old.refresh_from_db()
    assert old.username == "jos\u00e9"
