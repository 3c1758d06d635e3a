"""Gang names hold 80 characters, as the campaigns' and leagues' copies of them do.

Names longer than 80 (the field held 100) are cut to 80 first, so joining a campaign or
registering in a league can never fail on them.
"""

from django.db import migrations, models
from django.db.models.functions import Length

LONGEST = 80


def cut_long_names(apps, schema_editor):
    Gang = apps.get_model("builder", "Gang")
    long_names = Gang.objects.annotate(length=Length("name")).filter(length__gt=LONGEST)
    for pk, name in long_names.values_list("pk", "name").iterator():
        # update(), not save(): "updated" stays, the gang is the same otherwise.
        short = name[:LONGEST].rstrip() or name[:LONGEST]
        Gang.objects.filter(pk=pk).update(name=short)


class Migration(migrations.Migration):
    dependencies = [
        ("builder", "0003_content_packs_and_dice_log"),
    ]

    operations = [
        migrations.RunPython(cut_long_names, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="gang",
            name="name",
            field=models.CharField(max_length=80),
        ),
    ]
