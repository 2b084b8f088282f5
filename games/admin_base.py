"""What the games admin pages share."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


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
