"""The races API: thin views over ``games.races.services`` (writes) and
``games.races.selectors`` (reads). A race is named by its room's code, which its link
carries: anyone with the link may read it (progress only) and join it while it waits."""

from __future__ import annotations

from collections.abc import Callable

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.guests import PlayerOrNewGuest
from games.answers import answer, answer_once
from games.inputs import ReplayQuery, body, valid
from games.play import selectors as play_selectors
from games.play.inputs import asked_step, idempotency_key
from games.play.responses import Replay
from games.races import invitations, selectors, services
from games.races.inputs import (
    InviteInput,
    OpenRaceInput,
    OpenRacesQuery,
    QuickRaceInput,
    ReadyInput,
)
from games.races.responses import OpenRaces, Race, RaceInvitations
from games.races.throttling import (
    DeclineThrottle,
    RaceThrottle,
    too_many_declines,
    too_many_invitations,
    too_many_races,
)
from web.http.errors import ApiErrorBody

ERRORS = {400: ApiErrorBody, 403: ApiErrorBody, 404: ApiErrorBody, 409: ApiErrorBody}


def answered(
    request: Request, write: Callable[[], services.RaceOutcome], *, reads_body: bool = True
) -> Response:
    """A race write's answer (201 when it opened a race), once per ``Idempotency-Key``: a
    retry with the key gets the first answer, and the write is applied once
    (``games.answers.answer_once``)."""
    key = idempotency_key(request, reads_body=reads_body)
    return answer(answer_once(request.user, key, write))


class ThrottledRaceView(APIView):
    # A browser's visitor opening or joining a race plays as a new guest, as "New deal" does.
    permission_classes = [PlayerOrNewGuest]
    throttle_classes = [RaceThrottle]  # POST only

    def throttled(self, request: Request, wait: float | None) -> None:
        raise too_many_races(wait)


class RaceListView(ThrottledRaceView):
    throttle_scope = "race_open"

    def get_permissions(self) -> list:
        # The open rooms are the lobby's, for anyone.
        return [AllowAny()] if self.request.method == "GET" else super().get_permissions()

    @extend_schema(
        summary="Races waiting for players (listed, not full), the oldest first",
        operation_id="races_list",
        parameters=[OpenRacesQuery],
        responses={200: OpenRaces, 400: ApiErrorBody},
    )
    def get(self, request: Request) -> Response:
        query = valid(OpenRacesQuery, request.query_params)
        return Response(selectors.open_races(query.get("variant")))

    @extend_schema(
        summary="Open a race: a room on a new deal, with you in it",
        operation_id="races_create",
        request=OpenRaceInput,
        responses={201: Race, **ERRORS, 429: ApiErrorBody, 503: ApiErrorBody},
    )
    def post(self, request: Request) -> Response:
        data = valid(OpenRaceInput, body(request))
        return answered(
            request,
            lambda: services.open_race(
                user=request.user,
                variant_slug=data["variant"],
                winnable=data["winnable"],
                undo=data["undo"],
                listed=data["listed"],
                time_limit_seconds=data.get("time_limit_seconds"),
            ),
        )


class QuickRaceView(ThrottledRaceView):
    throttle_scope = "race_join"

    @extend_schema(
        summary="Quick race: join the oldest open race of a game, or open one",
        operation_id="races_quick",
        request=QuickRaceInput,
        responses={200: Race, 201: Race, **ERRORS, 429: ApiErrorBody},
    )
    def post(self, request: Request) -> Response:
        data = valid(QuickRaceInput, body(request))
        return answered(
            request, lambda: services.quick_race(user=request.user, variant_slug=data["variant"])
        )


class RaceDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A race: its state and every player's progress (no card, move or seed before "
        "its end)",
        operation_id="races_retrieve",
        responses={200: Race, 404: ApiErrorBody},
    )
    def get(self, request: Request, code: str) -> Response:
        race = selectors.race_by_code(code)
        # A check on read: a race whose countdown or time is over is settled before it is told.
        if services.settle(race.pk):
            race = selectors.race_by_code(code)
        return Response(selectors.race_view(race, request.user))


