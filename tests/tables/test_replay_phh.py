"""``manage.py replay_phh``: real WSOP hands through the dealer services (and
over a real websocket), the data quirk reported, the exit code, PHH export."""

import io
import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from poker.hand.phh import load_phh
from tables.models import Hand

pytestmark = pytest.mark.django_db(transaction=True)

PHH = Path(settings.SHARED_DIR) / "phh"
WSOP_2023 = PHH / "wsop-2023-43-day5-NT"
QUIRK = PHH / "wsop-2019-42-day3" / "00-01-07.phh"


def replay(*args):
    out = io.StringIO()
    code = 0
    try:
        call_command("replay_phh", *map(str, args), "--json", stdout=out)
    except SystemExit as exit_:
        code = exit_.code
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_it_replays_the_wsop_final_table_to_the_recorded_stacks():
    code, results = replay(WSOP_2023)
    assert len(results) == 11
    assert [r["file"] for r in results if not r["ok"]] == []
    for result in results:
        assert result["actual"] == result["expected"] and result["error"] is None
    assert code == 0
    # every hand is stored as events and ended complete
    assert Hand.objects.filter(status="complete").count() == 11


def test_it_reports_the_ante_trimming_quirk_as_a_mismatch_and_fails():
    code, results = replay(QUIRK, WSOP_2023 / "1.phh")
    assert code == 1
    quirk, good = results
    assert quirk["ok"] is False and quirk["actual"] is None and quirk["error"]
    assert quirk["expected"] == list(load_phh(QUIRK).finishing_stacks)
    assert good["ok"] is True


def test_an_exported_hand_imports_back_to_the_same_hand(client, floorman):
    replay(WSOP_2023 / "3.phh")
    hand = Hand.objects.get()
    client.force_login(floorman)
    response = client.get(f"/hands/{hand.id}/phh/")
    assert response.status_code == 200
    exported = load_phh(response.content.decode())
    original = load_phh(WSOP_2023 / "3.phh")
    assert exported.starting_stacks == original.starting_stacks
    assert exported.antes == original.antes
    assert exported.blinds_or_straddles == original.blinds_or_straddles
    from poker.hand.phh import replay as engine_replay

    result = engine_replay(exported)
    assert result.actual == original.finishing_stacks


def test_it_refuses_a_missing_path():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("replay_phh", "/no/such/file.phh")


def test_it_replays_over_the_dealer_websocket_of_a_running_server(live_server_url, dealer):
    ws_url = live_server_url.replace("http://", "ws://")
    out = io.StringIO()
    call_command(
        "replay_phh",
        str(WSOP_2023 / "1.phh"),
        str(WSOP_2023 / "2.phh"),
        str(PHH / "pluribus" / "100_4.phh"),
        "--via-websocket",
        ws_url,
        "--username",
        "dealer",
        "--password",
        "pw-dealer",
        "--json",
        stdout=out,
    )
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["ok"] for r in results] == [True, True, True], results
    # the hands were played by the dealer account, as from a tablet
    from tables.models import HandEvent

    assert set(HandEvent.objects.values_list("actor__username", flat=True)) == {"dealer"}
