"""Shared fixtures: the three standing users (dealer, floor, outsider) and a demo table.

Imports of Django code stay inside fixtures so that the pure-engine tests can
run with ``-p no:django``.
"""

import pytest


@pytest.fixture
def roles(db):
    """Create the Django groups ``dealer``, ``floor`` and ``manager``."""
    from django.contrib.auth.models import Group

    return {name: Group.objects.get_or_create(name=name)[0] for name in ("dealer", "floor", "manager")}


def _user(username, group, roles):
    from django.contrib.auth.models import User

    user = User.objects.create_user(username=username, password="pw-" + username)
    if group:
        user.groups.add(roles[group])
    return user


@pytest.fixture
def dealer(roles):
    """A user in the ``dealer`` group (password ``pw-dealer``)."""
    return _user("dealer", "dealer", roles)


@pytest.fixture
def other_dealer(roles):
    """A second dealer, assigned to no table."""
    return _user("dealer2", "dealer", roles)


@pytest.fixture
def floorman(roles):
    """A user in the ``floor`` group (password ``pw-floor``)."""
    return _user("floor", "floor", roles)


@pytest.fixture
def outsider(roles):
    """A logged-in user with no role."""
    return _user("outsider", None, roles)
