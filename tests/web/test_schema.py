"""web.http.schema builds on a private method of drf-spectacular's AutoSchema: these fail when an
upgrade changes it, before the API's schema quietly loses its answers."""

from __future__ import annotations

import inspect
from importlib.metadata import version

from drf_spectacular import openapi

from web.http.schema import AnswerSchema


def test_drf_spectacular_is_the_version_web_schema_was_written_for() -> None:
    assert version("drf-spectacular") == "0.30.0", "check web/http/schema.py, then move the pin"


def test_the_private_method_web_schema_overrides_keeps_its_signature() -> None:
    method = openapi.AutoSchema._get_response_for_code
    assert list(inspect.signature(method).parameters) == [
        "self",
        "serializer",
        "status_code",
        "media_types",
        "direction",
    ]
    assert AnswerSchema._get_response_for_code is not method
