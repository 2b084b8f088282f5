"""Page shells: each renders a template whose content comes from the API and websockets
(``static/frontend/js/``). The views only check access and pass ids; see frontend/README.md."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie

from accounts.selectors import reset_link_user
from accounts.services import INVALID_RESET_LINK_MESSAGE
from frontend import installable, share_preview
from frontend.games import GAMES
from games.core import days
from games.play import selectors as play_selectors
from games.profiles import selectors as profiles
from games.races.models import Race
from games.solver.winnability import figures_budget_words, percent
from games.solver.winnability import read_summary as read_winnability_summary
from web.http import errors


def _rules_path(slug: str) -> Path:
    # Only known slugs reach the filesystem, so a crafted slug cannot name another file.
    if slug not in GAMES:
        raise Http404("No such game.")
    return Path(settings.RULE_DOCUMENTS_DIR) / f"{slug}.txt"


def _read_rules(slug: str) -> str:
    try:
        return _rules_path(slug).read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise Http404("Rule document missing.") from exc


def _page(request: HttpRequest, template: str, **context: object) -> HttpResponse:
    return render(request, f"frontend/{template}", {"games": GAMES, **context})


#: Marks the site's own 404 page (``frontend.middleware.NotFoundPageMiddleware``).
SITE_PAGE = "patience_site_page"


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Every 404 (``handler404``): the API's JSON under /api/, else a page with the site's
    header and a way back."""
    if request.path.startswith("/api/"):
        return errors.not_found(request, exception)
    reason = _not_found_reason(request.path)
    if _is_game_page(request.path) and not request.user.is_authenticated:
        reason += " If it is yours, sign in to see it."
    context = {"games": GAMES, "reason": reason}
    response = render(request, "frontend/not_found.html", context, status=404)
    setattr(response, SITE_PAGE, True)
    return response


#: What a 404 says, by the first part of its path: the page's kind, not a game's rules for all.
_NOT_FOUND_REASONS = {
    "play": "There is no such game, or it is not yours: a game shows only to its player.",
    "replay": "There is no such game, or it is not yours: a game shows only to its player.",
    "players": "There is no player of that name.",
    "rules": "There is no game of that name: the rules of the five games are in the Rules menu.",
    "daily": "There is no daily challenge at this address: each day has one of each game.",
}


def _is_game_page(path: str) -> bool:
    return path.strip("/").partition("/")[0] in ("play", "replay")


def _not_found_reason(path: str) -> str:
    first = path.strip("/").partition("/")[0]
    return _NOT_FOUND_REASONS.get(first, "There is no page at this address.")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A refused write (``CSRF_FAILURE_VIEW``): the API's JSON under /api/, else a page with
    the site's header and a way on, not Django's technical page (with DEBUG on, its inline
    style blocked by the Content-Security-Policy). The site's own forms post to the API, so a
    page meets this only from an old tab or another site."""
    if request.path.startswith("/api/"):
        return errors.csrf_failure(request, reason)
    response = render(request, "frontend/refused.html", {"games": GAMES}, status=403)
    setattr(response, SITE_PAGE, True)
    return response


@ensure_csrf_cookie
def index(request: HttpRequest) -> HttpResponse:
    return _page(request, "lobby.html")


def _own_game_page(request: HttpRequest, template: str, game_id: int) -> HttpResponse:
    """A game's page shows only to its player. A signed-out visitor gets the same 404 as
    anyone else, not a sign-in redirect: redirecting for a game that exists but 404 for one
    that does not would tell anybody which games exist (the 404 page's header still offers
    to sign in and come back here)."""
    user = request.user
    if not user.is_authenticated or not play_selectors.owns_game(user, game_id):
        raise Http404("No such game.")
    return _page(request, template, game_id=game_id)


@ensure_csrf_cookie
def play(request: HttpRequest, game_id: int) -> HttpResponse:
    return _own_game_page(request, "play.html", game_id)


@ensure_csrf_cookie
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    return _own_game_page(request, "replay.html", game_id)


@ensure_csrf_cookie
def daily_page(request: HttpRequest) -> HttpResponse:
    # A shared link names its day (?date=): its preview does too (Open Graph and Twitter meta).
    today = days.today()
    shown = share_preview.asked_day(request) or today
    return _page(request, "daily.html", date=today, **share_preview.day_preview(request, shown))


@ensure_csrf_cookie
def daily_board(request: HttpRequest, date: dt.date, slug: str) -> HttpResponse:
    if slug not in GAMES:
        raise Http404("No such game.")
    # today: whether the day is still to come, open or closed, said before any script runs.
    return _page(
        request, "daily_board.html", date=date, slug=slug, name=GAMES[slug], today=days.today()
    )


def daily_solution(request: HttpRequest, date: dt.date, slug: str) -> HttpResponse:
    """A closed day's winning line, stepped through from the deal on the replay page (the
    line itself comes from /api/daily/{date}/{game}/solution/, which says not_yet before)."""
    if slug not in GAMES:
        raise Http404("No such game.")
    return _page(request, "replay.html", solution=True, date=date, slug=slug, name=GAMES[slug])


@ensure_csrf_cookie
def race(request: HttpRequest, code: str) -> HttpResponse:
    """A race's room, for anyone with its link (a visitor who joins plays as a guest: the CSRF
    cookie is set for that); the race itself comes from /ws/races/<code>/."""
    variant = Race.objects.filter(code=code).values_list("variant", flat=True).first()
    if variant is None:
        raise Http404("No such race.")
    return _page(request, "race.html", code=code, slug=variant, name=GAMES[variant])


def leaderboards(request: HttpRequest) -> HttpResponse:
    return _page(request, "leaderboards.html")


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    return _page(request, "profile.html")


def player(request: HttpRequest, username: str) -> HttpResponse:
    """Anyone's public profile; its results come from /api/players/<username>/."""
    shown = profiles.public_player(username)
    if shown is None:
        raise Http404("No such player.")
    return _page(request, "player.html", player=shown)


