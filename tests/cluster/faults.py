"""The faults, under the players' load, each returning what it did (printed by the callers):
used by ``tests/cluster/test_cluster.py`` (few players) and ``bench/cluster.py`` (more).

Blocking work on the hosts (killing, starting, waiting) runs in a thread, so the players go
on playing meanwhile.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import redis

from bench.harness import CREATE_PLAYERS, percentile
from tests.cluster import hosts
from tests.cluster.hosts import ADDRESSES, REDIS_PORT, Cluster
from tests.cluster.load import Load, Phase, watch_leaderboard

#: After a fault, the load runs this long before its figures are read.
SETTLE_S = 12.0


@dataclass
class Outcome:
    phase: Phase
    recovery_s: float = 0.0
    reference: str = ""
    facts: dict[str, Any] = field(default_factory=dict)

    def report(self) -> str:
        extra = "".join(f"; {key} {value}" for key, value in self.facts.items())
        return (
            self.phase.line()
            + f"; moves succeed again {self.recovery_s:.1f} s after {self.reference}{extra}"
        )


def create_players(cluster: Cluster, count: int) -> list[str]:
    import json

    out = cluster.manage("shell", "-c", CREATE_PLAYERS.format(count=count))
    line = next(line for line in out.splitlines() if line.startswith("TOKENS "))
    return json.loads(line.removeprefix("TOKENS "))


async def in_thread(function: Any, *args: Any) -> Any:
    return await asyncio.to_thread(function, *args)


async def settle(load: Load, phase: Phase, seconds: float = SETTLE_S) -> None:
    await asyncio.sleep(seconds)
    await load.verify(phase)


def established(cluster: Cluster, name: str) -> int:
    """Client connections open on a web host's port (from the balancer)."""
    done = hosts.run(
        "ip", "netns", "exec", cluster.hosts[name].ns, "ss", "-Htn", "state", "established",
        f"( sport = :{hosts.WEB_PORT} )", check=False,
    )  # fmt: skip
    return len(done.stdout.splitlines())


# -- 1 and 2: a web host dies, and comes back --------------------------------------------------


async def web_host_dies(cluster: Cluster, load: Load, name: str = "web1") -> Outcome:
    phase = load.phase(f"1. {name} dies (kill -9, every process)")
    before = established(cluster, name)
    at = time.monotonic()
    killed = await in_thread(cluster.hosts[name].kill)
    await settle(load, phase)
    return Outcome(
        phase,
        phase.recovery_after(at),
        "the kill",
        {"processes killed": killed, "connections it had": before},
    )


async def web_host_returns(cluster: Cluster, load: Load, name: str = "web1") -> Outcome:
    phase = load.phase(f"2. {name} comes back")
    await in_thread(cluster.start_web, name)
    up = await in_thread(cluster.wait_for_health, cluster.web_url(name), name)
    at = time.monotonic()
    # New connections through the balancer (leastconn: the empty host gets them).
    async with httpx.AsyncClient(base_url=cluster.base_url, trust_env=False, timeout=10) as c:
        await asyncio.sleep(3.0)  # two health checks
        fresh = []
        for _ in range(10):
            fresh.append(httpx.AsyncClient(base_url=cluster.base_url, trust_env=False, timeout=10))
        statuses = Counter()
        for client in fresh:
            statuses[(await client.get("/api/health/")).status_code] += 1
        taken = established(cluster, name)
        for client in fresh:
            await client.aclose()
        del c
    await settle(load, phase)
    return Outcome(
        phase,
        phase.recovery_after(at),
        "it answered",
        {
            "seconds to start": round(up, 1),
            f"connections on {name} after 10 new ones": taken,
            "new connections' answers": dict(statuses),
        },
    )


# -- 3 and 4: Redis and PostgreSQL restart -----------------------------------------------------


async def redis_restarts(cluster: Cluster, load: Load, down_seconds: float = 2.0) -> Outcome:
    phase = load.phase("3. Redis restarts")
    await in_thread(cluster.hosts["redis"].kill)
    await asyncio.sleep(down_seconds)
    await in_thread(cluster.start_redis)
    await in_thread(cluster.wait_for_redis)
    at = time.monotonic()
    await settle(load, phase, SETTLE_S + 3)
    return Outcome(
        phase, phase.recovery_after(at), "Redis was back", {"down": f"{down_seconds:g} s"}
    )


