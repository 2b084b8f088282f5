"""Admin pages for deals and moves (read only: the engine writes them)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest

from games.admin_base import ReadOnlyMixin
from games.core import days
from games.models import DailyChallenge, Deal, Move

#: What staff see instead of the seed of a day still open (they may play its ranked attempt).
HIDDEN_SEED = "hidden until the day closes"


def open_day_deals() -> QuerySet[DailyChallenge]:
    """The challenges whose day has not closed: their deals' seeds are not for staff eyes yet
    (``days.day_closed``; the game review hides them the same way)."""
    return DailyChallenge.objects.filter(date__gte=days.today())


def without_open_day_seed_matches(
    queryset: QuerySet[Any], term: str, deal_path: str
) -> QuerySet[Any]:
    """Search results less the rows found only because ``term`` is an open day's seed: a
    search by seed must not tell staff which number today's deal is."""
    if not term.strip().isdigit():
        return queryset
    sealed = open_day_deals().filter(deal=OuterRef(deal_path or "pk"))
    seed_field = f"{deal_path}__seed" if deal_path else "seed"
    return queryset.exclude(Q(**{seed_field: int(term.strip())}) & Q(Exists(sealed)))


@admin.register(Deal)
class DealAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Deals are facts games refer to: listed, never changed."""

    list_display = ["id", "variant", "shown_seed", "deal_version", "games", "created_at"]
    list_filter = ["variant", "deal_version"]
    search_fields = ["seed__exact"]
    exclude = ["seed"]
    readonly_fields = ["shown_seed"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Deal]:
        sealed = open_day_deals().filter(deal=OuterRef("pk"))
        return (
            super().get_queryset(request).annotate(game_count=Count("games"), sealed=Exists(sealed))
        )

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Deal], search_term: str
    ) -> tuple[QuerySet[Deal], bool]:
        found, duplicates = super().get_search_results(request, queryset, search_term)
        return without_open_day_seed_matches(found, search_term, ""), duplicates

    def has_view_permission(self, request: HttpRequest, obj: Deal | None = None) -> bool:
        # The deal's own page names it by its seed everywhere (title, breadcrumbs): refused
        # while its day is open.
        if obj is not None and open_day_deals().filter(deal=obj).exists():
            return False
        return super().has_view_permission(request, obj)

    @admin.display(description="seed", ordering="seed")
    def shown_seed(self, deal: Deal) -> int | str:
        return HIDDEN_SEED if getattr(deal, "sealed", False) else deal.seed

    @admin.display(description="games", ordering="game_count")
    def games(self, deal: Deal) -> int:
        return deal.game_count  # type: ignore[attr-defined]


@admin.register(Move)
class MoveAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["game", "number", "payload", "events", "received_at"]
    list_filter = ["game__deal__variant", "game__ranked"]
    search_fields = ["game__owner__username", "=game__id"]
    list_select_related = ["game__deal", "game__owner"]
    ordering = ["-game_id", "number"]  # not by the game's own ordering: no join to sort
    show_full_result_count = False  # a count of every move ever made is slow and useless


class MoveInline(ReadOnlyMixin, admin.TabularInline):
    model = Move
    fields = ["number", "payload", "events", "received_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ["number"]
