"""Hosts of a Patience deployment as Linux network namespaces on this machine.

Every host is a network namespace ``pcl-<name>`` with one interface, ``eth0``, the end of a
veth pair whose other end is on the bridge ``pcl-br`` of the machine's own namespace; the
bridge has ``10.231.7.1/24`` (this process, the client) and each host an address of that
subnet. No namespace has a default route and the machine does not forward, so the hosts reach
one another, the client reaches them, and nothing reaches anywhere else.

``Cluster`` starts the deployment's parts, each on a host of its own:

- ``db``: PostgreSQL 15 from Debian's binaries, ``initdb`` on a throw-away directory, run as
  the ``postgres`` user (``initdb`` refuses root), listening on the host's address;
- ``redis``: ``redis-server --save "" --appendonly no``;
- ``web1``, ``web2``: ``python -m deploy.serve`` (DEBUG off, production secrets, behind the
  balancer: ``--proxy-headers``);
- ``worker1``, ``worker2``: ``manage.py worker``;
- ``lb``: HAProxy running ``deploy/haproxy.cfg`` unchanged (its addresses from the
  environment).

Killing a host kills every process in its namespace (``ip netns pids``) with SIGKILL; the
namespace and its address stay, as a machine whose processes died, so its peers get
connection refusals and resets rather than silence. Cutting a host (``Host.cut``) sets the
bridge's end of its veth pair down instead: its processes run on, and every packet to or from
it is dropped at the link, so its peers get silence (no RST, no FIN) until ``Host.mend``. (This
kernel has no ``netem`` qdisc, and the machine no iptables or nftables: the link is the tool.)

``remove_leftovers()`` removes what a killed earlier run left (namespaces, bridge, processes,
data directories); ``Cluster.close()`` removes everything it made, whatever happened.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "artifacts" / "cluster-logs"
PREFIX = "pcl-"
BRIDGE = "pcl-br"
SUBNET = "10.231.7"
CLIENT_ADDRESS = f"{SUBNET}.1"
ADDRESSES = {
    "db": f"{SUBNET}.2",
    "redis": f"{SUBNET}.3",
    "lb": f"{SUBNET}.10",
    "web1": f"{SUBNET}.11",
    "web2": f"{SUBNET}.12",
    "worker1": f"{SUBNET}.21",
    "worker2": f"{SUBNET}.22",
}
SITE_NAME = "patience.cluster"
WEB_PORT = 8000
LB_PORT = 80
PG_PORT = 5432
REDIS_PORT = 6379
DB_NAME = "patience"
PG_BIN = Path("/usr/lib/postgresql/15/bin")
HAPROXY_CFG = ROOT / "deploy" / "haproxy.cfg"
LOCK_FILE = Path(tempfile.gettempdir()) / "patience-cluster.lock"
DATA_PREFIX = "patience-cluster-"
START_TIMEOUT_S = 90.0


def missing_requirements() -> list[str]:
    """What this machine lacks to build the cluster (empty when nothing)."""
    missing = []
    if sys.platform != "linux":
        missing.append("Linux")
    if os.geteuid() != 0:
        missing.append("root (network namespaces)")
    for tool in ("ip", "haproxy", "redis-server", "runuser"):
        if shutil.which(tool) is None:
            missing.append(tool)
    for binary in ("initdb", "postgres", "pg_ctl"):
        if not (PG_BIN / binary).exists():
            missing.append(str(PG_BIN / binary))
    return missing


def run(*command: str, check: bool = True, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, check=check, timeout=timeout)


def namespace(name: str) -> str:
    return f"{PREFIX}{name}"


def namespace_pids(ns: str) -> list[int]:
    done = run("ip", "netns", "pids", ns, check=False)
    return [int(pid) for pid in done.stdout.split()]


def kill_namespace(ns: str) -> int:
    """SIGKILL every process of a namespace, until none is left; how many were killed."""
    killed = 0
    for _ in range(50):
        pids = namespace_pids(ns)
        if not pids:
            return killed
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
                killed += 1
        time.sleep(0.1)
    return killed


def remove_leftovers() -> None:
    """Namespaces, links and data directories of this module's that an earlier run left."""
    listed = run("ip", "netns", "list", check=False).stdout.split("\n")
    for line in listed:
        ns = line.split(" ")[0].strip()
        if ns.startswith(PREFIX):
            kill_namespace(ns)
            run("ip", "netns", "delete", ns, check=False)
    links = run("ip", "-o", "link", "show", check=False).stdout.splitlines()
    for line in links:
        name = line.split(":")[1].strip().split("@")[0] if ":" in line else ""
        if name.startswith(PREFIX):
            run("ip", "link", "delete", name, check=False)
    for path in Path(tempfile.gettempdir()).glob(f"{DATA_PREFIX}*"):
        shutil.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def exclusive() -> Iterator[None]:
    """One cluster on this machine at a time (two runs would share the names)."""
    with LOCK_FILE.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@dataclass
