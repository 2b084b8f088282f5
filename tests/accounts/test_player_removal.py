"""A removed player (account closed, or deleted by staff in the admin) leaves the daily
leaderboards, and the boards' live watchers are told once the removal commits."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Permission
from django.db import transaction
from django.test import Client

from accounts import services as accounts
from config.asgi import application
from games.core import days
from games.daily import leaderboards
from games.daily import services as daily_services
from games.play import services as play_services
from tests.games.helpers import GroupInbox
from web.errors import ServiceError
from web.live.games import leaderboard_group

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://testserver")


@pytest.fixture
def board_inbox(settings):
    """The messages sent to today's Gold Mine leaderboard group."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    inbox = GroupInbox()
    inbox.join(leaderboard_group(days.today(), "gold-mine"))
    return inbox.received


def attempt(user) -> None:
    game = daily_services.start_daily_attempt(
        user=user, date=days.today(), variant_slug="gold-mine"
    )
    # A move first: an attempt resigned with none counts nowhere (models.UNTOUCHED).
    play_services.play_move(user=user, game_id=game.game.pk, move={"type": "deal"})
    play_services.resign_game(user=user, game_id=game.game.pk)


def names_on_todays_board() -> list[str]:
    board = leaderboards.daily_leaderboard(days.today(), "gold-mine", None)
    return [entry["user"] for entry in board["results"]]


def test_a_deleted_player_leaves_the_board_and_its_watchers_hear_after_the_commit(
    django_user_model, board_inbox
):
    leaving = django_user_model.objects.create_user("leaving", password="x")
    staying = django_user_model.objects.create_user("staying", password="x")
    attempt(leaving)
    attempt(staying)
    board_inbox()  # the attempts' own updates
    assert sorted(names_on_todays_board()) == ["leaving", "staying"]

    with transaction.atomic():
        leaving.delete()  # as the admin and closing an account both do
        assert board_inbox() == []  # not before the commit

    assert [m["type"] for m in board_inbox()] == ["leaderboard.changed"]
    assert names_on_todays_board() == ["staying"]


def test_a_rolled_back_removal_tells_no_one(django_user_model, board_inbox):
    player = django_user_model.objects.create_user("player", password="x")
    attempt(player)
    board_inbox()
    with pytest.raises(RuntimeError), transaction.atomic():
        player.delete()
        raise RuntimeError("rolled back")
    assert board_inbox() == []
    assert names_on_todays_board() == ["player"]


def test_a_player_without_daily_attempts_announces_nothing(django_user_model, board_inbox):
    casual = django_user_model.objects.create_user("casual", password="x")
    play_services.create_game(user=casual, variant_slug="gold-mine", seed=3)
    casual.delete()
    assert board_inbox() == []


# -- staff deleting players in the admin ------------------------------------------------------


@pytest.fixture
def boss(django_user_model):
    return django_user_model.objects.create_superuser("boss", "boss@example.org", "pw")


def admin_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def delete_in_admin(client: Client, users: list, how: str) -> Any:
    if how == "one":
        [user] = users
        return client.post(f"/admin/auth/user/{user.pk}/delete/", {"post": "yes"})
    return client.post(
        "/admin/auth/user/",
        {"action": "delete_selected", "_selected_action": [u.pk for u in users], "post": "yes"},
    )


