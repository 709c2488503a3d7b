"""The print-styled pages as PDF files (issue 23, what a director also expects: "a PDF where a user wants a
file"): ``?format=pdf`` on the results, the payout slips, the seat cards and the table sheets answers
``application/pdf`` as a download with a file name; the PDF's text (read with pypdf) holds the players'
names and the prizes the page shows. Each page links its PDF beside "Print"."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.tournaments.test_services import LEVELS
from tournaments import services
from tournaments.models import Entry
from tournaments.services import desk

pytestmark = pytest.mark.django_db

PRIZES = [1_250, 500, 250]  # 20 entries of 100


def _finished():
    """20 players named ``Zoë Müller 00`` .. ``19``, 3 places paid, won by the last one seated."""
    t = services.create_tournament(
        "Friday Deepstack", "munotpoker", {"periods": LEVELS}, starting_stack=10_000, buy_in=100, seed=5
    )
    for i in range(20):
        services.register(t.id, f"Zoë Müller {i:02d}")
    services.start(t.id)
    services.set_payouts(t.id, PRIZES)
    for e in list(Entry.objects.filter(tournament=t, status="seated").order_by("id"))[:-1]:
        desk.desk_bust(t.id, [(e.id, None)])
    return t


def _started():
    t = services.create_tournament(
        "Friday Deepstack", "munotpoker", {"periods": LEVELS}, starting_stack=10_000, buy_in=100, seed=5
    )
    for i in range(12):
        services.register(t.id, f"Zoë Müller {i:02d}")
    return services.start(t.id)


def _pdf(client, url, filename):
    response = client.get(url + "?format=pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'attachment; filename="{filename}"'
    assert response.content.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(response.content))
    return reader, "\n".join(page.extract_text() for page in reader.pages)


def _words(text):
    return " ".join(text.split())


def test_the_results_as_pdf_hold_every_place_name_and_prize(client, floorman):
    t = _finished()
    client.force_login(floorman)
    url = reverse("tournaments:payouts", args=[t.id])
    assert 'href="?format=pdf"' in client.get(url).content.decode()  # the PDF link beside "Print"
    _reader, text = _pdf(client, url, f"results-{t.id}.pdf")
    text = _words(text)
    for i in range(20):
        assert f"Zoë Müller {i:02d}" in text
    for prize in PRIZES:
        assert f"{prize:,}" in text  # grouped as the page's language writes it: 1,250
    assert "Fee per buy-in" not in text  # the print styles: the result sheet only, not the desk's forms


def test_the_payout_slips_as_pdf_name_each_paid_player_and_prize(client, floorman):
    t = _finished()
    client.force_login(floorman)
    url = reverse("tournaments:payout_slips", args=[t.id])
    assert 'href="?format=pdf"' in client.get(url).content.decode()
    _reader, text = _pdf(client, url, f"payout-slips-{t.id}.pdf")
    text = _words(text)
    winner = Entry.objects.get(tournament=t, status="seated").player.name
    assert winner in text
    for prize in PRIZES:
        assert f"{prize:,}" in text  # grouped as the page's language writes it: 1,250


def test_the_seat_cards_as_pdf_are_80mm_pages_one_per_player(client, floorman):
    t = _started()
    client.force_login(floorman)
    url = reverse("tournaments:seat_cards", args=[t.id])
    assert 'href="?format=pdf"' in client.get(url).content.decode()
    reader, text = _pdf(client, url, f"seat-cards-{t.id}.pdf")
    assert len(reader.pages) == 12
    width_mm = float(reader.pages[0].mediabox.width) * 25.4 / 72
    assert abs(width_mm - 80) < 0.5, width_mm
    for i in range(12):
        assert f"Zoë Müller {i:02d}" in _words(text)


def test_the_table_sheets_as_pdf_list_every_seated_player(client, floorman):
    t = _started()
    client.force_login(floorman)
    url = reverse("tournaments:table_sheets", args=[t.id])
    _reader, text = _pdf(client, url, f"table-sheets-{t.id}.pdf")
    for i in range(12):
        assert f"Zoë Müller {i:02d}" in _words(text)


def test_the_results_and_slips_group_the_prizes_as_the_language_writes_them(client, floorman):
    """Issue 23 finding 11 (one number format): 1,250 in English, 1.250 in German, as the desk and
    the TV write them (static/js/socket.js chips: toLocaleString)."""
    t = _finished()
    client.force_login(floorman)
    for name in ("tournaments:payouts", "tournaments:payout_slips"):
        url = reverse(name, args=[t.id])
        assert ">1,250<" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert ">1.250<" in client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
