"""The data export's endpoint."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import StreamingHttpResponse
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from games.export import archive
from games.export.responses import Export
from web.http.errors import ApiErrorBody
from web.http.streaming import streaming_content

if TYPE_CHECKING:
    pass


class ExportView(APIView):
    @extend_schema(
        summary="Download your data: the account, statistics, every game and its history",
        operation_id="me_export",
        responses={
            200: Export,
            401: ApiErrorBody,
            403: ApiErrorBody,
            429: ApiErrorBody,
        },
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        # Streamed as it is read (games.export.archive.player_export): the same JSON document and
        # headers as a Response would carry, but never the whole of it in memory. Whatever
        # is refused (not signed in, an Accept that is not JSON) is refused before this, as
        # JSON; a failure once the download has begun cuts it short, an incomplete document.
        exported_at = timezone.now()
        chunks = archive.OneExportAtATime(request.user, exported_at=exported_at)
        response = StreamingHttpResponse(
            streaming_content(chunks), content_type=JSONRenderer.media_type
        )
        day = exported_at.date().isoformat()
        response["Content-Disposition"] = f'attachment; filename="patience-data-{day}.json"'
        return response  # no-store, as every API answer (web.http.errors.PrivateApiResponses)
