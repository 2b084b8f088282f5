"""``ws/races/<code>/``: a race's room, for anyone with its link. On connecting (and so on
every reconnection: a reconnect catches up) the whole race, then the race again after every
change: a player joined, got ready, the countdown, the start, a game done, the end. Each such
message is the race the room shares (``selectors.public_view``, built once per change for
every watcher) with the watcher's own part (``you``). A move that leaves its game in play
sends only its player's line (``race_progress``: their progress, never their cards). A
player the watcher invited who declines: ``race_invitation_declined`` (their name).

The connection also wakes itself at the countdown's end and at the time limit and settles the
race (``services.settle``: once, under its lock, whoever asks), so a room ends on time though
no player moves and no worker runs."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

from channels.db import database_sync_to_async

from accounts.guests import is_guest
from accounts.live import account_group
from games.consumers import NOT_FOUND, NOT_SIGNED_IN, PatienceConsumer, as_json
from games.races import invitations, selectors, services
from games.races.live import race_group
from games.races.models import Race

#: After the time limit, so that the settle finds it over.
WAKE_MARGIN_S = 0.05


def _race(code: str) -> Race | None:
    race = Race.objects.filter(code=code).first()
    if race is not None and services.settle(race.pk):
        race.refresh_from_db()
    return race


def _public(race_id: int) -> dict[str, Any] | None:
    race = Race.objects.select_related("deal", "opener", "rematch").filter(pk=race_id).first()
    return None if race is None else as_json(selectors.public_view(race))


def _you(race_id: int, user: Any) -> dict[str, Any]:
    race = Race.objects.get(pk=race_id)
    return dict(selectors.you(race, user))


class RaceConsumer(PatienceConsumer):
    race_id: int = 0
    wake: asyncio.Task | None = None
    phase: str | None = None
    you: dict[str, Any] | None = None

    async def connect(self) -> None:
        code = self.scope["url_route"]["kwargs"]["code"]
        race = await database_sync_to_async(_race)(code)
        if race is None:
            await self.refuse(NOT_FOUND)
            return
        self.race_id = race.pk
        self.user = self.scope.get("user")
        # Join before reading, so no change committed in between is missed.
        await self.join(race_group(code))
        if not await self.join_account():
            await self.forget_sign_in()
        await self.accept()
        public = await database_sync_to_async(_public)(self.race_id)
        if public is not None:
            await self.send_race(public)

    async def race_update(self, event: dict[str, Any]) -> None:
        await self.send_race(event["race"])

    async def race_progress(self, event: dict[str, Any]) -> None:
        """One player's progress: the page puts it in its table (nothing else changed)."""
        await self.send_json(
            {"type": "race_progress", "player": event["player"], "now": event["now"]}
        )

    async def account_race_invitation_declined(self, event: dict[str, Any]) -> None:
        """A player the watcher invited to this race declined: their Invite list says so."""
        if event["code"] != self.scope["url_route"]["kwargs"]["code"]:
            return
        if self.you is not None:
            self.you["invited"] = [
                {**sent, "declined": sent["declined"] or sent["username"] == event["username"]}
                for sent in self.you.get("invited", [])
            ]
        await self.send_json({"type": "race_invitation_declined", "username": event["username"]})

    async def send_race(self, public: dict[str, Any]) -> None:
        if public["phase"] != self.phase or public["phase"] == Race.State.WAITING:
            # What is the watcher's own changes while the room waits (joining, the opener's
            # part) and with the phase (their game's id is told once the countdown ends): not
            # read again for each move.
            self.you = await database_sync_to_async(_you)(self.race_id, self.user)
        self.phase = public["phase"]
        await self.send_json({"type": "race", "race": {**public, "you": self.you}})
        self.wake_at(public)

    def wake_at(self, public: dict[str, Any]) -> None:
        """At the countdown's end (countdown) or the time limit (running), settle the race."""
        when = {"countdown": public["starts_at"], "running": public["ends_at"]}.get(public["phase"])
        if self.wake is not None and not self.wake.done():
            self.wake.cancel()
        if when is None:
            return
        delay = (parse_time(when) - parse_time(public["now"])).total_seconds()
        self.wake = asyncio.create_task(self.settle_after(max(delay, 0) + WAKE_MARGIN_S))

    async def settle_after(self, delay: float) -> None:
        await asyncio.sleep(delay)
        # A change is published to the room (this connection too) by whoever settles it.
        await database_sync_to_async(services.settle)(self.race_id)

    async def signed_out(self) -> None:
        # Anyone may watch a race: the connection goes on, as a visitor's.
        await self.forget_sign_in()
        public = await database_sync_to_async(_public)(self.race_id)
        if public is not None:
            self.phase = None  # "you" read again: a visitor's now
            await self.send_race(public)

    async def forget_sign_in(self) -> None:
        user, self.user, self.sign_in = self.user, None, None
        if user is not None and user.is_authenticated:
            await self.leave(account_group(user.pk))

    async def disconnect(self, code: int) -> None:
        if self.wake is not None and not self.wake.done():
            self.wake.cancel()
        await super().disconnect(code)


class AccountConsumer(PatienceConsumer):
    """``ws/account/``: an account's own live messages, for its lobby: on connecting (so on
    every reconnection) its friends' pending race invitations (``race_invitations``), then
    each new one as it is sent (``race_invitation``) and each that is no longer the
    account's to take (``race_invitation_gone``: its race left waiting, the account joined it
    or declined it), heard on the account's group that every signed-in connection joins
    (``accounts.live.account_group``). A visitor or a guest, whom
    nobody can invite, is closed with 4401."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(NOT_SIGNED_IN)
            return
        if await database_sync_to_async(is_guest)(user) or not await self.join_account():
            await self.refuse(NOT_SIGNED_IN)
            return
        await self.accept()
        pending = await database_sync_to_async(invitations.pending)(user)
        await self.send_json({"type": "race_invitations", **as_json(pending)})

    async def account_race_invitation(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "race_invitation", "invitation": event["invitation"]})

    async def account_race_invitation_gone(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "race_invitation_gone", "code": event["code"]})


def parse_time(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
