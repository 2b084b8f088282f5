"""Staff tools in the Django admin (the full game review comes with its own issue)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from games import daily
from games.models import DailyChallenge, Deal
from games.rules import DEAL_VERSION, MAX_SEED


class DailyChallengeForm(forms.ModelForm):
    """Staff choose a future day's deal by its seed; the day's own deal is then never used."""

    seed = forms.IntegerField(min_value=0, max_value=MAX_SEED, help_text="The deal number.")

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
            raise forms.ValidationError(
                "Only a future day's seed can be set: players may already have this deal."
            )
        return date

    def save(self, commit: bool = True) -> DailyChallenge:
        challenge = super().save(commit=False)
        challenge.deal, _ = Deal.objects.get_or_create(
            variant=challenge.variant, seed=self.cleaned_data["seed"], deal_version=DEAL_VERSION
        )
        challenge.seed_set_by_staff = True
        if commit:
            challenge.save()
        return challenge


@admin.register(DailyChallenge)
class DailyChallengeAdmin(admin.ModelAdmin):
    form = DailyChallengeForm
    list_display = ["date", "variant", "seed_set_by_staff", "attempts"]
    list_filter = ["variant", "seed_set_by_staff", "date"]
    date_hierarchy = "date"

    @admin.display(description="ranked attempts")
    def attempts(self, challenge: DailyChallenge) -> int:
        return challenge.games.filter(ranked=True).count()

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
