"""HTTP plumbing shared by every app: the API's error format and the refusal→status table
(``errors``), the answers' schema (``schema``), the ASGI handler (``handlers``) and the
streamed responses it sends (``streaming``), the JSON parser, the security headers, the
websocket origin check, and what the service answers while its database is away
(``db_outage``)."""
