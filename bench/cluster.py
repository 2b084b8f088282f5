"""Patience on several hosts, built on this machine, with the faults of issues 38 and 45 under load.

    sudo .venv/bin/python -m bench.cluster [--players 100] [--think 2.0] [--watchers 1000]
                                           [--web-workers 1] [--capacity-seconds 30]

Builds the deployment of ``tests/cluster/hosts.py``, each part on a host of its own (a
network namespace with an address of 10.231.7.0/24; traffic goes only to them and loopback):
PostgreSQL 15, Redis, two web hosts (``python -m deploy.serve``), two worker hosts
(``manage.py worker``) and HAProxy running ``deploy/haproxy.cfg`` in front. ``--players``
players (``tests/cluster/load.py``: the play page's behaviour, a move every ``--think``
seconds on average, moves sent again with their Idempotency-Key, websockets reopened with
``?since=``) play through the balancer while, in turn (``tests/cluster/faults.py``):

5. worker1's host is killed while preparing the dailies (worker2 must finish, once);
7. worker1's host, holding the days job, vanishes (its link cut: no RST, no FIN): worker2
   takes the job when PostgreSQL's keepalives end the lock session (25 s), and finishes once;
1. web1's host is killed (every process, SIGKILL);
2. web1 comes back;
8. web1 vanishes (its link cut): out of the balancer within its checks, the requests and
   websockets it held closed then (``on-marked-down shutdown-sessions``), moves through web2;
9. web1's link comes back;
3. Redis restarts (2 s down);
4. PostgreSQL restarts with a fast shutdown (12 s down: longer than a request waits for a
   connection, so that requests meet the outage);
10. PostgreSQL is killed (SIGKILL to the postmaster) and recovers from the crash;
11. a move sent to web1 commits, its answer unread; sent again to web2 with the same
    Idempotency-Key, it gets the stored answer, applied once;
6. ``--watchers`` leaderboard watchers, half on each web host, watch boards moved through
   the other host: answer-to-watcher and send-to-watcher p50/p99;

then a window of steady play measures what a move costs each part: the web hosts' CPU,
PostgreSQL's CPU, statements and transactions (pg_stat_statements, pg_stat_database), Redis's
commands and CPU, HAProxy's CPU. Each fault prints moves acknowledged, lost, applied twice,
answers by status, and seconds until moves succeed promptly again (the last move answered
late or failing, after the faulty part came back). Needs root (the test's own requirements);
the hosts and their data are removed at the end, whatever happens. Every loop is bounded:
the whole run stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import time

from bench.harness import raise_open_files_limit
from tests.cluster import faults, hosts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument(
        "--web-workers", type=int, default=1, help="deploy.serve processes per host"
    )
    parser.add_argument("--capacity-seconds", type=float, default=30.0)
    args = parser.parse_args(argv)
    missing = hosts.missing_requirements()
    if missing:
        sys.exit(f"bench/cluster.py needs {', '.join(missing)}")
    raise_open_files_limit()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the finally below still runs
    started = time.monotonic()
    print(
        f"Several hosts: {args.players} players (a move every {args.think:g} s on average),"
        f" {args.watchers} leaderboard watchers, {args.web_workers} web process(es) per host;"
        f" machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    with hosts.exclusive():
        cluster = hosts.Cluster(web_workers=args.web_workers)
        try:
            cluster.start()
            print(f"Cluster up in {time.monotonic() - started:.0f} s", flush=True)
            asyncio.run(
                faults.run_all(
                    cluster,
                    args.players,
                    think=args.think,
                    watchers=args.watchers,
                    capacity_seconds=args.capacity_seconds,
                    report=lambda line: print(line, flush=True),
                )
            )
        finally:
            cluster.close()
    print(f"Done in {time.monotonic() - started:.0f} s; hosts removed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