class RaceJoinView(ThrottledRaceView):
    throttle_scope = "race_join"

    @extend_schema(
        summary="Join a race waiting for players (in it already: nothing changes)",
        operation_id="races_join",
        request=None,
        responses={200: Race, **ERRORS, 429: ApiErrorBody},
    )
    def post(self, request: Request, code: str) -> Response:
        return answered(
            request, lambda: services.join_race(user=request.user, code=code), reads_body=False
        )


class RaceReadyView(APIView):
    @extend_schema(
        summary="Ready (or not, with ready: false); the race starts when every player is",
        operation_id="races_ready",
        request=ReadyInput,
        responses={200: Race, **ERRORS},
    )
    def post(self, request: Request, code: str) -> Response:
        data = valid(ReadyInput, body(request))
        return answered(
            request, lambda: services.set_ready(user=request.user, code=code, ready=data["ready"])
        )


class RaceStartView(APIView):
    @extend_schema(
        summary="Start the race (its opener): a countdown, then every game takes moves",
        operation_id="races_start",
        request=None,
        responses={200: Race, **ERRORS},
    )
    def post(self, request: Request, code: str) -> Response:
        return answered(
            request, lambda: services.start_race(user=request.user, code=code), reads_body=False
        )


class RaceLeaveView(APIView):
    @extend_schema(
        summary="Leave a race that has not started (once started: resign your game)",
        operation_id="races_leave",
        request=None,
        responses={200: Race, **ERRORS},
    )
    def post(self, request: Request, code: str) -> Response:
        return answered(
            request, lambda: services.leave_race(user=request.user, code=code), reads_body=False
        )


class RaceRematchView(APIView):
    @extend_schema(
        summary="The room's next race, once this one is over: a new deal, the same players",
        operation_id="races_rematch",
        request=None,
        responses={200: Race, 201: Race, **ERRORS, 503: ApiErrorBody},
    )
    def post(self, request: Request, code: str) -> Response:
        return answered(
            request, lambda: services.rematch(user=request.user, code=code), reads_body=False
        )


class RaceReplayView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A player's game of a race that is over, at a step of its history",
        operation_id="races_replay",
        parameters=[ReplayQuery],
        responses={200: Replay, 400: ApiErrorBody, 404: ApiErrorBody, 409: ApiErrorBody},
    )
    def get(self, request: Request, code: str, username: str) -> Response:
        game = selectors.finished_race_game(selectors.race_by_code(code), username)
        return Response(play_selectors.replay_view(game, asked_step(request, game)))


class RaceInviteView(APIView):
    throttle_classes = [RaceThrottle]
    throttle_scope = "race_invite"

    def throttled(self, request: Request, wait: float | None) -> None:
        raise too_many_invitations(wait)

    @extend_schema(
        summary="Invite a player you follow to this race (an account in it, while it waits): "
        "their lobby shows it live",
        operation_id="races_invite",
        request=InviteInput,
        responses={200: Race, **ERRORS, 429: ApiErrorBody},
    )
    def post(self, request: Request, code: str) -> Response:
        data = valid(InviteInput, body(request))
        return answered(
            request,
            lambda: invitations.invite(user=request.user, code=code, username=data["username"]),
        )


class MyRaceInvitationsView(APIView):
    @extend_schema(
        summary="Your friends' invitations to races still waiting for players, the newest first",
        operation_id="me_race_invitations",
        responses={200: RaceInvitations, 401: ApiErrorBody},
    )
    def get(self, request: Request) -> Response:
        return Response(invitations.pending(request.user))


class MyRaceInvitationView(APIView):
    throttle_classes = [DeclineThrottle]
    throttle_scope = "race_decline"

    def throttled(self, request: Request, wait: float | None) -> None:
        raise too_many_declines(wait)

    @extend_schema(
        summary='Decline ("Not now") your pending invitation to this race: it leaves your '
        "lobby, and the race does not ask you again",
        operation_id="me_race_invitations_decline",
        request=None,
        responses={204: None, 401: ApiErrorBody, 404: ApiErrorBody, 429: ApiErrorBody},
    )
    def delete(self, request: Request, code: str) -> Response:
        invitations.decline(user=request.user, code=code)
        return Response(status=status.HTTP_204_NO_CONTENT)
