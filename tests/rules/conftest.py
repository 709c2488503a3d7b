"""Fixtures for the rules tests: loaded rulebooks, users of every role, a private URLconf."""

import pytest


@pytest.fixture
def rules_urls(settings):
    """Route requests through tests/rules/urls.py (rules URLs at /rules/ as in production)."""
    settings.ROOT_URLCONF = "tests.rules.urls"


@pytest.fixture
def rulebooks(db):
    """The five rulebooks loaded from rules/rulebooks/*.json."""
    from rules.management.commands.load_rulebooks import load_rulebooks

    return load_rulebooks()


@pytest.fixture
def manager(roles):
    """A user in the ``manager`` group."""
    from django.contrib.auth.models import User

    user = User.objects.create_user(username="manager", password="pw-manager")
    user.groups.add(roles["manager"])
    return user


@pytest.fixture
def staff(db):
    """A staff user with no group."""
    from django.contrib.auth.models import User

    return User.objects.create_user(username="staff", password="pw-staff", is_staff=True)
