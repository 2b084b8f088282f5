"""Serve the site with uvicorn on a listening socket inherited from the test process.

    python -m tests.support.serve_socket FD

The test process binds the socket (port 0: the kernel picks a free port) and passes it down,
so no other process can take the port between choosing it and serving it, which happens when
a port is only chosen by the test and bound later by the server.
"""

from __future__ import annotations

import socket
import sys

import uvicorn


def main(argv: list[str]) -> None:
    listener = socket.socket(fileno=int(argv[0]))  # family and type come from the descriptor
    config = uvicorn.Config("config.asgi:application", log_level="warning")
    uvicorn.Server(config).run(sockets=[listener])


if __name__ == "__main__":
    main(sys.argv[1:])
