"""Content negotiation with a fast path for the API's usual case.

Every API view renders JSON only. DRF's default negotiation parses and ranks the Accept
header on every request, which showed in the move path's profile (``bench/api_bench.py``);
when a view has one renderer and the client accepts anything or JSON, the answer is known.
Any other Accept header goes through DRF's negotiation (and may still get a 406).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

_PLAIN_ACCEPTS = {"", "*/*", "application/json"}


class ContentNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: Sequence[BaseRenderer], format_suffix: Any = None
    ) -> tuple[BaseRenderer, str]:
        accept = request.META.get("HTTP_ACCEPT", "").strip()
        format_query = self.settings.URL_FORMAT_OVERRIDE
        if (
            len(renderers) == 1
            and accept in _PLAIN_ACCEPTS
            and not format_suffix
            and not (format_query and format_query in request.query_params)
        ):
            return renderers[0], renderers[0].media_type
        return super().select_renderer(request, renderers, format_suffix)
