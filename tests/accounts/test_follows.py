"""Following players: POST/DELETE /api/players/{username}/follow/, GET /api/me/following/.

An account follows another with no approval asked; following twice or unfollowing someone not
followed changes nothing; guests, oneself, unknown and closed accounts are refused with a
stable code and nothing written; follows are limited per account and per address.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from accounts import follows
from accounts.guests import create_guest
from accounts.live import account_group
from accounts.models import Follow
from tests.games.helpers import GroupInbox, anonymous_client, client_for, make_user

pytestmark = pytest.mark.django_db


def follow_url(username: str) -> str:
    return f"/api/players/{username}/follow/"


def following_of(client: APIClient) -> list[str]:
    response = client.get("/api/me/following/")
    assert response.status_code == 200, response.content
    return [row["username"] for row in response.json()["following"]]


def error_code(response: Any) -> str:
    return response.json()["error"]["code"]


def test_a_player_follows_another_and_sees_them_in_their_list():
    me, other = make_user("mira"), make_user("otto")
    client = client_for(me)
    response = client.post(follow_url("otto"))
    assert response.status_code == 200
    assert response.json() == {"username": "otto", "following": True}
    assert following_of(client) == ["otto"]
    assert Follow.objects.filter(follower=me, followed=other).count() == 1
    # Being followed shows nothing on the followed player's own list.
    assert following_of(client_for(other)) == []


def test_following_twice_and_unfollowing_twice_change_nothing():
    make_user("otto")
    client = client_for(make_user("mira"))
    assert client.post(follow_url("otto")).status_code == 200
    assert client.post(follow_url("otto")).status_code == 200
    assert Follow.objects.count() == 1
    assert client.delete(follow_url("otto")).json() == {"username": "otto", "following": False}
    assert client.delete(follow_url("otto")).status_code == 200
    assert Follow.objects.count() == 0
    assert following_of(client) == []


def test_the_list_is_by_name_and_leaves_out_closed_accounts():
    client = client_for(make_user("mira"))
    for name in ("zoe", "anna", "bert"):
        make_user(name)
        client.post(follow_url(name))
    bert = type(make_user("x")).objects.get(username="bert")
    bert.is_active = False
    bert.save()
    assert following_of(client) == ["anna", "zoe"]


@pytest.mark.parametrize("name", ["nobody", "mira"])
def test_an_unknown_player_or_oneself_is_refused_and_nothing_is_written(name):
    make_user("mira")
    client = client_for(type(make_user("y")).objects.get(username="mira"))
    response = client.post(follow_url(name))
    expected = {"nobody": (404, "not_found"), "mira": (400, "cannot_follow_self")}[name]
    assert (response.status_code, error_code(response)) == expected
    assert Follow.objects.count() == 0


def test_a_guest_cannot_follow_nor_be_followed():
    guest = create_guest(client_ip="10.0.0.1")
    make_user("otto")
    response = client_for(guest).post(follow_url("otto"))
    assert (response.status_code, error_code(response)) == (403, "account_required")
    assert client_for(guest).get("/api/me/following/").status_code == 403
    response = client_for(make_user("mira")).post(follow_url(guest.username))
    assert (response.status_code, error_code(response)) == (404, "not_found")
    assert Follow.objects.count() == 0


def test_a_signed_out_visitor_cannot_follow():
    make_user("otto")
    response = anonymous_client().post(follow_url("otto"))
    assert response.status_code in (401, 403)
    assert anonymous_client().get("/api/me/following/").status_code in (401, 403)
    assert Follow.objects.count() == 0


def test_a_guest_is_refused_by_the_service_too():
    guest = create_guest(client_ip="10.0.0.2")
    make_user("otto")
    with pytest.raises(follows.ServiceError) as refused:
        follows.follow(user=guest, username="otto")
    assert refused.value.code == "account_required"


def test_the_database_refuses_a_self_follow_and_a_second_row():
    me, other = make_user(), make_user()
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=me, followed=me)
    Follow.objects.create(follower=me, followed=other)
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=me, followed=other)


def test_one_account_follows_at_most_max_following_players(settings):
    settings.MAX_FOLLOWING = 2
    client = client_for(make_user("mira"))
    for name in ("a1", "a2", "a3"):
        make_user(name)
    assert client.post(follow_url("a1")).status_code == 200
    assert client.post(follow_url("a2")).status_code == 200
    response = client.post(follow_url("a3"))
    assert (response.status_code, error_code(response)) == (409, "too_many_follows")
    assert following_of(client) == ["a1", "a2"]
    assert client.post(follow_url("a2")).status_code == 200  # following already: fine


def test_follows_are_limited_per_player_and_per_address(settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "follow": "3/min", "follow_address": "5/min"},
    }
    make_user("otto")
    client = client_for(make_user("mira"))
    answers = [client.post(follow_url("otto")).status_code for _ in range(3)]
    answers.append(client.delete(follow_url("otto")).status_code)
    assert answers == [200, 200, 200, 429]
    refused = client.post(follow_url("otto"))
    assert error_code(refused) == "throttled" and "Retry-After" in refused
    # Two more players behind the same address share its budget of 5: 3 passed already.
    others = [client_for(make_user()) for _ in range(2)]
    assert [c.post(follow_url("otto")).status_code for c in others] == [200, 200]
    assert client_for(make_user()).post(follow_url("otto")).status_code == 429


@pytest.mark.django_db(transaction=True)
def test_a_follow_tells_the_followers_live_connections_after_the_commit(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    inbox = GroupInbox()
    me = make_user("mira")
    make_user("otto")
    inbox.join(account_group(me.pk))
    with transaction.atomic():
        follows.follow(user=me, username="otto")
        assert inbox.received() == []  # nothing before the commit
    assert inbox.received() == [{"type": "account.follows_changed"}]
    follows.follow(user=me, username="otto")  # nothing changed: nothing to tell
    assert inbox.received() == []
    follows.unfollow(user=me, username="otto")
    assert inbox.received() == [{"type": "account.follows_changed"}]