async def postgres_restarts(cluster: Cluster, load: Load, down_seconds: float = 12.0) -> Outcome:
    phase = load.phase("4. PostgreSQL restarts (fast shutdown)")
    await in_thread(cluster.stop_database_fast)
    await asyncio.sleep(down_seconds)
    await in_thread(cluster.start_database)
    await in_thread(cluster.wait_for_database)
    at = time.monotonic()
    await settle(load, phase)
    # verify_games runs once the players have stopped (run_all): it reads a game's row, then
    # its history, and a move committed between the two would look like a broken history.
    return Outcome(
        phase, phase.recovery_after(at), "PostgreSQL was back", {"down": f"{down_seconds:g} s"}
    )


# -- 5: the worker host dies while preparing the dailies ---------------------------------------

EXPECTED_DAYS = 3  # today and DAILY_PREPARE_DAYS=2 more
GAMES = 5
PREPARED = re.compile(r"prepared the (\S+) challenge of (\S+):")


def challenges(cluster: Cluster) -> list[tuple[str, str]]:
    with cluster.connect() as conn:
        rows = conn.execute("SELECT date::text, variant FROM games_dailychallenge").fetchall()
    return [(date, variant) for date, variant in rows]


async def worker_dies_while_preparing(cluster: Cluster, load: Load) -> Outcome:
    """worker1 starts the days' preparation; worker2 stands by; worker1's host is killed with
    part of it done; worker2 must finish it, each (day, game) prepared once."""
    phase = load.phase("5. the worker host dies while preparing the dailies")
    # A larger solver budget, so that the preparation lasts long enough to be cut.
    cluster.extra_env.update(DAILY_SOLVER_SECONDS="3", DAILY_SOLVER_POSITIONS="300000")
    await in_thread(cluster.start_worker, "worker1")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if "doing job days" in hosts.tail(cluster.hosts["worker1"].log("worker"), 100000):
            break
        await asyncio.sleep(0.2)
    await in_thread(cluster.start_worker, "worker2")
    done_before = []
    while time.monotonic() < deadline:
        done_before = await in_thread(challenges, cluster)
        if done_before:
            break
        await asyncio.sleep(0.2)
    killed_at = time.monotonic()
    await in_thread(cluster.hosts["worker1"].kill)
    done_before = await in_thread(challenges, cluster)
    finished_at = None
    rows: list[tuple[str, str]] = []
    while time.monotonic() < killed_at + 180:
        rows = await in_thread(challenges, cluster)
        if len(rows) >= EXPECTED_DAYS * GAMES:
            finished_at = time.monotonic()
            break
        await asyncio.sleep(0.5)
    await asyncio.sleep(2)  # anything prepared twice would show by now
    rows = await in_thread(challenges, cluster)
    logs = {
        name: hosts.tail(cluster.hosts[name].log("worker"), 10**7)
        for name in ("worker1", "worker2")
    }
    prepared = Counter(m.groups() for text in logs.values() for m in PREPARED.finditer(text))
    by_worker = {name: len(PREPARED.findall(text)) for name, text in logs.items()}
    await load.verify(phase)
    cluster.extra_env.pop("DAILY_SOLVER_SECONDS")
    cluster.extra_env.pop("DAILY_SOLVER_POSITIONS")
    return Outcome(
        phase,
        phase.recovery_after(killed_at),
        "the kill",
        {
            "challenges when killed": len(done_before),
            "challenges now": len(rows),
            "distinct (day, game)": len(set(rows)),
            "prepared lines per worker": by_worker,
            "prepared more than once": sum(1 for n in prepared.values() if n > 1),
            "takeover to done (s)": round(finished_at - killed_at, 1) if finished_at else None,
            "worker2 took the job": "doing job days" in logs["worker2"],
        },
    )


# -- 6: a leaderboard watcher through one host sees a move made through the other --------------


