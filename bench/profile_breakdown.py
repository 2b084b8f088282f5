"""Where a server process's time goes: py-spy samples of running processes, sorted into layers.

Used by ``players_bench.py --profile`` over a step's measured window; alone, on folded files
py-spy wrote before (``py-spy record --format raw``)::

    .venv/bin/python -m bench.profile_breakdown FILE [FILE ...] [--moves N] [--rate 200]

py-spy is not one of the project's packages (it is a profiler, never imported): install it
anywhere, e.g. ``python3 -m venv /tmp/pyspy && /tmp/pyspy/bin/pip install py-spy``, and pass
``--py-spy /tmp/pyspy/bin/py-spy`` (or have ``py-spy`` on PATH). It reads the processes from
outside (``--nonblocking``: they are never paused) and needs ptrace (root, or
``kernel.yama.ptrace_scope=0``).

With ``--gil`` (the default here) py-spy records only the thread holding the GIL, so a sample
is the interpreter at work: samples / rate is close to the process's CPU time in Python, and
what /proc counts beyond it is the kernel's (sockets) and C code run without the GIL.

Each sample goes to the layer of its innermost frame that names one (LAYERS, first match
wins; frames of the standard library that name none go to their caller): a sample in psycopg
under the ORM under a view is the driver's, a JSON encoder under DRF's renderer is JSON's.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

#: (layer, substrings of a frame's file path), innermost match first.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("PostgreSQL driver (psycopg, psycopg_pool)", ("/psycopg/", "/psycopg_pool/")),
    ("ORM and transactions (django.db)", ("/django/db/",)),
    ("live update publish (channels_redis, redis)", ("/channels_redis/", "/redis/")),
    ("JSON encode and decode", ("/json/",)),
    ("rules engine (games/rules)", ("/games/rules/",)),
    ("solver (games/solver)", ("/games/solver/",)),
    ("DRF: request, parsers, renderers, throttles", ("/rest_framework/",)),
    ("authentication and sessions", ("/django/contrib/auth/", "/django/contrib/sessions/")),
    (
        "Django request handling and middleware",
        ("/django/core/handlers/", "/django/middleware/", "/django/utils/deprecation.py"),
    ),
    ("Django, other (urls, settings, signals, templates...)", ("/django/",)),
    ("asgiref (sync_to_async, thread hand-offs)", ("/asgiref/",)),
    ("Channels (consumers, layers, routing)", ("/channels/",)),
    (
        "websocket protocol (uvicorn, websockets)",
        ("/uvicorn/protocols/websockets/", "/websockets/", "/wsproto/"),
    ),
    ("HTTP parsing and writing (uvicorn, httptools)", ("/uvicorn/protocols/http/", "/httptools/")),
    ("uvicorn, other (lifespan, server loop)", ("/uvicorn/",)),
    ("Patience's views, services, selectors", ("/games/", "/accounts/", "/config/", "/frontend/")),
    (
        "event loop and threads (asyncio, uvloop)",
        ("/asyncio/", "/uvloop/", "/selectors.py", "/concurrent/futures/", "/threading.py"),
    ),
)
OTHER = "other (the standard library's, unattributed)"
#: py-spy's raw frame: "function (path/to/file.py:line)" (the line may be missing).
FRAME = re.compile(r"\((?P<path>[^():]+)(?::\d+)?\)\s*$")


def layer_of(stack: str) -> str:
    """The layer of one folded stack ("outer;...;inner"), innermost frame that names one."""
    for frame in reversed(stack.split(";")):
        match = FRAME.search(frame)
        path = "/" + match.group("path").lstrip("/") if match else frame
        for layer, parts in LAYERS:
            if any(part in path for part in parts):
                return layer
    return OTHER


def read_folded(paths: Iterable[Path]) -> Counter[str]:
    """Samples per layer over py-spy's raw (folded) files: lines of "stack count"."""
    layers: Counter[str] = Counter()
    for path in paths:
        for line in path.read_text(errors="replace").splitlines():
            stack, _, count = line.rpartition(" ")
            if stack and count.isdigit():
                layers[layer_of(stack)] += int(count)
    return layers


def table(layers: Counter[str], rate: int, moves: int | None) -> str:
    total = sum(layers.values())
    if not total:
        return "  (no samples: was the process busy, and may py-spy read it?)"
    per = f"{'ms/move':>8}" if moves else ""
    lines = [f"  {'layer':<56} {'share':>6} {'seconds':>8} {per}"]
    for layer, count in layers.most_common():
        seconds = count / rate
        each = f" {1000 * seconds / moves:8.3f}" if moves else ""
        lines.append(f"  {layer:<56} {count / total:6.1%} {seconds:8.2f}{each}")
    each = f" {1000 * total / rate / moves:8.3f}" if moves else ""
    lines.append(f"  {'all sampled (the GIL held)':<56} {1:6.0%} {total / rate:8.2f}{each}")
    return "\n".join(lines)


def find_py_spy(given: str | None) -> str | None:
    return given if given and Path(given).exists() else shutil.which("py-spy")


async def record(
    py_spy: str, pids: Iterable[int], seconds: float, out: Path, rate: int
) -> list[Path]:
    """py-spy on each process for ``seconds``, at once; the folded files it wrote."""
    out.mkdir(parents=True, exist_ok=True)
    runs = []
    for pid in pids:
        path = out / f"{pid}.folded"
        command = [py_spy, "record", "--pid", str(pid), "--duration", str(max(1, round(seconds)))]
        command += ["--rate", str(rate), "--format", "raw", "--output", str(path)]
        command += ["--nonblocking", "--gil"]
        process = await asyncio.create_subprocess_exec(
            *command, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE
        )
        runs.append((path, process))
    written = []
    for path, process in runs:
        _, errors = await process.communicate()
        if process.returncode == 0 and path.exists():
            written.append(path)
        else:
            print(f"  py-spy on {path.stem}: {errors.decode(errors='replace').strip()[-300:]}")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--rate", type=int, default=200, help="the samples per second recorded")
    parser.add_argument("--moves", type=int, default=None, help="moves in the window: ms/move")
    args = parser.parse_args(argv)
    print(table(read_folded(args.files), args.rate, args.moves))
    return 0


if __name__ == "__main__":
    sys.exit(main())
