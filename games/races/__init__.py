"""Races: 2 to ``RACE_MAX_PLAYERS`` players on the same deal of one game, each on their own
casual game, started together (issue 47).

``models`` (a race, its players), ``services`` (the writes, one transaction each: open, join,
ready, start, settle, rematch; the live update after the commit), ``selectors`` (a race as
anyone sees it: progress, never a card, a move or the seed before the end), ``ranking`` (the
result's order, pure), ``rules`` (what a race game refuses: a move before the countdown ends,
a hint, an undo the room turned off; hooked into ``games.play.services``), ``views``,
``consumers`` (``/ws/races/<code>/``) and ``live`` (what the room's websocket is sent).
"""
