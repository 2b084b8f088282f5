"""The faults, under the players' load, each returning what it did (printed by the callers):
used by ``tests/cluster/test_cluster.py`` (few players) and ``bench/cluster.py`` (more).

Blocking work on the hosts (killing, starting, waiting) runs in a thread, so the players go
on playing meanwhile.

Two ways a host goes: killed (``Host.kill``: every process SIGKILLed, so the kernel resets
its connections and the peers know at once) or vanished (``Host.cut``: its link cut, its
processes running on, so the peers hear nothing and must find out by their own timeouts:
the balancer's checks, PostgreSQL's keepalives on the worker's lock session). Phases 7 and 8
are the second kind, each held to the bound the configuration gives (``TAKEOVER_MARGIN_S``,
``BALANCER_OUT_S``); 10 kills PostgreSQL rather than shutting it down; 11 loses an answer
between two hosts. The order keeps one fault at a time: a host that vanished or died is back
(or, for the worker, gone for good and its link mended) before the next fault.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import http.client
import json
import re
import socket
import struct
import time
import uuid
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
    await asyncio.sleep(3.0)  # two health checks
    taken, statuses = await fresh_connections(cluster, name)
    await settle(load, phase)
    return Outcome(
        phase,
        phase.recovery_after(at),
        "it answered",
        {
            "seconds to start": round(up, 1),
            f"connections on {name} after 10 new ones": taken,
            "new connections' answers": statuses,
        },
    )


async def fresh_connections(cluster: Cluster, name: str, count: int = 10) -> tuple[int, dict]:
    """``count`` new connections through the balancer (leastconn: the emptiest host gets
    them): how many connections ``name`` has then, and the answers by status."""
    fresh = [
        httpx.AsyncClient(base_url=cluster.base_url, trust_env=False, timeout=10)
        for _ in range(count)
    ]
    statuses: Counter[int] = Counter()
    try:
        for client in fresh:
            statuses[(await client.get("/api/health/")).status_code] += 1
        taken = established(cluster, name)
    finally:
        for client in fresh:
            await client.aclose()
    return taken, dict(statuses)


# -- 8 and 9: a web host vanishes (its link cut, nothing closed), and its link comes back ------

#: The balancer checks a host every second, a check timing out after the interval (HAProxy's
#: "inter" when "timeout check" is unset), and takes it out after two failed checks, the second
#: after "fastinter" (0.5 s): a silent host is out 2.5 to 3.5 s after it vanished.
BALANCER_OUT_S = 1.0 + 1.0 + 0.5 + 1.0
#: What the figures are held to: that, and a second for the players' own pauses and retries.
BALANCER_MARGIN_S = 1.5


def balancer_log(cluster: Cluster) -> str:
    return hosts.tail(cluster.hosts["lb"].log("haproxy"), 10**8)


def marked(name: str, state: str) -> re.Pattern[str]:
    return re.compile(rf"Server web/{name} is {state}\b")


def served_by(name: str) -> re.Pattern[str]:
    """A request's line in HAProxy's log (option httplog) naming the server that answered."""
    return re.compile(rf" web/{name} -?\d+/")


async def wait_for_text(
    read: Any, pattern: re.Pattern[str], seen: int, timeout: float
) -> float | None:
    """The monotonic time at which ``read()`` first shows ``pattern`` more than ``seen``
    times (polled every 0.1 s), None if not within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(pattern.findall(await in_thread(read))) > seen:
            return time.monotonic()
        await asyncio.sleep(0.1)
    return None


def since(at: float | None, reference: float) -> float | None:
    return None if at is None else round(at - reference, 1)


async def web_host_vanishes(cluster: Cluster, load: Load, name: str = "web1") -> Outcome:
    """The host's link is cut: its processes run on, nothing it has open is closed or reset.
    The balancer's checks time out and take it out; the requests and websockets it held are
    closed then (on-marked-down shutdown-sessions): the players send the requests again with
    their keys and reopen the websockets through the other host with ``?since=``."""
    # The players' websockets opened again first, so that the host that came back (2) holds
    # some: the cut must close them (shutdown-sessions) and the players reopen them elsewhere.
    await load.reopen_sockets()
    await asyncio.sleep(2.0)
    phase = load.phase(f"8. {name} vanishes (its link cut: no RST, no FIN)")
    before = established(cluster, name)
    downs = len(marked(name, "DOWN").findall(balancer_log(cluster)))
    at = time.monotonic()
    await in_thread(cluster.hosts[name].cut)
    out_at = await wait_for_text(lambda: balancer_log(cluster), marked(name, "DOWN"), downs, 30)
    await settle(load, phase)
    return Outcome(
        phase,
        phase.recovery_after(at),
        "the cut",
        {
            "connections it had": before,
            "websockets reopened through the other host": phase.reconnects,
            "balancer took it out after (s)": since(out_at, at),
            "moves sent from this long after the cut all prompt (s)": round(
                phase.resumed_after(at), 1
            ),
            "bound (s)": BALANCER_OUT_S + BALANCER_MARGIN_S,
        },
    )


