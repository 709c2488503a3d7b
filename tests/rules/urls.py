"""URLconf for the rules tests: now simply the project's (rules at /rules/),
so that every link in base.html resolves."""

from pokerfloor.urls import urlpatterns  # noqa: F401