async def watchers_across_hosts(
    cluster: Cluster, load: Load, tokens: list[str], watchers: int, moves: int = 10
) -> Outcome:
    """Two movers play today's ranked attempts of two games, one through each web host; each
    game's board is watched by ``watchers // 2`` watchers connected to the OTHER host. Per
    move and watcher: the delay from the move's answer (its commit is just before) to the
    first board showing it."""
    phase = load.phase("6. leaderboard watchers across hosts")
    today = dt.datetime.now(dt.UTC).date().isoformat()
    plan = [
        ("web2", "web1", "grandfathers-clock", tokens[0]),
        ("web1", "web2", "gold-mine", tokens[1]),
    ]
    stop = asyncio.Event()
    delays: list[float] = []
    from_send: list[float] = []
    failed = Counter()
    missed = 0
    for mover_host, watcher_host, variant, token in plan:
        seen_lists: list[list[tuple[float, dict[str, Any]]]] = []
        readies = []
        tasks = []
        watch_url = cluster.web_url(watcher_host).replace("http://", "ws://")
        url = f"{watch_url}/ws/leaderboards/daily/{today}/{variant}/"
        for _ in range(watchers // 2):
            seen: list[tuple[float, dict[str, Any]]] = []
            ready = asyncio.Event()
            seen_lists.append(seen)
            readies.append(ready)
            origin = cluster.web_url(watcher_host)
            tasks.append(asyncio.create_task(watch_leaderboard(url, origin, seen, ready, stop)))
            if len(tasks) % 50 == 0:
                await asyncio.sleep(0.2)
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)
        async with httpx.AsyncClient(
            base_url=cluster.web_url(mover_host),
            headers={"Authorization": f"Token {token}"},
            trust_env=False,
            timeout=30,
        ) as mover:
            response = await mover.post(f"/api/daily/{today}/{variant}/attempt/")
            if response.status_code != 201:
                phase.notes.append(f"attempt: {response.status_code} {response.text[:200]}")
                stop.set()
                await asyncio.gather(*tasks)
                stop.clear()
                continue
            game = response.json()
            marks: list[tuple[float, float]] = []
            for _ in range(moves):
                if game["status"] != "playing" or not game["legal_moves"]:
                    break
                await asyncio.sleep(1.0)
                sent = time.monotonic()
                response = await mover.post(
                    f"/api/games/{game['id']}/moves/",
                    json={
                        "move": game["legal_moves"][0],
                        "expected_move_number": game["move_number"],
                    },
                )
                answered = time.monotonic()
                phase.answers[str(response.status_code)] += 1
                if response.status_code != 201:
                    break
                game = response.json()
                marks.append((sent, answered))
        await asyncio.sleep(3.0)
        stop.set()
        await asyncio.gather(*tasks)
        stop.clear()
        for seen in seen_lists:
            if seen and seen[-1][1].get("type") == "failed":
                failed[seen[-1][1]["error"]] += 1
                continue
            for sent, answered in marks:
                before = [m for at, m in seen if at < sent]
                after = [(at, m) for at, m in seen if at >= sent]
                reference = before[-1]["results"] if before else None
                hit = next(((at, m) for at, m in after if m["results"] != reference), None)
                if hit is None:
                    missed += 1
                    continue
                delays.append(hit[0] - answered)
                from_send.append(hit[0] - sent)
    await load.verify(phase)
    return Outcome(
        phase,
        0.0,
        "(no fault)",
        {
            "watchers": watchers,
            "moves watched": len(delays),
            "missed": missed,
            "watchers failed": dict(failed),
            "answer-to-watcher p50/p99 ms": spread(delays),
            "send-to-watcher p50/p99 ms": spread(from_send),
        },
    )


def spread(values: list[float]) -> str:
    return f"{percentile(values, 50) * 1000:.0f}/{percentile(values, 99) * 1000:.0f}"


# -- capacity: what a move costs each part -----------------------------------------------------


def pg_totals(cluster: Cluster) -> tuple[int, int]:
    """(statements run, transactions committed or rolled back) in the service's database."""
    with cluster.connect() as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        calls = conn.execute(
            "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s JOIN pg_database d"
            " ON d.oid = s.dbid WHERE d.datname = %s",
            [hosts.DB_NAME],
        ).fetchone()[0]
        xacts = conn.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s",
            [hosts.DB_NAME],
        ).fetchone()[0]
    return int(calls), int(xacts)