async def web_host_link_back(cluster: Cluster, load: Load, name: str = "web1") -> Outcome:
    phase = load.phase(f"9. {name}'s link comes back")
    log = balancer_log(cluster)
    ups = len(marked(name, "UP").findall(log))
    at = time.monotonic()
    await in_thread(cluster.hosts[name].mend)
    in_at = await wait_for_text(lambda: balancer_log(cluster), marked(name, "UP"), ups, 30)
    served_before = len(served_by(name).findall(balancer_log(cluster)))
    taken, statuses = await fresh_connections(cluster, name)
    await settle(load, phase)
    served = len(served_by(name).findall(balancer_log(cluster))) - served_before
    return Outcome(
        phase,
        phase.recovery_after(at),
        "the link was back",
        {
            "balancer took it back after (s)": since(in_at, at),
            f"connections on {name} after 10 new ones": taken,
            "new connections' answers": statuses,
            f"requests {name} answered since": served,
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


async def postgres_crashes(cluster: Cluster, load: Load, down_seconds: float = 2.0) -> Outcome:
    """kill -9 of the postmaster (its backends exit by themselves), then PostgreSQL started
    again: it replays its WAL (crash recovery) before it takes connections; every move it
    acknowledged must be there (fsync is on)."""
    phase = load.phase("10. PostgreSQL crashes (SIGKILL to the postmaster) and recovers")
    log = cluster.hosts["db"].log("postgres")
    offset = len(hosts.tail(log, 10**8))
    at = time.monotonic()
    killed = await in_thread(cluster.kill_postmaster)
    await asyncio.sleep(down_seconds)
    await in_thread(cluster.start_database)
    await in_thread(cluster.wait_for_database)
    back = time.monotonic()
    await settle(load, phase)
    after = hosts.tail(log, 10**8)[offset:]
    return Outcome(
        phase,
        phase.recovery_after(back),
        "PostgreSQL was back",
        {
            "down (s)": round(back - at, 1),
            **killed,
            "crash recovery": "automatic recovery in progress" in after,
            "redo done": "redo done" in after,
        },
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


# -- 7: the worker host holding the job vanishes (its link cut) ---------------------------------

#: Phase 7 asks for one day more than the deployment prepares (DAILY_PREPARE_DAYS=2), so that
#: the days job has work when its holder vanishes.
SILENT_DAYS = EXPECTED_DAYS + 1
#: What the takeover is held to: PostgreSQL ends a vanished holder's session after the
#: keepalives (locks.DEAD_HOST_S), the other worker tries the lock every poll; and a margin.
TAKEOVER_MARGIN_S = 3.0
DOING_DAYS = re.compile(r"doing job days")
LOCK_LOST = re.compile(r"the lock of job days was lost")


def worker_log(cluster: Cluster, name: str) -> str:
    return hosts.tail(cluster.hosts[name].log("worker"), 10**8)


async def worker_vanishes_holding_the_lock(cluster: Cluster, load: Load) -> Outcome:
    """worker1 holds the days job, preparing a day more; worker2 stands by; worker1's link is
    cut, so PostgreSQL hears nothing (no RST, no FIN) and ends its lock session only when the
    keepalives give up. worker2 must take the job within that and finish it, each (day, game)
    prepared once. worker1 is then killed while still cut (the host never comes back)."""
    from games.background.locks import DEAD_HOST_S

    phase = load.phase("7. the worker host holding the job vanishes (link cut: no RST, no FIN)")
    # worker2 has held every job since phase 5: kill it (its sessions reset, the locks free
    # at once), so that worker1 takes the jobs and worker2 comes back as the one standing by.
    await in_thread(cluster.hosts["worker2"].kill)
    cluster.extra_env.update(
        DAILY_PREPARE_DAYS=str(SILENT_DAYS - 1),
        DAILY_SOLVER_SECONDS="3",
        DAILY_SOLVER_POSITIONS="300000",
    )
    bound = DEAD_HOST_S + cluster.worker_poll + TAKEOVER_MARGIN_S
    facts: dict[str, Any] = {}
    try:
        held = len(DOING_DAYS.findall(worker_log(cluster, "worker1")))
        await in_thread(cluster.start_worker, "worker1")
        read1 = lambda: worker_log(cluster, "worker1")  # noqa: E731
        if await wait_for_text(read1, DOING_DAYS, held, 60) is None:
            phase.notes.append("worker1 never took the days job")
            return Outcome(phase, 0.0, "(nothing cut)", facts)
        standing = len(DOING_DAYS.findall(worker_log(cluster, "worker2")))
        await in_thread(cluster.start_worker, "worker2")
        before = len(await in_thread(challenges, cluster))
        deadline = time.monotonic() + 120
        rows = before
        while rows == before and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            rows = len(await in_thread(challenges, cluster))
        # Just after a store: worker1 is solving the next one, or (an easy deal is proven in
        # milliseconds) storing it, in a transaction that PostgreSQL must end by itself.
        lost = len(LOCK_LOST.findall(worker_log(cluster, "worker1")))
        cut_at = time.monotonic()
        await in_thread(cluster.hosts["worker1"].cut)
        read2 = lambda: worker_log(cluster, "worker2")  # noqa: E731
        took_at = await wait_for_text(read2, DOING_DAYS, standing, bound + 30)
        # worker1, cut off, finds its check of the lock unanswered and stops the job itself.
        stopped_at = await wait_for_text(read1, LOCK_LOST, lost, bound + 30)
        expected = SILENT_DAYS * GAMES
        finished_at = None
        while time.monotonic() < cut_at + 240:
            if len(await in_thread(challenges, cluster)) >= expected:
                finished_at = time.monotonic()
                break
            await asyncio.sleep(0.5)
        await asyncio.sleep(2)  # anything prepared twice would show by now
        rows_now = await in_thread(challenges, cluster)
        # The host never comes back: its processes die while it is still cut off (their
        # resets go nowhere), then the link is mended for the phases after.
        await in_thread(cluster.hosts["worker1"].kill)
        await in_thread(cluster.hosts["worker1"].mend)
        logs = {name: worker_log(cluster, name) for name in ("worker1", "worker2")}
        prepared = Counter(m.groups() for text in logs.values() for m in PREPARED.finditer(text))
        facts.update(
            {
                "challenges when cut": rows,
                "challenges now": len(rows_now),
                "distinct (day, game)": len(set(rows_now)),
                "expected": expected,
                "prepared more than once": sum(1 for n in prepared.values() if n > 1),
                "takeover (s)": since(took_at, cut_at),
                "bound (s)": bound,
                "slow path (s, no sooner)": DEAD_HOST_S - 2 * cluster.worker_poll,
                "takeover to done (s)": since(finished_at, cut_at),
                "worker1 stopped the job itself after (s)": since(stopped_at, cut_at),
            }
        )
    finally:
        for key in ("DAILY_PREPARE_DAYS", "DAILY_SOLVER_SECONDS", "DAILY_SOLVER_POSITIONS"):
            cluster.extra_env.pop(key, None)
    await load.verify(phase)
    return Outcome(phase, phase.recovery_after(cut_at), "the cut", facts)


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


# -- 11: a move's answer lost on one host, the move sent again through the other ----------------


def send_unread(
    cluster: Cluster, name: str, path: str, payload: bytes, key: str, token: str
) -> Any:
    """A move sent straight to a web host over a socket of its own, the answer left unread."""
    request = (
        f"POST {path} HTTP/1.1\r\nHost: {ADDRESSES[name]}:{hosts.WEB_PORT}\r\n"
        f"Authorization: Token {token}\r\nAccept: application/json\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
        f"Idempotency-Key: {key}\r\nConnection: close\r\n\r\n"
    ).encode()
    sock = socket.create_connection((ADDRESSES[name], hosts.WEB_PORT), timeout=30)
    sock.sendall(request + payload)
    return sock


def read_then_reset(sock: Any) -> tuple[int, Any]:
    """The answer that sat unread in the socket, then the connection reset (SO_LINGER 0)."""
    answer = http.client.HTTPResponse(sock)
    try:
        answer.begin()
        status, data = answer.status, json.loads(answer.read() or b"null")
    finally:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
    return status, data


async def answer_lost_then_retried_elsewhere(
    cluster: Cluster, load: Load, token: str, variant: str = "gold-mine"
) -> Outcome:
    """A move sent to web1 commits there, and its answer is never read (a client whose
    connection broke); the client sends it again to web2 with the same Idempotency-Key. web2
    must answer with the stored answer, the move applied once. Only then is web1's unread
    answer read, to compare the two."""
    phase = load.phase("11. a move's answer lost on web1, sent again to web2 with its key")
    facts: dict[str, Any] = {}
    async with httpx.AsyncClient(
        base_url=cluster.web_url("web2"),
        headers={"Authorization": f"Token {token}", "Accept": "application/json"},
        trust_env=False,
        timeout=30,
    ) as web2:
        created = await web2.post(
            "/api/games/", json={"variant": variant}, headers={"Idempotency-Key": str(uuid.uuid4())}
        )
        if created.status_code != 201:
            phase.notes.append(f"new game: {created.status_code} {created.text[:200]}")
            return Outcome(phase, 0.0, "(no move)", facts)
        game = created.json()
        path = f"/api/games/{game['id']}/moves/"
        body = {"move": game["legal_moves"][0], "expected_move_number": game["move_number"]}
        # The same bytes both times, as a client sending a request again does (the key's
        # fingerprint is of the method, path and body as sent).
        payload = json.dumps(body).encode()
        key = str(uuid.uuid4())
        sock = await in_thread(send_unread, cluster, "web1", path, payload, key, token)
        applied = False
        deadline = time.monotonic() + 20
        while not applied and time.monotonic() < deadline:
            state = await web2.get(f"/api/games/{game['id']}/")
            applied = state.status_code == 200 and state.json()["move_number"] > game["move_number"]
            if not applied:
                await asyncio.sleep(0.1)
        retried = await web2.post(
            path,
            content=payload,
            headers={"Idempotency-Key": key, "Content-Type": "application/json"},
        )
        first_status, first = await in_thread(read_then_reset, sock)
        history = (await web2.get(f"/api/games/{game['id']}/moves/")).json()
        number = game["move_number"] + 1
        facts.update(
            {
                "web1 committed it (answer unread)": applied,
                "web1's answer": first_status,
                "web2's answer to the retry": retried.status_code,
                "same body": retried.status_code == 201 and retried.json() == first,
                "move number before/after": (
                    f"{game['move_number']}/{retried.json().get('move_number')}"
                    if retried.status_code == 201
                    else None
                ),
                "history entries": len(history),
                "entries at its number": sum(1 for e in history if e["number"] == number),
                "history's move is the one sent": any(
                    e["number"] == number and e["move"] == body["move"] for e in history
                ),
            }
        )
    # The players go on through the balancer meanwhile: a few seconds of their moves, so the
    # phase's checks (nothing lost, none twice, some acknowledged) have moves to look at; the
    # retry itself takes well under a second.
    await settle(load, phase, 5.0)
    await load.verify(phase)
    return Outcome(phase, 0.0, "(no fault)", facts)


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
    the dailies get prepared), 7, 1, 2, 8, 9, 3, 4, 10, 11, 6, and a window of steady play for
    the costs: each host that vanishes or dies is back before the next fault."""
    tokens = await in_thread(create_players, cluster, players + 3)
    movers, retrier, tokens = tokens[:2], tokens[2], tokens[3:]
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
        done(await worker_vanishes_holding_the_lock(cluster, load))
        done(await web_host_dies(cluster, load))
        done(await web_host_returns(cluster, load))
        done(await web_host_vanishes(cluster, load))
        done(await web_host_link_back(cluster, load))
        done(await redis_restarts(cluster, load))
        done(await postgres_restarts(cluster, load))
        done(await postgres_crashes(cluster, load))
        done(await answer_lost_then_retried_elsewhere(cluster, load, retrier))
        done(await watchers_across_hosts(cluster, load, movers, watchers))
        if capacity_seconds > 0:
            done(await cost_per_move(cluster, load, capacity_seconds))
    finally:
        await load.stop()
    verified = await in_thread(lambda: cluster.manage("verify_games", check=False))
    last = verified.strip().splitlines()[-1] if verified.strip() else "(no output)"
    for outcome in outcomes:
        if outcome.phase.name.startswith(("4.", "10.")):
            outcome.facts["verify_games (after the load)"] = last
    report(f"manage.py verify_games, after the players stopped: {last}")
    return outcomes
