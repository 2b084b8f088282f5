"""At most so many live websockets per signed-in account and per client address.

``WEBSOCKET_CONNECTIONS_PER_ACCOUNT`` and ``WEBSOCKET_CONNECTIONS_PER_ADDRESS`` (0: no cap)
bound the connections open at once, over every server process: a signed-in connection counts
for its account and its address, an anonymous one (a daily leaderboard's watcher) for its
address. An IPv6 address counts with the rest of its /64, which one household or machine is
given whole.

Each connection holds a slot in one counter per account and per address: a member of a Redis
sorted set, scored by when it expires, when ``REDIS_URL`` is set (every process sees the same
counts), otherwise in this process's memory (``bin/run`` serves from one process). A process
renews the slots of its live connections every ``WEBSOCKET_CONNECTION_TTL / 3`` seconds and
releases a connection's slots as it ends; the slots of a process that died (or of a release
that failed) expire after ``WEBSOCKET_CONNECTION_TTL`` seconds, so no count outlives its
connections for long. Expired members are dropped as a slot is taken, under the same Redis
script, so two processes cannot both take a counter's last slot.

Counting is protection, not correctness: if Redis cannot be reached, a connection is let in
(and the failure logged) rather than every websocket refused.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import threading
import time
import uuid
import weakref
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from redis.connection import parse_url as parse_redis_url

logger = logging.getLogger("patience.websockets")


@dataclass(frozen=True)
class Counter:
    """What a connection counts against: ``key`` (``account:7``, ``address:203.0.113.9``),
    at most ``limit`` connections at once, the setting that says so."""

    key: str
    limit: int
    setting: str


@dataclass
class Slots:
    """The slots one connection holds (none when nothing caps it)."""

    member: str
    keys: tuple[str, ...]
    released: bool = field(default=False)


def address_of(scope: dict[str, Any]) -> str | None:
    """The client's address as counted: IPv4 as is, IPv6 as its /64. Behind a proxy the
    server (uvicorn ``--proxy-headers``) has already put the client's own address here."""
    client = scope.get("client")
    host = client[0] if client else None
    if not host:
        return None
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return str(host)  # a unix socket path, a test's name: counted as given
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def counters_for(scope: dict[str, Any]) -> list[Counter]:
    """The counters a connection with this scope counts against (capped ones only)."""
    counters = []
    user = scope.get("user")
    per_account = settings.WEBSOCKET_CONNECTIONS_PER_ACCOUNT
    if user is not None and user.is_authenticated and per_account > 0:
        counters.append(
            Counter(f"account:{user.pk}", per_account, "WEBSOCKET_CONNECTIONS_PER_ACCOUNT")
        )
    address = address_of(scope)
    per_address = settings.WEBSOCKET_CONNECTIONS_PER_ADDRESS
    if address is not None and per_address > 0:
        counters.append(
            Counter(f"address:{address}", per_address, "WEBSOCKET_CONNECTIONS_PER_ADDRESS")
        )
    return counters


async def take(scope: dict[str, Any]) -> Slots | Counter:
    """A slot in each of the connection's counters, or the first counter that is full."""
    counters = counters_for(scope)
    slots = Slots(uuid.uuid4().hex, tuple(counter.key for counter in counters))
    if not counters:
        return slots
    registry = _registry()
    try:
        full = await registry.store.take(counters, slots.member, _ttl())
    except Exception:
        logger.exception("counting websocket connections failed; this one is let in")
        full = None
    if full is not None:
        return full
    registry.hold(slots)
    return slots


async def release(slots: Slots) -> None:
    """Give back a connection's slots (once; later calls do nothing)."""
    if slots.released or not slots.keys:
        return
    slots.released = True
    registry = _registry()
    registry.drop(slots)
    try:
        await registry.store.release(slots.keys, slots.member)
    except Exception:  # they expire by themselves
        logger.warning("releasing a websocket's connection slots failed", exc_info=True)


def _ttl() -> float:
    return float(settings.WEBSOCKET_CONNECTION_TTL)


# -- the counters' stores --------------------------------------------------------------------


