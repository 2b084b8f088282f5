"""Where a finished game was lost: the solver searched along the player's own line.

``search`` (Django-free, run in the worker's solver child) finds the last position of the
line that could still be won and the move after it that lost the deal; ``services`` queues an
analysis and stores what the job (``job``) finds; ``eligibility`` says when a game may be
analysed (never before it, its day or its race is over); ``selectors`` and ``views`` answer
``/api/games/<id>/analysis/``.
"""
