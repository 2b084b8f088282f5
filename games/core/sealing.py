"""Which deals are sealed: the deal of a daily challenge whose day has not closed (today's, and
the days to come the worker has prepared or staff have set), and the deal of a race not over
yet (``games.races``). Its seed, its cards and the moves of every game dealt it (ranked or
casual, daily or not: the deal row is what they share) reach nobody but a game's own player,
staff included, until that day closes (``days.day_closed``) or that race ends.

The one definition every staff path (the review API and pages, the admin's lists and forms,
the game websocket) asks, so a new path cannot seal less than the others."""

from __future__ import annotations

from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q, QuerySet

from games.core import days
from games.models import DailyChallenge, Deal, Game, Race

#: What staff see in place of a sealed deal's seed, cards, snapshot or moves.
HIDDEN_WORDS = "hidden until the day closes"
#: The same for a deal sealed by a race not over (and by no open day).
RACE_HIDDEN_WORDS = "hidden until the race ends"


def open_day_challenges() -> QuerySet[DailyChallenge]:
    """The challenges of the days that have not closed: ``date < today`` is a closed day."""
    return DailyChallenge.objects.filter(date__gte=days.today())


def sealed_deals() -> QuerySet[DailyChallenge]:
    """The ids of the open days' deals, as a subquery (a handful of rows: a few days ahead)."""
    return open_day_challenges().values("deal_id")


def racing_deals() -> QuerySet[Race]:
    """The ids of the deals of races not over yet, as a subquery: every game of a race shows
    the same deal, so one player's finished game would tell the others' cards."""
    return Race.objects.exclude(state=Race.State.FINISHED).values("deal_id")


def is_sealed(deal_path: str = "") -> ExpressionWrapper:
    """An annotation: the row's deal (at ``deal_path``, e.g. ``"deal"`` or ``"game__deal"``;
    ``""`` for a Deal itself) is sealed."""
    deal = OuterRef(deal_path or "pk")
    day = Exists(open_day_challenges().filter(deal=deal))
    race = Exists(Race.objects.exclude(state=Race.State.FINISHED).filter(deal=deal))
    return ExpressionWrapper(Q(day) | Q(race), output_field=BooleanField())


def sealed_rows(deal_path: str = "") -> Q:
    """A filter: the rows whose deal (at ``deal_path``) is sealed."""
    field = f"{deal_path}__in" if deal_path else "pk__in"
    return Q(**{field: sealed_deals()}) | Q(**{field: racing_deals()})


def deal_sealed(deal: Deal | int) -> bool:
    """Whether a deal (or the deal of this id) is sealed; a Deal annotated ``sealed``
    (``is_sealed()``, as the admin's list does) is answered without a query."""
    if isinstance(deal, Deal):
        annotated = getattr(deal, "sealed", None)
        if annotated is not None:
            return bool(annotated)
        deal = deal.pk
    return (
        open_day_challenges().filter(deal_id=deal).exists()
        or Race.objects.exclude(state=Race.State.FINISHED).filter(deal_id=deal).exists()
    )


def game_sealed(game: Game) -> bool:
    """Whether ``game``'s deal is sealed; a row annotated ``sealed`` (``is_sealed("deal")``,
    as the admin's lists do) is answered without a query."""
    annotated = getattr(game, "sealed", None)
    if annotated is not None:
        return bool(annotated)
    return deal_sealed(game.deal_id)


def sealed_by_race_only(deal: Deal | int) -> bool:
    """Whether a sealed deal is sealed by a race not over, and by no open day: what staff are
    told then is the race's reason, not the day's."""
    deal_id = deal.pk if isinstance(deal, Deal) else deal
    return (
        not open_day_challenges().filter(deal_id=deal_id).exists()
        and Race.objects.exclude(state=Race.State.FINISHED).filter(deal_id=deal_id).exists()
    )


def hidden_words(deal: Deal | int) -> str:
    """What staff see in place of a sealed deal's seed, cards or snapshot, with its reason."""
    return RACE_HIDDEN_WORDS if sealed_by_race_only(deal) else HIDDEN_WORDS
