"""What every app shares: the base of the services' refusals (``web.errors``, no HTTP), the
HTTP plumbing (``web.http``: the API's error format and schema, the ASGI handler), the live
updates (``web.live``: publishing, the layer watch, connection caps) and the production
launcher (``python -m web.serve``). ``config/`` composes the service from these and the apps;
domain code (``games``, ``accounts``) raises its own errors and never imports the ASGI
handler."""
