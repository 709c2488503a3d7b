from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"
    default_auto_field = "django.db.models.BigAutoField"
