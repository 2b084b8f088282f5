from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0017_race_invitation'),
    ]

    operations = [
        migrations.AddField(
            model_name='raceinvitation',
            name='declined_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
