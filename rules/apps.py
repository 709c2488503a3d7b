from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register with ``tables.hooks``: penalties at the deal, the tablet's
        floor calls, chip reading and rule links (``rules.hooks``)."""
        from rules import hooks

        hooks.register()