def redis_totals() -> tuple[int, dict[str, int]]:
    client = redis.Redis(host=ADDRESSES["redis"], port=REDIS_PORT, socket_timeout=5)
    try:
        total = int(client.info("stats")["total_commands_processed"])
        stats = {name: int(v["calls"]) for name, v in client.info("commandstats").items()}
    finally:
        client.close()
    return total, stats


async def cost_per_move(cluster: Cluster, load: Load, seconds: float) -> Outcome:
    """Over a window of steady play: per acknowledged move, the web hosts' CPU, PostgreSQL's
    CPU, statements and transactions, Redis's commands."""
    phase = load.phase("capacity: steady play")
    await asyncio.sleep(3.0)
    web0 = sum(cluster.host_cpu_seconds(n) for n in ("web1", "web2"))
    db0 = cluster.host_cpu_seconds("db")
    redis_cpu0 = cluster.host_cpu_seconds("redis")
    lb0 = cluster.host_cpu_seconds("lb")
    pg0 = await in_thread(pg_totals, cluster)
    r0, c0 = await in_thread(redis_totals)
    acked0, started = phase.acknowledged, time.monotonic()
    await asyncio.sleep(seconds)
    moves = phase.acknowledged - acked0
    wall = time.monotonic() - started
    web = sum(cluster.host_cpu_seconds(n) for n in ("web1", "web2")) - web0
    db = cluster.host_cpu_seconds("db") - db0
    redis_cpu = cluster.host_cpu_seconds("redis") - redis_cpu0
    lb = cluster.host_cpu_seconds("lb") - lb0
    pg1 = await in_thread(pg_totals, cluster)
    r1, c1 = await in_thread(redis_totals)
    await load.verify(phase)
    per = max(moves, 1)
    top = sorted(((c1.get(k, 0) - c0.get(k, 0), k) for k in c1), reverse=True)[:5]
    return Outcome(
        phase,
        0.0,
        "(no fault)",
        {
            "window s": round(wall, 1),
            "moves": moves,
            "moves/s": round(moves / wall, 1),
            "web CPU ms/move": round(1000 * web / per, 2),
            "PostgreSQL CPU ms/move": round(1000 * db / per, 2),
            "statements/move": round((pg1[0] - pg0[0]) / per, 1),
            "transactions/move": round((pg1[1] - pg0[1]) / per, 2),
            "Redis commands/move": round((r1 - r0) / per, 1),
            "Redis CPU ms/move": round(1000 * redis_cpu / per, 3),
            "HAProxy CPU ms/move": round(1000 * lb / per, 3),
            "Redis top commands": {k.removeprefix("cmdstat_"): n for n, k in top},
        },
    )


# -- everything, in order ----------------------------------------------------------------------


async def run_all(
    cluster: Cluster,
    players: int,
    *,
    think: float = 2.0,
    watchers: int = 20,
    capacity_seconds: float = 0.0,
    report: Any = print,
) -> list[Outcome]:
    """Players through the balancer, then the faults in the order 5 (the workers start, so
    the dailies get prepared), 1, 2, 3, 4, 6, and a window of steady play for the costs."""
    tokens = await in_thread(create_players, cluster, players + 2)
    movers, tokens = tokens[:2], tokens[2:]
    load = Load(cluster.base_url, tokens, think=think)
    outcomes: list[Outcome] = []

    def done(outcome: Outcome) -> None:
        outcomes.append(outcome)
        report(outcome.report())

    await load.start()
    report(f"{players} players through {cluster.base_url}, a move every {think:g} s on average")
    try:
        await asyncio.sleep(5.0)
        done(await worker_dies_while_preparing(cluster, load))
        done(await web_host_dies(cluster, load))
        done(await web_host_returns(cluster, load))
        done(await redis_restarts(cluster, load))
        done(await postgres_restarts(cluster, load))
        done(await watchers_across_hosts(cluster, load, movers, watchers))
        if capacity_seconds > 0:
            done(await cost_per_move(cluster, load, capacity_seconds))
    finally:
        await load.stop()
    verified = await in_thread(lambda: cluster.manage("verify_games", check=False))
    last = verified.strip().splitlines()[-1] if verified.strip() else "(no output)"
    for outcome in outcomes:
        if outcome.phase.name.startswith("4."):
            outcome.facts["verify_games (after the load)"] = last
    report(f"manage.py verify_games, after the players stopped: {last}")
    return outcomes
