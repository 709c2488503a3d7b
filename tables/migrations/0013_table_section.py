from django.db import migrations, models


class Migration(migrations.Migration):
    """The part of the room a table stands in: the floor's room map groups its rows by it (issue 26)."""

    dependencies = [
        ("tables", "0011_dealer_rotation"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="section",
            field=models.CharField(
                blank=True,
                default="",
                help_text="part of the room; the floor map groups by it",
                max_length=40,
                verbose_name="section",
            ),
        ),
    ]
