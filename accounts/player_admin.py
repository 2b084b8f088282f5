"""The user admin: players, their removal and staff accounts."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.db.models import (
    Count,
    QuerySet,
)
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from accounts import services as accounts
from accounts.selectors import email_is_taken
from accounts.usernames import NEW_USERNAME_VALIDATORS

User = get_user_model()

# Django's own user admin is replaced by the one below.
admin.site.unregister(User)


def _site_username(username: str) -> str:
    for validate in NEW_USERNAME_VALIDATORS:
        validate(username)  # a ValidationError: the form shows it beside the field
    return username


class PlayerCreationForm(AdminUserCreationForm):
    """The built-in form, with sign-up's rule for a username: staff cannot make a name that
    passes for another player's in look-alike letters either."""

    def clean_username(self) -> str:
        return _site_username(super().clean_username())


class PlayerChangeForm(UserChangeForm):
    """The built-in form, with the API's rules: a new username follows sign-up's (a name
    made under the older rule may stay as it is), and one account per email address (blank:
    any)."""

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if "username" in self.changed_data:
            _site_username(username)
        return username

    def clean_email(self) -> str:
        email = self.cleaned_data.get("email", "")
        if email_is_taken(email, except_user_id=self.instance.pk):
            raise forms.ValidationError(accounts.EMAIL_TAKEN_MESSAGE)
        return email


@admin.register(User)
class PlayerAdmin(UserAdmin):
    """The built-in user admin, with each player's number of games. Deleting players, one or
    several, goes through ``accounts.services.remove_accounts``; staff cannot delete their own
    account here. An email address another account has is refused, as in the API."""

    form = PlayerChangeForm
    add_form = PlayerCreationForm
    # Players give no first or last name (sign-up asks for none): when they joined and last
    # signed in say more.
    list_display = ["username", "email", "is_staff", "date_joined", "last_login", "games"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj.pk == request.user.pk:
            return False
        return super().has_delete_permission(request, obj)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> tuple:
        # What goes with a player (games, histories, flags) is deleted here by nobody on its
        # own: Django's check that staff may delete each of those made removing any player who
        # had played refused. Removing the player removes them, as closing an account does;
        # the permission to delete the player is the one that counts.
        # The confirmation page names the players only (the summary counts the rest): what goes
        # with them, listed, named each API token and session by its key, which signs in as
        # the player (why tokens are kept out of the admin, accounts/admin.py), and ran to a
        # line per move of every game.
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        perms_needed = {name for name in perms_needed if name == self.opts.verbose_name}
        if any(obj.pk == request.user.pk for obj in objs):
            # Django's page would only say the permission to delete a user is missing.
            messages.error(
                request,
                "You cannot delete your own account here: another administrator can. "
                "Unselect it to delete the others.",
            )
        players = [item for item in deleted if not isinstance(item, list)]
        return players, counts, perms_needed, protected

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        accounts.remove_accounts(actor=request.user, users=[obj])

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        accounts.remove_accounts(actor=request.user, users=queryset)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).annotate(game_count=Count("games"))

    @admin.display(description="games", ordering="game_count")
    def games(self, user: Any) -> str:
        url = reverse("admin:games_game_changelist") + f"?owner__id__exact={user.pk}"
        return format_html('<a href="{}">{}</a>', url, user.game_count)
