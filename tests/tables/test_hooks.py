"""tables.hooks: the apps above shape the hand through registered functions."""

import pytest
from django.contrib.auth.models import User

from tables import hooks, services
from tables.models import Hand

pytestmark = pytest.mark.django_db(transaction=True)


def fold_to_the_end(table, actor=None):
    while (state := Hand.objects.filter(table=table).order_by("-number").first().snapshot)["phase"] != "complete":
        services.apply_action(table.id, {"type": "fold", "seat": state["to_act_seat"]}, actor=actor)


def test_registering_twice_registers_once_and_replaced_restores():
    def fn(table, seats, spec):
        return spec

    before = hooks.registered("spec_adjuster")
    with hooks.replaced("spec_adjuster"):
        hooks.register_spec_adjuster(fn)
        hooks.register_spec_adjuster(fn)
        assert hooks.registered("spec_adjuster") == [fn]
    assert hooks.registered("spec_adjuster") == before


def test_hand_completed_hooks_hear_the_stacks_and_the_dealer_inside_the_transaction(table):
    heard = []
    dealer = User.objects.create_user("hook-dealer", password="x")

    def on_completed(*, table, hand, start_stacks, final_stacks, actor):
        heard.append((hand.status, start_stacks, final_stacks, actor))

    with hooks.replaced("hand_completed", on_completed):
        services.start_hand(table.id, actor=dealer)
        fold_to_the_end(table, actor=dealer)
    [(status, start, final, actor)] = heard
    assert status == Hand.Status.COMPLETE
    assert start == {1: 200, 3: 300, 5: 150, 7: 400} and sum(final.values()) == sum(start.values())
    assert actor == dealer  # the login that entered the action completing the hand


def test_dead_hand_hooks_kill_at_the_deal_and_adjusters_shape_the_spec(table):
    def kill_seat_7(table, seats, state):
        return [{"type": "kill", "seat": 7, "reason": "penalty", "citations": []}]

    adjusted = []

    def adjuster(table, seats, spec):
        adjusted.append(sorted(s.seat for s in spec.seats))
        return spec

    with hooks.replaced("dead_hands", kill_seat_7), hooks.replaced("spec_adjuster", adjuster):
        services.start_hand(table.id)
    assert adjusted == [[1, 3, 5, 7]]
    state = Hand.objects.get(table=table).snapshot
    assert {p["seat"]: p["folded"] for p in state["players"]}[7] is True


def test_without_a_citation_handler_rule_links_are_none():
    with hooks.replaced("citation_url"):
        assert hooks.citation_url({"rulebook": "casino-cash", "section": "Allgemein 6"}) is None
