"""The rule a new username follows, wherever an account is made or renamed: sign-up (the API
and the page) and the admin's forms."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError


def has_a_letter_or_digit(username: str) -> None:
    """A name of punctuation alone ("." or "..") cannot be read on a leaderboard, and a link to
    its profile (/players/../) would lead elsewhere: browsers resolve dot segments."""
    if not any(character.isalnum() for character in username):
        raise ValidationError("A username needs at least one letter or digit.", code="invalid")


#: A new username's characters: ASCII letters and digits, ``.``, ``-`` and ``_`` (as lichess
#: allows). Letters of other alphabets and accents would let "alice" spelt with a Cyrillic a
#: (U+0430) sign up beside "alice" and pass for them on the leaderboards; ``@`` and ``+`` read
#: as an email address. Accounts made before this rule keep their names (signing in takes any
#: name).
USERNAME_CHARACTERS = re.compile(r"[A-Za-z0-9._-]+")
USERNAME_CHARACTERS_MESSAGE = (
    "A username uses only the letters A to Z (no accents or other alphabets), digits, and "
    ". - _ (dot, hyphen, underscore)."
)


def uses_the_sites_username_characters(username: str) -> None:
    if not USERNAME_CHARACTERS.fullmatch(username):
        raise ValidationError(USERNAME_CHARACTERS_MESSAGE, code="invalid")


#: Guests' names (``accounts.guests``) begin so: an account named like one would read as a guest.
GUEST_PREFIX = "guest-"
GUEST_PREFIX_MESSAGE = 'A username may not begin with "guest-": guests are named so.'


def not_a_guest_name(username: str) -> None:
    if username.casefold().startswith(GUEST_PREFIX):
        raise ValidationError(GUEST_PREFIX_MESSAGE, code="invalid")


NEW_USERNAME_VALIDATORS = [
    uses_the_sites_username_characters,
    has_a_letter_or_digit,
    not_a_guest_name,
]
