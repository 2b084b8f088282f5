"""Waits for a state, not for a time: a test that sleeps a fixed time for something to happen
is slow on a quiet machine and fails on a busy one. These poll the state until a deadline and
fail naming what never came."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

POLL_S = 0.02


async def until(
    predicate: Callable[[], T | Awaitable[T]],
    what: str,
    timeout: float = 10.0,
    poll: float = POLL_S,
) -> T:
    """``predicate()``'s first true value (awaited, for a coroutine function), polled every
    ``poll`` seconds while the event loop runs on, until ``timeout`` seconds have passed; an
    AssertionError naming ``what`` if it never came."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(poll)
