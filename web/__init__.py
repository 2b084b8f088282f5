"""Shared web plumbing: the API's error format and schema, the ASGI handler and the
production launcher, live-update publishing and websocket connection caps. ``config/`` composes
the service from these and the apps; domain code (``games``, ``accounts``) raises its own errors
and never imports the ASGI layer."""
