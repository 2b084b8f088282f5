"""A deployment of several hosts on this machine (``tests/cluster/hosts.py``): HAProxy in front
of two web hosts, PostgreSQL, Redis and two worker hosts, each a network namespace; players
play through the balancer while the parts fail one after another (``tests/cluster/faults.py``).

Needs root, ``ip``, HAProxy, Redis and PostgreSQL 15's binaries: without them it skips, and
under CI (``PATIENCE_REQUIRE_POSTGRES=1``, root; ``.ci/run`` installs HAProxy) it fails.
Few players here (a few minutes of CI); ``bench/cluster.py`` runs the same with more and
1,000 leaderboard watchers. Each fault's figures are printed (``-s`` shows them; the hosts'
logs stay in ``artifacts/cluster-logs/`` until the next run).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import pytest

from tests.cluster import faults, hosts

PLAYERS = 10
WATCHERS = 40
#: Targets: moves succeed again within this long after the faulty part is back.
RECOVERY_S = 10.0


@pytest.fixture(scope="module")
def cluster() -> Iterator[hosts.Cluster]:
    missing = hosts.missing_requirements()
    if missing:
        reason = f"the cluster test needs {', '.join(missing)}"
        if os.environ.get("PATIENCE_REQUIRE_POSTGRES") == "1":
            pytest.fail(reason + " (PATIENCE_REQUIRE_POSTGRES=1: .ci/run installs HAProxy)")
        pytest.skip(reason)
    with hosts.exclusive():
        deployment = hosts.Cluster()
        try:
            deployment.start()
            yield deployment
        finally:
            deployment.close()


def test_players_lose_nothing_while_hosts_die_and_restart(cluster: hosts.Cluster) -> None:
    outcomes = asyncio.run(faults.run_all(cluster, PLAYERS, watchers=WATCHERS, capacity_seconds=10))
    problems = []
    for outcome in outcomes:
        phase = outcome.phase
        name = phase.name
        if phase.lost or phase.twice or phase.abandoned:
            problems.append(
                f"{name}: {phase.lost} lost, {phase.twice} twice, {phase.abandoned} given up"
            )
        if phase.http_500s() or phase.server_errors():
            problems.append(f"{name}: 5xx other than 503: {phase.server_errors()}")
        if phase.no_retry_after:
            problems.append(f"{name}: {phase.no_retry_after} 503 without Retry-After")
        if phase.updates_missing:
            problems.append(f"{name}: {phase.updates_missing} moves never seen on the websocket")
        if outcome.recovery_s > RECOVERY_S:
            problems.append(f"{name}: moves succeeded again only {outcome.recovery_s:.1f} s after")
        if phase.notes:
            problems.append(f"{name}: {phase.notes}")
        if phase.acknowledged == 0:
            problems.append(f"{name}: no move acknowledged")
    by_name = {outcome.phase.name[:2]: outcome for outcome in outcomes}
    worker = by_name["5."].facts
    if not (
        worker["challenges now"] == worker["distinct (day, game)"] == 15
        and worker["prepared more than once"] == 0
        and worker["worker2 took the job"]
        and worker["challenges when killed"] < 15
    ):
        problems.append(f"worker takeover: {worker}")
    dies = by_name["1."]
    if dies.phase.reconnects == 0:
        problems.append("web1 died, yet no websocket reconnected")
    back = by_name["2."].facts
    if back["connections on web1 after 10 new ones"] == 0:
        problems.append(f"web1 came back but took no connection: {back}")
    if set(back["new connections' answers"]) != {200}:
        problems.append(f"a new connection was refused while web1 came back: {back}")
    verified = by_name["4."].facts["verify_games (after the load)"]
    if " 0 failed" not in verified:
        problems.append(f"verify_games: {verified}")
    watch = by_name["6."].facts
    if watch["missed"] or watch["watchers failed"] or not watch["moves watched"]:
        problems.append(f"leaderboard watchers across hosts: {watch}")
    assert not problems, "\n".join(problems)
