"""The daily challenges' admin: a day's seeds, proven winnable or not."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import (
    Count,
    Q,
    QuerySet,
)
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from games.admin_base import SealedDealsMixin
from games.core import days
from games.daily import leaderboards
from games.daily import services as daily_services
from games.models import DailyChallenge
from games.rules import MAX_SEED


class DailyChallengeForm(forms.ModelForm):
    """Staff choose a future day's deal by its seed; the day's own deal is then never used.

    The form shows back a seed staff set (it is in the audit log too); never the seed the
    worker chose for a day not closed: that is the day's deal, sealed from staff as from
    players (``games.core.sealing``)."""

    seed = forms.IntegerField(
        min_value=0,
        max_value=MAX_SEED,
        help_text=(
            "The deal number. A deal the worker chose is not shown before its day closes: "
            "give a number to deal that one instead."
        ),
    )
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
        if self.instance.pk and self.instance.seed_set_by_staff:
            self.fields["seed"].initial = self.instance.deal.seed

    def clean_date(self) -> Any:
        date = self.cleaned_data["date"]
        if date <= days.today():
            raise forms.ValidationError(daily_services.FUTURE_DAYS_ONLY_MESSAGE)
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
class DailyChallengeAdmin(SealedDealsMixin, admin.ModelAdmin):
    form = DailyChallengeForm
    # The winning line shows every card (?solution__contains=… would test a guess of it).
    secret_lookups = ("solution", "deal__seed")
    deal_path = "deal"
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
        rows = leaderboards.staff_daily_board(challenge)
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
        if obj is not None and obj.date <= days.today():
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(
        self, request: HttpRequest, obj: DailyChallenge | None = None
    ) -> bool:
        return (
            obj is not None
            and obj.date > days.today()
            and super().has_delete_permission(request, obj)
        )

    def save_model(
        self, request: HttpRequest, obj: DailyChallenge, form: Any, change: bool
    ) -> None:
        daily_services.save_daily_challenge(
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
        daily_services.remove_daily_challenge(actor=request.user, challenge=obj)