class MemoryStore:
    """Counters of this process (every event loop of it): key -> member -> expiry."""

    def __init__(self) -> None:
        self.counters: dict[str, dict[str, float]] = {}
        self.lock = threading.Lock()

    async def take(self, counters: list[Counter], member: str, ttl: float) -> Counter | None:
        now = time.monotonic()
        with self.lock:
            for counter in counters:
                members = self.counters.get(counter.key, {})
                live = {m: until for m, until in members.items() if until > now}
                self.counters[counter.key] = live
                if len(live) >= counter.limit:
                    return counter
            for counter in counters:
                self.counters[counter.key][member] = now + ttl
        return None

    async def renew(self, held: list[tuple[str, str]], ttl: float) -> None:
        until = time.monotonic() + ttl
        with self.lock:
            for key, member in held:
                self.counters.setdefault(key, {})[member] = until

    async def release(self, keys: tuple[str, ...], member: str) -> None:
        with self.lock:
            for key in keys:
                members = self.counters.get(key)
                if members is not None:
                    members.pop(member, None)
                    if not members:
                        del self.counters[key]

    def count(self, key: str) -> int:
        now = time.monotonic()
        with self.lock:
            return sum(until > now for until in self.counters.get(key, {}).values())


# Redis's clock for every process, so processes on different machines agree on expiry.
_NOW = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local ttl = tonumber(ARGV[1])
"""

#: KEYS: the counters; ARGV: ttl, member, then each counter's limit. 0, or the (1-based)
#: number of the first full counter.
TAKE_SCRIPT = (
    _NOW
    + """
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZCARD', key) >= tonumber(ARGV[i + 2]) then return i end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + ttl, ARGV[2])
  redis.call('EXPIRE', key, math.ceil(ttl) + 1)
end
return 0
"""
)

#: KEYS[i] holds member ARGV[i + 1]; ARGV[1]: ttl.
RENEW_SCRIPT = (
    _NOW
    + """
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + ttl, ARGV[i + 1])
  redis.call('EXPIRE', key, math.ceil(ttl) + 1)
end
return 0
"""
)


class RedisStore:
    """Counters shared by every process, in Redis (one client per event loop)."""

    def __init__(self, url: str) -> None:
        import redis.asyncio

        self.client = redis.asyncio.Redis.from_url(url, socket_timeout=5)
        self.prefix = redis_prefix(url)
        self.take_script = self.client.register_script(TAKE_SCRIPT)
        self.renew_script = self.client.register_script(RENEW_SCRIPT)

    async def take(self, counters: list[Counter], member: str, ttl: float) -> Counter | None:
        keys = [self.prefix + counter.key for counter in counters]
        limits = [counter.limit for counter in counters]
        full = int(await self.take_script(keys=keys, args=[ttl, member, *limits]))
        return counters[full - 1] if full else None

    async def renew(self, held: list[tuple[str, str]], ttl: float) -> None:
        for start in range(0, len(held), 500):  # keeps each script short
            batch = held[start : start + 500]
            await self.renew_script(
                keys=[self.prefix + key for key, _ in batch],
                args=[ttl, *(member for _, member in batch)],
            )

    async def release(self, keys: tuple[str, ...], member: str) -> None:
        async with self.client.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zrem(self.prefix + key, member)
            await pipe.execute()


def redis_prefix(url: str) -> str:
    """Named after the database, as the channel layer's prefix is."""
    return f"patience-db{parse_redis_url(url).get('db', 0)}.ws-connections:"


memory_store = MemoryStore()


class Registry:
    """One event loop's live connections, whose slots it renews every TTL / 3 seconds."""

    def __init__(self, store: MemoryStore | RedisStore) -> None:
        self.store = store
        self.held: dict[str, Slots] = {}
        self.renewer: asyncio.Task[None] | None = None

    def hold(self, slots: Slots) -> None:
        self.held[slots.member] = slots
        if self.renewer is None or self.renewer.done():
            self.renewer = asyncio.get_running_loop().create_task(self.renew_while_held())

    def drop(self, slots: Slots) -> None:
        self.held.pop(slots.member, None)
        if not self.held and self.renewer is not None:
            self.renewer.cancel()  # nothing to renew: a new connection starts another
            self.renewer = None

    async def renew_while_held(self) -> None:
        while self.held:
            await asyncio.sleep(_ttl() / 3)
            held = [(key, slots.member) for slots in self.held.values() for key in slots.keys]
            if not held:
                continue
            try:
                await self.store.renew(held, _ttl())
            except Exception:
                logger.warning("renewing websocket connection slots failed", exc_info=True)


_registries: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[str | None, Registry]]
_registries = weakref.WeakKeyDictionary()


def _registry() -> Registry:
    """This event loop's registry, over Redis when ``REDIS_URL`` is set."""
    loop = asyncio.get_running_loop()
    url = settings.REDIS_URL
    found = _registries.get(loop)
    if found is None or found[0] != url:
        store = RedisStore(url) if url else memory_store
        found = _registries[loop] = (url, Registry(store))
    return found[1]
