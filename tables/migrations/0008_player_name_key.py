"""Player.name_key: the name without case, accents and extra spaces, indexed (issue 23: the
registration's duplicate check and the player search look a name up in one indexed query)."""

import unicodedata

from django.db import migrations, models


def name_key(name: str) -> str:
    """``tables.models.name_key`` as of this migration: no case, no accents, single spaces."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name or "") if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def fill_name_keys(apps, schema_editor):
    """Every existing player's key (in batches)."""
    Player = apps.get_model("tables", "Player")
    batch = []
    for player in Player.objects.only("id", "name").iterator(chunk_size=2000):
        player.name_key = name_key(player.name)
        batch.append(player)
        if len(batch) >= 2000:
            Player.objects.bulk_update(batch, ["name_key"])
            batch = []
    if batch:
        Player.objects.bulk_update(batch, ["name_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0007_player_country"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.TextField(db_index=True, default="", editable=False),
        ),
        migrations.RunPython(fill_name_keys, migrations.RunPython.noop),
    ]
