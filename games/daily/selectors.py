"""Reads of a day's challenges: the day's overview and, once it has closed, its winning line."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import (
    Count,
)

from accounts.guests import is_guest
from games.core import days
from games.core.history import (
    opening,
)
from games.core.ranking import on_the_boards, ranked_attempts
from games.daily import responses
from games.daily.leaderboards import daily_leader, daily_streaks
from games.errors import GameError
from games.models import DailyChallenge, Game
from games.rules import VARIANTS, IllegalMove, State, get_variant
from games.rules.describe import describe


def daily_overview(date: dt.date, user: AbstractBaseUser | None) -> responses.DailyOverview:
    """The day's five challenges, and the signed-in player's attempt at each."""
    challenges = {
        c.variant: c for c in DailyChallenge.objects.filter(date=date).select_related("deal")
    }
    # The attempts on the day's boards, as each board counts them (core.ranking.on_the_boards:
    # not one staff excluded, nor one that ended with no move made).
    counts = dict(
        on_the_boards(Game.objects.filter(daily__date=date))
        .values_list("daily__variant")
        .annotate(n=Count("pk"))
    )
    signed_in = user is not None and user.is_authenticated
    mine = {}
    if signed_in:
        mine = {
            g.daily.variant: g
            for g in Game.objects.filter(owner=user, daily__date=date, ranked=True).select_related(
                "daily"
            )
        }
    closed, is_today = days.day_closed(date), date == days.today()
    account = signed_in and not is_guest(user)  # a ranked attempt is for accounts
    items: list[responses.DailyChallenge] = []
    for slug, variant in VARIANTS.items():
        challenge = challenges.get(slug)
        attempt = mine.get(slug)
        proven = bool(challenge and challenge.proven)
        items.append(
            {
                "variant": slug,
                "name": variant.name,
                # The seed (and the certificate) once the day has closed; a day that had no
                # challenge has no seed.
                "seed": challenge.deal.seed if closed and challenge else None,
                "attempts": counts.get(slug, 0),
                "can_attempt": account and is_today and attempt is None,
                "your_attempt": _attempt_summary(attempt, date, slug) if attempt else None,
                # Prepared ahead (games.daily.challenges); until then a start is refused (503).
                "ready": challenge is not None,
                # Coarse labels only (games/rules/RULINGS.md §Solutions and hints).
                "proven_winnable": proven,
                "difficulty": challenge.difficulty or None if challenge else None,
                "solution_available": closed and proven,
                # The board's first row, public as the board is: for the Leaderboards page.
                "leader": daily_leader(date, slug) if challenge else None,
            }
        )
    return {
        "date": date,
        "today": days.today(),
        "open": is_today,
        "closes_at": days.closes_at(date),
        "challenges": items,
        "streaks": daily_streaks(user) if account else None,
    }


def daily_solution(date: dt.date, variant: str, step: int | None = None) -> responses.DailySolution:
    """How the day's deal could be won (the solver's certificate), once the day has closed:
    the line shows every card, so before that it is ``not_yet`` for everybody. With ``step``,
    also the board (every card) after that many of the line's moves, and what the last of
    them set off: for the step-through replay."""
    name = VARIANTS[variant].name
    if not days.day_closed(date):
        raise GameError(
            "not_yet",
            f"The {date} {name} challenge's solution is shown once its day has closed "
            "(midnight UTC).",
        )
    challenge = (
        DailyChallenge.objects.select_related("deal").filter(date=date, variant=variant).first()
    )
    if challenge is None:
        # Not "the solver did not prove it": there was nothing to prove.
        raise GameError("no_challenge", f"There was no {name} challenge on {date}.")
    if not challenge.proven or not challenge.solution:
        raise GameError(
            "no_solution",
            f"The {date} {name} challenge has no winning line: the solver did not prove it "
            "winnable.",
        )
    body: responses.DailySolution = {
        "date": date,
        "variant": variant,
        "seed": challenge.deal.seed,
        "moves": challenge.solution,
        "length": len(challenge.solution),
        "said": _line_in_words(variant, challenge),
        "solver": {
            "positions": challenge.solver.get("positions"),
            "seconds": challenge.solver.get("seconds"),
        },
    }
    if step is not None:
        if step > len(challenge.solution):
            raise GameError("invalid_step", f"Choose a step from 0 to {len(challenge.solution)}.")
        rules = get_variant(variant)
        state, events = opening(rules, challenge.deal), []
        for move in challenge.solution[:step]:
            state, events = rules.play(state, move)
        body.update(step=step, state=rules.state_to_json(state), events=events)
    return body


def _line_in_words(variant: str, challenge: DailyChallenge) -> list[str]:
    """The winning line's moves in words, each naming its cards (``games.rules.describe``):
    the day has closed, so every card may be named. A move that does not apply (a line stored
    wrong) and those after it are said by their piles alone."""
    rules = get_variant(variant)
    state: State | None = opening(rules, challenge.deal)
    said = []
    for payload in challenge.solution:
        try:
            move = rules.move_from_json(payload)
        except IllegalMove:
            said.append("A move this game does not know")
            state = None
            continue
        before, events = state, []
        if state is not None:
            try:
                state, events = rules.play(state, move)
            except IllegalMove:
                before = state = None
        said.append(describe(rules, before, move, events))
    return said


def _attempt_summary(game: Game, date: dt.date, variant: str) -> responses.AttemptSummary:
    rank = None
    if not game.excluded:
        order = list(ranked_attempts(date, variant).values_list("pk", flat=True))
        # An attempt that ended with no move made is on no board (core.ranking.on_the_boards).
        rank = order.index(game.pk) + 1 if game.pk in order else None
    return {
        "game_id": game.pk,
        "status": game.status,
        "cards_home": game.cards_home,
        "moves": game.board_moves,
        "rank": rank,
    }
