"""What the games admin pages share."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils.text import smart_split, unescape_string_literal

from games.core import sealing
from games.rules import MAX_SEED


class ReadOnlyMixin:
    """Viewable by staff with the view permission; nobody adds, changes or deletes."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def int_param(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


class SealedDealsMixin:
    """An admin list whose rows may be dealt a sealed deal (``games.core.sealing``): no
    lookup in its querystring reads a secret field, and no search finds a sealed row by its
    seed. Sorting is the lists' own business: no sortable column may order by a seed."""

    #: Fields (and paths) whose querystring lookups would find sealed rows by their secret
    #: (``?seed__lt=…`` halves the seeds a row can have: a binary search). Django's
    #: ``lookup_allowed`` lets any lookup on a model's own fields through, whatever the list
    #: filters are, so each is refused here (Django answers 400).
    secret_lookups: tuple[str, ...] = ()
    #: Where a row's deal is: "" for a Deal, "deal" for a Game.
    deal_path = ""

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        if any(lookup == name or lookup.startswith(f"{name}__") for name in self.secret_lookups):
            return False
        return super().lookup_allowed(lookup, value, request)  # type: ignore[misc]

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        found, duplicates = super().get_search_results(  # type: ignore[misc]
            request, queryset, search_term
        )
        if is_autocomplete(request):
            # The admin's autocomplete (``/admin/autocomplete/``, open to anyone who may view
            # the list) names each row by ``str()``: a Deal's is its seed. No sealed row there.
            return found.exclude(sealing.sealed_rows(self.deal_path)), duplicates
        return without_sealed_seed_matches(found, search_term, self.deal_path), duplicates


def is_autocomplete(request: HttpRequest) -> bool:
    match = getattr(request, "resolver_match", None)
    return match is not None and match.url_name == "autocomplete"


def search_words(search_term: str) -> list[str]:
    """The words of an admin search, split as Django's search splits them
    (``ModelAdmin.get_search_results``: a quoted phrase is one word)."""
    words = []
    for word in smart_split(search_term):
        if word[:1] in ('"', "'") and word[-1:] == word[:1]:
            word = unescape_string_literal(word)
        words.append(word)
    return words


def search_numbers(search_term: str) -> set[int]:
    """The words of an admin search that could be a seed."""
    return {
        int(word) for word in search_words(search_term) if word.isdigit() and int(word) <= MAX_SEED
    }


def without_sealed_seed_matches(
    queryset: QuerySet[Any], search_term: str, deal_path: str
) -> QuerySet[Any]:
    """Search results less the sealed rows whose seed is a word of the search: whether a
    sealed row is found then never depends on its seed being the number searched for."""
    numbers = search_numbers(search_term)
    if not numbers:
        return queryset
    seed_field = f"{deal_path}__seed" if deal_path else "seed"
    return queryset.exclude(sealing.sealed_rows(deal_path) & Q(**{f"{seed_field}__in": numbers}))