@pytest.mark.parametrize("how", ["one", "several"])
def test_a_live_board_watcher_hears_when_staff_delete_a_player_on_it_in_the_admin(
    django_user_model, boss, how
):
    leaving = django_user_model.objects.create_user("leaving", password="x")
    also_leaving = django_user_model.objects.create_user("also-leaving", password="x")
    staying = django_user_model.objects.create_user("staying", password="x")
    for player in (leaving, also_leaving, staying):
        attempt(player)
    removed = [leaving] if how == "one" else [leaving, also_leaving]
    staff = admin_client(boss)
    path = f"/ws/leaderboards/daily/{days.today().isoformat()}/gold-mine/"

    @async_to_sync
    async def scenario():
        watcher = WebsocketCommunicator(application, path, headers=[ORIGIN])
        assert (await watcher.connect(timeout=5))[0]
        first = await watcher.receive_json_from(timeout=5)
        assert sorted(entry["user"] for entry in first["results"]) == [
            "also-leaving", "leaving", "staying"
        ]  # fmt: skip
        response = await database_sync_to_async(delete_in_admin)(staff, removed, how)
        assert response.status_code == 302, response.content[:2000]
        board = await watcher.receive_json_from(timeout=5)
        expected = ["also-leaving", "staying"] if how == "one" else ["staying"]
        assert sorted(entry["user"] for entry in board["results"]) == expected
        assert board["count"] == len(expected)
        await watcher.disconnect()

    scenario()
    assert not django_user_model.objects.filter(pk__in=[u.pk for u in removed]).exists()
    assert sorted(names_on_todays_board()) == sorted(
        ["also-leaving", "staying"] if how == "one" else ["staying"]
    )


def test_staff_delete_players_through_the_account_service(django_user_model, boss, monkeypatch):
    removals = []
    real = accounts.remove_accounts

    def watched(*, actor, users):
        removals.append((actor.username, sorted(u.username for u in users)))
        return real(actor=actor, users=users)

    monkeypatch.setattr(accounts, "remove_accounts", watched)
    ada = django_user_model.objects.create_user("ada", password="x")
    bob = django_user_model.objects.create_user("bob", password="x")
    eve = django_user_model.objects.create_user("eve", password="x")
    staff = admin_client(boss)
    assert delete_in_admin(staff, [ada], "one").status_code == 302
    assert delete_in_admin(staff, [bob, eve], "several").status_code == 302
    assert removals == [("boss", ["ada"]), ("boss", ["bob", "eve"])]
    assert list(django_user_model.objects.values_list("username", flat=True)) == ["boss"]


def test_staff_remove_other_staff_without_a_password_but_never_themselves(django_user_model, boss):
    colleague = django_user_model.objects.create_user("colleague", password="x", is_staff=True)
    player = django_user_model.objects.create_user("player", password="x")

    with pytest.raises(ServiceError) as refused:
        accounts.remove_accounts(actor=boss, users=[player, boss])
    assert refused.value.code == "own_account"
    assert django_user_model.objects.count() == 3  # nothing removed

    staff = admin_client(boss)
    assert delete_in_admin(staff, [boss], "one").status_code == 403
    assert delete_in_admin(staff, [player, boss], "several").status_code == 403
    assert django_user_model.objects.count() == 3

    assert accounts.remove_accounts(actor=boss, users=[colleague, player]) == 2
    assert list(django_user_model.objects.values_list("username", flat=True)) == ["boss"]


