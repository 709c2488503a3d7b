"""A tournament event sends the screens a small ``delta`` (what changed), not the whole field:
the director's page and the TV apply it to the snapshot they hold and ask for a fresh snapshot
when a seq is missing; the TV's delta carries no stacks or away flags."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from pokerfloor.routing import websocket_urlpatterns
from tables.models import Seat
from tests.tournaments.play import bust_hand
from tournaments import services
from tournaments.models import Entry, Tournament, TournamentTable
from tournaments.schemas import TournamentDeltaMessage, TournamentPublicDeltaMessage
from tournaments.services.delta import apply_delta
from tournaments.services.snapshot import public_snapshot_of

STRUCTURE = {
    "periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 600}],
    "late_registration_until": None,
}
PRIVATE = ("absent", "stack", "registrations", "instructions", "rebuy_pending", "entry", "public_token", "table_id")


def keys(value):
    """Every dict key anywhere in ``value``."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def running(players: int, name: str = "Delta") -> Tournament:
    t = services.create_tournament(name, "munotpoker", STRUCTURE, starting_stack=10_000, buy_in=10, seed=3)
    for i in range(players):
        services.register(t.id, f"{name} {i:02d}")
    services.start(t.id)
    return Tournament.objects.get(pk=t.id)


class Screens:
    """A director page and a TV listening on the tournament's group of the in-memory channel layer."""

    def __init__(self, t: Tournament):
        self.layer = get_channel_layer()
        self.channel = async_to_sync(self.layer.new_channel)()
        async_to_sync(self.layer.group_add)(services.tournament_group(t.id), self.channel)

    def messages(self) -> list[tuple[dict, dict]]:
        """``(director's message, TV's message)`` of every event since the last call."""
        queue = self.layer.channels.get(self.channel)
        out = []
        while queue is not None and not queue.empty():
            _expires, message = queue.get_nowait()
            out.append((json.loads(message["full"]), json.loads(message["public"])))
        return out


def comparable(snap: dict) -> dict:
    """A snapshot without what moves on by itself between two readings (the time, the live flags)."""
    out = {k: v for k, v in snap.items() if k not in ("server_now", "clock")}
    if "tables" in out and out["tables"] and "live" in out["tables"][0]:
        out["tables"] = [{**tb, "live": None} for tb in out["tables"]]
    return out


def busting_table(t: Tournament) -> int:
    """A table of ``t`` with a player who can bust (two players with chips)."""
    for tt in TournamentTable.objects.filter(tournament=t, broken=False).order_by("number"):
        if Seat.objects.filter(table_id=tt.table_id, player__isnull=False, stack__gt=0).count() >= 2:
            return tt.table_id
    raise AssertionError("no table can play")


@pytest.mark.django_db
def test_a_bust_sends_a_delta_with_the_changed_tables_and_entries_not_the_whole_field(
    django_capture_on_commit_callbacks,
):
    t = running(45)  # five tables of nine
    screens = Screens(t)
    director = services.snapshot(t)
    tv = services.public_snapshot(director)
    busts = 0
    for _ in range(6):  # six hands, a bust in each: balancing moves follow
        table_id = busting_table(t)
        with django_capture_on_commit_callbacks(execute=True):
            bust_hand(table_id)
        for full, public in screens.messages():
            assert full["type"] == public["type"] == "delta", full["type"]
            TournamentDeltaMessage.validate_python(full)
            TournamentPublicDeltaMessage.validate_python(public)
            assert full["seq"] == director["seq"] + 1  # one seq after the other, nothing missing
            # only what changed: a table or three, not five; the entries of the busted players
            assert len(full["tables"]) <= 3 and len(full["registrations"]) <= 2
            assert "seat_draw" not in full and "snapshot" not in full
            director = apply_delta(director, full)
            tv = apply_delta(tv, public)
            busts += sum(1 for f in full["finishes"] if f["place"])
        t.refresh_from_db()
        now = services.snapshot(t)
        assert comparable(director) == comparable(now)  # the page shows what a fresh snapshot shows
        assert comparable(tv) == comparable(services.public_snapshot(now))
    assert busts == 6
    assert director["players_left"] == 39 and Entry.objects.filter(tournament=t, status="busted").count() == 6
    # the finishes keep their order (best place first)
    assert [f["place"] for f in director["finishes"]] == sorted(f["place"] for f in director["finishes"])


@pytest.mark.django_db
def test_a_delta_is_a_fraction_of_the_snapshot_at_a_big_field(django_capture_on_commit_callbacks):
    t = running(180)  # twenty tables
    screens = Screens(t)
    snapshot_size = len(json.dumps(services.snapshot(t)))
    with django_capture_on_commit_callbacks(execute=True):
        bust_hand(busting_table(t))
    sizes = [(len(json.dumps(full)), len(json.dumps(public))) for full, public in screens.messages()]
    assert sizes
    assert max(full for full, _public in sizes) < snapshot_size / 8, (sizes, snapshot_size)


