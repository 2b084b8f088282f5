"""``Game.in_race``: a race's game says so, and the games raced before it are marked."""

from django.db import migrations, models


def mark_raced_games(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    RacePlayer = apps.get_model("games", "RacePlayer")
    raced = RacePlayer.objects.filter(game__isnull=False).values("game_id")
    Game.objects.filter(pk__in=raced).update(in_race=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_races"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="in_race",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(mark_raced_games, migrations.RunPython.noop),
    ]
