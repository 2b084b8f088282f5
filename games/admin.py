"""Staff tools in the Django admin: players, deals, games and their histories (read-only), daily
challenges, fair-play flags, the audit log, and the review page of a game.

Nothing here writes a game: staff actions go through ``games.services`` (which audit them),
reads through ``games.selectors``. Histories, flags and the audit log are never edited here,
by anyone, superusers included.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import PermissionDenied
from django.db.models import (
    Count,
    DurationField,
    Exists,
    ExpressionWrapper,
    F,
    OuterRef,
    Q,
    QuerySet,
)
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.views.decorators.http import require_POST

from accounts import services as accounts
from accounts.selectors import email_is_taken
from accounts.usernames import NEW_USERNAME_VALIDATORS
from games import daily, selectors, services
from games.models import AuditLog, DailyChallenge, Deal, Game, GameFlag, Move
from games.rules import MAX_SEED, VARIANTS
from web.errors import ApiError

User = get_user_model()

# Staff see whose site this is, in the header and the browser tab.
admin.site.site_header = "Patience staff"
admin.site.site_title = "Patience staff"
admin.site.index_title = "Games, players and daily challenges"


class ReadOnlyMixin:
    """Viewable by staff with the view permission; nobody adds, changes or deletes."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# -- players ----------------------------------------------------------------------------------

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


# -- deals ------------------------------------------------------------------------------------


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


# -- daily challenges -------------------------------------------------------------------------


