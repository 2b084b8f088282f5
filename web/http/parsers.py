"""Request parsers (a module of their own: DRF imports them while it sets itself up)."""

from __future__ import annotations

import json
from typing import Any

from rest_framework import exceptions, parsers


class JSONParser(parsers.JSONParser):
    """DRF's parser, except that absurdly nested JSON is a 400 rather than a crash, and a body
    that is not JSON is refused in the site's words, not the decoder's raw error."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(
                "The body's JSON is nested too deeply to read: send a plain JSON object."
            ) from None
        except exceptions.ParseError as refused:
            raise exceptions.ParseError(_not_json(refused.__context__)) from None


def _not_json(problem: BaseException | None) -> str:
    """What is wrong with a body the JSON decoder refused, and what to send."""
    send = "Send a JSON object, such as {}, with Content-Type: application/json."
    if isinstance(problem, json.JSONDecodeError):
        where = f"{problem.msg.lower()} at line {problem.lineno}, column {problem.colno}"
        return f"The body is not valid JSON ({where}). {send}"
    if isinstance(problem, UnicodeDecodeError):
        return f"The body is not valid JSON: it is not UTF-8 text. {send}"
    return f"The body is not valid JSON (NaN and Infinity are not JSON numbers). {send}"
