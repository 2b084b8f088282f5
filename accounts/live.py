"""Ending a player's live connections when the sign-in they opened with ends.

A websocket is signed in once, when it opens. Without this, signing out, a new password, a
password reset, a revoked API token, a deactivated or closed account would leave the player's
other tabs and devices streaming their games. After the commit, the account's group hears
which sign-ins ended; every connection opened with one of them is closed with code 4401
(``games.consumers.PatienceConsumer``).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import asdict, dataclass
from importlib import import_module
from typing import Any

from django.conf import settings
from django.db import transaction

from web.live.publish import publish


def account_group(user_id: int) -> str:
    return f"account-{user_id}"


def session_tag(session_key: str | None) -> str | None:
    """What stands for a session in messages: a session key is a credential, so only a digest
    of it travels through Redis."""
    if not session_key:
        return None
    return hashlib.sha256(f"patience-session:{session_key}".encode()).hexdigest()[:32]


#: The session entry naming its sign-in (``start_sign_in``, at every sign-in).
SIGN_IN_ID = "_patience_sign_in"


def start_sign_in(session: Any) -> None:
    """Give a session that has just been signed in the id of its sign-in, unless it has one:
    signing in again as the same account keeps the session and its sign-in (Django keeps
    the session then), and its open pages go on."""
    if not session.get(SIGN_IN_ID):
        session[SIGN_IN_ID] = secrets.token_hex(16)


def sign_in_tag(session: Any) -> str | None:
    """What stands for a session's sign-in in messages. Not its key: Django gives a session a
    new key when the password changes in it (``update_session_auth_hash``), and the pages
    opened before must still end with that sign-in, and be kept by "sign out of other
    devices" in it. The id ``start_sign_in`` keeps in the session survives that; a session
    signed in before it was kept stands for itself by its key."""
    if session is None:
        return None
    return session_tag(session.get(SIGN_IN_ID) or session.session_key)


def sign_in_tag_of(session_key: str | None) -> str | None:
    """``sign_in_tag`` of the session stored under this key (None: no session)."""
    if not session_key:
        return None
    return sign_in_tag(import_module(settings.SESSION_ENGINE).SessionStore(session_key))


@dataclass(frozen=True)
class SignIn:
    """How a websocket connection was signed in: by an API token, or by a session."""

    token: bool
    session: str | None = None  # the tag of the session's sign-in (``sign_in_tag``)

    @classmethod
    def of(cls, scope: dict[str, Any]) -> SignIn:
        """Reads the session (the database, unless already read): call it from a thread."""
        if scope.get("auth_token"):
            return cls(token=True)
        return cls(token=False, session=sign_in_tag(scope.get("session")))


@dataclass(frozen=True)
class SignOut:
    """Which of an account's sign-ins ended."""

    tokens: bool = True
    sessions: bool = True
    only_session: str | None = None  # just this session's sign-in (signing out)
    except_session: str | None = None  # every session but this one's (a password change)

    def ends(self, sign_in: SignIn) -> bool:
        if sign_in.token:
            return self.tokens
        if not self.sessions:
            return False
        if self.only_session is not None:
            return sign_in.session == self.only_session
        return self.except_session is None or sign_in.session != self.except_session

    def message(self) -> dict[str, Any]:
        return {"type": "account.signed_out", **asdict(self)}

    @classmethod
    def from_message(cls, message: dict[str, Any]) -> SignOut:
        return cls(**{name: message[name] for name in cls.__dataclass_fields__})


def schedule_sign_out(user_id: int, sign_out: SignOut) -> None:
    """After the commit (at once outside a transaction), end the connections ``sign_out``
    names. A failed publish is logged: what ended stays ended for every new request."""
    transaction.on_commit(lambda: publish(account_group(user_id), sign_out.message()), robust=True)