class Host:
    name: str
    address: str
    processes: list[subprocess.Popen] = field(default_factory=list)

    @property
    def ns(self) -> str:
        return namespace(self.name)

    @property
    def veth(self) -> str:
        """The end of the host's veth pair on the bridge, in the machine's own namespace."""
        return f"{PREFIX}v-{self.name}"[:15]

    def create(self) -> None:
        veth, peer = self.veth, f"{PREFIX}p-{self.name}"[:15]
        run("ip", "netns", "add", self.ns)
        run("ip", "link", "add", veth, "type", "veth", "peer", "name", peer)
        run("ip", "link", "set", peer, "netns", self.ns)
        run("ip", "netns", "exec", self.ns, "ip", "link", "set", peer, "name", "eth0")
        run("ip", "link", "set", veth, "master", BRIDGE, "up")
        run(
            "ip", "netns", "exec", self.ns, "ip", "addr", "add", f"{self.address}/24", "dev", "eth0"
        )
        run("ip", "netns", "exec", self.ns, "ip", "link", "set", "eth0", "up")
        run("ip", "netns", "exec", self.ns, "ip", "link", "set", "lo", "up")

    def start(
        self, label: str, command: list[str], env: dict[str, str] | None = None, user: str = ""
    ) -> subprocess.Popen:
        """``command`` in this host's namespace (as ``user`` if given), output to a log."""
        prefix = ["ip", "netns", "exec", self.ns]
        if user:
            prefix += ["runuser", "-u", user, "--"]
        LOGS.mkdir(parents=True, exist_ok=True)
        with (LOGS / f"{self.name}-{label}.log").open("ab") as log:
            process = subprocess.Popen(
                [*prefix, *command],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        self.processes.append(process)
        return process

    def kill(self) -> int:
        """Every process of the host, SIGKILL (a machine losing power); how many."""
        killed = kill_namespace(self.ns)
        for process in self.processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)
        self.processes = [p for p in self.processes if p.poll() is None]
        return killed

    def cut(self) -> None:
        """The host vanishes from the network, its processes running on: every packet to or
        from it is dropped (the bridge's end of its link down), so nothing it had open is
        closed or reset; its own eth0 merely loses its carrier."""
        run("ip", "link", "set", self.veth, "down")

    def mend(self) -> None:
        """The host's link back: what it had open goes on where the peers left it."""
        run("ip", "link", "set", self.veth, "up")

    def pids(self) -> list[int]:
        return namespace_pids(self.ns)

    def log(self, label: str) -> Path:
        return LOGS / f"{self.name}-{label}.log"


def tail(path: Path, characters: int = 3000) -> str:
    try:
        return path.read_text(errors="replace")[-characters:]
    except OSError:
        return "(no log)"


def strong_secret(name: str) -> str:
    """50 characters or more, of more than five different ones (DEBUG off's rule)."""
    return f"{name}-cluster-" + "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"


