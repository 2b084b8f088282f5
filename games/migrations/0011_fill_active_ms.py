"""Each game's time (Game.active_ms) computed from its history's ``received_at`` as
games.core.clock defines it: the histories recorded before it have no time away (0)."""

from django.db import migrations

BATCH = 500


def fill_active_ms(apps, schema_editor):
    from games.core import clock

    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    cap = clock.cap_ms()
    last = 0
    while True:
        games = list(
            Game.objects.filter(pk__gt=last, move_number__gt=0)
            .order_by("pk")
            .values_list("pk", "created_at")[:BATCH]
        )
        if not games:
            return
        entries = {pk: [] for pk, _ in games}
        rows = (
            Move.objects.filter(game_id__in=entries)
            .order_by("game_id", "number")
            .values_list("game_id", "payload", "received_at", "away_ms")
        )
        for game_id, payload, received_at, away in rows:
            entries[game_id].append((payload, received_at, away))
        for pk, created_at in games:
            Game.objects.filter(pk=pk).update(
                active_ms=clock.active_ms(created_at, entries[pk], cap)
            )
        last = games[-1][0]


class Migration(migrations.Migration):
    dependencies = [("games", "0010_game_active_ms")]

    operations = [migrations.RunPython(fill_active_ms, migrations.RunPython.noop, elidable=True)]
