"""Sign-up tells no one which email addresses have accounts, and its quota cannot be raced.

The attack: ``POST /api/auth/register/`` with a taken address answered "Another account already
has this email address.", refused sign-ups used none of the quota (45 tries, no 429), and 60
sign-ups sent at once all got 201 against a limit of 30 (checked, then recorded).
"""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.db import connection
from django.test import Client, TestCase

from tests.accounts.helpers import PASSWORD, assert_error, post, url

pytestmark = pytest.mark.django_db

CHECK_INBOX = "Check your inbox: we sent a link to confirm the address"


def sign_up(
    username: str, email: str = "", address: str = "203.0.113.5", client: Client | None = None
) -> Any:
    """A sign-up from ``address``; the emails it sends after its commit are sent."""
    body = {"username": username, "password": PASSWORD, "email": email}
    with TestCase.captureOnCommitCallbacks(execute=True):
        return post(client or Client(), "register", body, REMOTE_ADDR=address)


def confirmation_token(message: Any) -> str:
    found = re.search(r"/email/confirm/([^/\s]+)/", message.body)
    assert found, message.body
    return found.group(1)


def test_a_taken_address_answers_as_an_unknown_one_does(ada: User) -> None:
    fresh = sign_up("grace", "grace@example.com")
    taken = sign_up("hopper", "ADA@example.com")

    assert fresh.status_code == taken.status_code == 201
    fresh_body, taken_body = fresh.json(), taken.json()
    assert set(fresh_body) == set(taken_body) == {
        "id", "username", "email", "date_joined", "email_to_confirm", "detail",
    }  # fmt: skip
    assert fresh_body["email"] == taken_body["email"] == ""
    assert fresh_body["email_to_confirm"] == "grace@example.com"
    assert taken_body["email_to_confirm"] == "ADA@example.com"
    assert fresh_body["detail"] == taken_body["detail"]
    assert fresh_body["detail"].startswith(CHECK_INBOX)
    hopper = User.objects.get(username="hopper")
    assert hopper.email == ""
    assert User.objects.get(username="ada").email == "ada@example.com"


def test_the_owner_of_a_taken_address_is_told_by_email(ada: User) -> None:
    sign_up("hopper", "ada@example.com")

    [notice] = mail.outbox
    assert notice.to == ["ada@example.com"]
    assert "ada" in notice.body  # their own username, to them
    assert "hopper" not in notice.body
    assert "/email/confirm/" not in notice.body  # nothing to attach it to the new account


def test_an_unknown_address_is_confirmed_by_its_link(client: Client) -> None:
    assert sign_up("grace", "grace@example.com", client=client).status_code == 201
    [message] = mail.outbox
    assert message.to == ["grace@example.com"]

    response = post(Client(), "email-confirm", {"token": confirmation_token(message)})

    assert response.status_code == 200, response.content
    assert response.json()["email"] == "grace@example.com"
    assert client.get(url("me")).json()["email"] == "grace@example.com"


def test_a_confirmation_link_works_once_and_a_forged_one_never() -> None:
    sign_up("grace", "grace@example.com")
    token = confirmation_token(mail.outbox[0])
    assert post(Client(), "email-confirm", {"token": token}).status_code == 200

    assert_error(
        post(Client(), "email-confirm", {"token": token}), 400, "invalid_confirmation_link"
    )
    assert_error(
        post(Client(), "email-confirm", {"token": token[:-2] + "xx"}),
        400,
        "invalid_confirmation_link",
    )


def test_a_followed_link_stays_spent_after_the_address_is_removed_again(
    client: Client,
) -> None:
    """The account has no address again (the player removed it, in the settings): the old
    link, read by whoever has that mailbox now, must not set it back."""
    sign_up("grace", "grace@example.com", client=client)
    token = confirmation_token(mail.outbox[0])
    assert post(Client(), "email-confirm", {"token": token}).status_code == 200
    removed = client.patch(
        url("me"), {"email": "", "password": PASSWORD}, content_type="application/json"
    )
    assert removed.status_code == 200, removed.content
    assert User.objects.get(username="grace").email == ""

    assert_error(
        post(Client(), "email-confirm", {"token": token}), 400, "invalid_confirmation_link"
    )
    assert User.objects.get(username="grace").email == ""


def test_a_confirmation_link_sent_before_a_password_change_never_works(client: Client) -> None:
    sign_up("grace", "grace@example.com", client=client)
    token = confirmation_token(mail.outbox[0])
    changed = post(
        client, "password", {"old_password": PASSWORD, "new_password": PASSWORD + "-new"}
    )
    assert changed.status_code == 204, changed.content

    assert_error(
        post(Client(), "email-confirm", {"token": token}), 400, "invalid_confirmation_link"
    )
    assert User.objects.get(username="grace").email == ""


def test_a_confirmation_for_an_address_taken_since_is_refused(
    django_user_model: type[User],
) -> None:
    sign_up("grace", "grace@example.com")
    token = confirmation_token(mail.outbox[0])
    django_user_model.objects.create_user("other", "Grace@example.com", PASSWORD)

    error = assert_error(post(Client(), "email-confirm", {"token": token}), 400, "invalid")
    assert list(error["fields"]) == ["email"]
    assert User.objects.get(username="grace").email == ""


# -- the quota -------------------------------------------------------------------------------


def test_refused_sign_ups_count_against_the_quota(ada: User, settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "register": "5/hour",
        },
    }
    for _ in range(3):
        assert sign_up("ada").status_code == 400  # a name taken
    assert_error(post(Client(), "register", {"username": "x"}, REMOTE_ADDR="203.0.113.5"),
                 400, "invalid")  # fmt: skip
    assert sign_up("grace").status_code == 201

    assert_error(sign_up("hopper"), 429, "throttled")
    assert not User.objects.filter(username="hopper").exists()


@pytest.mark.django_db(transaction=True)
def test_sixty_simultaneous_sign_ups_cannot_pass_a_limit_of_thirty() -> None:
    assert connection.vendor == "postgresql" or pytest.skip("needs PostgreSQL")
    count = 60
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def attempt(n: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[n] = sign_up(f"racer{n}").status_code
        except BaseException as exc:  # every outcome is asserted
            results[n] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert not any(thread.is_alive() for thread in threads)
    assert [r for r in results if not isinstance(r, int)] == []
    assert sorted(results) == [201] * 30 + [429] * 30
    assert User.objects.filter(username__startswith="racer").count() == 30


def test_the_emailed_link_opens_a_page_whose_button_confirms_and_looking_confirms_nothing() -> None:
    sign_up("grace", "grace@example.com")
    token = confirmation_token(mail.outbox[0])

    page = Client().get(f"/email/confirm/{token}/")

    assert page.status_code == 200
    assert b'id="email-confirm-form"' in page.content
    assert f'data-token="{token}"'.encode() in page.content
    assert User.objects.get(username="grace").email == ""
