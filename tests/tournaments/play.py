"""Play tournament hands through ``tables.services`` (the dealer's path).

``bust_hand(table_id)`` plays one hand in which the first player to act goes
all in, the next player who covers him calls and everybody else folds; the
board runs out with unknown cards and the caller is awarded every pot, so
the all-in player busts.
"""

from tables import services
from tables.models import Table


def _state(table_id):
    table = Table.objects.select_related("current_hand").get(pk=table_id)
    return table.current_hand.snapshot


def bust_hand(table_id: int, *, folds_only: bool = False, actor=None) -> dict:
    """Play one hand at ``table_id``; returns the completed hand's snapshot.

    With ``folds_only`` everybody folds to the big blind (nobody busts);
    ``actor`` -- the login entering the hand (a dealer), or none."""
    services.start_hand(table_id, actor=actor)
    shover = caller = None
    for _ in range(100):
        st = _state(table_id)
        if st["phase"] == "complete":
            return st
        if st["phase"] == "board":
            services.apply_action(table_id, {"type": "board", "cards": ""}, actor=actor)
        elif st["phase"] == "showdown":
            for index, pot in enumerate(st["pots"]):
                if caller in pot["eligible_seats"]:
                    services.apply_action(table_id, {"type": "award", "pot": index, "winners": [caller]}, actor=actor)
                    break
            else:
                pot = st["pots"][len(st["awards"])] if len(st["awards"]) < len(st["pots"]) else st["pots"][0]
                services.apply_action(
                    table_id,
                    {"type": "award", "pot": st["pots"].index(pot), "winners": pot["eligible_seats"][:1]},
                    actor=actor,
                )
        else:
            seat = st["to_act_seat"]
            me = next(p for p in st["players"] if p["seat"] == seat)
            legal = st["legal"]
            if folds_only:
                action = "fold" if legal["can_fold"] and legal["call_amount"] else "check"
            elif shover is None:
                action, shover = "all_in", seat
            elif caller is None:
                other = next(p for p in st["players"] if p["seat"] == shover)
                if me["stack"] + me["bet"] >= other["stack"] + other["bet"]:
                    action, caller = ("call" if legal["call_amount"] < me["stack"] else "all_in"), seat
                else:
                    action = "fold"
            else:
                action = "fold" if legal["can_fold"] and legal["call_amount"] else "check"
            services.apply_action(table_id, {"type": action, "seat": seat}, actor=actor)
    raise AssertionError("hand did not finish")
