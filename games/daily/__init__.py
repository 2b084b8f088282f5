"""Daily challenges: the calendar, each day's proven-winnable deals, closing days, leaderboards."""
