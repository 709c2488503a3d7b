"""``manage.py replay_phh``: real WSOP hands through the dealer services (and
over a real websocket), the data quirk reported, the exit code, PHH export,
``.phhs`` files of online hands in cents, ``--rules``, and a failed replay
that leaves nothing behind."""

import io
import json
import warnings
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from poker.hand.phh import load_phh
from tables.models import Hand, Table

pytestmark = pytest.mark.django_db(transaction=True)

PHH = Path(settings.SHARED_DIR) / "phh"
WSOP_2023 = PHH / "wsop-2023-43-day5-NT"
QUIRK = PHH / "wsop-2019-42-day3" / "00-01-07.phh"
ONLINE = Path(__file__).resolve().parents[1] / "fixtures" / "phh" / "online_cents.phhs"


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
    # the failed replay left nothing behind: no hand in progress, no table on the floor
    assert not Hand.objects.filter(status="live").exists()
    assert list(Hand.objects.values_list("status", flat=True)) == ["complete"]
    assert list(Table.objects.values_list("status", flat=True)) == ["closed"]


def test_a_phhs_file_of_online_hands_in_cents():
    code, results = replay(ONLINE)
    assert code == 1
    assert [r["hand"] for r in results] == ["1", "2", "3", "4", "5"]  # a hand refused while loading is named too
    assert [r["ok"] for r in results] == [True, True, True, False, False]
    first, folded, unknown, raked, broken = results
    assert first["chip_unit"] == "0.01" and first["rules"] == "pokerkit"
    assert first["checked"] == ["winnings"] and first["unchecked"] == []
    assert first["expected"] is None and first["actual"] == [4110, 6185, 5350, 10000, 3120, 7755]
    assert folded["actual"][4] == 3120 + 75
    assert unknown["unchecked"] == ["who won pot 0: hole cards unknown, awarded as the recorded winnings say"]
    assert "winnings" in raked["error"] and "rake" in raked["error"]
    assert "[5]" in broken["error"] and "starting_stacks" in broken["error"]
    # the three good hands are stored complete; the raked one was rolled back
    assert Hand.objects.filter(status="complete").count() == 3
    assert not Hand.objects.exclude(status="complete").exists()
    assert set(Table.objects.values_list("status", flat=True)) == {"closed"}


STRADDLE_HAND = """variant = "NT"
ante_trimming_status = false
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 4, 0]
min_bet = 2
starting_stacks = [200, 200, 200, 200]
actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????", "p4 cbr 6", "p1 f", "p2 f", "p3 f"]
finishing_stacks = [199, 198, 196, 207]
"""


def test_rules_pokerkit_by_default_and_a_profile_on_request(tmp_path):
    """pokerkit's minimum raise after a straddle of 4 is to 6 (the straddle
    plus one big blind); live practice (every house profile) is to 8."""
    path = tmp_path / "straddle.phh"
    path.write_text(STRADDLE_HAND)
    code, [result] = replay(path)
    assert code == 0 and result["ok"] and result["rules"] == "pokerkit", result
    code, [result] = replay(path, "--rules", "tda-2024")
    assert code == 1 and not result["ok"]
    assert "below_minimum_raise" in result["error"] and "8" in result["error"]
    assert Hand.objects.count() == 1  # the refused replay left no hand


def test_an_unknown_rules_name_is_refused():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="pokerkit"):
        call_command("replay_phh", str(WSOP_2023 / "1.phh"), "--rules", "nope")


def test_an_exported_hand_imports_back_to_the_same_hand(client, floorman):
    replay(WSOP_2023 / "3.phh")
    hand = Hand.objects.get()
    client.force_login(floorman)
    response = client.get(f"/hands/{hand.id}/phh/")
    assert response.status_code == 200
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pokerkit warns about user fields without "_"
        exported = load_phh(response.content.decode())
    assert exported.extra["_source"] == "phh"
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


def test_random_pokerkit_hands_with_straddles_replay_under_rules_pokerkit(tmp_path):
    """pokerkit's own records (``HandHistory.dump_all``: one ``.phhs``) of
    random hands with a live straddle all replay through the services; under
    the TDA profile those with a raise to less than twice the straddle are
    refused and leave nothing behind."""
    from pokerkit import HandHistory

    from tests.poker.hand.test_differential_pokerkit import random_phh_hands

    path = tmp_path / "straddles.phhs"
    with path.open("wb") as fp:
        HandHistory.dump_all(random_phh_hands(10, 4242, straddled_only=True), fp)
    code, results = replay(path)
    assert code == 0 and len(results) == 10
    assert all(r["ok"] and r["checked"] == ["finishing_stacks"] for r in results), results
    code, results = replay(path, "--rules", "tda-2024")
    refused = [r for r in results if not r["ok"]]
    assert code == 1 and refused
    assert all("below_minimum_raise" in r["error"] for r in refused)
    assert Hand.objects.filter(status="complete").count() == 10 + 10 - len(refused)
    assert not Hand.objects.exclude(status="complete").exists()
