"""What the game features (``play``, ``daily``, ``moderation``) all need, and import from here
rather than from each other: the calendar of the daily challenges (``days``), a game's row lock
(``locks``), the history's entries (``history``), a game's active time (``clock``), a day's
ranking of its ranked attempts (``ranking``), pages of a list (``pages``), and the signal a
finished ranked attempt sends (``signals``)."""
