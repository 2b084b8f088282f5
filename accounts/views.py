"""The accounts API: registration, session sign-in and sign-out, password change, API tokens.

Browsers use the session (cookie) endpoints; scripts get a token from ``/token/`` and send
``Authorization: Token <key>``.

CSRF: DRF's SessionAuthentication enforces CSRF on unsafe requests from a signed-in session, so
a browser first gets a token from ``GET /csrf/`` and sends it as the X-CSRFToken header. Register
and login from an anonymous client are not checked (DRF's standard behaviour, kept on purpose):
this API only parses JSON, and a cross-site page cannot send a JSON body without a CORS preflight,
which this site doesn't grant; a plain HTML form (urlencoded, multipart or text/plain) is refused
with 415. Sign-in rotates the CSRF token: the response sets a new csrftoken cookie. A refused
check is 403 ``csrf_failed`` saying what to send (``web.http.errors.csrf_refused``). Asking for a
token (``POST /token/``) signs in with the body alone: a session cookie is not read, so a script
that registered first (and holds its session cookie) needs no CSRF token there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.contrib.auth import (
    SESSION_KEY,
    get_user_model,
    login,
    logout,
    update_session_auth_hash,
)
from django.middleware.csrf import get_token
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import ensure_csrf_cookie
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import guests, services
from accounts.responses import CsrfToken, Detail, PlayerSettings, SessionsEnded, Token
from accounts.selectors import settings_of
from accounts.serializers import (
    AccountDeleteSerializer,
    EmailChangeSerializer,
    EmailConfirmSerializer,
    LoginSerializer,
    PasswordChangeSerializer,
    PasswordResetConfirmSerializer,
    PasswordResetSerializer,
    RegisterSerializer,
    SettingsChangeSerializer,
    SignUpAnswerSerializer,
    UserSerializer,
)
from accounts.throttling import (
    ClientAddressThrottle,
    EmailChangeThrottle,
    SettingsChangeThrottle,
    SignUpQuota,
    TooManyEmailChanges,
    TooManyResetRequests,
    TooManySettingsChanges,
    client_ip,
)
from web.http.errors import ApiErrorBody

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractUser

TAGS = ["accounts"]


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ApiErrorBody, description=description)


INVALID = _error('"invalid": the body failed validation; `fields` holds messages per field.')
NOT_SIGNED_IN = _error('"not_authenticated" or "authentication_failed" (a bad token).')
ACCOUNT_REQUIRED = _error('"account_required": a guest keeps its settings in its browser.')
SIGN_IN_ERRORS = {
    400: _error('"invalid_credentials" (wrong username or password) or "invalid".'),
    429: _error('"throttled": too many failed sign-ins; see the Retry-After header.'),
}


@method_decorator(ensure_csrf_cookie, name="dispatch")
class CsrfView(APIView):
    # No authentication: a stale session or bad token must not stop a client getting a token.
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(
        tags=TAGS,
        summary="Get a CSRF token (and the csrftoken cookie) for session requests",
        responses={200: CsrfToken},
    )
    def get(self, request: Request) -> Response:
        answer: CsrfToken = {"csrf_token": get_token(request)}
        return Response(answer)


class RegisterView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=TAGS,
        summary="Create an account and sign in (an email address is confirmed by a link)",
        request=RegisterSerializer,
        responses={
            201: SignUpAnswerSerializer,
            400: INVALID,
            429: _error('"throttled": too many sign-ups from this address; see Retry-After.'),
        },
    )
    def post(self, request: Request) -> Response:
        # Reserved before anything is checked: refused sign-ups count, and simultaneous ones
        # cannot all pass the same count (accounts.throttling.SignUpQuota).
        SignUpQuota(client_ip=client_ip(request)).reserve()
        serializer = RegisterSerializer(data=request.data)
        if not serializer.is_valid():
            raise ValidationError(_with_password_problems(serializer))
        email = serializer.validated_data.get("email", "")
        site_url = request.build_absolute_uri("/")
        if guests.is_guest(request.user):
            # Signing up from a guest session: the guest becomes the account, its games kept.
            user = guests.sign_up(
                guest=request.user,
                **serializer.validated_data,
                site_url=site_url,
                current_session=signed_in_session(request),
            )
            update_session_auth_hash(request, user)
        else:
            user = services.register_user(**serializer.validated_data, site_url=site_url)
            sign_in(request, user)
        user.email_to_confirm = get_user_model().objects.normalize_email(email.strip())
        user.detail = services.EMAIL_TO_CONFIRM_MESSAGE if user.email_to_confirm else None
        return Response(SignUpAnswerSerializer(user).data, status=status.HTTP_201_CREATED)


class EmailConfirmView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []  # the link is the credential; a session plays no part

    @extend_schema(
        tags=TAGS,
        summary="Confirm a sign-up's email address with the emailed link's token",
        request=EmailConfirmSerializer,
        responses={
            200: UserSerializer,
            400: _error(
                '"invalid_confirmation_link", or "invalid" (`fields.email`: another account '
                "has taken the address since)."
            ),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = EmailConfirmSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = services.confirm_email(**serializer.validated_data)
        return Response(UserSerializer(user).data)


def sign_in(request: Request, user: AbstractUser) -> None:
    """Sign this browser's session in as ``user``. Over a sign-in of another account, that
    one ends first exactly as signing out does (``user_logged_out``: its pages' live
    connections get the signed-out message, ``accounts.signals``): Django's ``login`` would
    only drop its session and leave them open. Signing in again as the same account keeps the
    session, its sign-in and its pages going."""
    signed_in_as = request.session.get(SESSION_KEY)
    if signed_in_as is not None and signed_in_as != str(user.pk):
        logout(request._request)  # the session's own user, whatever else the request sent
    login(request, user)


def _with_password_problems(serializer: RegisterSerializer) -> dict[str, Any]:
    """A refused sign-up's errors, the password's included: one answer names every field to
    fix, not the password's problems only once the other fields are right."""
    errors = dict(serializer.errors)
    data = serializer.initial_data if isinstance(serializer.initial_data, Mapping) else {}
    password, username = data.get("password"), data.get("username")
    if "password" not in errors and isinstance(password, str) and isinstance(username, str):
        email = data.get("email") if isinstance(data.get("email"), str) else ""
        if problems := services.new_password_problems(password, username=username, email=email):
            errors["password"] = problems
    return errors


