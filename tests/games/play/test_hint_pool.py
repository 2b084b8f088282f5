"""Hints searched in the server process's hint processes (games.play.hint_pool), real child
processes: what they are sent, and the rule-of-thumb hint when they cannot answer."""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import random
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest

from games.play import hint_pool
from games.play import hint_service as play_hints
from games.rules import get_variant
from games.solver import lookahead
from games.solver.lookahead import lookahead_hint
from tests.games.helpers import client_for, detail, make_user, new_game
from tests.games.play.test_hints import hint, put_state
from tests.rules.helpers import disguised
from tests.solver.helpers import played

pytestmark = pytest.mark.django_db


#: The hints' cap in these tests: their positions as by default (``POSITIONS_PER_SECOND`` scaled
#: down to match), their seconds far off. The hint process runs at the lowest priority: on a
#: loaded machine it gets little CPU, and a cap of seconds would cut its search short.
CAP_S = 600.0


@pytest.fixture
def hint_processes(settings: Any, monkeypatch: Any) -> Iterator[None]:
    """One hint process, started by the test's first hint, on a cap of positions (``CAP_S``)."""
    settings.HINT_PROCESSES = 1
    settings.HINT_SECONDS = CAP_S
    per_second = round(lookahead.POSITIONS_PER_SECOND / CAP_S)
    monkeypatch.setattr(lookahead, "POSITIONS_PER_SECOND", per_second)
    hint_pool.stop()
    before.clear()
    before.update(child.pid for child in multiprocessing.active_children())
    yield
    kill_hint_processes(started_children())
    hint_pool.stop()


#: This process's children before the test: what ``hint_children`` leaves out.
before: set[int | None] = set()


def kill_hint_processes(pids: list[int] | None = None) -> list[int]:
    """SIGKILL the test's hint processes (as the out-of-memory killer would), or ``pids``, and
    wait until they are gone; their ids."""
    pids = hint_children() if pids is None else pids
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):  # already ended and reaped
            os.kill(pid, signal.SIGKILL)
    for pid in pids:
        while alive(pid):
            time.sleep(0.01)
    return pids


def hint_children() -> list[int]:
    """The hint processes the test started: this process's children started since the test
    began (the public ``active_children``: the executor names its processes nowhere public),
    at the hint processes' priority (one just spawned may not have set it yet: the test's
    teardown kills every child it started), not killed and not yet reaped."""
    return [pid for pid in started_children() if nice_of(pid) == hint_pool.NICE]


def started_children() -> list[int]:
    """Every child the test started, alive."""
    return sorted(
        child.pid
        for child in multiprocessing.active_children()
        if child.pid not in before and alive(child.pid)
    )


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a killed child not yet reaped is a zombie: not running)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):  # gone before or while it was read
        return False


def autogroups() -> bool:
    """Whether this kernel shares the CPU between sessions' groups (Linux's autogroups)."""
    try:
        with open("/proc/sys/kernel/sched_autogroup_enabled") as enabled:
            return enabled.read().strip() == "1" and os.path.exists("/proc/self/autogroup")
    except OSError:
        return False


def nice_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[16])


def test_a_hint_is_searched_in_a_hint_process_at_the_lowest_priority(hint_processes: None) -> None:
    user = make_user()
    client = client_for(user)
    game = new_game(client, "grandfathers-clock", seed=7)
    variant = get_variant("grandfathers-clock")

    worked_out = play_hints.work_out_hint(user=user, game_id=game["id"])

    (child,) = hint_children()
    assert worked_out.pid == child != os.getpid()
    assert nice_of(child) == 19  # the lowest: a request always gets the core first
    # In a session of its own, whose CPU group (Linux's autogroup, where there is one) has the
    # lowest weight too: the child's CPU is not charged to the server's group.
    assert os.getsid(child) == child != os.getsid(0)
    if autogroups():
        with open(f"/proc/{child}/autogroup") as group:
            assert group.read().split()[-2:] == ["nice", "19"]
    # The hint this thread would have found, within the same positions.
    positions = round(CAP_S * lookahead.POSITIONS_PER_SECOND)
    here = lookahead_hint(variant, variant.deal(7), seconds=CAP_S, positions=positions)
    assert worked_out.hint == here and here.source == "solver"

    answer = hint(client, game["id"]).json()
    assert answer["source"] == "solver"
    assert answer["move"] == here.move.to_json()
    assert answer["hints"] == 1


