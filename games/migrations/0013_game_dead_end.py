from django.db import migrations, models

from games.core.history import has_a_move_to_undo


def allow_undo_of_reveals(apps, schema_editor):
    """Undo now takes back a move that showed hidden cards: every casual game in play with a
    move on the board may undo (``games.core.history.has_a_move_to_undo``)."""
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    # Read from the history: casual games older than migration 0002 have no board_moves.
    refused = Game.objects.filter(ranked=False, status="playing", can_undo=False, move_number__gt=0)
    for game_id in refused.values_list("pk", flat=True).iterator():
        entries = Move.objects.filter(game_id=game_id).order_by("number")
        if has_a_move_to_undo(entries.values_list("payload", flat=True)):
            Game.objects.filter(pk=game_id).update(can_undo=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_gameflag_fast_window"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="dead_end",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(allow_undo_of_reveals, migrations.RunPython.noop),
    ]
