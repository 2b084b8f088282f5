"""Public pages: the game list and each game's rule document."""

from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from frontend.games import GAMES


def _rules_path(slug: str) -> Path:
    # Only known slugs reach the filesystem, so a crafted slug cannot name another file.
    if slug not in GAMES:
        raise Http404("No such game.")
    return Path(settings.SEEDS_DIR) / f"{slug}.txt"


def _read_rules(slug: str) -> str:
    try:
        return _rules_path(slug).read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise Http404("Rule document missing.") from exc


def index(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/index.html", {"games": GAMES})


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    paragraphs = [line.strip() for line in _read_rules(slug).splitlines() if line.strip()]
    return render(
        request,
        "frontend/rules.html",
        {"slug": slug, "name": GAMES[slug], "paragraphs": paragraphs},
    )


def rules_raw(request: HttpRequest, slug: str) -> HttpResponse:
    return HttpResponse(_read_rules(slug), content_type="text/plain; charset=utf-8")
