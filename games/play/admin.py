"""Admin pages for deals and moves (read only: the engine writes them)."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from games.admin_base import ReadOnlyMixin, SealedDealsMixin
from games.core import sealing
from games.models import Deal, Move


@admin.register(Deal)
class DealAdmin(SealedDealsMixin, ReadOnlyMixin, admin.ModelAdmin):
    """Deals are facts games refer to: listed, never changed. A sealed deal (an open day's,
    ``games.core.sealing``) is listed without its seed, and its page is refused."""

    list_display = ["id", "variant", "shown_seed", "deal_version", "games", "created_at"]
    list_filter = ["variant", "deal_version"]
    search_fields = ["seed__exact"]
    exclude = ["seed"]
    readonly_fields = ["shown_seed"]
    secret_lookups = ("seed",)
    ordering = ["-id"]  # the newest first, as the list sorted them already (and the autocomplete)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Deal]:
        return (
            super()
            .get_queryset(request)
            .annotate(game_count=Count("games"), sealed=sealing.is_sealed())
        )

    def has_view_permission(self, request: HttpRequest, obj: Deal | None = None) -> bool:
        # The deal's own page names it by its seed everywhere (title, breadcrumbs): refused
        # while its day is open.
        if obj is not None and sealing.deal_sealed(obj):
            return False
        return super().has_view_permission(request, obj)

    # Not sortable: sorted by seed, a sealed row's place among the others' seeds (and those
    # of games made with a chosen seed) would tell its seed by a binary search.
    @admin.display(description="seed")
    def shown_seed(self, deal: Deal) -> int | str:
        return sealing.hidden_words(deal) if sealing.deal_sealed(deal) else deal.seed

    @admin.display(description="games", ordering="game_count")
    def games(self, deal: Deal) -> int:
        return deal.game_count  # type: ignore[attr-defined]


@admin.register(Move)
class MoveAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Every history entry, less those of sealed games: their moves and the cards they turned
    up are the open day's deal (the game's own page leaves them out too)."""

    list_display = ["game", "number", "payload", "events", "received_at"]
    list_filter = ["game__deal__variant", "game__ranked"]
    search_fields = ["game__owner__username", "=game__id"]
    list_select_related = ["game__deal", "game__owner"]
    ordering = ["-game_id", "number"]  # not by the game's own ordering: no join to sort
    show_full_result_count = False  # a count of every move ever made is slow and useless

    def get_queryset(self, request: HttpRequest) -> QuerySet[Move]:
        return super().get_queryset(request).exclude(sealing.sealed_rows("game__deal"))


class MoveInline(ReadOnlyMixin, admin.TabularInline):
    model = Move
    fields = ["number", "payload", "events", "received_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ["number"]