@pytest.mark.django_db
def test_registration_sends_the_new_entry_and_the_counts(django_capture_on_commit_callbacks):
    t = services.create_tournament("Reg", "munotpoker", STRUCTURE, starting_stack=10_000, buy_in=10)
    for i in range(30):
        services.register(t.id, f"Reg {i}")
    screens = Screens(t)
    before = services.snapshot(Tournament.objects.get(pk=t.id))
    with django_capture_on_commit_callbacks(execute=True):
        entry = services.register(t.id, "Newcomer")
    [(full, public)] = screens.messages()
    assert full["type"] == "delta" and full["kind"] == "registered"
    assert [e["player"] for e in full["registrations"]] == ["Newcomer"] and full["tables"] == []
    assert full["header"]["entries"] == public["header"]["entries"] == 31
    assert full["header"]["prize_pool"] == 310
    after = apply_delta(before, full)
    assert comparable(after) == comparable(services.snapshot(Tournament.objects.get(pk=t.id)))
    assert after["registrations"][-1]["id"] == entry.id


@pytest.mark.django_db
def test_the_tv_delta_has_no_away_flags_stacks_or_registrations(django_capture_on_commit_callbacks):
    t = running(18)
    tt = TournamentTable.objects.filter(tournament=t).order_by("number").first()
    seat = Seat.objects.filter(table_id=tt.table_id, player__isnull=False).order_by("number").first()
    screens = Screens(t)
    with django_capture_on_commit_callbacks(execute=True):
        services.set_absent(tt.table_id, seat.number, True)
        bust_hand(busting_table(t))
    messages = screens.messages()
    assert len(messages) >= 2
    director_keys = keys([full for full, _public in messages])
    assert {"absent", "stack", "registrations"} <= director_keys  # the director sees them ...
    for _full, public in messages:
        assert not keys(public) & set(PRIVATE), keys(public) & set(PRIVATE)  # ... the TV does not
        assert "finishes" not in public
    assert "absent" not in json.dumps([public for _full, public in messages])
    # a TV that connects gets the same as the director's snapshot made public, read for it alone
    t.refresh_from_db()
    assert comparable(public_snapshot_of(t)) == comparable(services.public_snapshot(services.snapshot(t)))


@pytest.mark.django_db
def test_events_that_change_rows_in_bulk_still_send_the_whole_snapshot(django_capture_on_commit_callbacks):
    t = services.create_tournament("Bulk", "munotpoker", STRUCTURE, starting_stack=10_000, buy_in=10)
    for i in range(12):
        services.register(t.id, f"Bulk {i}")
    screens = Screens(t)
    with django_capture_on_commit_callbacks(execute=True):
        services.start(t.id)  # every entry seated at once
    messages = screens.messages()
    assert messages and messages[-1][0]["type"] == "update"
    assert len(messages[-1][0]["snapshot"]["seat_draw"]) == 12
    assert len(messages[-1][1]["snapshot"]["seat_draw"]) == 12


@pytest.mark.django_db
def test_a_rebuy_offer_closed_by_a_bulk_update_reaches_the_director_in_the_delta(django_capture_on_commit_callbacks):
    """004 #27: a player who lost his chips in a rebuy tournament is offered a rebuy (a pending
    instruction); the director records "No rebuy" and the service marks the offer done with a
    ``QuerySet.update`` -- no ``post_save``.  The services name what they change, so the director's
    delta carries the offer as done (and the bust), and the page adds up to a fresh snapshot."""
    structure = {**STRUCTURE, "late_registration_until": 0}
    t = services.create_tournament(
        "Offer", "munotpoker", structure, starting_stack=10_000, buy_in=10, seed=5, rebuys_allowed=1
    )
    for i in range(4):
        services.register(t.id, f"Offer {i}")
    services.start(t.id)
    t = Tournament.objects.get(pk=t.id)
    table_id = TournamentTable.objects.get(tournament=t, number=1).table_id
    with django_capture_on_commit_callbacks(execute=True):
        bust_hand(table_id)
    entry = Entry.objects.get(tournament=t, rebuy_pending=True)
    screens = Screens(t)
    held = services.snapshot(Tournament.objects.get(pk=t.id))
    offer = next(i for i in held["instructions"] if i["kind"] == "rebuy")
    assert offer["status"] == "pending"
    with django_capture_on_commit_callbacks(execute=True):
        services.decline_rebuy(entry.id)
    messages = screens.messages()
    assert messages and all(full["type"] == "delta" for full, _public in messages), [m[0]["type"] for m in messages]
    first = messages[0][0]
    assert first["kind"] == "rebuy_declined"
    assert [i["status"] for i in first["instructions"] if i["id"] == offer["id"]] == ["done"]
    assert [f["player"] for f in first["finishes"]] == [entry.player.name]
    for full, public in messages:
        TournamentDeltaMessage.validate_python(full)
        TournamentPublicDeltaMessage.validate_python(public)
        held = apply_delta(held, full)
    assert comparable(held) == comparable(services.snapshot(Tournament.objects.get(pk=t.id)))
    assert next(i for i in held["instructions"] if i["id"] == offer["id"])["status"] == "done"


