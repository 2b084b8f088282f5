"""Signals of the game features, so that one can act on another's change without importing it."""

from __future__ import annotations

from django.dispatch import Signal

#: A ranked attempt's result has become final (won, lost, resigned or closed), sent inside the
#: transaction that recorded it with ``game`` (locked). The fair-play checks
#: (``games.moderation.fair_play``) receive it, so a finished attempt is never on a leaderboard
#: unchecked; ``games.play`` sends it without knowing who listens.
ranked_game_finished = Signal()
