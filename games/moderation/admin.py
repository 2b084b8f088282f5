"""The review of games in the admin: flags, exclusions and the audit log."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import (
    Exists,
    OuterRef,
    QuerySet,
)
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from games.admin_base import ReadOnlyMixin, SealedDealsMixin, int_param, search_words
from games.core import sealing
from games.models import AuditLog, Game, GameFlag
from games.moderation import review, verification
from games.moderation import services as moderation
from games.moderation.presenters import (
    _game_time,
    board,
    step_context,
    timeline_rows,
)
from games.play.admin import MoveInline
from web.errors import ServiceError

#: The flags whose detail may name cards: a history that does not replay is told in the
#: engine's words ("The Seven of hearts cannot go on ..."). The others give steps and times.
CARD_NAMING_FLAGS = [GameFlag.Reason.HISTORY_INVALID]


def flag_detail(flag: GameFlag, sealed: bool) -> str:
    """A flag's detail, unless it may name cards and its game is sealed."""
    if sealed and flag.reason in CARD_NAMING_FLAGS:
        return sealing.hidden_words(flag.game.deal_id)
    return flag.detail


@admin.register(GameFlag)
class GameFlagAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Flags are raised and cleared through the review page (audited), never edited. A sealed
    game's (``games.core.sealing``) flag that may name cards shows no detail, and a search
    never finds one by it."""

    list_display = [
        "game_link",
        "player",
        "reason",
        "shown_detail",
        "automatic",
        "created_at",
        "cleared_at",
    ]
    exclude = ["detail"]
    readonly_fields = ["shown_detail"]
    list_filter = [
        "reason",
        "automatic",
        ("cleared_at", admin.EmptyFieldListFilter),
        "game__deal__variant",
        ("game__daily__date", admin.DateFieldListFilter),
    ]
    search_fields = ["game__owner__username", "=game__id", "detail"]
    list_select_related = ["game__owner"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[GameFlag]:
        return super().get_queryset(request).annotate(sealed=sealing.is_sealed("game__deal"))

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[GameFlag], search_term: str
    ) -> tuple[QuerySet[GameFlag], bool]:
        # Less the sealed flags of hidden detail that has a word of the search: whether one is
        # found then never depends on what its detail says.
        found, duplicates = super().get_search_results(request, queryset, search_term)
        for word in search_words(search_term):
            found = found.exclude(sealed=True, reason__in=CARD_NAMING_FLAGS, detail__icontains=word)
        return found, duplicates

    @admin.display(description="detail")
    def shown_detail(self, flag: GameFlag) -> str:
        return flag_detail(flag, bool(getattr(flag, "sealed", False)))

    @admin.display(description="player", ordering="game__owner__username")
    def player(self, flag: GameFlag) -> str:
        return flag.game.owner.get_username()

    @admin.display(description="game", ordering="game")
    def game_link(self, flag: GameFlag) -> str:
        url = reverse("admin:games_game_review", args=[flag.game_id])
        return format_html('<a href="{}">game {}</a>', url, flag.game_id)


class GameFlagInline(ReadOnlyMixin, admin.TabularInline):
    model = GameFlag
    fields = ["reason", "shown_detail", "automatic", "created_by", "created_at", "cleared_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    @admin.display(description="detail")
    def shown_detail(self, flag: GameFlag) -> str:
        return flag_detail(flag, sealing.game_sealed(flag.game))


@admin.register(AuditLog)
class AuditLogAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["created_at", "actor_name", "action", "target", "reason"]
    list_filter = ["action", "created_at"]
    search_fields = ["actor_name", "target", "reason"]
    date_hierarchy = "created_at"


class AuditLogInline(ReadOnlyMixin, admin.TabularInline):
    model = AuditLog
    fk_name = "game"
    fields = ["created_at", "actor_name", "action", "reason", "details"]
    readonly_fields = fields
    extra = 0
    can_delete = False


class FlaggedFilter(admin.SimpleListFilter):
    title = "flagged"
    parameter_name = "flagged"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Yes (an open flag)"), ("no", "No")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        if self.value() in ("yes", "no"):
            return queryset.filter(flagged=self.value() == "yes")
        return queryset


class FlagReasonFilter(admin.SimpleListFilter):
    title = "open flag"
    parameter_name = "open_flag"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return list(GameFlag.Reason.choices)

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        if self.value():
            flags = GameFlag.objects.filter(
                game=OuterRef("pk"), reason=self.value(), cleared_at__isnull=True
            )
            return queryset.filter(Exists(flags))
        return queryset


class ModerationForm(forms.Form):
    ACTIONS = {
        "flag": moderation.flag_game,
        "unflag": moderation.unflag_game,
        "exclude": moderation.exclude_game,
        "reinstate": moderation.reinstate_game,
    }

    action = forms.ChoiceField(choices=[(name, name) for name in ACTIONS])
    reason = forms.CharField(max_length=1000, strip=True)


@admin.register(Game)
class GameAdmin(SealedDealsMixin, admin.ModelAdmin):
    """Games are the players' own: viewed, reviewed, flagged or excluded, never edited. A
    game dealt an open day's deal (``games.core.sealing``: its ranked attempts, replays, a
    game of the same number) shows no seed, snapshot or move until the day closes."""

    list_display = [
        "id",
        "player",
        "variant",
        "seed",
        "status",
        "board_moves",
        "time",
        "ranked",
        "day",
        "is_flagged",
        "excluded",
        "created_at",
        "review",
    ]
    list_display_links = ["id"]
    list_filter = [
        "deal__variant",
        "status",
        "ranked",
        FlaggedFilter,
        FlagReasonFilter,
        "excluded",
        ("daily__date", admin.DateFieldListFilter),
        "created_at",
    ]
    search_fields = ["owner__username", "deal__seed__exact", "=id"]
    # The snapshot holds every card (?state__contains=… would find a sealed game by them); a
    # seed's lookups are refused by Django already (not a list filter), and here as well.
    secret_lookups = ("state", "deal__seed", "moves")
    deal_path = "deal"
    date_hierarchy = "created_at"
    list_select_related = ["owner", "deal", "daily"]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "review",
                    "owner",
                    "deal_shown",
                    "status",
                    "ranked",
                    "seed_chosen",
                    "daily",
                    "excluded",
                    "is_flagged",
                ]
            },
        ),
        (
            "Progress",
            {
                "fields": [
                    "move_number",
                    "board_moves",
                    "cards_home",
                    "undo_count",
                    "hint_count",
                    "created_at",
                    "last_move_at",
                    "finished_at",
                    "time",
                ]
            },
        ),
        ("Snapshot (every card)", {"fields": ["snapshot"], "classes": ["collapse"]}),
    ]
    readonly_fields = [name for _, options in fieldsets for name in options["fields"]]
    inlines = [GameFlagInline, AuditLogInline, MoveInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        games = review.with_flagged(super().get_queryset(request))
        return games.annotate(sealed=sealing.is_sealed("deal"))

    # A game changes only through play and the audited staff actions on its review page.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False

    def can_moderate(self, request: HttpRequest) -> bool:
        """Flag, unflag, exclude, reinstate: staff with the change permission on games."""
        user = request.user
        return bool(user.is_active and user.is_staff and user.has_perm("games.change_game"))

    # -- columns --------------------------------------------------------------------------

    @admin.display(description="player", ordering="owner__username")
    def player(self, game: Game) -> str:
        return game.owner.get_username()

    @admin.display(description="game", ordering="deal__variant")
    def variant(self, game: Game) -> str:
        return game.deal.get_variant_display()

    # A game dealt an open day's deal shows neither its deal nor its cards (``review.sealed``):
    # staff can play the day too. The seed is not sortable: a sealed row's place among games
    # of seeds staff chose would tell its seed by a binary search.

    @admin.display()
    def seed(self, game: Game) -> int | str:
        return review.hidden_words(game) if review.sealed(game) else game.deal.seed

    @admin.display(description="deal")
    def deal_shown(self, game: Game) -> str:
        return review.hidden_words(game) if review.sealed(game) else str(game.deal)

    @admin.display(description="state")
    def snapshot(self, game: Game) -> Any:
        return review.hidden_words(game) if review.sealed(game) else game.state

    def get_inlines(self, request: HttpRequest, obj: Game | None) -> list[Any]:
        inlines = super().get_inlines(request, obj)
        if obj is not None and review.sealed(obj):
            return [inline for inline in inlines if inline is not MoveInline]
        return inlines

    @admin.display(description="time", ordering="active_ms")
    def time(self, game: Game) -> str:
        """The game's time as its player and the leaderboards see it (games.core.clock)."""
        return _game_time(game)

    @admin.display(description="day", ordering="daily__date")
    def day(self, game: Game) -> Any:
        return game.daily.date if game.daily_id else None

    @admin.display(description="flagged", boolean=True, ordering="flagged")
    def is_flagged(self, game: Game) -> bool:
        return bool(getattr(game, "flagged", False))

    @admin.display(description="review")
    def review(self, game: Game) -> str:
        url = reverse("admin:games_game_review", args=[game.pk])
        return format_html('<a href="{}">Review</a>', url)

    # -- the review page ------------------------------------------------------------------

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        return [
            path("<int:game_id>/review/", wrap(self.review_view), name="games_game_review"),
            path(
                "<int:game_id>/moderate/",
                wrap(require_POST(self.moderate_view)),
                name="games_game_moderate",
            ),
            *super().get_urls(),
        ]

    def _game(self, request: HttpRequest, game_id: int) -> Game:
        try:
            game = review.staff_game(game_id)
        except ServiceError:
            raise Http404("There is no such game.") from None
        if not self.has_view_permission(request, game):
            raise PermissionDenied
        return game

    def review_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        """A step-through replay of the whole history with every card showing, the timed move
        list, the flags, the audit entries and, on request, the verification."""
        game = self._game(request, game_id)
        if review.sealed(game):
            # Flags and exclusions stay possible from the game's page; its cards do not show.
            messages.warning(request, review.sealed_message(game))
            return HttpResponseRedirect(reverse("admin:games_game_change", args=[game.pk]))
        step = int_param(request.GET.get("step"), game.move_number)
        step = min(max(step, 0), game.move_number)
        context = step_context(game, step)
        if request.GET.get("partial"):
            return TemplateResponse(request, "games/review_step.html", context)
        check = verification.verification(game) if request.GET.get("verify") else None
        flags = list(review.game_flags(game))
        context.update(
            {
                **self.admin_site.each_context(request),
                "opts": self.opts,
                "title": f"Review of game {game.pk}",
                "game": game,
                "seed": game.deal.seed,
                "time": _game_time(game),
                "flags": flags,
                "flagged": any(flag.is_open for flag in flags),
                "fair_play": {
                    "burst_moves": settings.FAIR_PLAY_BURST_MOVES,
                    "burst_ms": settings.FAIR_PLAY_BURST_MS,
                    "min_seconds": settings.FAIR_PLAY_MIN_SECONDS_PER_MOVE,
                    "window_moves": settings.FAIR_PLAY_WINDOW_MOVES,
                    "window_seconds": settings.FAIR_PLAY_WINDOW_SECONDS,
                },
                "audit": review.game_audit(game),
                "timeline": timeline_rows(game),
                "verification": check,
                "stored_board": board(game.state) if check and not check.ok else None,
                "can_moderate": self.can_moderate(request),
                "moderate_url": reverse("admin:games_game_moderate", args=[game.pk]),
                "change_url": reverse("admin:games_game_change", args=[game.pk]),
            }
        )
        return TemplateResponse(request, "games/review.html", context)

    def moderate_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        game = self._game(request, game_id)
        if not self.can_moderate(request):
            raise PermissionDenied
        form = ModerationForm(request.POST)
        if not form.is_valid():
            messages.error(request, "Choose an action and say why: the reason is audited.")
        else:
            action = form.cleaned_data["action"]
            try:
                ModerationForm.ACTIONS[action](
                    actor=request.user, game_id=game.pk, reason=form.cleaned_data["reason"]
                )
            except ServiceError as error:
                messages.error(request, error.message)
            else:
                messages.success(request, f"Game {game.pk}: {action} done, and audited.")
        return HttpResponseRedirect(reverse("admin:games_game_review", args=[game.pk]))
