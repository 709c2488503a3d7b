"""The rulebook index names the rulebooks by their titles and the number they are cited by ("000"),
never by the seed files' names such as 000_2b5ab8aade69ac44.txt (issue 24, finding 13)."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


def test_the_index_shows_titles_not_file_names(client, floorman, rulebooks):
    client.force_login(floorman)
    for lang in ("en", "de"):
        html = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt", html)
        assert "Cash Game Reglement" in html and "Turnierregeln der MunotPoker GmbH" in html
    assert "cited as 000" in client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    page = client.get("/rules/casino-cash/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "zitiert als 000" in page and "2b5ab8aade69ac44" not in page
