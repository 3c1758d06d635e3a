"""Clubs and leagues move to their own app, ``campaigns.leagues`` (label ``leagues``).

State only: the models leave this app's state here and enter the ``leagues`` app's state
in ``leagues.0001_move_from_campaigns``, keeping their tables (``campaigns_club``,
``campaigns_league``...). No table, column or row changes.
"""

from django.db import migrations

MOVED = ["matchreport", "pairing", "round", "registration", "league", "clubmember", "club"]


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0002_leagues"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name) for name in MOVED],
            database_operations=[],
        ),
    ]
