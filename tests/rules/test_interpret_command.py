"""manage.py interpret --profile SLUG --json '<input>' (JSON out; exit code 2 on bad input)."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

EXAMPLE = {
    "situation": {
        "street": "preflop",
        "small_blind": 500,
        "big_blind": 1000,
        "to_call": 1000,
        "last_raise": 1000,
        "in_front": 0,
        "stack": 20000,
        "pot": 1500,
        "only_blinds": True,
    },
    "observed": {"chips": {"1000": 1, "500": 1}, "declared": None, "motions": 1},
}


def run(*args):
    out = StringIO()
    try:
        call_command("interpret", *args, stdout=out)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, json.loads(out.getvalue())


def test_it_prints_the_ruling_as_json():
    code, data = run("--profile", "munotpoker", "--json", json.dumps(EXAMPLE))
    assert code == 0
    assert (data["action"], data["complete_to"]) == ("raise", 2000)
    assert "004 #43" in [c["label"] for c in data["citations"]]
    assert data["explanation"]["de"] and data["explanation"]["en"]


def test_it_accepts_the_seed_number_as_profile():
    code, data = run("--profile", "000", "--json", json.dumps(EXAMPLE))
    assert code == 0 and data["profile"] == "casino-cash"


@pytest.mark.parametrize(
    "args,error",
    [
        (("--profile", "munotpoker", "--json", "{not json"), "malformed_json"),
        (("--profile", "wsop", "--json", json.dumps(EXAMPLE)), "unknown_profile"),
        (("--profile", "munotpoker", "--json", json.dumps({"situation": {}, "observed": {}})), "missing_field"),
        (("--profile", "munotpoker", "--json", "[1, 2]"), "bad_input"),
    ],
)
def test_it_exits_2_with_a_json_error(args, error):
    code, data = run(*args)
    assert code == 2
    assert data["error"] == error and data["message"]


def test_002_8_a_check_out_of_turn_forbids_a_raise_even_after_a_raise_came_in_between():
    """002 #8: "Ein Spieler, der checkt, ohne am Zug zu sein, darf dann weder setzen noch
    erhöhen, wenn er am Zug ist" -- released by the raise, he may call or fold, not raise.
    The tablet's resolve_out_of_turn gives the same verdict (one implementation)."""
    from poker.floor.procedures import resolve_out_of_turn
    from poker.houserules import get_profile

    data = {
        "situation": {
            "street": "flop",
            "small_blind": 50,
            "big_blind": 100,
            "to_call": 300,
            "last_raise": 300,
            "stack": 5000,
            "pot": 700,
            "in_turn": False,
            "intervening_actions": ["raise"],
        },
        "observed": {"declared": "check"},
    }
    code, out = run("--profile", "betting-rules", "--json", json.dumps(data))
    assert code == 0
    assert (out["action"], out["binding"]) == ("none", False)
    assert "raise" not in out["options"] and "bet" not in out["options"] and "call" in out["options"]
    assert "no_bet_or_raise" in out["restrictions"]
    assert "002 #8" in [c["label"] for c in out["citations"]]
    tablet = resolve_out_of_turn(get_profile("betting-rules"), {"type": "check", "seat": 3}, ["raise"])
    assert tablet.status == "released" and "may_not_raise" in tablet.restrictions
    # Under the TDA a raise in between frees the player fully.
    code, tda = run("--profile", "tda-2024", "--json", json.dumps(data))
    assert "raise" in tda["options"] and tda["restrictions"] == []
