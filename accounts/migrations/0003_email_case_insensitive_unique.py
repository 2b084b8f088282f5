"""One account per email address (in any letter case), enforced by the database.

The register and email-change services check first (for a friendly error); this index stops
two concurrent sign-ups (or changes) with "Ada@example.org" and "ada@example.org" both
getting through that check. Blank addresses are left out: any number of accounts may have
none. UPPER() is what Django's iexact lookup compares on PostgreSQL; PostgreSQL and SQLite
(3.9+) both index expressions and partial indexes.

A database made before this migration may already hold one address on several accounts. The
index cannot be built over them, and the migration must not fail there: it then leaves the
index out, says so, and the services' checks (which no longer let a new duplicate in, but
cannot stop two simultaneous ones) are the only guard. Once those duplicates are resolved,
create the index by hand with ``CREATE_INDEX`` below (docs/production.md).
"""

import sys

from django.db import migrations
from django.db.models import Count
from django.db.models.functions import Upper

INDEX = "accounts_email_ci_uniq"
CREATE_INDEX = f"CREATE UNIQUE INDEX {INDEX} ON auth_user (UPPER(email)) WHERE email <> '';"


def add_index(apps, schema_editor):
    user_model = apps.get_model("auth", "User")
    shared = (
        user_model.objects.using(schema_editor.connection.alias)
        .exclude(email="")
        .values(address=Upper("email"))
        .annotate(accounts=Count("id"))
        .filter(accounts__gt=1)
    )
    count = shared.count()
    if count:
        sys.stderr.write(
            f"\n  accounts.0003: {count} email address(es) are on more than one account; the "
            f"database's one-account-per-address index ({INDEX}) is not created. New sign-ups "
            "and email changes are still checked. Resolve them, then run:\n"
            f"  {CREATE_INDEX}\n"
        )
        return
    schema_editor.execute(CREATE_INDEX)


def drop_index(apps, schema_editor):
    schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX};")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_user_sessions"),
    ]

    operations = [
        migrations.RunPython(add_index, drop_index, elidable=False),
    ]
