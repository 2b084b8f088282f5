"""Admin pages for deals and moves (read only: the engine writes them)."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import (
    Count,
    QuerySet,
)
from django.http import HttpRequest

from games.admin_base import ReadOnlyMixin
from games.models import Deal, Move


@admin.register(Deal)
class DealAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Deals are facts games refer to: listed, never changed."""

    list_display = ["id", "variant", "seed", "deal_version", "games", "created_at"]
    list_filter = ["variant", "deal_version"]
    search_fields = ["seed__exact"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Deal]:
        return super().get_queryset(request).annotate(game_count=Count("games"))

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
