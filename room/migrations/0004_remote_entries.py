# Issue 29: the waitlist in the player's pocket (remote entries, phone sessions, room settings).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("room", "0003_leave_after_hand"),
        ("tables", "0007_player_country"),
    ]

    operations = [
        migrations.AddField(
            model_name="room",
            name="running_min_players",
            field=models.PositiveSmallIntegerField(default=2, verbose_name="players seated for a running game"),
        ),
        migrations.AddField(
            model_name="room",
            name="remote_cap",
            field=models.PositiveIntegerField(default=30, verbose_name="remote entries at most"),
        ),
        migrations.AddField(
            model_name="room",
            name="arrival_seconds",
            field=models.PositiveIntegerField(default=900, verbose_name="arrival window after 'On my way' (seconds)"),
        ),
        migrations.AddField(
            model_name="room",
            name="more_time_seconds",
            field=models.PositiveIntegerField(default=300, verbose_name="'Need more time' adds (seconds)"),
        ),
        migrations.AddField(
            model_name="room",
            name="remote_no_show",
            field=models.CharField(
                choices=[("down", "moves down the list"), ("off", "leaves the list")],
                default="down",
                max_length=10,
                verbose_name="a remote no-show",
            ),
        ),
        migrations.AddField(
            model_name="room",
            name="no_show_places",
            field=models.PositiveSmallIntegerField(default=3, verbose_name="places a no-show moves down"),
        ),
        migrations.AlterField(
            model_name="queueentry",
            name="source",
            field=models.CharField(
                choices=[("walk_in", "walk-in"), ("phone_in", "phone-in"), ("seated", "seated"), ("remote", "remote")],
                default="walk_in",
                max_length=10,
            ),
        ),
        migrations.CreateModel(
            name="RemoteSession",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("token", models.CharField(max_length=64, unique=True)),
                ("arrival_token", models.CharField(max_length=64, unique=True)),
                ("nickname", models.CharField(max_length=40)),
                ("contact_kind", models.CharField(choices=[("email", "e-mail"), ("sms", "SMS")], max_length=5)),
                ("contact", models.CharField(max_length=254)),
                ("code_hash", models.CharField(max_length=128)),
                ("code_expires_at", models.DateTimeField()),
                ("attempts", models.PositiveSmallIntegerField(default=0)),
                ("games", models.JSONField(default=list)),
                ("verified_at", models.DateTimeField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "player",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="tables.player",
                    ),
                ),
                (
                    "room",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="remote_sessions", to="room.room"
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="RemoteEntry",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("on_my_way_at", models.DateTimeField(blank=True, null=True)),
                ("more_time_used", models.BooleanField(default=False)),
                ("no_shows", models.PositiveSmallIntegerField(default=0)),
                (
                    "entry",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE, related_name="remote", to="room.queueentry"
                    ),
                ),
                (
                    "session",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="entries", to="room.remotesession"
                    ),
                ),
            ],
        ),
    ]
