"""What every page's template is given."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from accounts.guests import is_guest
from accounts.selectors import settings_of
from games.daily import month
from games.rules.cards import card_words


@cache
def _card_words() -> dict[str, Any]:
    return card_words()


def cards(request: HttpRequest) -> dict[str, Any]:
    """The ranks' and suits' words (base.html puts them in the page for cards.js), so the
    pages name cards from ``games/rules/cards.py`` and nowhere else."""
    return {"card_words": _card_words()}


def guest(request: HttpRequest) -> dict[str, Any]:
    """``guest``: whether the visitor plays as a guest (``accounts.guests``), looked up only by
    a page that asks (the header does): a guest is offered to sign up or in, and told what is
    for accounts."""
    return {"guest": SimpleLazyObject(lambda: is_guest(getattr(request, "user", None)))}


def player_settings(request: HttpRequest) -> dict[str, Any]:
    """``player_settings``: a signed-in account's settings (``accounts.selectors.settings_of``),
    which base.html writes on <html> (the colours and the layout, drawn so from the first
    paint on any device) and into the page for settings.js; None for a guest or a visitor,
    whose settings the browser keeps (prefs.js applies them). Read only by a page that asks, and
    once (a callable: the template calls it): the admin's pages do not."""

    @cache
    def lookup() -> dict[str, Any] | None:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or is_guest(user):
            return None
        return settings_of(user)

    return {"player_settings": lookup}


def dailies_today(request: HttpRequest) -> dict[str, Any]:
    """``dailies_today``: how many of today's dailies a signed-in account has finished
    (``games.daily.month.dailies_today``), for the header's "2 of 5 dailies today"; None for a
    guest or a visitor. Read only by a page that asks, and once."""

    @cache
    def lookup() -> dict[str, Any] | None:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or is_guest(user):
            return None
        return dict(month.dailies_today(user))

    return {"dailies_today": lookup}