def test_staff_without_the_permission_to_delete_users_delete_nobody(django_user_model):
    clerk = django_user_model.objects.create_user("clerk", password="x", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_user"))
    player = django_user_model.objects.create_user("player", password="x")
    attempt(player)
    staff = admin_client(clerk)
    assert delete_in_admin(staff, [player], "one").status_code == 403
    delete_in_admin(staff, [player], "several")  # the action is not offered to them
    assert django_user_model.objects.filter(pk=player.pk).exists()
    assert names_on_todays_board() == ["player"]


@pytest.mark.parametrize("how", ["one", "several"])
def test_the_deletion_page_shows_no_player_s_token_or_session_key(django_user_model, boss, how):
    from rest_framework.authtoken.models import Token

    player = django_user_model.objects.create_user("player", password="x")
    attempt(player)
    key = Token.objects.create(user=player).key
    signed_in = Client()
    signed_in.force_login(player)
    session_key = signed_in.session.session_key
    staff = admin_client(boss)
    if how == "one":
        page = staff.get(f"/admin/auth/user/{player.pk}/delete/")
    else:
        page = staff.post(
            "/admin/auth/user/", {"action": "delete_selected", "_selected_action": [player.pk]}
        )
    html = page.content.decode()
    assert page.status_code == 200
    assert "player" in html and "Tokens: 1" in html and "Sessions: 1" in html
    assert key not in html
    assert session_key not in html


def test_the_deletion_page_says_why_staff_cannot_delete_themselves(django_user_model, boss):
    player = django_user_model.objects.create_user("player", password="x")
    page = admin_client(boss).post(
        "/admin/auth/user/", {"action": "delete_selected", "_selected_action": [player.pk, boss.pk]}
    )
    assert "You cannot delete your own account here" in page.content.decode()
    assert django_user_model.objects.count() == 2


# -- the audit log ----------------------------------------------------------------------------


def deletions() -> list[tuple[str, str, str, dict]]:
    from games.models import AuditLog

    entries = AuditLog.objects.filter(action="delete_account").order_by("pk")
    return [(e.actor_name, e.target, e.reason, e.details) for e in entries]


@pytest.mark.parametrize("how", ["one", "several"])
def test_staff_deleting_players_in_the_admin_is_written_to_the_audit_log(
    django_user_model, boss, how
):
    from games.models import AuditLog

    leaving = django_user_model.objects.create_user("leaving", password="x")
    also = django_user_model.objects.create_user("also-leaving", password="x", is_staff=True)
    staying = django_user_model.objects.create_user("staying", password="x")
    attempt(leaving)
    play_services.create_game(user=leaving, variant_slug="gold-mine", seed=3)
    attempt(staying)
    removed = [leaving] if how == "one" else [leaving, also]
    staff = admin_client(boss)

    assert delete_in_admin(staff, removed, how).status_code == 302

    expected = [
        (
            "boss",
            f"account {leaving.pk} (leaving)",
            "",
            {
                "user_id": leaving.pk,
                "username": "leaving",
                "staff": False,
                "games": 2,
                "removed_together": len(removed),
            },
        )
    ]
    if how == "several":
        expected.append(
            (
                "boss",
                f"account {also.pk} (also-leaving)",
                "",
                {
                    "user_id": also.pk,
                    "username": "also-leaving",
                    "staff": True,
                    "games": 0,
                    "removed_together": 2,
                },
            )
        )
    assert sorted(deletions()) == sorted(expected)
    assert all(e.actor == boss and e.game is None for e in AuditLog.objects.all())
    # The audit log's page in the admin lists them, by action, with the account in words.
    page = staff.get("/admin/games/auditlog/", {"action__exact": "delete_account"})
    html = page.content.decode()
    assert page.status_code == 200
    assert html.count('<td class="field-action">Delete account</td>') == len(removed)
    assert f'<td class="field-target">account {leaving.pk} (leaving)</td>' in html
    entry = AuditLog.objects.filter(action="delete_account").first()
    assert staff.get(f"/admin/games/auditlog/{entry.pk}/change/").status_code == 200
    found = staff.get("/admin/games/auditlog/", {"q": "leaving"}).content.decode()
    assert f"account {leaving.pk} (leaving)" in found


def test_the_deletion_entry_outlives_its_actor(django_user_model, boss):
    other_boss = django_user_model.objects.create_superuser("other-boss", "o@example.org", "pw")
    player = django_user_model.objects.create_user("player", password="x")
    ids = player.pk, boss.pk  # a deleted instance forgets its pk
    accounts.remove_accounts(actor=boss, users=[player])
    accounts.remove_accounts(actor=other_boss, users=[boss])
    assert [(actor, target) for actor, target, *_ in deletions()] == [
        ("boss", f"account {ids[0]} (player)"),
        ("other-boss", f"account {ids[1]} (boss)"),
    ]
    from games.models import AuditLog

    first = AuditLog.objects.order_by("pk").first()
    assert first.actor is None and first.actor_name == "boss"


def test_a_removal_that_fails_or_is_refused_leaves_no_entry(django_user_model, boss, monkeypatch):
    player = django_user_model.objects.create_user("player", password="x")
    with pytest.raises(ServiceError):
        accounts.remove_accounts(actor=boss, users=[player, boss])
    assert deletions() == []

    def broken(users):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(accounts, "_remove_accounts", broken)
    with pytest.raises(RuntimeError):
        accounts.remove_accounts(actor=boss, users=[player])
    assert deletions() == []
    assert django_user_model.objects.filter(pk=player.pk).exists()
