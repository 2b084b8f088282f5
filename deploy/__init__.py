"""A deployment's tools: the production launcher (``python -m deploy.serve``: uvicorn workers,
each on a socket of its own) and the load balancer's configuration (``haproxy.cfg``). Nothing
of the service imports them; docs/production.md says how they are used."""
