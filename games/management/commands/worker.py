"""The service's background work, out of the web processes: ``manage.py worker``.

Run one or more instances (``games.background.worker``): each job is done by one of them at a
time, and taken over by another within ``--poll`` seconds when that one dies. Stops on SIGTERM
or SIGINT, with its solver processes.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.background import worker


class Command(BaseCommand):
    help = "Do the background jobs (closing days, preparing dailies, filling the winnable pools)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--jobs",
            default=",".join(worker.JOBS),
            help=f"comma-separated jobs to take part in (default: {','.join(worker.JOBS)})",
        )
        parser.add_argument(
            "--poll",
            type=float,
            default=worker.POLL_S,
            help=f"seconds between tries of a job's lock and checks of a held one "
            f"(default {worker.POLL_S:g}): the takeover time after an instance dies",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        names = [name.strip() for name in options["jobs"].split(",") if name.strip()]
        unknown = [name for name in names if name not in worker.JOBS]
        if unknown or not names:
            raise CommandError(
                f"no such job: {', '.join(unknown) or '(none)'} (jobs: {', '.join(worker.JOBS)})"
            )
        if options["poll"] <= 0:
            raise CommandError("--poll is a number of seconds above 0")
        if "LOG_LEVEL" not in os.environ:  # say what it does, unless told otherwise
            logging.getLogger("patience").setLevel(logging.INFO)
        logging.getLogger("patience.worker").info(
            "worker %s: started, jobs %s, polling every %s s",
            os.getpid(),
            ", ".join(names),
            options["poll"],
        )
        worker.Worker(
            [worker.JOBS[name] for name in names], poll=options["poll"]
        ).run_until_signalled()
