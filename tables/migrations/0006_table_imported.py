"""Table.imported: tables made by ``manage.py replay_phh`` leave the live floor.

Existing replay tables are recognised by their hands' metadata (``{"source": "phh"}``)."""

from django.db import migrations, models


def mark_replays(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    Table.objects.filter(hands__metadata__source="phh").update(imported=True)


class Migration(migrations.Migration):
    dependencies = [("tables", "0005_move_cash_floor_to_room")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="imported",
            field=models.BooleanField(
                default=False,
                help_text="made to replay imported hand histories; never on the live floor",
                verbose_name="imported",
            ),
        ),
        migrations.RunPython(mark_replays, migrations.RunPython.noop),
    ]
