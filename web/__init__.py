"""What every app shares: the base of the services' refusals (``web.errors``, no HTTP), the
HTTP plumbing (``web.http``: the API's error format and schema, the ASGI handler) and the live
updates (``web.live``: publishing, the layer watch, connection caps). The production launcher
is a deployment's tool, beside them (``deploy.serve``). ``config/`` composes the service from
these and the apps; domain code (``games``, ``accounts``) raises its own errors and never
imports the ASGI handler."""
