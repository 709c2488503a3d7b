"""The cash floor's models, moved here from ``tables``: state only.

Their database tables (``tables_room``, ``tables_game``, ...) were created by
``tables.0003_cash_floor`` and keep their names (``Meta.db_table``), so this
migration changes no table; ``tables.0005_move_cash_floor_to_room`` then
drops the models from the ``tables`` app's state.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('tables', '0004_table_formats'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Game',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=80, verbose_name='name')),
                        ('variant', models.CharField(choices=[('nlhe', "No-Limit Hold'em"), ('plo', 'Pot-Limit Omaha'), ('limit_holdem', "Split-Limit Hold'em")], default='nlhe', max_length=20, verbose_name='variant')),
                        ('small_blind', models.PositiveIntegerField(verbose_name='small blind')),
                        ('big_blind', models.PositiveIntegerField(verbose_name='big blind')),
                        ('min_buy_in', models.PositiveIntegerField(verbose_name='minimum buy-in')),
                        ('max_buy_in', models.PositiveIntegerField(verbose_name='maximum buy-in')),
                        ('chip_unit', models.PositiveIntegerField(verbose_name='chip unit')),
                        ('rules_profile', models.SlugField(default='casino-cash', verbose_name='house rules')),
                        ('is_open', models.BooleanField(default=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        'db_table': 'tables_game',
                        'ordering': ['room', 'big_blind', 'name'],
                    },
                ),
                migrations.CreateModel(
                    name='Room',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('slug', models.SlugField(unique=True)),
                        ('name', models.CharField(max_length=80, verbose_name='name')),
                        ('call_seconds', models.PositiveIntegerField(default=300, verbose_name='call countdown (seconds)')),
                        ('lobby_names', models.CharField(choices=[('full', 'full names'), ('initials', 'initials')], default='full', max_length=10, verbose_name='names on the lobby screen')),
                        ('lobby_stacks', models.BooleanField(default=False, verbose_name='stacks on the lobby screen')),
                        ('seq', models.BigIntegerField(default=0)),
                    ],
                    options={
                        'db_table': 'tables_room',
                        'ordering': ['name'],
                    },
                ),
                migrations.CreateModel(
                    name='BlindDue',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seat_number', models.PositiveSmallIntegerField()),
                        ('amount', models.PositiveIntegerField()),
                        ('at', models.DateTimeField()),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tables.player')),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='blinds_due', to='tables.table')),
                    ],
                    options={
                        'db_table': 'tables_blinddue',
                    },
                ),
                migrations.CreateModel(
                    name='Departure',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('stack', models.PositiveBigIntegerField()),
                        ('at', models.DateTimeField()),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='departures', to='tables.player')),
                        ('table', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tables.table')),
                        ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='departures', to='room.game')),
                    ],
                    options={
                        'db_table': 'tables_departure',
                        'ordering': ['-at'],
                    },
                ),
                migrations.CreateModel(
                    name='GameTable',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('main', 'main table'), ('must_move', 'must-move table')], default='main', max_length=10)),
                        ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='game_tables', to='room.game')),
                        ('table', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='game_table', to='tables.table')),
                    ],
                    options={
                        'db_table': 'tables_gametable',
                        'ordering': ['game', 'kind', 'table__name'],
                    },
                ),
                migrations.CreateModel(
                    name='QueueEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('queue', models.CharField(choices=[('waitlist', 'waitlist'), ('must_move', 'must-move')], default='waitlist', max_length=10)),
                        ('source', models.CharField(choices=[('walk_in', 'walk-in'), ('phone_in', 'phone-in'), ('seated', 'seated')], default='walk_in', max_length=10)),
                        ('status', models.CharField(choices=[('waiting', 'waiting'), ('called', 'called'), ('done', 'done'), ('removed', 'removed')], default='waiting', max_length=10)),
                        ('joined_at', models.DateTimeField()),
                        ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='queue', to='room.game')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='queue_entries', to='tables.player')),
                    ],
                    options={
                        'db_table': 'tables_queueentry',
                        'ordering': ['game', 'queue', 'joined_at', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='Call',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seat_number', models.PositiveSmallIntegerField()),
                        ('status', models.CharField(choices=[('open', 'calling'), ('accepted', 'accepted'), ('declined', 'declined'), ('expired', 'no-show'), ('cancelled', 'cancelled')], default='open', max_length=10)),
                        ('forced', models.BooleanField(default=False)),
                        ('declined', models.JSONField(blank=True, default=list)),
                        ('called_at', models.DateTimeField()),
                        ('deadline', models.DateTimeField()),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='calls', to='tables.table')),
                        ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='calls', to='room.game')),
                        ('entry', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='calls', to='room.queueentry')),
                    ],
                    options={
                        'db_table': 'tables_call',
                        'ordering': ['called_at', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='LobbyDisplay',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('token', models.CharField(max_length=64, unique=True)),
                        ('label', models.CharField(blank=True, max_length=80)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('revoked', models.BooleanField(default=False)),
                        ('created_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('room', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='displays', to='room.room')),
                    ],
                    options={
                        'db_table': 'tables_lobbydisplay',
                    },
                ),
                migrations.AddField(
                    model_name='game',
                    name='room',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='games', to='room.room'),
                ),
                migrations.CreateModel(
                    name='RoomLog',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seq', models.BigIntegerField()),
                        ('kind', models.CharField(max_length=30)),
                        ('payload', models.JSONField(default=dict)),
                        ('at', models.DateTimeField(auto_now_add=True)),
                        ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='room.game')),
                        ('player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tables.player')),
                        ('room', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='log', to='room.room')),
                    ],
                    options={
                        'db_table': 'tables_roomlog',
                        'ordering': ['room', 'seq', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='TableChange',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('status', models.CharField(choices=[('pending', 'pending'), ('approved', 'approved'), ('refused', 'refused')], default='pending', max_length=10)),
                        ('requested_at', models.DateTimeField()),
                        ('from_table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tables.table')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='table_changes', to='tables.player')),
                        ('to_table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tables.table')),
                    ],
                    options={
                        'db_table': 'tables_tablechange',
                        'ordering': ['requested_at', 'id'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='queueentry',
                    constraint=models.UniqueConstraint(condition=models.Q(('status__in', ['waiting', 'called'])), fields=('game', 'queue', 'player'), name='queueentry_once_per_list'),
                ),
                migrations.AddConstraint(
                    model_name='call',
                    constraint=models.UniqueConstraint(condition=models.Q(('status', 'open')), fields=('table', 'seat_number'), name='call_one_open_per_seat'),
                ),
                migrations.AddConstraint(
                    model_name='game',
                    constraint=models.UniqueConstraint(fields=('room', 'name'), name='game_unique_name'),
                ),
            ],
            database_operations=[],
        ),
    ]
