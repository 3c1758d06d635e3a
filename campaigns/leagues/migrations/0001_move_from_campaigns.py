"""The clubs and leagues that lived in ``campaigns`` (its migration 0002 made their tables)
enter this app's state, with the same tables: state only, no data moves. Their content
types (and so any permissions given on them) follow them to the ``leagues`` label.
"""

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import campaigns.leagues.models
import campaigns.models
import rules.registry

MOVED = ["club", "clubmember", "league", "registration", "round", "pairing", "matchreport"]


def move_content_types(apps, schema_editor):
    """``campaigns.club`` -> ``leagues.club`` and so on, unless already there."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MOVED:
        if not ContentType.objects.using(db).filter(app_label="leagues", model=model).exists():
            ContentType.objects.using(db).filter(app_label="campaigns", model=model).update(
                app_label="leagues"
            )


def move_content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MOVED:
        if not ContentType.objects.using(db).filter(app_label="campaigns", model=model).exists():
            ContentType.objects.using(db).filter(app_label="leagues", model=model).update(
                app_label="campaigns"
            )


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("builder", "0003_content_packs_and_dice_log"),
        ("campaigns", "0003_leagues_move_to_their_app"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="Club",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("name", models.CharField(max_length=80)),
                        ("about", models.TextField(blank=True, max_length=2000)),
                        (
                            "invite_token",
                            models.CharField(
                                default=campaigns.models.new_invite_token,
                                max_length=64,
                                unique=True,
                            ),
                        ),
                        ("created", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        "db_table": "campaigns_club",
                        "ordering": ["name"],
                    },
                ),
                migrations.CreateModel(
                    name="Pairing",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("table", models.PositiveSmallIntegerField(default=1)),
                    ],
                    options={
                        "db_table": "campaigns_pairing",
                        "ordering": ["round__number", "table"],
                    },
                ),
                migrations.CreateModel(
                    name="League",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("name", models.CharField(max_length=80)),
                        (
                            "system",
                            models.CharField(choices=rules.registry.system_choices, max_length=20),
                        ),
                        (
                            "cap",
                            models.PositiveIntegerField(
                                blank=True,
                                help_text="Fame or points cap; empty: each gang's own limit.",
                                null=True,
                            ),
                        ),
                        ("starts", models.DateField(blank=True, null=True)),
                        ("ends", models.DateField(blank=True, null=True)),
                        ("win_points", models.PositiveSmallIntegerField(default=3)),
                        ("draw_points", models.PositiveSmallIntegerField(default=1)),
                        ("loss_points", models.PositiveSmallIntegerField(default=0)),
                        (
                            "tiebreaks",
                            models.CharField(default="vp_diff,head_to_head,sos", max_length=60),
                        ),
                        (
                            "pairing",
                            models.CharField(
                                choices=[("swiss", "Swiss"), ("round_robin", "Round robin")],
                                default="swiss",
                                max_length=12,
                            ),
                        ),
                        (
                            "rounds",
                            models.PositiveSmallIntegerField(
                                default=5,
                                validators=[
                                    django.core.validators.MinValueValidator(1),
                                    django.core.validators.MaxValueValidator(50),
                                ],
                            ),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("registration", "Registration"),
                                    ("running", "Running"),
                                    ("finished", "Finished"),
                                ],
                                default="registration",
                                max_length=12,
                            ),
                        ),
                        (
                            "public_token",
                            models.CharField(
                                default=campaigns.leagues.models.new_public_token,
                                max_length=32,
                                unique=True,
                            ),
                        ),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        (
                            "campaign",
                            models.ForeignKey(
                                blank=True,
                                help_text="A campaign of the same game that confirmed results are fed into.",
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="leagues",
                                to="campaigns.campaign",
                            ),
                        ),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="leagues",
                                to="leagues.club",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "campaigns_league",
                        "ordering": ["-created"],
                    },
                ),
                migrations.CreateModel(
                    name="MatchReport",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("scenario", models.CharField(blank=True, max_length=80)),
                        ("deployment", models.CharField(blank=True, max_length=80)),
                        ("vp_a", models.PositiveIntegerField(default=0)),
                        ("vp_b", models.PositiveIntegerField(default=0)),
                        (
                            "winner",
                            models.CharField(
                                choices=[
                                    ("a", "First player"),
                                    ("b", "Second player"),
                                    ("draw", "Draw"),
                                ],
                                max_length=4,
                            ),
                        ),
                        ("casualties", models.TextField(blank=True, max_length=2000)),
                        ("notes", models.TextField(blank=True, max_length=4000)),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("submitted", "Waiting for the opponent"),
                                    ("confirmed", "Confirmed"),
                                    ("disputed", "Disputed: the organiser settles it"),
                                    ("settled", "Settled by the organiser"),
                                ],
                                default="submitted",
                                max_length=10,
                            ),
                        ),
                        ("dispute", models.TextField(blank=True, max_length=2000)),
                        ("settled_note", models.TextField(blank=True, max_length=2000)),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        ("updated", models.DateTimeField(auto_now=True)),
                        (
                            "submitted_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "pairing",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="report",
                                to="leagues.pairing",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "campaigns_matchreport",
                    },
                ),
                migrations.CreateModel(
                    name="Registration",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("gang_name", models.CharField(max_length=80)),
                        ("dropped", models.BooleanField(default=False)),
                        ("registered", models.DateTimeField(auto_now_add=True)),
                        ("checked_version", models.PositiveIntegerField(default=0)),
                        ("legal", models.BooleanField(default=True)),
                        ("problems", models.TextField(blank=True)),
                        (
                            "campaign_gang",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="campaigns.campaigngang",
                            ),
                        ),
                        (
                            "gang",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="builder.gang",
                            ),
                        ),
                        (
                            "league",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="registrations",
                                to="leagues.league",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="league_registrations",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "campaigns_registration",
                        "ordering": ["registered"],
                    },
                ),
                migrations.AddField(
                    model_name="pairing",
                    name="a",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="leagues.registration",
                    ),
                ),
                migrations.AddField(
                    model_name="pairing",
                    name="b",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="leagues.registration",
                    ),
                ),
                migrations.CreateModel(
                    name="Round",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("number", models.PositiveSmallIntegerField()),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        (
                            "league",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="round_set",
                                to="leagues.league",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "campaigns_round",
                        "ordering": ["number"],
                    },
                ),
                migrations.AddField(
                    model_name="pairing",
                    name="round",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="pairings",
                        to="leagues.round",
                    ),
                ),
                migrations.CreateModel(
                    name="ClubMember",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "role",
                            models.CharField(
                                choices=[("organiser", "Organiser"), ("member", "Member")],
                                default="member",
                                max_length=10,
                            ),
                        ),
                        ("joined", models.DateTimeField(auto_now_add=True)),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="members",
                                to="leagues.club",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="club_memberships",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "campaigns_clubmember",
                        "ordering": ["joined"],
                        "constraints": [
                            models.UniqueConstraint(fields=("club", "user"), name="one_membership")
                        ],
                    },
                ),
                migrations.AddConstraint(
                    model_name="registration",
                    constraint=models.UniqueConstraint(
                        fields=("league", "player"), name="one_registration"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="round",
                    constraint=models.UniqueConstraint(
                        fields=("league", "number"), name="one_round_number"
                    ),
                ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
