"""Pages of a list (the games list, the leaderboards): a page after the last is a 404."""

from __future__ import annotations

from games.errors import GameError


def no_such_page(page: int, pages: int) -> GameError:
    """A page after the last one (the games list and the leaderboards answer it alike)."""
    message = f"There is no page {page}: the last is page {pages}."
    return GameError("not_found", message, pages=pages)


def page_start(count: int, page: int, size: int) -> tuple[int, int]:
    """The first row of ``page`` and how many pages ``count`` rows fill (page 1 of none is a
    page, empty); a page after the last one is ``no_such_page``."""
    pages = max(1, -(-count // size))
    if page > pages:
        raise no_such_page(page, pages)
    return (page - 1) * size, pages
