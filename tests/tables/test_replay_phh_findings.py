"""Issue 27, findings 1-5 through ``manage.py replay_phh`` (the dealer services):
shows of unknown cards, the winnings check after a show that follows an
uncontested win, posts, a hand refused while loading named in its result
line, and recorded winnings that are all zero."""

import io
import json

import pytest
from django.core.management import call_command

from tables.models import Hand
from tests.poker.hand.test_phh_findings import RUNOUT_UNKNOWN, SHOW_AFTER_FOLDS, post_hand

pytestmark = pytest.mark.django_db(transaction=True)


def replay(*args):
    out = io.StringIO()
    code = 0
    try:
        call_command("replay_phh", *map(str, args), "--json", stdout=out)
    except SystemExit as exit_:
        code = exit_.code
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def phhs(tmp_path, *texts):
    """One ``.phhs`` file of the hands ``texts`` as tables [1], [2] ..."""
    path = tmp_path / "hands.phhs"
    path.write_text("\n".join(f"[{i}]\n{text}" for i, text in enumerate(texts, 1)))
    return path


def test_findings_1_and_2_unknown_shows_and_a_show_after_the_folds_replay_through_the_services(tmp_path):
    code, results = replay(phhs(tmp_path, RUNOUT_UNKNOWN, SHOW_AFTER_FOLDS))
    assert code == 0, results
    runout, shown = results
    assert runout["ok"] and runout["actual"] == [4975, 4025, 1000] and runout["checked"] == ["winnings"]
    assert runout["unchecked"] == ["who won pot 0: hole cards unknown, awarded as the recorded winnings say"]
    assert shown["ok"] and shown["actual"] == [495, 490, 500, 515] and shown["error"] is None
    assert Hand.objects.filter(status="complete").count() == 2


def test_finding_3_posts_replay_and_a_refused_post_says_its_code(tmp_path):
    live = post_hand(
        "[1, 2, 0, -2]",
        '"p3 cc", "p4 cc", "p1 cc", "p2 cc", "d db 2c7d9s", "p1 cbr 8", "p2 f", "p3 f", "p4 f"',
        "finishing_stacks = [106, 98, 98, 98]\n",
    )
    dead = post_hand(
        "[1, 2, 0, -3]",
        '"p3 f", "p4 cc", "p1 cc", "p2 cc", "d db 2c7d9s", "p1 cbr 8", "p2 f", "p4 f"',
        "finishing_stacks = [105, 98, 100, 97]\n",
    )
    refused = post_hand("[-1, 2, 0, 0]", '"p3 f"', "finishing_stacks = [100, 100, 100, 100]\n")
    code, results = replay(phhs(tmp_path, live, dead, refused))
    assert code == 1
    assert [r["ok"] for r in results] == [True, True, False], results
    # every refusal starts with its code, as the others do
    assert results[2]["error"].startswith("bad_spec: ")
    assert results[2]["hand"] == "3"


def test_finding_4_a_hand_refused_while_loading_is_named(tmp_path):
    good = SHOW_AFTER_FOLDS.replace(', "p4 sm 4d3c"', "")
    broken = good.replace("starting_stacks = [500, 500, 500, 500]\n", "")
    code, results = replay(phhs(tmp_path, good, broken), "--rules", "pokerkit")
    assert code == 1
    good, bad = results
    assert good["hand"] == "1" and good["ok"]
    assert bad["hand"] == "2" and not bad["ok"]
    assert bad["error"].startswith("bad_spec: ") and "starting_stacks" in bad["error"]
    assert bad["rules"] == "pokerkit" == good["rules"]


def test_finding_5_winnings_that_are_all_zero_are_said_to_be_missing(tmp_path):
    zero = SHOW_AFTER_FOLDS.replace("winnings = [0, 0, 0, 25]", "winnings = [0, 0, 0, 0]")
    code, [result] = replay(phhs(tmp_path, zero))
    assert code == 1 and not result["ok"]
    assert "rake" not in result["error"]
    assert "all zero" in result["error"] and "who won" in result["error"]