def test_a_hint_process_is_sent_the_players_view_and_hidden_deals_get_one_hint(
    hint_processes: None, monkeypatch: Any
) -> None:
    """Two boards that look alike, hidden cards dealt differently: the hint process gets the
    same view for both (face-down cards None, no seed), and gives the same hint."""
    slug = "blondes-and-brunettes"
    variant = get_variant(slug)
    state, _ = played(variant, 2, 3)
    other = disguised(state, random.Random(1))
    assert other != state and variant.player_view(other) == variant.player_view(state)
    sent: list[tuple[Any, ...]] = []
    real_submit = hint_pool.HintProcesses.submit

    def record(self: hint_pool.HintProcesses, *args: Any) -> Any:
        sent.append(args)
        return real_submit(self, *args)

    monkeypatch.setattr(hint_pool.HintProcesses, "submit", record)
    answers = []
    for board in (state, other):
        client = client_for()
        game = new_game(client, slug)
        put_state(game["id"], variant, board)
        answers.append(hint(client, game["id"]).json())

    board_view = variant.player_view(state._replace(move_number=0))  # as put_state sets it
    assert [args[:2] for args in sent] == [(slug, board_view)] * 2
    view = sent[0][1]
    assert view["seed"] is None
    assert any(code is None for pile in view["piles"].values() for code in pile["cards"])
    assert answers[0]["source"] == "solver"
    assert answers[0] == answers[1]


def test_a_hint_past_the_pools_searches_in_flight_is_the_rule_of_thumb_one_at_once(
    hint_processes: None, caplog: Any
) -> None:
    """The one hint process's two slots taken by long searches (a search running, one
    waiting its turn): a third hint is not queued; it is answered with the rule-of-thumb
    hint, counted, and the searches in flight are left alone."""
    variant = get_variant("gold-mine")
    view = variant.player_view(variant.deal(1))
    pool = hint_pool.processes()
    taken = [
        pool.submit("gold-mine", view, frozenset(), 10**9, time.monotonic() + 600) for _ in "ab"
    ]
    assert all(taken)

    client = client_for()
    game = new_game(client, "gold-mine", seed=11)
    caplog.set_level(logging.INFO, logger="patience.hints")
    response = hint(client, game["id"])

    assert response.status_code == 200
    answer = response.json()
    assert answer["source"] == "heuristic"
    assert answer["move"] in detail(client, game["id"])["legal_moves"]
    assert answer["hints"] == 1
    assert not any(future.done() for future in taken)
    assert [r.getMessage() for r in caplog.records] == [
        "every hint process is busy: a rule-of-thumb hint given"
    ]


def test_a_killed_hint_process_gives_the_rule_of_thumb_hint_then_a_new_one_searches(
    hint_processes: None, caplog: Any
) -> None:
    client = client_for()
    game = new_game(client, "grandfathers-clock", seed=7)
    assert hint(client, game["id"]).json()["source"] == "solver"
    (killed,) = kill_hint_processes()

    fallback = hint(client, game["id"])
    assert fallback.status_code == 200
    assert fallback.json()["source"] == "heuristic"
    assert fallback.json()["hints"] == 2
    assert [r.getMessage() for r in caplog.records] == [
        "a hint process died: a rule-of-thumb hint given, new ones started"
    ]

    again = hint(client, game["id"]).json()
    assert again["source"] == "solver"
    assert again["hints"] == 3
    (child,) = hint_children()
    assert child != killed and alive(child)
