"""The admin's sign-in (``/admin/login/``), guarded as the API's is.

The same ``LoginGuard`` counts its failures (per username and address, per username, per
address), under the same cache keys: a guesser gains nothing by switching between the two
doors. An attempt past a limit hashes no password (the hashing is what makes a guess cost the
server) and is answered 429 with ``Retry-After``: the sign-in page again, saying when to try,
as the API's answer does.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse

from accounts.throttling import LoginGuard, LoginThrottled, client_ip


class GuardedAdminAuthenticationForm(AdminAuthenticationForm):
    """Django's admin sign-in form, its password check counted by the sign-in guard."""

    throttled: LoginThrottled | None = None

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is None or not password:
            return super().clean()  # nothing is checked: the form says what is missing
        guard = LoginGuard(username=username, client_ip=client_ip(self.request))
        try:
            guard.reserve()
        except LoginThrottled as throttled:
            self.throttled = throttled
            raise ValidationError(str(throttled.detail), code="throttled") from None
        try:
            return super().clean()
        finally:
            # The password was right (even for an account that may not use the admin, which
            # the form then refuses): not a failure. A wrong one: the reservation stands.
            if self.user_cache is not None:
                guard.succeeded()


def _guarded(login_view: Any) -> Any:
    def login(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        response = login_view(request, extra_context)
        form = (getattr(response, "context_data", None) or {}).get("form")
        throttled = getattr(form, "throttled", None)
        if throttled is not None:
            response.status_code = 429
            response["Retry-After"] = str(throttled.wait)
        return response

    return login


def guard_admin_sign_in(site: admin.AdminSite) -> None:
    """Before the admin's URLs are made (``config.urls``): its sign-in form and view."""
    site.login_form = GuardedAdminAuthenticationForm
    site.login = _guarded(site.login)  # type: ignore[method-assign]
