# The organiser drops or disqualifies a player (issue 30, "the evening as it is").

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0004_registration_tallies"),
    ]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="disqualified",
            field=models.BooleanField(default=False),
        ),
    ]