def _user_signing_in(request: Request) -> AbstractUser:
    """The user whose username and password the request sends: a session sign-in and a token
    request check them alike, under the same throttle."""
    serializer = LoginSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    return services.authenticate_credentials(
        **serializer.validated_data, client_ip=client_ip(request)
    )


class LoginView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=TAGS,
        summary="Sign in (session cookie)",
        request=LoginSerializer,
        responses={200: UserSerializer, **SIGN_IN_ERRORS},
    )
    def post(self, request: Request) -> Response:
        user = _user_signing_in(request)
        if guests.is_guest(request.user):
            # Signing in from a guest session: the guest's games become the account's.
            guests.merge_into(guest=request.user, account=user)
        sign_in(request, user)
        return Response(UserSerializer(user).data)


class LogoutView(APIView):
    # Signing out when already signed out is not an error.
    permission_classes = [AllowAny]

    @extend_schema(
        tags=TAGS, summary="Sign out (end the session)", request=None, responses={204: None}
    )
    def post(self, request: Request) -> Response:
        logout(request)
        return Response(status=status.HTTP_204_NO_CONTENT)


def signed_in_session(request: Request) -> str | None:
    """The key of the session this request was signed in with; None for a token's request."""
    if isinstance(request.successful_authenticator, SessionAuthentication):
        return request.session.session_key
    return None


class LogoutOthersView(APIView):
    @extend_schema(
        tags=TAGS,
        summary="Sign out of other devices: end every other session (the API token stays)",
        request=None,
        responses={
            200: SessionsEnded,
            401: NOT_SIGNED_IN,
        },
    )
    def post(self, request: Request) -> Response:
        ended = services.sign_out_other_sessions(
            user=request.user, current_session=signed_in_session(request)
        )
        answer: SessionsEnded = {"ended": ended}
        return Response(answer)


