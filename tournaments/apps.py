from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Hook tournament tables into the table services: the next hand's
        spec (``SPEC_PROVIDERS``) and busts from completed hands
        (``hand_completed``)."""
        from tables import services as table_services
        from tables.signals import hand_completed
        from tournaments import services

        if services.spec_provider not in table_services.SPEC_PROVIDERS:
            table_services.SPEC_PROVIDERS.append(services.spec_provider)
        hand_completed.connect(services.on_hand_completed, dispatch_uid="tournaments.on_hand_completed")
