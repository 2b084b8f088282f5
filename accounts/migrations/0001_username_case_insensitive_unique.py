"""Usernames unique regardless of letter case, enforced by the database.

The register service checks first (for a friendly error); this index stops two concurrent
registrations of "Ada" and "ada" both getting through that check. UPPER() is what Django's
iexact lookup compares on PostgreSQL; both PostgreSQL and SQLite (3.9+) index expressions.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunSQL(
            sql="CREATE UNIQUE INDEX accounts_username_ci_uniq ON auth_user (UPPER(username));",
            reverse_sql="DROP INDEX accounts_username_ci_uniq;",
        ),
    ]
