from django.db import migrations, models

from games.core.history import last_move_can_be_undone


def fill_can_undo(apps, schema_editor):
    """Games in play get the flag their history gives (new games start without it)."""
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    playing = Game.objects.filter(status="playing", ranked=False).values_list("pk", flat=True)
    for game_id in playing.iterator():
        history = list(
            Move.objects.filter(game_id=game_id).order_by("number").values_list("payload", "events")
        )
        if last_move_can_be_undone(history):
            Game.objects.filter(pk=game_id).update(can_undo=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_fair_play_and_audit"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="can_undo",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(fill_can_undo, migrations.RunPython.noop),
    ]
