"""The cash floor's models moved to the ``room`` app: state only.

``room.0001_initial`` takes the models over with their database tables
unchanged, so nothing happens in the database here.
"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0004_table_formats'),
        ('room', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='call',
                    name='entry',
                ),
                migrations.RemoveField(
                    model_name='call',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='call',
                    name='table',
                ),
                migrations.RemoveField(
                    model_name='departure',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='departure',
                    name='player',
                ),
                migrations.RemoveField(
                    model_name='departure',
                    name='table',
                ),
                migrations.RemoveField(
                    model_name='game',
                    name='room',
                ),
                migrations.RemoveField(
                    model_name='queueentry',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='gametable',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='roomlog',
                    name='game',
                ),
                migrations.RemoveField(
                    model_name='gametable',
                    name='table',
                ),
                migrations.RemoveField(
                    model_name='lobbydisplay',
                    name='created_by',
                ),
                migrations.RemoveField(
                    model_name='lobbydisplay',
                    name='room',
                ),
                migrations.RemoveField(
                    model_name='queueentry',
                    name='player',
                ),
                migrations.RemoveField(
                    model_name='roomlog',
                    name='room',
                ),
                migrations.RemoveField(
                    model_name='roomlog',
                    name='actor',
                ),
                migrations.RemoveField(
                    model_name='roomlog',
                    name='player',
                ),
                migrations.RemoveField(
                    model_name='tablechange',
                    name='from_table',
                ),
                migrations.RemoveField(
                    model_name='tablechange',
                    name='player',
                ),
                migrations.RemoveField(
                    model_name='tablechange',
                    name='to_table',
                ),
                migrations.DeleteModel(
                    name='BlindDue',
                ),
                migrations.DeleteModel(
                    name='Call',
                ),
                migrations.DeleteModel(
                    name='Departure',
                ),
                migrations.DeleteModel(
                    name='Game',
                ),
                migrations.DeleteModel(
                    name='GameTable',
                ),
                migrations.DeleteModel(
                    name='LobbyDisplay',
                ),
                migrations.DeleteModel(
                    name='QueueEntry',
                ),
                migrations.DeleteModel(
                    name='Room',
                ),
                migrations.DeleteModel(
                    name='RoomLog',
                ),
                migrations.DeleteModel(
                    name='TableChange',
                ),
            ],
            database_operations=[],
        ),
    ]
