"""The streak that forgives and the monthly badges (games.daily.habit): pure functions of the
UTC days played, checked across month and year boundaries."""

from __future__ import annotations

import datetime as dt

from games.daily.habit import (
    ForgivingStreak,
    forgiving_streak,
    month_badge,
    month_days,
)


def run(first: dt.date, count: int) -> set[dt.date]:
    return {first + dt.timedelta(days=i) for i in range(count)}


def test_no_day_played_is_no_streak() -> None:
    assert forgiving_streak(set(), dt.date(2026, 12, 2)) == ForgivingStreak(0, 0, 0)


def test_today_not_played_yet_keeps_yesterdays_streak_alive() -> None:
    played = run(dt.date(2026, 11, 28), 4)  # 28 Nov to 1 Dec
    assert forgiving_streak(played, dt.date(2026, 12, 2)).current == 4


def test_a_missed_day_without_a_freeze_ends_the_streak() -> None:
    played = run(dt.date(2026, 11, 25), 5) | {dt.date(2026, 12, 1)}  # 30 Nov missed
    streak = forgiving_streak(played, dt.date(2026, 12, 1))
    assert (streak.current, streak.best, streak.freezes, streak.saved) == (1, 5, 0, ())


def test_seven_days_in_a_row_earn_a_freeze_that_a_missed_day_spends_across_the_month() -> None:
    played = run(dt.date(2026, 11, 21), 7) | run(dt.date(2026, 11, 29), 5)  # 28 Nov missed
    streak = forgiving_streak(played, dt.date(2026, 12, 3))
    assert streak.current == 12  # the saved day counts none
    assert streak.saved == (dt.date(2026, 11, 28),)
    assert streak.freezes == 0


def test_at_most_two_freezes_are_kept() -> None:
    played = run(dt.date(2026, 10, 1), 28)  # four weeks: four freezes earned, two kept
    streak = forgiving_streak(played, dt.date(2026, 10, 28))
    assert (streak.current, streak.freezes) == (28, 2)
    # Three days missed: two saved by the freezes, the third ends the streak.
    later = played | {dt.date(2026, 11, 1)}
    ended = forgiving_streak(later, dt.date(2026, 11, 1))
    assert (ended.current, ended.best, ended.freezes, ended.saved) == (1, 28, 0, ())


def test_two_freezes_bridge_two_missed_days_across_the_year() -> None:
    # 15-28 Dec: 14 days, two freezes; 29, 30 and 31 Dec missed: the third ends it.
    played = run(dt.date(2026, 12, 15), 14) | {dt.date(2027, 1, 1), dt.date(2027, 1, 2)}
    assert forgiving_streak(played, dt.date(2027, 1, 2)).current == 2
    bridged = run(dt.date(2026, 12, 15), 14) | {dt.date(2026, 12, 31), dt.date(2027, 1, 1)}
    streak = forgiving_streak(bridged, dt.date(2027, 1, 1))
    assert streak.current == 16
    assert streak.saved == (dt.date(2026, 12, 29), dt.date(2026, 12, 30))
    assert streak.freezes == 0


def test_a_day_after_today_is_not_counted() -> None:
    played = {dt.date(2026, 12, 2), dt.date(2026, 12, 5)}
    assert forgiving_streak(played, dt.date(2026, 12, 2)).current == 1


def test_the_order_of_the_days_does_not_matter() -> None:
    days = sorted(run(dt.date(2026, 2, 20), 12))
    today = dt.date(2026, 3, 3)
    assert forgiving_streak(days, today) == forgiving_streak(list(reversed(days)), today)


def test_month_days_knows_the_lengths_of_months() -> None:
    assert len(month_days(2028, 2)) == 29
    assert len(month_days(2027, 2)) == 28
    assert month_days(2026, 12)[-1] == dt.date(2026, 12, 31)


def test_badges_count_the_days_of_their_own_month_only() -> None:
    nine = run(dt.date(2026, 11, 1), 9)
    assert month_badge(nine, 2026, 11) is None
    # Days of October and December beside them do not count for November.
    assert month_badge(nine | run(dt.date(2026, 10, 25), 7), 2026, 11) is None
    assert month_badge(run(dt.date(2026, 11, 1), 10), 2026, 11) == "bronze"
    assert month_badge(run(dt.date(2026, 11, 11), 20), 2026, 11) == "silver"
    assert month_badge(run(dt.date(2026, 11, 1), 29), 2026, 11) == "silver"
    assert month_badge(run(dt.date(2026, 11, 1), 30), 2026, 11) == "gold"
    assert month_badge(run(dt.date(2028, 2, 1), 29), 2028, 2) == "gold"
    assert month_badge(run(dt.date(2028, 2, 1), 29), 2028, 3) is None
