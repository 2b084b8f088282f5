"""A deployment of several hosts on this machine (``tests/cluster/hosts.py``): HAProxy in front
of two web hosts, PostgreSQL, Redis and two worker hosts, each a network namespace; players
play through the balancer while the parts fail one after another (``tests/cluster/faults.py``).

The faults (each checked for moves lost, applied twice, 5xx other than 503 with Retry-After,
and how soon moves succeed again): a worker host killed while preparing the dailies (5) and
one that vanishes holding the job's lock, its link cut so PostgreSQL hears no reset and frees
the lock only after the keepalives (7: taken over within ``locks.DEAD_HOST_S`` + a poll); a
web host killed (1) and back (2); a web host that vanishes, its link cut (8: out of the
balancer and moves through the other host within its checks, the requests it held closed
and sent again) and back (9); Redis restarting
(3); PostgreSQL shut down fast (4) and killed with SIGKILL (10: crash recovery, nothing
acknowledged lost); a move whose answer is lost on one host, sent again to the other with the
same ``Idempotency-Key`` (11: the stored answer, applied once); leaderboard watchers across
hosts (6).

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
    by_name = {outcome.phase.name.split(" ")[0]: outcome for outcome in outcomes}
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
    problems += silent_host_problems(by_name)
    problems += crash_and_retry_problems(by_name)
    verified = by_name["4."].facts["verify_games (after the load)"]
    if " 0 failed" not in verified:
        problems.append(f"verify_games: {verified}")
    watch = by_name["6."].facts
    if watch["missed"] or watch["watchers failed"] or not watch["moves watched"]:
        problems.append(f"leaderboard watchers across hosts: {watch}")
    assert not problems, "\n".join(problems)


def silent_host_problems(by_name: dict[str, faults.Outcome]) -> list[str]:
    """7, 8, 9: hosts that vanish without closing anything (their link cut)."""
    problems = []
    worker = by_name["7."].facts
    takeover = worker.get("takeover (s)")
    if not (
        worker.get("challenges now") == worker.get("distinct (day, game)") == worker.get("expected")
        and worker.get("prepared more than once") == 0
        and worker.get("challenges when cut", 0) < worker.get("expected", 0)
        and takeover is not None
        # No sooner than the keepalives allow: PostgreSQL heard no reset (the slow path ran).
        and worker["slow path (s, no sooner)"] <= takeover <= worker["bound (s)"]
        # The vanished holder gives the job up by itself as soon (its own check unanswered).
        and (worker["worker1 stopped the job itself after (s)"] or 1e9) <= worker["bound (s)"]
    ):
        problems.append(f"worker vanished: {worker}")
    web = by_name["8."].facts
    out = web["balancer took it out after (s)"]
    if out is None or out > web["bound (s)"]:
        problems.append(f"web1 vanished, the balancer took it out late: {web}")
    if web["moves sent from this long after the cut all prompt (s)"] > web["bound (s)"]:
        problems.append(f"web1 vanished, moves resumed late: {web}")
    if not web["websockets reopened through the other host"]:
        problems.append(f"web1 vanished holding no websocket, or they were never reopened: {web}")
    back = by_name["9."].facts
    if back["balancer took it back after (s)"] is None or not back["requests web1 answered since"]:
        problems.append(f"web1's link came back but it answered nothing: {back}")
    if set(back["new connections' answers"]) != {200}:
        problems.append(f"a new connection was refused while web1's link came back: {back}")
    return problems


def crash_and_retry_problems(by_name: dict[str, faults.Outcome]) -> list[str]:
    """10: PostgreSQL killed and recovering; 11: a lost answer, the move sent again elsewhere."""
    problems = []
    crash = by_name["10."].facts
    if not crash["crash recovery"] or " 0 failed" not in crash["verify_games (after the load)"]:
        problems.append(f"PostgreSQL crash: {crash}")
    retry = by_name["11."].facts
    if not (
        retry.get("web1 committed it (answer unread)")
        and retry.get("web1's answer") == retry.get("web2's answer to the retry") == 201
        and retry.get("same body")
        and retry.get("entries at its number") == 1
        and retry.get("history's move is the one sent")
    ):
        problems.append(f"a move sent again to the other host: {retry}")
    return problems