@dataclass
class Cluster:
    """The deployment: build with ``start()``, always ``close()``."""

    web_workers: int = 1
    worker_poll: float = 1.0
    extra_env: dict[str, str] = field(default_factory=dict)
    hosts: dict[str, Host] = field(default_factory=dict)
    data_dir: Path | None = None

    # -- addresses -------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """The balancer, as the players reach it."""
        return f"http://{ADDRESSES['lb']}:{LB_PORT}"

    def web_url(self, name: str) -> str:
        return f"http://{ADDRESSES[name]}:{WEB_PORT}"

    @property
    def database_url(self) -> str:
        return f"postgres://postgres@{ADDRESSES['db']}:{PG_PORT}/{DB_NAME}"

    @property
    def redis_url(self) -> str:
        return f"redis://{ADDRESSES['redis']}:{REDIS_PORT}/0"

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of every project process of the deployment."""
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("DATABASE_", "REDIS_", "PATIENCE_", "DJANGO_"))
        }
        allowed = [SITE_NAME, ADDRESSES["lb"], ADDRESSES["web1"], ADDRESSES["web2"]]
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            DATABASE_URL=self.database_url,
            REDIS_URL=self.redis_url,
            DEBUG="0",
            HTTPS="0",  # plain HTTP inside the test network
            SECRET_KEY=strong_secret("secret"),
            DAILY_SECRET=strong_secret("daily"),
            ALLOWED_HOSTS=",".join(allowed),
            PYTHONUNBUFFERED="1",
            LOG_LEVEL="WARNING",
            # Every player comes from the client's one address.
            WEBSOCKET_CONNECTIONS_PER_ADDRESS="0",
            GAMES_CREATED_PER_MINUTE="0",
            GAMES_CREATED_PER_ADDRESS_PER_MINUTE="0",
            # The worker's solver on a small budget (2 shared cores): the days' challenges
            # take seconds, the pools stay small.
            DAILY_SOLVER_SECONDS="1",
            DAILY_SOLVER_POSITIONS="50000",
            DAILY_SOLVER_CANDIDATES="2",
            DAILY_PREPARE_DAYS="2",
            WINNABLE_POOL_SIZE="1",
            WINNABLE_POOL_SECONDS="1",
            WINNABLE_POOL_POSITIONS="20000",
        )
        env.update(self.extra_env)
        env.update(extra)
        return env

    # -- building --------------------------------------------------------------------------

    def start(self, *, workers: tuple[str, ...] = ()) -> None:
        """Network, PostgreSQL, Redis, schema, web hosts, balancer, and ``workers``."""
        remove_leftovers()
        shutil.rmtree(LOGS, ignore_errors=True)  # the last run's, kept until now to be read
        run("ip", "link", "add", BRIDGE, "type", "bridge")
        run("ip", "addr", "add", f"{CLIENT_ADDRESS}/24", "dev", BRIDGE)
        run("ip", "link", "set", BRIDGE, "up")
        for name, address in ADDRESSES.items():
            host = Host(name, address)
            self.hosts[name] = host
            host.create()
        self.data_dir = Path(tempfile.mkdtemp(prefix=DATA_PREFIX))
        self.init_database()
        self.start_database()
        self.start_redis()
        self.wait_for_database()
        self.wait_for_redis()
        self.manage("migrate", "--no-input")
        for name in ("web1", "web2"):
            self.start_web(name)
        self.start_balancer()
        for name in ("web1", "web2"):
            self.wait_for_health(self.web_url(name), name)
        self.wait_for_health(self.base_url, "lb")
        for name in workers:
            self.start_worker(name)

    def init_database(self) -> None:
        assert self.data_dir is not None
        os.chmod(self.data_dir, 0o755)
        pgdata = self.data_dir / "pgdata"
        pgdata.mkdir()
        shutil.chown(pgdata, "postgres", "postgres")
        done = run(
            "runuser", "-u", "postgres", "--", str(PG_BIN / "initdb"), "-D", str(pgdata),
            "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync",
            check=False, timeout=120,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stdout}{done.stderr}")
        with (pgdata / "pg_hba.conf").open("a") as hba:
            hba.write(f"host all all {SUBNET}.0/24 trust\n")

    @property
    def pgdata(self) -> Path:
        assert self.data_dir is not None
        return self.data_dir / "pgdata"

    def start_database(self) -> None:
        self.hosts["db"].start(
            "postgres",
            [
                str(PG_BIN / "postgres"), "-D", str(self.pgdata),
                "-c", f"listen_addresses={ADDRESSES['db']}",
                "-c", f"port={PG_PORT}",
                "-c", f"unix_socket_directories={self.pgdata}",
                "-c", "max_connections=200",
                "-c", "shared_preload_libraries=pg_stat_statements",
                "-c", "fsync=on",
            ],
            user="postgres",
        )  # fmt: skip

    def stop_database_fast(self) -> None:
        """PostgreSQL's fast shutdown (SIGINT to the postmaster): sessions rolled back."""
        done = run(
            "runuser", "-u", "postgres", "--", str(PG_BIN / "pg_ctl"), "stop", "-D",
            str(self.pgdata), "-m", "fast", "-w", "-t", "30",
            check=False, timeout=40,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"pg_ctl stop failed: {done.stdout}{done.stderr}")
        self.hosts["db"].kill()  # nothing should be left; reap the runuser wrapper

    def kill_postmaster(self, grace: float = 10.0) -> dict[str, int]:
        """PostgreSQL crashes: SIGKILL to the postmaster alone, as the kernel's OOM killer
        would. Its backends notice the postmaster's death and exit by themselves; any left
        after ``grace`` seconds are killed too (a new postmaster refuses to start while one is
        attached to the old shared memory). How many processes: {"backends left": n, ...}."""
        postmaster = int((self.pgdata / "postmaster.pid").read_text().split()[0])
        os.kill(postmaster, signal.SIGKILL)
        db = self.hosts["db"]
        deadline = time.monotonic() + grace
        left = len(db.pids())
        while left and time.monotonic() < deadline:
            time.sleep(0.1)
            left = len(db.pids())
        return {"left after grace (killed)": db.kill()}

    def wait_for_database(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        admin = f"postgres://postgres@{ADDRESSES['db']}:{PG_PORT}/postgres"
        while True:
            try:
                with psycopg.connect(admin, autocommit=True, connect_timeout=2) as conn:
                    exists = conn.execute(
                        "SELECT 1 FROM pg_database WHERE datname = %s", [DB_NAME]
                    ).fetchone()
                    if not exists:
                        conn.execute(f"CREATE DATABASE {DB_NAME}")
                    return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"PostgreSQL did not start: {tail(self.hosts['db'].log('postgres'))}"
                    ) from None
                time.sleep(0.3)

    def connect(self) -> psycopg.Connection:
        return psycopg.connect(
            self.database_url.replace("postgres://", "postgresql://"),
            autocommit=True,
            connect_timeout=5,
        )

    def start_redis(self) -> None:
        assert self.data_dir is not None
        self.hosts["redis"].start(
            "redis",
            [
                "redis-server", "--bind", ADDRESSES["redis"], "--port", str(REDIS_PORT),
                "--save", "", "--appendonly", "no", "--protected-mode", "no",
                "--dir", str(self.data_dir), "--daemonize", "no",
            ],
        )  # fmt: skip

    def wait_for_redis(self) -> None:
        import redis

        deadline = time.monotonic() + START_TIMEOUT_S
        client = redis.Redis(host=ADDRESSES["redis"], port=REDIS_PORT, socket_timeout=2)
        while True:
            try:
                client.ping()
                client.close()
                return
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise RuntimeError("Redis did not start") from None
                time.sleep(0.2)

    def manage(self, *args: str, timeout: float = 300, check: bool = True) -> str:
        """``manage.py`` from the client's namespace against the deployment's database."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if check and done.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
        return done.stdout + done.stderr

    def start_web(self, name: str) -> None:
        self.hosts[name].start(
            "serve",
            [
                sys.executable, "-m", "deploy.serve", "--host", ADDRESSES[name],
                "--port", str(WEB_PORT), "--workers", str(self.web_workers),
                "--proxy-headers", "--forwarded-allow-ips", ADDRESSES["lb"],
                "--no-access-log", "--log-level", "warning",
            ],
            env=self.env(),
        )  # fmt: skip

    def start_worker(self, name: str) -> None:
        self.hosts[name].start(
            "worker",
            [sys.executable, "manage.py", "worker", "--poll", str(self.worker_poll)],
            env=self.env(LOG_LEVEL="INFO"),
        )

    def start_balancer(self) -> None:
        env = dict(
            os.environ,
            PATIENCE_LISTEN=f"{ADDRESSES['lb']}:{LB_PORT}",
            PATIENCE_HOST=SITE_NAME,
            PATIENCE_WEB1=f"{ADDRESSES['web1']}:{WEB_PORT}",
            PATIENCE_WEB2=f"{ADDRESSES['web2']}:{WEB_PORT}",
        )
        self.hosts["lb"].start("haproxy", ["haproxy", "-db", "-f", str(HAPROXY_CFG)], env=env)

    def wait_for_health(self, url: str, name: str, timeout: float = START_TIMEOUT_S) -> float:
        """Seconds until ``url``'s /api/health/ answers 200."""
        started = time.monotonic()
        deadline = started + timeout
        with httpx.Client(trust_env=False, timeout=2, headers={"Host": SITE_NAME}) as client:
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if client.get(f"{url}/api/health/").status_code == 200:
                        return time.monotonic() - started
                if time.monotonic() > deadline:
                    host = self.hosts.get(name)
                    logs = "".join(tail(p) for p in LOGS.glob(f"{name}-*.log")) if host else ""
                    raise RuntimeError(f"{url} did not answer within {timeout:.0f} s:\n{logs}")
                time.sleep(0.2)

    # -- faults ----------------------------------------------------------------------------

    def restart_redis(self, down_seconds: float = 1.0) -> None:
        self.hosts["redis"].kill()
        time.sleep(down_seconds)
        self.start_redis()
        self.wait_for_redis()

    # -- measuring -------------------------------------------------------------------------

    def host_cpu_seconds(self, name: str) -> float:
        """utime + stime of the host's processes that run now (and their waited children)."""
        total = 0
        for pid in self.hosts[name].pids():
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += sum(int(value) for value in fields[11:15])
        return total / os.sysconf("SC_CLK_TCK")

    # -- tearing down ----------------------------------------------------------------------

    def close(self) -> None:
        for host in self.hosts.values():
            with contextlib.suppress(Exception):
                host.kill()
        self.hosts.clear()
        remove_leftovers()
        if self.data_dir is not None:
            shutil.rmtree(self.data_dir, ignore_errors=True)
