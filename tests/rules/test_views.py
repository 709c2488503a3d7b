"""Floor pages: browse, search (German and English full text) and permalinks; access by role."""

import pytest

pytestmark = pytest.mark.usefixtures("rules_urls", "rulebooks")


def _get(client, user, url):
    if user is not None:
        client.force_login(user)
    return client.get(url)


def test_it_redirects_anonymous_users_to_login(client):
    response = client.get("/rules/")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


@pytest.mark.parametrize("who", ["floorman", "manager", "staff"])
def test_it_shows_rulebooks_to_floor_manager_and_staff(client, request, who):
    response = _get(client, request.getfixturevalue(who), "/rules/")
    assert response.status_code == 200
    assert "Turnierregeln der MunotPoker GmbH" in response.content.decode()


def test_it_forbids_users_without_role(client, outsider):
    assert _get(client, outsider, "/rules/").status_code == 403
    assert _get(client, None, "/rules/munotpoker/44/").status_code == 403


def test_dealers_read_the_rules_they_are_shown_but_not_the_floor_pages(client, dealer):
    """A dealer opens the citations of his tablet (read-only); rulings stay with the floor."""
    assert _get(client, dealer, "/rules/").status_code == 200
    page = _get(client, dealer, "/rules/munotpoker/44/")
    assert page.status_code == 200 and "Oversized chip after a blind or bet" in page.content.decode()
    assert _get(client, dealer, "/rules/tda-2024/tda-2024-rule-53/").status_code == 200
    assert _get(client, dealer, "/rules/rulings/").status_code == 403


def test_a_tda_citation_opens_its_summary_in_english_and_german(client, dealer):
    from rules.citations import citation_url

    url = citation_url({"rulebook": "tda-2024", "section": "TDA 2024 Rule 44"})
    assert url == "/rules/tda-2024/tda-2024-rule-44/"
    page = _get(client, dealer, url).content.decode()
    assert "TDA 2024 Rule 44" in page and "A single oversized chip put out silently facing a bet is a call" in page
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Ein einzelner grösserer Chip, still gesetzt gegen eine Bet, ist ein Call" in page
    assert "Übergrosser Chip" in page


def test_german_pages_show_german_summaries_or_the_original(client, floorman):
    client.force_login(floorman)
    page = client.get("/rules/munotpoker/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Oversized chip after a blind or bet" not in page  # the English summary
    assert "Die Turnierleitung in Person des jeweiligen Floormans" in page  # the German original instead


def test_every_tda_rule_the_app_cites_is_shipped_with_both_summaries():
    import re
    from pathlib import Path

    from rules.models import Rule

    root = Path(__file__).resolve().parents[2]
    cited = set()
    for folder in ("poker", "rules", "tables", "room", "tournaments"):
        for path in (root / folder).rglob("*.py"):
            cited |= set(re.findall(r"TDA 2024 Rule \d+", path.read_text(encoding="utf-8")))
    shipped = {r.number: r for r in Rule.objects.filter(rulebook__slug="tda-2024")}
    assert cited and cited <= set(shipped)
    assert all(r.summary_en and r.summary_de for r in shipped.values())


def _found(client, floorman, q):
    response = _get(client, floorman, f"/rules/?q={q}")
    assert response.status_code == 200
    return response.content.decode()


def test_it_finds_oversized_chip_rules(client, floorman):
    page = _found(client, floorman, "Oversized")
    assert "/rules/wynental/6-20/" in page
    assert "/rules/munotpoker/44/" in page


def test_it_finds_jeton_in_the_german_text(client, floorman):
    page = _found(client, floorman, "Jeton")
    assert "/rules/casino-cash/aktionen-4/" in page
    assert "/rules/casino-cash/allgemein-8/" in page


def test_it_finds_string_raise(client, floorman):
    page = _found(client, floorman, "string raise")
    assert "/rules/wynental/6-28/" in page
    assert "/rules/munotpoker/56/" in page


def test_it_finds_english_words_only_in_summaries(client, floorman):
    page = _found(client, floorman, "countdown")
    assert "/rules/munotpoker/29/" in page
    assert "/rules/casino-cash/allgemein-8/" not in page


def test_it_finds_a_rule_by_its_number(client, floorman):
    assert "/rules/wynental/6-13/" in _found(client, floorman, "6.13")


def test_it_says_when_nothing_matches(client, floorman):
    assert "No rule matches." in _found(client, floorman, "xylophon")


def test_the_permalink_shows_german_text_and_english_summary(client, floorman):
    response = _get(client, floorman, "/rules/munotpoker/44/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Keine bisherige Bet (nur Blinds)" in page
    assert "Oversized chip after a blind or bet" in page
    assert "/rules/munotpoker/45/" in page  # next rule


def test_the_rulebook_page_lists_every_rule(client, floorman):
    page = _get(client, floorman, "/rules/betting-rules/").content.decode()
    for n in range(1, 18):
        assert f"/rules/betting-rules/{n}/" in page


def test_unknown_rules_are_404(client, floorman):
    assert _get(client, floorman, "/rules/munotpoker/84/").status_code == 404
    assert _get(client, None, "/rules/nope/").status_code == 404