def _next_page(request: HttpRequest) -> str:
    """Where to go once signed in: ``next`` when it is a path on this site, but not a sign-in
    page, else the lobby (what ``auth.js`` ``safeNext`` makes of it too)."""
    value = request.GET.get("next", "/")
    if (
        not value.startswith("/")
        or value.startswith(("//", "/\\"))
        or not url_has_allowed_host_and_scheme(value, allowed_hosts={request.get_host()})
        or urlsplit(value).path in ("/signin/", "/signup/")
    ):
        return "/"
    return value


#: Pages of one player's game: anyone else's is "not found".
_GAME_PAGES = ("frontend:play", "frontend:replay")


def _not_their_game(request: HttpRequest, path: str) -> bool:
    """Whether ``path`` is the page of a game that is not the signed-in player's (another
    account's, or none at all: alike, so that this tells nobody which games exist)."""
    try:
        match = resolve(urlsplit(path).path)
    except Resolver404:
        return False
    if match.view_name not in _GAME_PAGES:
        return False
    return not play_selectors.owns_game(request.user, match.kwargs["game_id"])


def _sign_in_page(request: HttpRequest, template: str) -> HttpResponse:
    """The sign-in and sign-up forms; a visitor already signed in gets no form but who they
    are signed in as, a way on (to ``next``) and a way to sign out first. A second sign-in
    over theirs would end it in every tab (``accounts.views.sign_in``), unasked for by a
    player who followed a "Sign in" link of an old page. When that page was a game of
    another account (signed in there before this browser signed in as this one), the way on
    is the lobby, and the page says so: the game's page would only be "not found"."""
    next_page = _next_page(request)
    not_theirs = request.user.is_authenticated and _not_their_game(request, next_page)
    return _page(
        request, template, next="/" if not_theirs else next_page, next_not_theirs=not_theirs
    )


@ensure_csrf_cookie
def signin(request: HttpRequest) -> HttpResponse:
    return _sign_in_page(request, "signin.html")


@ensure_csrf_cookie
def signup(request: HttpRequest) -> HttpResponse:
    return _sign_in_page(request, "signup.html")


@login_required
@ensure_csrf_cookie
def account(request: HttpRequest) -> HttpResponse:
    return _page(request, "account.html")


@ensure_csrf_cookie
def password_forgot(request: HttpRequest) -> HttpResponse:
    return _page(request, "password_forgot.html")


@never_cache  # a reload (or Back) after the link is used checks it again
def password_reset(request: HttpRequest, uid: str, token: str) -> HttpResponse:
    """The form for a link that holds; for any other (used, expired, mistyped: all alike, and
    naming no account) the page says so at once. Looking at the link does not use it: the
    API checks it again when the new password is sent."""
    # The header's sign-in links lead back to the lobby: the link's token stays out of them.
    if reset_link_user(uid, token) is None:
        return _page(
            request, "password_reset.html", invalid=INVALID_RESET_LINK_MESSAGE, sign_in_next="/"
        )
    return _page(request, "password_reset.html", uid=uid, token=token, sign_in_next="/")


@never_cache
@ensure_csrf_cookie
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The button that confirms a sign-up's email address. Looking at the link does not use
    it (a mail scanner fetching it confirms nothing): the button posts its token to the API,
    which checks it."""
    return _page(request, "email_confirm.html", token=token, sign_in_next="/")


def winnability(slug: str) -> dict[str, object] | None:
    """The game's figures from the solver's last winnability run (``manage.py winnability``),
    ready to show; None when it has none yet."""
    figures = read_winnability_summary().get(slug)
    if not isinstance(figures, dict) or not figures.get("deals"):
        return None
    low, high = figures["interval"]
    budget = figures_budget_words(figures)
    shown = {key: f"{figures[key]:,}" for key in ("deals", "won", "lost", "unknown")}  # 10,000
    return {**figures, "budget": budget, "low": percent(low), "high": percent(high), "shown": shown}


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    paragraphs = [line.strip() for line in _read_rules(slug).splitlines() if line.strip()]
    return _page(
        request,
        "rules.html",
        slug=slug,
        name=GAMES[slug],
        paragraphs=paragraphs,
        winnability=winnability(slug),
    )


def rules_raw(request: HttpRequest, slug: str) -> HttpResponse:
    return HttpResponse(_read_rules(slug), content_type="text/plain; charset=utf-8")


# -- installable: the web app manifest, the service worker and its offline page --------------


def web_app_manifest(request: HttpRequest) -> HttpResponse:
    return JsonResponse(installable.manifest(), content_type="application/manifest+json")


def service_worker(request: HttpRequest) -> HttpResponse:
    """At the site's root, so that the worker's scope is the whole site. Never kept by the
    browser's HTTP cache: a deploy's new worker is found on the next page loaded."""
    response = HttpResponse(installable.service_worker(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/offline.html")
