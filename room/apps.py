from django.apps import AppConfig


class RoomConfig(AppConfig):
    """The cash floor: games, waitlists, calls, must-move, table changes, lobby screens."""

    name = "room"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register with ``tables.hooks``: the next hand's spec takes the
        game's variant, chip unit and the big blinds owed after a seat change
        (000 Einsätze 4); a seat that opened is offered to the next player in
        line (000 Allgemein 15)."""
        from room import services
        from room.models import GameTable, LeaveAfterHand
        from tables import hooks, probes

        hooks.register_spec_adjuster(services.adjust_spec)
        # Probe (tables.probes): only a table of a game has its spec adjusted.
        probes.register(
            services.adjust_spec, f"EXISTS (SELECT 1 FROM {GameTable._meta.db_table} g WHERE g.table_id = t.id)"
        )
        hooks.register_seat_opened(services.seat_opened)
        hooks.register_table_stakes(services.table_stakes)  # a stud table's tablet shows stud stakes
        # Players marked to leave after the hand leave when it ends (000 Einsätze 1); probed: a table with a mark.
        hooks.register_hand_completed(services.hand_ended)
        # The room page and the lobby TV show the stacks a hand leaves; probed: a table of a game.
        hooks.register_hand_completed(services.publish_stacks)
        probes.register(
            services.publish_stacks, f"EXISTS (SELECT 1 FROM {GameTable._meta.db_table} g WHERE g.table_id = t.id)"
        )
        probes.register(
            services.hand_ended,
            f"EXISTS (SELECT 1 FROM {LeaveAfterHand._meta.db_table} l WHERE l.table_id = t.id)",
        )
