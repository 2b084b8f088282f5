"""A month of dailies (the daily page's calendar) and today's count (the header's)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.guests import AccountRequired
from games.core import days
from games.daily import month
from games.daily.inputs import MonthQuery
from games.daily.responses import DailiesToday, DailyMonth
from games.inputs import valid
from web.http.errors import ApiErrorBody


class DailyMonthView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A month of daily challenges: each day's five games as you played them, the "
        "month's badge and your streak",
        operation_id="daily_month",
        parameters=[MonthQuery],
        responses={200: DailyMonth, 400: ApiErrorBody},
    )
    def get(self, request: Request) -> Response:
        today = days.today()
        year, number = valid(MonthQuery, request.query_params).get(
            "month", (today.year, today.month)
        )
        return Response(month.daily_month(request.user, year, number))


class DailiesTodayView(APIView):
    permission_classes = [AccountRequired]

    @extend_schema(
        summary="How many of today's dailies you have finished",
        operation_id="me_dailies_today",
        responses={200: DailiesToday, 401: ApiErrorBody, 403: ApiErrorBody},
    )
    def get(self, request: Request) -> Response:
        return Response(month.dailies_today(request.user))
