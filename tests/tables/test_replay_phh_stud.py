"""``manage.py replay_phh`` on stud hands (issue 27, finding 6): a Seven Card Stud, razz or stud/8 file is
checked against its recorded finishing stacks by the engine (a stud table deals from the tablet, street by
street, which a PHH file does not record), and the result line says so -- it used to fail every stud hand
with "StudSpec.__init__() got an unexpected keyword argument 'button_seat'"."""

from __future__ import annotations

import random
import warnings

import pytest

from tests.poker.hand.test_phh_stud import pokerkit_hand
from tests.tables.test_import_phh import run

pytestmark = pytest.mark.django_db


def test_replay_phh_checks_stud_razz_and_stud8_hands_against_their_finishing_stacks(tmp_path):
    warnings.simplefilter("ignore", UserWarning)  # pokerkit's advice on cards and folds
    rng = random.Random(11)
    finals = {}
    for variant, name in (("F7S", "stud"), ("FR", "razz"), ("F7S/8", "stud8")):
        record, final = pokerkit_hand(rng, variant)
        record.players = [f"{name.title()} {k + 1}" for k in range(len(final))]
        path = tmp_path / f"{name}.phh"
        path.write_text(record.dumps())
        finals[str(path)] = list(final)
    code, lines, _summary = run("replay_phh", tmp_path)
    assert code == 0, [line["error"] for line in lines]
    assert {line["file"]: line["actual"] for line in lines} == finals
    for line in lines:
        assert line["ok"] and line["checked"] == ["finishing_stacks"]
        assert "replayed by the engine, not through a live table" in line["unchecked"][0]


def test_replay_phh_names_a_stud_hand_whose_record_does_not_add_up(tmp_path):
    warnings.simplefilter("ignore", UserWarning)
    record, final = pokerkit_hand(random.Random(5), "F7S")
    record.finishing_stacks = [stack + 10 if i == 0 else stack for i, stack in enumerate(final)]
    path = tmp_path / "wrong.phh"
    path.write_text(record.dumps())
    code, lines, _summary = run("replay_phh", path)
    assert code != 0 and not lines[0]["ok"]
    assert lines[0]["actual"] == list(final) and lines[0]["error"].startswith("mismatch")
