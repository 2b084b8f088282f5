"""Many clients at once on one game on SQLite, the database ``bin/run`` starts with.

SQLite has no row locks: before transactions took the write lock when they began, two moves
at once both read the game and the second to write failed with "database is locked" (a 500
whose debug page showed the hidden cards). This runs in a process of its own on a SQLite file,
so it runs under CI too, where the test database is PostgreSQL.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]

SCENARIO = r"""
import json, os, threading
import django
django.setup()
from django.core.management import call_command
from django.db import connection
call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient
from games.core.history import line_of_play
from games.models import Game
from games.rules import get_variant

THREADS, ROUNDS = 12, 4
user = get_user_model().objects.create_user("racer", password="x")

def client():
    c = APIClient()
    c.force_authenticate(user)
    return c

new = {"variant": "gold-mine", "seed": 5}
game_id = client().post("/api/games/", new, format="json").json()["id"]
statuses, acknowledged, lock = [], [], threading.Lock()

def player(index):
    c = client()
    try:
        for _ in range(ROUNDS):
            game = c.get(f"/api/games/{game_id}/").json()
            move = game["legal_moves"][index % len(game["legal_moves"])]
            try:
                response = c.post(f"/api/games/{game_id}/moves/",
                                  {"move": move, "expected_move_number": game["move_number"]},
                                  format="json")
            except Exception as error:  # the test client raises what would have been a 500
                with lock:
                    statuses.append(f"{type(error).__name__}: {error}")
                continue
            with lock:
                statuses.append(response.status_code)
                if response.status_code == 201:
                    acknowledged.append([response.json()["move_number"], move])
    finally:
        connection.close()

threads = [threading.Thread(target=player, args=(i,)) for i in range(THREADS)]
for t in threads: t.start()
for t in threads: t.join(120)
game = Game.objects.select_related("deal").get(pk=game_id)
history = [list(e) for e in game.moves.order_by("number").values_list("number", "payload")]
variant = get_variant("gold-mine")
replayed = line_of_play(variant, game.deal, [p for _, p in history])[-1]
print(json.dumps({
    "statuses": sorted(set(map(str, statuses))),
    "acknowledged": sorted(acknowledged),
    "history": history,
    "move_number": game.move_number,
    "snapshot_is_replay": variant.state_to_json(replayed) == game.state,
}))
"""


def test_concurrent_moves_on_sqlite_wait_their_turn_instead_of_failing(tmp_path):
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env |= {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    result = subprocess.run(
        [sys.executable, "-c", SCENARIO],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    outcome = json.loads(result.stdout.strip().splitlines()[-1])
    assert set(outcome["statuses"]) <= {"201", "409"}, outcome["statuses"]
    assert "201" in outcome["statuses"]
    # Every acknowledged move is in the history, each number once, and the snapshot is the replay.
    assert outcome["acknowledged"] == outcome["history"]
    numbers = [number for number, _ in outcome["history"]]
    assert numbers == list(range(1, outcome["move_number"] + 1))
    assert outcome["snapshot_is_replay"]