class DailyChallengeForm(forms.ModelForm):
    """Staff choose a future day's deal by its seed; the day's own deal is then never used."""

    seed = forms.IntegerField(min_value=0, max_value=MAX_SEED, help_text="The deal number.")
    reason = forms.CharField(
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Why: kept in the audit log with the change.",
    )

    class Meta:
        model = DailyChallenge
        fields = ["date", "variant"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["seed"].initial = self.instance.deal.seed

    def clean_date(self) -> Any:
        date = self.cleaned_data["date"]
        if date <= daily.today():
            raise forms.ValidationError(services.FUTURE_DAYS_ONLY_MESSAGE)
        return date


def winnable_words(challenge: DailyChallenge) -> str:
    figures = challenge.solver or {}
    cost = ""
    if figures.get("positions") is not None:
        cost = f" after {figures['positions']} positions, {figures.get('seconds', 0)} s"
    if challenge.proven:
        return f"Proven winnable ({challenge.difficulty}){cost}."
    if challenge.outcome == DailyChallenge.Outcome.LOST:
        return f"Not winnable: the solver searched every position{cost}."
    if challenge.outcome == DailyChallenge.Outcome.UNKNOWN:
        return f"Not proven winnable: the solver's budget ran out{cost}."
    return "Not solved (made before the solver)."


@admin.register(DailyChallenge)
class DailyChallengeAdmin(admin.ModelAdmin):
    form = DailyChallengeForm
    list_display = ["date", "variant", "seed_set_by_staff", "outcome", "difficulty", "attempts"]
    list_filter = ["variant", "seed_set_by_staff", "outcome", "date"]
    date_hierarchy = "date"

    # Never the winning line: it shows every card, and the day has not closed for everyone.
    readonly_fields = ["winnable", "leaderboard"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[DailyChallenge]:
        # Counted in the list's one query, not one query per row.
        ranked = Count("games", filter=Q(games__ranked=True))
        return super().get_queryset(request).annotate(attempt_count=ranked)

    @admin.display(description="ranked attempts", ordering="attempt_count")
    def attempts(self, challenge: DailyChallenge) -> int:
        return challenge.attempt_count  # type: ignore[attr-defined]

    @admin.display(description="winnable")
    def winnable(self, challenge: DailyChallenge) -> str:
        """Whether the solver proved the deal winnable, and at what cost."""
        if challenge.pk is None:
            return "The seed is solved when you save (this may take a few seconds)."
        return winnable_words(challenge)

    @admin.display(description="leaderboard")
    def leaderboard(self, challenge: DailyChallenge) -> str:
        """The day's ranking, each attempt linked to its review; excluded ones after it."""
        if challenge.pk is None:
            return "—"
        rows = selectors.staff_daily_board(challenge)
        if not rows:
            return "No attempts."
        items = format_html_join(
            "",
            '<li>{}. <a href="{}">{}</a>: {}, {} cards home, {} moves</li>',
            (
                (rank, reverse("admin:games_game_review", args=[g.pk]), g.owner.username,
                 g.status, g.cards_home, g.board_moves)
                for rank, g in rows
            ),
        )  # fmt: skip
        return format_html("<ol class='leaderboard'>{}</ol>", items)

    def has_change_permission(
        self, request: HttpRequest, obj: DailyChallenge | None = None
    ) -> bool:
        # A day that has started is history: its deal is what its players played.
        if obj is not None and obj.date <= daily.today():
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(
        self, request: HttpRequest, obj: DailyChallenge | None = None
    ) -> bool:
        return (
            obj is not None
            and obj.date > daily.today()
            and super().has_delete_permission(request, obj)
        )

    def save_model(
        self, request: HttpRequest, obj: DailyChallenge, form: Any, change: bool
    ) -> None:
        services.save_daily_challenge(
            actor=request.user,
            challenge=obj,
            seed=form.cleaned_data["seed"],
            reason=form.cleaned_data.get("reason", ""),
        )
        if not obj.proven:
            self.message_user(
                request,
                f"Kept, but deal {obj.deal.seed} is not proven winnable: {winnable_words(obj)} "
                "Players are told every daily deal is proven winnable; choose another seed "
                "unless you mean this one.",
                messages.WARNING,
            )

    def delete_model(self, request: HttpRequest, obj: DailyChallenge) -> None:
        services.remove_daily_challenge(actor=request.user, challenge=obj)


# -- histories, flags and the audit log: read-only --------------------------------------------


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


@admin.register(GameFlag)
class GameFlagAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Flags are raised and cleared through the review page (audited), never edited."""

    list_display = [
        "game_link",
        "player",
        "reason",
        "detail",
        "automatic",
        "created_at",
        "cleared_at",
    ]
    list_filter = [
        "reason",
        "automatic",
        ("cleared_at", admin.EmptyFieldListFilter),
        "game__deal__variant",
        ("game__daily__date", admin.DateFieldListFilter),
    ]
    search_fields = ["game__owner__username", "=game__id", "detail"]
    list_select_related = ["game__owner"]

    @admin.display(description="player", ordering="game__owner__username")
    def player(self, flag: GameFlag) -> str:
        return flag.game.owner.get_username()

    @admin.display(description="game", ordering="game")
    def game_link(self, flag: GameFlag) -> str:
        url = reverse("admin:games_game_review", args=[flag.game_id])
        return format_html('<a href="{}">game {}</a>', url, flag.game_id)


class GameFlagInline(ReadOnlyMixin, admin.TabularInline):
    model = GameFlag
    fields = ["reason", "detail", "automatic", "created_by", "created_at", "cleared_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False


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


# -- games ------------------------------------------------------------------------------------


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
        "flag": services.flag_game,
        "unflag": services.unflag_game,
        "exclude": services.exclude_game,
        "reinstate": services.reinstate_game,
    }

    action = forms.ChoiceField(choices=[(name, name) for name in ACTIONS])
    reason = forms.CharField(max_length=1000, strip=True)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Games are the players' own: viewed, reviewed, flagged or excluded, never edited."""

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
    date_hierarchy = "created_at"
    list_select_related = ["owner", "deal", "daily"]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "review",
                    "owner",
                    "deal",
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
        ("Snapshot (every card)", {"fields": ["state"], "classes": ["collapse"]}),
    ]
    readonly_fields = [name for _, options in fieldsets for name in options["fields"]]
    inlines = [GameFlagInline, AuditLogInline, MoveInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        duration = ExpressionWrapper(
            F("last_move_at") - F("created_at"), output_field=DurationField()
        )
        return selectors.with_flagged(super().get_queryset(request)).annotate(duration=duration)

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

    @admin.display(ordering="deal__seed")
    def seed(self, game: Game) -> int:
        return game.deal.seed

    @admin.display(description="time", ordering="duration")
    def time(self, game: Game) -> str:
        duration = getattr(game, "duration", None)
        return duration_text(duration.total_seconds() * 1000) if duration else "-"

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
            game = selectors.staff_game(game_id)
        except ApiError:
            raise Http404("There is no such game.") from None
        if not self.has_view_permission(request, game):
            raise PermissionDenied
        return game

    def review_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        """A step-through replay of the whole history with every card showing, the timed move
        list, the flags, the audit entries and, on request, the verification."""
        game = self._game(request, game_id)
        step = _int(request.GET.get("step"), game.move_number)
        step = min(max(step, 0), game.move_number)
        context = step_context(game, step)
        if request.GET.get("partial"):
            return TemplateResponse(request, "games/review_step.html", context)
        check = selectors.verification(game) if request.GET.get("verify") else None
        flags = list(selectors.game_flags(game))
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
                },
                "audit": selectors.game_audit(game),
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
            except ApiError as error:
                messages.error(request, error.message)
            else:
                messages.success(request, f"Game {game.pk}: {action} done, and audited.")
        return HttpResponseRedirect(reverse("admin:games_game_review", args=[game.pk]))


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _game_time(game: Game) -> str:
    end = game.finished_at or game.last_move_at
    return duration_text((end - game.created_at).total_seconds() * 1000) if end else "-"


# -- what the review templates draw -----------------------------------------------------------

SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_WORDS = {"A": "Ace", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King"}


def duration_text(ms: float) -> str:
    """A time in the unit that suits it, rounded before it is split into units, so that
    119.6 s reads "2 min 0 s", never "1 min 60 s"."""
    if round(ms) < 1000:
        return f"{ms:.0f} ms"
    if round(ms / 10) < 6000:  # under a minute in hundredths of a second
        return f"{ms / 1000:.2f} s"
    if (seconds := round(ms / 1000)) < 3600:
        minutes, seconds = divmod(seconds, 60)
        return f"{minutes} min {seconds} s"
    hours, minutes = divmod(round(ms / 60_000), 60)
    return f"{hours} h {minutes} min"


def pile_title(slug: str, pile_id: Any) -> str:
    """A pile as the play page titles it, from the engine's name: "Tableau pile 1",
    "Foundation 2", "6 o'clock foundation", "Stock"; an id the game lacks as it is."""
    variant = VARIANTS.get(slug)
    index = variant.index.get(pile_id) if variant and isinstance(pile_id, str) else None
    if index is None:
        return str(pile_id)
    name = variant.pile_name(index).removeprefix("the ")
    return name[:1].upper() + name[1:]


def move_text(payload: Any, slug: str) -> str:
    if isinstance(payload, dict):
        kind = payload.get("type")
        if kind in ("deal", "undo", "resign", "close") and len(payload) == 1:
            return kind
        if kind == "move":
            count = payload.get("count", 1)
            suffix = f" \u00d7{count}" if count != 1 else ""
            source, target = (
                pile_title(slug, payload.get("from")),
                pile_title(slug, payload.get("to")),
            )
            return f"{source} \u2192 {target}{suffix}"
    return json.dumps(payload)


#: Event fields that hold a pile's id, and one that holds a card's code.
EVENT_PILE_KEYS = ("pile", "from", "to")
EVENT_CARD_KEY = "card"
#: The order fields are said in (PostgreSQL's jsonb keeps its own order, not the engine's).
EVENT_KEY_ORDER = (*EVENT_PILE_KEYS, EVENT_CARD_KEY)


def event_text(event: Any, slug: str) -> str:
    """An engine event with its piles and cards named as the boards beside it name them:
    "pile_filled: pile Tableau pile 7, from Stock, card 2♥" (not "pile=tableau:6")."""
    if not (isinstance(event, dict) and "type" in event):
        return json.dumps(event)
    fields = []
    known = [key for key in EVENT_KEY_ORDER if key in event]
    others = sorted(key for key in event if key not in EVENT_KEY_ORDER and key != "type")
    for key in known + others:
        value = event[key]
        if key in EVENT_PILE_KEYS:
            value = pile_title(slug, value)
        elif key == EVENT_CARD_KEY:
            value = card_text(value)
        fields.append(f"{key} {value}")
    return f"{event['type']}: {', '.join(fields)}" if fields else str(event["type"])


def card_text(code: Any) -> str:
    """A card's code as the boards show it: "2H" as "2♥", "TS" as "10♠"."""
    code = str(code)
    rank, suit = code[:-1], code[-1:]
    if suit not in SUITS:
        return code
    return f"{'10' if rank == 'T' else rank}{SUITS[suit]}"


def card(code: Any, face_down: bool) -> dict[str, Any]:
    code = str(code)
    rank, suit = code[:-1], code[-1:]
    name = f"{RANK_WORDS.get(rank, rank)} of {SUIT_WORDS.get(suit, suit)}"
    return {
        "rank": "10" if rank == "T" else rank,
        "suit": SUITS.get(suit, suit),
        "red": suit in "DH",
        "down": face_down,
        "title": f"{name} (face down)" if face_down else name,
    }


def board(state: Any, move: Any = None) -> list[dict[str, Any]] | None:
    """The full state as rows of piles of cards, every card face up or not; the piles the
    ``move`` took from and put to are marked."""
    if not isinstance(state, dict) or not isinstance(state.get("piles"), dict):
        return None
    touched: dict[str, str] = {}
    if isinstance(move, dict) and move.get("type") == "move":
        touched = {str(move.get("from")): "source", str(move.get("to")): "target"}
    elif isinstance(move, dict) and move.get("type") == "deal":
        touched = {"stock": "source"}
    rows: dict[str, list[dict[str, Any]]] = {"top": [], "foundation": [], "tableau": []}
    for pile_id, pile in state["piles"].items():
        cards = pile.get("cards", []) if isinstance(pile, dict) else []
        down = pile.get("face_down", 0) if isinstance(pile, dict) else 0
        kind = pile_id.partition(":")[0]
        label = pile_title(str(state.get("variant")), pile_id)
        rows.get(kind, rows["top"]).append(
            {
                "id": pile_id,
                "label": label,
                "count": len(cards),
                "face_down": down,
                # Piles that are not columns lie as a fan: a stock holds up to 84 cards.
                "fan": kind != "tableau",
                "touched": touched.get(pile_id, ""),
                "cards": [card(code, i < down) for i, code in enumerate(cards)],
            }
        )
    return [{"kind": kind, "piles": piles} for kind, piles in rows.items() if piles]


def timeline_rows(game: Game) -> list[dict[str, Any]]:
    """The move list: each entry with its time (UTC) and the time since the one before."""
    fast = settings.FAIR_PLAY_BURST_MS
    rows = [
        {
            "number": 0,
            "move": "the deal",
            "events": "",
            "time": f"{game.created_at:%H:%M:%S.%f}"[:-3],
            "gap": "",
            "fast": False,
        }
    ]
    slug = game.deal.variant
    for entry in selectors.review_timeline(game):
        rows.append(
            {
                "number": entry["number"],
                "move": move_text(entry["move"], slug),
                "events": "; ".join(event_text(e, slug) for e in entry["events"] or []),
                "time": f"{entry['received_at']:%H:%M:%S.%f}"[:-3],
                "gap": duration_text(entry["gap_ms"]),
                "fast": entry["gap_ms"] < fast,
            }
        )
    return rows


def step_context(game: Game, step: int) -> dict[str, Any]:
    data = selectors.review_step(game, step)
    entry = data["entry"]
    move = entry["move"] if entry else None
    if entry:
        entry = {
            "number": entry["number"],
            "move": move_text(move, game.deal.variant),
            "events": [event_text(e, game.deal.variant) for e in entry["events"] or []],
            "time": f"{entry['received_at']:%Y-%m-%d %H:%M:%S.%f}"[:-3],
            "gap": duration_text(entry["gap_ms"]),
            "fast": entry["gap_ms"] < settings.FAIR_PLAY_BURST_MS,
        }
    return {
        "step": step,
        "move_number": game.move_number,
        "previous": max(step - 1, 0),
        "next": min(step + 1, game.move_number),
        "entry": entry,
        "error": data["error"],
        "before": board(data["before"], move),
        "after": board(data["after"], move),
    }
