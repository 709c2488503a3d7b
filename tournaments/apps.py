from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register with the table hooks (``tables.hooks``): a tournament
        table's next hand comes from its tournament (``spec_provider``: dead
        button, blinds of the level, 001 6.10, 004 #23, #32), and a completed
        hand records its busts (``hand_completed``: 001 Ende des Turniers,
        004 #79), and the players changing tables show on the floor
        dashboard (``pending_moves``: 004 #33)."""
        from tables import hooks, probes
        from tournaments import services
        from tournaments.models import TournamentTable
        from tournaments.services.desk import floor_moves

        hooks.register_spec_provider(services.spec_provider)
        hooks.register_hand_completed(services.on_hand_completed)
        # Probes (tables.probes): only a tournament's table needs these at the deal and the hand's end.
        of_a_tournament = f"EXISTS (SELECT 1 FROM {TournamentTable._meta.db_table} tt WHERE tt.table_id = t.id)"
        probes.register(services.spec_provider, of_a_tournament)
        probes.register(services.on_hand_completed, of_a_tournament)
        hooks.register_pending_moves(floor_moves)