# --------------------------------------------------------------- the socket: a gap in seq


app = URLRouter(websocket_urlpatterns)


@database_sync_to_async
def _make_with_absent():
    t = running(18, "Gap")
    return t


@database_sync_to_async
def _bust(t):
    bust_hand(busting_table(t))


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_client_that_misses_a_seq_asks_and_gets_the_snapshot_at_the_newest_seq(floorman):
    t = await _make_with_absent()
    ws = WebsocketCommunicator(app, f"/ws/tournaments/{t.id}/")
    ws.scope["user"] = floorman
    assert (await ws.connect())[0]
    first = await ws.receive_json_from()
    assert first["type"] == "snapshot"
    held = first["snapshot"]
    await _bust(t)
    deltas = []
    while not await ws.receive_nothing(timeout=0.5):
        deltas.append(await ws.receive_json_from())
    assert deltas and all(d["type"] == "delta" for d in deltas)
    assert [d["seq"] for d in deltas] == list(range(held["seq"] + 1, held["seq"] + 1 + len(deltas)))
    # the page lost the first delta: the next one's seq is not held + 1 -- it asks for a snapshot
    if len(deltas) > 1:
        assert deltas[1]["seq"] != held["seq"] + 1
    await ws.send_json_to({"type": "snapshot"})
    fresh = await ws.receive_json_from()
    assert fresh["type"] == "snapshot" and fresh["seq"] == deltas[-1]["seq"]
    # and what it would have had with every delta is that snapshot
    for d in deltas:
        held = apply_delta(held, d)
    assert comparable(held) == comparable(fresh["snapshot"])
    await ws.disconnect()


@pytest.mark.django_db
def test_the_desk_entries_and_their_undo_arrive_as_deltas_that_add_up_to_the_snapshot(
    django_capture_on_commit_callbacks,
):
    from tournaments.models import TournamentEvent
    from tournaments.services import desk

    t = running(21, "Desk")  # three tables of seven
    screens = Screens(t)
    held = services.snapshot(t)

    def follow():
        nonlocal held
        for full, public in screens.messages():
            if full["type"] == "delta":
                TournamentDeltaMessage.validate_python(full)
                held = apply_delta(held, full)
            else:
                held = full["snapshot"]
            assert "absent" not in json.dumps(public)
        t.refresh_from_db()
        assert comparable(held) == comparable(services.snapshot(t))

    def at_table(number):
        table_id = TournamentTable.objects.get(tournament=t, number=number).table_id
        players = Seat.objects.filter(table_id=table_id, player__isnull=False).values_list("player_id", flat=True)
        return list(Entry.objects.filter(tournament=t, status="seated", player_id__in=players).order_by("id"))

    with django_capture_on_commit_callbacks(execute=True):
        desk.desk_bust(t.id, [(at_table(1)[0].id, None)], note="no tablet")  # out, placed 21st
    follow()
    assert held["players_left"] == 20 and [f["place"] for f in held["finishes"]] == [21]
    with django_capture_on_commit_callbacks(execute=True):
        desk.desk_chips(t.id, at_table(2)[0].id, 500, "found_chips", note="found under the rail")
    follow()
    bust_seq = TournamentEvent.objects.get(tournament=t, kind="desk_bust").seq
    with django_capture_on_commit_callbacks(execute=True):
        desk.desk_undo(t.id, bust_seq, note="wrong player")
    follow()
    assert held["players_left"] == 21 and held["finishes"] == []
    with django_capture_on_commit_callbacks(execute=True):
        desk.desk_bust(t.id, [(e.id, None) for e in at_table(3)[:3]], note="three out in one hand")
    follow()  # 18 players fit two tables: table 3 breaks (004 #10), its players move
    with django_capture_on_commit_callbacks(execute=True):
        services.execute_moves(t.id)
    follow()
    assert held["players_left"] == 18 and len(held["finishes"]) == 3
    assert [tb["broken"] for tb in held["tables"]] == [False, False, True]
