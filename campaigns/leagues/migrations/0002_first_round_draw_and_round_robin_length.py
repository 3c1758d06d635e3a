"""Round 1's draw (at random from a stored seed, or top half against bottom half), and a
league's number of rounds may be left empty (a round robin then plays everyone once).

Leagues already under way drew their round 1 in registration (or name) order, not at
random: they are marked "top half against bottom half", which also keeps a running round
robin on the schedule it started with.
"""

import django.core.validators
from django.db import migrations, models


def started_leagues_were_not_random(apps, schema_editor):
    db = schema_editor.connection.alias
    League = apps.get_model("leagues", "League")
    Round = apps.get_model("leagues", "Round")
    started = Round.objects.using(db).values("league_id")
    League.objects.using(db).filter(pk__in=started).update(first_round="fold")


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0001_move_from_campaigns"),
    ]

    operations = [
        migrations.AddField(
            model_name="league",
            name="draw_seed",
            field=models.PositiveBigIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="league",
            name="first_round",
            field=models.CharField(
                choices=[("random", "Drawn at random"), ("fold", "Top half against bottom half")],
                default="random",
                max_length=8,
            ),
        ),
        migrations.AlterField(
            model_name="league",
            name="rounds",
            field=models.PositiveSmallIntegerField(
                blank=True,
                null=True,
                validators=[
                    django.core.validators.MinValueValidator(1),
                    django.core.validators.MaxValueValidator(50),
                ],
            ),
        ),
        migrations.RunPython(started_leagues_were_not_random, migrations.RunPython.noop),
    ]
