"""Clocks for tests that are about time but must not depend on the machine's speed."""

from __future__ import annotations

from typing import Any


class TickingClock:
    """Stands in for the ``time`` module where code reads a clock to keep to a time cap: each
    read moves it on by ``tick`` seconds, so how far the code got before it stopped depends on
    how often it looked at the clock, never on how busy the machine was."""

    def __init__(self, tick: float = 0.001) -> None:
        self.tick, self.now, self.reads = tick, 1000.0, 0

    def perf_counter(self) -> float:
        self.now += self.tick
        self.reads += 1
        return self.now

    monotonic = time = perf_counter


def tick_the_solver(monkeypatch: Any, tick: float = 0.001) -> TickingClock:
    """The solver's searches (``games.solver.search`` and the hints' look-ahead) read the
    returned clock instead of the real one."""
    from games.solver import lookahead as hints
    from games.solver import search

    clock = TickingClock(tick)
    for module in (search, hints):
        monkeypatch.setattr(module, "time", clock)
    return clock


def spy_on_hint_searches(monkeypatch: Any) -> list[Any]:
    """The budgets of the searches a hint asks ``games.solver.search.solve`` for, in order."""
    from games.solver import lookahead as hints

    budgets: list[Any] = []
    real_solve = hints.solve

    def solve(variant: Any, state: Any, budget: Any, *args: Any, **kwargs: Any) -> Any:
        budgets.append(budget)
        return real_solve(variant, state, budget, *args, **kwargs)

    monkeypatch.setattr(hints, "solve", solve)
    return budgets


class ManualClock:
    """Stands in for the ``time`` module: it reads ``now``, which moves only when told to."""

    def __init__(self, now: float = 1_900_000_000.0) -> None:
        self.now = now

    def time(self) -> float:
        return self.now

    monotonic = perf_counter = time

    def advance(self, seconds: float) -> None:
        self.now += seconds
