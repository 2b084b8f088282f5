"""Read-only queries about accounts."""

from __future__ import annotations

from django.contrib.auth import get_user_model


def username_is_taken(username: str) -> bool:
    """Whether an account has this username in any letter case ("Ada" takes "ada")."""
    return get_user_model().objects.filter(username__iexact=username).exists()