class MeView(APIView):
    permission_classes = [guests.AccountRequiredToWrite]  # a guest reads, never changes
    throttle_classes = [EmailChangeThrottle]  # PATCH only
    throttle_scope = "email_change"

    def throttled(self, request: Request, wait: float | None) -> None:
        raise TooManyEmailChanges(wait)

    @extend_schema(
        tags=TAGS,
        summary="The signed-in user",
        responses={200: UserSerializer, 401: NOT_SIGNED_IN},
    )
    def get(self, request: Request) -> Response:
        return Response(UserSerializer(request.user).data)

    @extend_schema(
        tags=TAGS,
        summary="Change your email address (where password reset links go; asks the password)",
        request=EmailChangeSerializer,
        responses={
            200: UserSerializer,
            400: _error(
                '"invalid" (`fields` per field: `password` is required with `email`), or '
                '"wrong_password".'
            ),
            401: NOT_SIGNED_IN,
            429: _error(
                '"throttled": too many changes of address, or too many wrong passwords; see '
                "Retry-After."
            ),
        },
    )
    def patch(self, request: Request) -> Response:
        serializer = EmailChangeSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        user = request.user
        if "email" in serializer.validated_data:  # a PATCH without it changes nothing
            user = services.change_email(
                user=user,
                email=serializer.validated_data["email"],
                password=serializer.validated_data["password"],
                client_ip=client_ip(request),
            )
        return Response(UserSerializer(user).data)

    @extend_schema(
        tags=TAGS,
        summary="Close your account: delete it with every game and history (asks the password)",
        request=AccountDeleteSerializer,
        responses={
            204: None,
            400: INVALID,
            401: NOT_SIGNED_IN,
            403: _error('"staff_account": staff accounts are removed in the admin.'),
            429: _error('"throttled": too many wrong passwords.'),
        },
    )
    def delete(self, request: Request) -> Response:
        serializer = AccountDeleteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.delete_account(
            user=request.user, **serializer.validated_data, client_ip=client_ip(request)
        )
        logout(request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordChangeView(APIView):
    permission_classes = [guests.AccountRequired]

    @extend_schema(
        tags=TAGS,
        summary="Change the password (revokes the API token; this session stays signed in)",
        request=PasswordChangeSerializer,
        responses={
            204: None,
            400: _error(
                '"invalid" (`fields` per field), or "same_password": the new one is the '
                "current one."
            ),
            401: NOT_SIGNED_IN,
            429: _error('"throttled": too many wrong old passwords.'),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        current_session = signed_in_session(request)
        services.change_password(
            user=request.user,
            **serializer.validated_data,
            client_ip=client_ip(request),
            current_session=current_session,
        )
        # Only a session needs re-signing with the new password hash; a token request has none
        # (and giving it one would create a session nobody asked for).
        if current_session is not None:
            update_session_auth_hash(request, request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordResetView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [ClientAddressThrottle]
    throttle_scope = "password_reset"

    def throttled(self, request: Request, wait: float | None) -> None:
        raise TooManyResetRequests(wait)

    @extend_schema(
        tags=TAGS,
        summary="Forgot the password: email a link to choose a new one",
        request=PasswordResetSerializer,
        responses={
            202: Detail,
            400: INVALID,
            429: _error('"throttled": too many requests from this client; see Retry-After.'),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordResetSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.request_password_reset(
            email=serializer.validated_data["email"], site_url=request.build_absolute_uri("/")
        )
        answer: Detail = {"detail": services.RESET_REQUESTED_MESSAGE}
        return Response(answer, status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []  # the link is the credential; a session plays no part

    @extend_schema(
        tags=TAGS,
        summary="Choose a new password with an emailed link's uid and token",
        request=PasswordResetConfirmSerializer,
        responses={
            204: None,
            400: _error('"invalid_reset_link", or "invalid" (a password the rules refuse).'),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordResetConfirmSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.reset_password(**serializer.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenView(APIView):
    def get_authenticators(self) -> list:
        # Asking for a token signs in with the body's username and password: a session cookie
        # the client holds (say from registering first) plays no part, so no CSRF check.
        # (The schema generator asks without a request.)
        if self.request is not None and self.request.method == "POST":
            return []
        return super().get_authenticators()

    def get_permissions(self) -> list:
        # Obtaining a token is itself a sign-in; revoking one needs the caller signed in.
        if self.request.method == "POST":
            return [AllowAny()]
        return [IsAuthenticated()]

    @extend_schema(
        tags=TAGS,
        summary="Get an API token for scripts",
        request=LoginSerializer,
        responses={200: Token, **SIGN_IN_ERRORS},
    )
    def post(self, request: Request) -> Response:
        token = services.issue_token(user=_user_signing_in(request))
        answer: Token = {"token": token.key}
        return Response(answer)

    @extend_schema(
        tags=TAGS,
        summary="Revoke the API token",
        request=None,
        responses={204: None, 401: NOT_SIGNED_IN},
    )
    def delete(self, request: Request) -> Response:
        services.revoke_token(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SettingsView(APIView):
    """The account's settings of the play page (``accounts.preferences``), which every page
    is also served with (``frontend.context_processors.player_settings``). A guest keeps its
    settings in its browser: 403 ``account_required`` here."""

    permission_classes = [guests.AccountRequired]
    throttle_classes = [SettingsChangeThrottle]  # PATCH only
    throttle_scope = "settings_change"

    def throttled(self, request: Request, wait: float | None) -> None:
        raise TooManySettingsChanges(wait)

    @extend_schema(
        tags=TAGS,
        summary="Your settings (animation, automatic play, sounds, colours, layout, deals)",
        responses={200: PlayerSettings, 401: NOT_SIGNED_IN, 403: ACCOUNT_REQUIRED},
    )
    def get(self, request: Request) -> Response:
        answer: PlayerSettings = settings_of(request.user)
        return Response(answer)

    @extend_schema(
        tags=TAGS,
        summary="Change some of your settings (the others stay as they are)",
        request=SettingsChangeSerializer,
        responses={
            200: PlayerSettings,
            400: _error(
                '"unknown_field" (no such setting) or "invalid" (a value not one of its '
                "setting's choices; `fields` says which): nothing was changed."
            ),
            401: NOT_SIGNED_IN,
            403: ACCOUNT_REQUIRED,
            429: _error('"throttled": too many changes in a minute; see Retry-After.'),
        },
    )
    def patch(self, request: Request) -> Response:
        serializer = SettingsChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        answer: PlayerSettings = services.save_settings(
            user=request.user, changes=dict(serializer.validated_data)
        )
        return Response(answer)
