"""Hostile input: generated messages of every type, valid and broken, sent to every socket and JSON/form
endpoint (Hypothesis, strategies in ``tests/hostile.py``).

For every message: no server error (no exception out of a consumer, no socket closed, no HTTP 500, nothing
logged at ERROR), an error reply for every invalid one (``invalid`` on the sockets and JSON endpoints), and
nothing changed when the answer is an error (seqs of tables, rooms and tournaments and their event counts).
Afterwards every hand's event log replays to its stored snapshot.  The counts of generated messages and of
server errors seen are printed at the end.
"""

from __future__ import annotations

import json
import logging
from collections import Counter

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser, User
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests import hostile

pytestmark = pytest.mark.django_db(transaction=True)

# Bounded for ``make test``: no shrinking (a failure shows the generated batch as it was sent).
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
)
TOTALS: Counter = Counter()


class _ErrorLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def error_log():
    handler = _ErrorLog()
    logging.getLogger().addHandler(handler)
    yield handler
    logging.getLogger().removeHandler(handler)


# --------------------------------------------------------------------------- the world
@pytest.fixture
def world(roles, dealer, floorman):
    """Two rooms (one with a tournament), seated cash tables, a floor call, a display link."""
    from room import services as r
    from rules import services as rules_services
    from tables import services
    from tournaments import services as t

    manager = User.objects.create_user(username="manager", password="pw-manager")
    manager.groups.add(roles["manager"])
    room = r.create_room("casino", "Casino")
    game = r.create_game(room.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=400)
    table = r.open_table(game.id, "Main 1", max_seats=6)
    table2 = r.open_table(game.id, "Main 2", max_seats=9)
    for seat, name in [(1, "Anna"), (3, "Ben"), (5, "Clara")]:
        services.seat_player(table.id, seat, name, 0)
        r.buy_in(table.id, seat, 200)
    r.assign_dealer(table.id, dealer, actor=manager)
    r.add_to_waitlist(game.id, "Walker")
    other = r.create_room("other", "Other")
    other_game = r.create_game(other.id, "PLO 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=400)
    other_table = r.open_table(other_game.id, "Other 1", max_seats=6)
    services.seat_player(other_table.id, 2, "Otto", 0)
    r.buy_in(other_table.id, 2, 100)
    display = r.create_display(room.id, actor=manager, label="TV")
    call = rules_services.raise_floor_call(table.id, "dispute", seat=1, note="x", actor=floorman)

    levels = {"periods": [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20}]}
    tourney = t.create_tournament("Sunday", "munotpoker", levels, starting_stack=1000)
    for name in ("Tina", "Tom", "Tess", "Theo"):
        t.register(tourney.id, name)
    t.start(tourney.id, start_clock=False)
    tourney.refresh_from_db()
    t_table = tourney.tables.first().table
    ids = sorted(
        {
            room.id,
            other.id,
            game.id,
            other_game.id,
            table.id,
            table2.id,
            other_table.id,
            call.id,
            tourney.id,
            t_table.id,
            *tourney.entries.values_list("id", flat=True),
        }
    )
    return {
        "room": room,
        "other": other,
        "table": table,
        "other_table": other_table,
        "call": call,
        "ids": ids,
        "tourney": tourney,
        "t_table": t_table,
        "display": display,
        "manager": manager,
        "dealer": dealer,
        "floor": floorman,
    }


def state() -> tuple:
    """What an error must leave unchanged."""
    from room.models import LobbyDisplay, QueueEntry, Room, RoomLog
    from rules.models import FloorCall, Ruling
    from tables.models import HandEvent, Seat, Table
    from tournaments.models import Entry, Tournament, TournamentEvent

    return (
        tuple(Table.objects.order_by("id").values_list("id", "seq", "status", "dealer_id")),
        HandEvent.objects.count(),
        tuple(Seat.objects.order_by("id").values_list("id", "player_id", "stack")),
        tuple(FloorCall.objects.order_by("id").values_list("id", "status")),
        Ruling.objects.count(),
        tuple(Room.objects.order_by("id").values_list("id", "seq")),
        RoomLog.objects.count(),
        QueueEntry.objects.count(),
        LobbyDisplay.objects.count(),
        tuple(Tournament.objects.order_by("id").values_list("id", "seq")),
        TournamentEvent.objects.count(),
        Entry.objects.count(),
    )


def current_seq(table_id: int) -> int:
    from tables.models import Table

    return Table.objects.get(pk=table_id).seq


def assert_hands_replay() -> int:
    """Every hand's events replay to its stored snapshot; returns the number of hands checked."""
    from tables.models import Hand
    from tables.services import replay
    from tables.services.snapshots import hand_view

    hands = list(Hand.objects.select_related("table").order_by("id"))
    for hand in hands:
        with replay.cache_lock:
            replay.state_cache.pop(hand.id, None)
        state_, _, info = replay.hand_replay(hand)
        view = json.loads(json.dumps(hand_view(hand.table, state_, info)))
        assert view == hand.snapshot, f"hand {hand.id} does not replay to its snapshot"
    return len(hands)


def report(capsys, name: str, counts: Counter) -> None:
    TOTALS.update(counts)
    with capsys.disabled():
        print(f"\nhostile input {name}: {dict(counts)}; so far {dict(TOTALS)}")


# --------------------------------------------------------------------------- sockets
class SocketRun:
    """One socket's session: send frames, read the reply, check the rules."""

    REPLIES = {"ack", "error", "snapshot", "interpretation", "floor_snapshot"}

    def __init__(self, path: str, user, counts: Counter, seq_of=None, terminal=frozenset(), codes=("invalid",)):
        self.path, self.user, self.counts, self.codes = path, user, counts, codes
        self.seq_of = seq_of
        self.replies = self.REPLIES | set(terminal)

    async def __aenter__(self):
        app = URLRouter(__import__("pokerfloor.routing", fromlist=["x"]).websocket_urlpatterns)
        self.ws = WebsocketCommunicator(app, self.path)
        self.ws.scope["user"] = self.user
        connected, code = await self.ws.connect(timeout=5)
        assert connected, (self.path, code)
        # the floor dashboard's greeting ends with its open floor calls: wait for them on a slow machine
        await self.drain(until="floor_calls" if self.path == "/ws/floor/" else None)
        return self

    async def __aexit__(self, *exc):
        await self.ws.disconnect()

    async def drain(self, until: str | None = None) -> None:
        """Read what the socket sent on connecting: until a message of type ``until`` (up to 5 s), then
        until it is quiet for 20 ms."""
        while until is not None:
            output = await self.ws.receive_output(timeout=5)
            assert output["type"] != "websocket.close", f"{self.path} closed: {output}"
            if json.loads(output["text"]).get("type") == until:
                break
        while not await self.ws.receive_nothing(timeout=0.02):
            output = await self.ws.receive_output()
            assert output["type"] != "websocket.close", f"{self.path} closed: {output}"

    async def reply(self, frame: str) -> dict:
        """The direct answer to one frame (broadcasts on the way are skipped)."""
        while True:
            try:
                output = await self.ws.receive_output(timeout=5)
            except TimeoutError:
                raise AssertionError(f"no answer on {self.path} to {frame[:200]!r}") from None
            if output["type"] == "websocket.close":
                self.counts["server_errors"] += 1
                raise AssertionError(f"{self.path} closed ({output.get('code')}) on {frame[:200]!r}")
            message = json.loads(output["text"])
            if message.get("type") in self.replies:
                return message

    async def send(self, data, invalid: bool) -> None:
        seq = await database_sync_to_async(self.seq_of)() if self.seq_of else 0
        frame = hostile.encode(data, seq)
        before = await database_sync_to_async(state)()
        self.counts["messages"] += 1
        self.counts["invalid" if invalid else "valid"] += 1
        try:
            await self.ws.send_input({"type": "websocket.receive", "text": frame})
            message = await self.reply(frame)
        except AssertionError:
            raise
        except Exception:
            self.counts["server_errors"] += 1
            raise
        after = await database_sync_to_async(state)()
        if invalid:
            assert message["type"] == "error" and message["code"] in self.codes, (frame[:300], message)
        if message["type"] == "error":
            self.counts["errors_" + message["code"]] += 1
            assert before == after, f"an error changed the state: {frame[:300]!r} -> {message}"
        else:
            self.counts["ok"] += 1


def run_socket_session(path, user, batch, counts, seq_of=None, terminal=frozenset(), codes=("invalid",)):
    async def session():
        async with SocketRun(path, user, counts, seq_of, terminal, codes) as run:
            for data, invalid in batch:
                await run.send(data, invalid)

    async_to_sync(session)()


def _check_logs(error_log, counts) -> None:
    counts["server_errors"] += len(error_log.records)
    assert not error_log.records, [r.getMessage() for r in error_log.records]


def test_the_dealer_socket_survives_hostile_messages(world, error_log, capsys):
    table, counts = world["table"], Counter()
    ids = world["ids"]

    @SETTINGS
    @given(batch=st.lists(hostile.messages(hostile.DEALER, ids), min_size=1, max_size=12))
    def run(batch):
        start = [({"type": "start_hand", "expected_seq": hostile.CURRENT}, False)]
        for user in (world["dealer"], world["floor"]):
            run_socket_session(
                f"/ws/tables/{table.id}/dealer/", user, start + batch, counts, seq_of=lambda: current_seq(table.id)
            )

    run()
    counts["hands_replayed"] = assert_hands_replay()
    _check_logs(error_log, counts)
    report(capsys, "dealer socket", counts)


def test_the_floor_room_and_lobby_sockets_survive_hostile_messages(world, error_log, capsys):
    counts, ids = Counter(), world["ids"]
    room, tourney = world["room"], world["tourney"]
    sockets = [
        ("/ws/floor/", world["floor"], hostile.FLOOR, {"update", "batch"}, ("invalid",)),
        (f"/ws/room/{room.slug}/", world["floor"], hostile.SNAPSHOT_ONLY, set(), ("invalid",)),
        # the lobby screens are read-only: every message is refused as such
        (f"/ws/lobby/{world['display'].token}/", AnonymousUser(), hostile.SNAPSHOT_ONLY, set(), ("read_only",)),
        (f"/ws/tournaments/{tourney.id}/", world["floor"], hostile.SNAPSHOT_ONLY, set(), ("invalid",)),
        (
            f"/ws/tournaments/lobby/{tourney.public_token}/",
            AnonymousUser(),
            hostile.SNAPSHOT_ONLY,
            set(),
            ("invalid", "read_only"),
        ),
    ]

    @SETTINGS
    @given(which=st.integers(0, len(sockets) - 1), data=st.data())
    def run(which, data):
        path, user, spec, terminal, codes = sockets[which]
        batch = data.draw(st.lists(hostile.messages(spec, ids), min_size=1, max_size=10))
        run_socket_session(path, user, batch, counts, terminal=terminal, codes=codes)

    run()
    _check_logs(error_log, counts)
    report(capsys, "floor, room, lobby and tournament sockets", counts)


# --------------------------------------------------------------------------- HTTP
def _post_json(client, url, data, invalid, counts, seq=0):
    before = state()
    body = hostile.encode(data, seq)
    response = client.post(url, body.encode("utf-8", "surrogatepass"), content_type="application/json")
    counts["messages"] += 1
    counts["invalid" if invalid else "valid"] += 1
    if response.status_code >= 500:
        counts["server_errors"] += 1
    assert response.status_code < 500, (url, body[:300])
    answer = response.json()
    if invalid:
        assert response.status_code == 400 and answer["code"] == "invalid", (url, body[:300], answer)
    if not answer.get("ok"):
        counts["errors_" + answer.get("code", "?")] += 1
        assert before == state(), f"an error changed the state: {url} {body[:300]!r} -> {answer}"
    else:
        counts["ok"] += 1


def test_the_json_endpoints_survive_hostile_bodies(world, client, error_log, capsys):
    counts, ids = Counter(), world["ids"]
    client.raise_request_exception = False
    endpoints = [
        (f"/room/{world['room'].slug}/act/", hostile.ROOM_ACT),
        (f"/tournaments/{world['tourney'].id}/action/", hostile.DIRECTOR),
        (f"/tournaments/tables/{world['t_table'].id}/absent/", hostile.ABSENT),
    ]

    @SETTINGS
    @given(which=st.integers(0, len(endpoints) - 1), user=st.sampled_from(["floor", "manager"]), data=st.data())
    def run(which, user, data):
        url, spec = endpoints[which]
        client.force_login(world[user])
        for item, invalid in data.draw(st.lists(hostile.messages(spec, ids), min_size=1, max_size=10)):
            _post_json(client, url, item, invalid, counts)

    run()
    counts["hands_replayed"] = assert_hands_replay()
    _check_logs(error_log, counts)
    report(capsys, "JSON endpoints", counts)


QUERY_TEXT = st.one_of(
    hostile.HOSTILE_STRINGS,
    hostile.SAFE_TEXT,
    hostile.HOSTILE_STRINGS,
    st.just("x" * 5000),
    st.just("#44"),
    st.just("6.13"),
    st.just("a & | ! ( :*"),
    st.integers(-(2**70), 2**70).map(str),
)


def test_the_pages_and_forms_survive_hostile_parameters(world, client, error_log, capsys):
    from urllib.parse import quote

    counts = Counter()
    client.raise_request_exception = False
    client.force_login(world["floor"])
    table, call = world["table"], world["call"]
    get_paths = [
        "/rules/",
        "/rules/rulings/",
        f"/tables/{table.id}/hands/",
        f"/tables/{table.id}/dealer/",
        f"/tables/{table.id}/procedures/",
        f"/tournaments/tables/{world['t_table'].id}/absent/",
        f"/rules/calls/{call.id}/",
        "/floor/",
        f"/room/{world['room'].slug}/",
    ]
    id_paths = [
        "/tables/{}/hands/",
        "/tables/{}/dealer/",
        "/tables/{}/procedures/",
        "/hands/{}/",
        "/hands/{}/phh/",
        "/rules/calls/{}/",
        "/rules/rulings/{}/",
        "/rules/players/{}/",
        "/tournaments/{}/",
        "/tournaments/tables/{}/absent/",
    ]
    params = ["q", "player", "rule", "table", "from", "to", "page"]

    def check(response, what):
        counts["messages"] += 1
        if response.status_code >= 500:
            counts["server_errors"] += 1
        assert response.status_code < 500, what

    @settings(SETTINGS, max_examples=100)
    @given(
        path=st.sampled_from(get_paths),
        query=st.dictionaries(st.sampled_from(params), QUERY_TEXT, max_size=4),
        some_id=st.one_of(st.integers(1, 10**6), st.integers(2**31, 2**80), st.sampled_from(world["ids"])),
        id_path=st.sampled_from(id_paths),
        form=st.dictionaries(
            st.sampled_from(["suggestion", "decision", "citations", "corrections"]),
            st.one_of(
                QUERY_TEXT, hostile.JUNK_DICT.map(json.dumps), st.lists(hostile.JUNK_DICT, max_size=2).map(json.dumps)
            ),
            max_size=4,
        ),
        form_path=st.sampled_from(["rule", "answer", "cancel"]),
    )
    def run(path, query, some_id, id_path, form, form_path):
        url = path + "?" + "&".join(f"{k}={quote(v, safe='', errors='surrogatepass')}" for k, v in query.items())
        check(client.get(url), url)
        check(client.get(id_path.format(some_id)), id_path.format(some_id))
        before = state()
        form = {k: v.encode("utf-8", "surrogatepass").decode("utf-8", "replace") for k, v in form.items()}
        response = client.post(f"/rules/calls/{call.id}/{form_path}/", form)
        check(response, (form_path, form))
        if form_path == "rule" and state() != before:
            counts["rulings_applied"] += 1

    run()
    counts["hands_replayed"] = assert_hands_replay()
    _check_logs(error_log, counts)
    report(capsys, "pages and forms", counts)


# --------------------------------------------------------------------------- findings, one test each
@pytest.mark.parametrize(
    "url",
    [
        "/rules/?q=%00",
        "/rules/?q=a%00b",
        "/rules/rulings/?player=%00",
        "/rules/rulings/?rule=%00",
        "/rules/rulings/?rule=6.13%00&player=A%00&table=%00&from=%00",
    ],
)
def test_a_nul_in_a_search_finds_nothing_instead_of_failing(client, floorman, url):
    client.raise_request_exception = False
    client.force_login(floorman)
    response = client.get(url)
    assert response.status_code == 200


async def _dealer_reply(world, message: dict) -> dict:
    table = world["table"]
    async with SocketRun(f"/ws/tables/{table.id}/dealer/", world["dealer"], Counter()) as run:
        await run.ws.send_json_to(message)
        return await run.reply(json.dumps(message))


def test_a_floor_call_for_a_seat_the_table_does_not_have_is_refused(world):
    from rules.models import FloorCall

    calls = FloorCall.objects.count()
    answer = async_to_sync(_dealer_reply)(world, {"type": "floor_call", "reason": "dispute", "seat": 9})
    assert answer["type"] == "error" and answer["code"] == "invalid" and "1 to 6" in answer["message"]
    assert FloorCall.objects.count() == calls


@pytest.mark.parametrize("details", [{"note": "a\x00b"}, {"\ud800": 1}, {"x": ["\udfff"]}])
def test_floor_call_details_with_nul_or_lone_surrogates_are_refused(world, details):
    from rules.models import FloorCall

    calls = FloorCall.objects.count()
    answer = async_to_sync(_dealer_reply)(world, {"type": "floor_call", "reason": "other", "details": details})
    assert answer["type"] == "error" and answer["code"] == "invalid"
    assert FloorCall.objects.count() == calls


def test_an_out_of_turn_raise_beyond_the_stack_is_refused(world):
    from tables import services
    from tables.models import HandEvent

    table = world["table"]
    services.start_hand(table.id)
    to_act = services.table_snapshot(type(table).objects.get(pk=table.id))["hand"]["state"]["to_act_seat"]
    other = next(s for s in (1, 3, 5) if s != to_act)
    events = HandEvent.objects.count()
    answer = async_to_sync(_dealer_reply)(
        world, {"type": "out_of_turn", "action": {"type": "raise", "seat": other, "to": 10**12}}
    )
    assert answer["type"] == "error" and answer["code"] == "above_stack"
    assert HandEvent.objects.count() == events


@pytest.mark.parametrize(
    "form",
    [
        {"decision": "chop\x00"},
        {"decision": "chop", "citations": "001:\x006.13"},
        {"decision": "chop", "corrections": '[{"type": "penalty", "kind": "warning", "seat": 1, "x": "\\u0000"}]'},
        {"decision": "chop", "corrections": '[{"type": "kill", "seat": [1]}]'},
        {"decision": "chop", "corrections": '[{"type": "kill", "seat": "1"}]'},
    ],
)
def test_a_ruling_form_with_nul_or_a_bad_seat_is_refused_not_a_server_error(world, client, form):
    from rules.models import Ruling

    client.raise_request_exception = False
    client.force_login(world["floor"])
    response = client.post(f"/rules/calls/{world['call'].id}/rule/", form)
    assert response.status_code == 302
    assert not Ruling.objects.exists()


@pytest.mark.parametrize("name", ["a\x00b", "\ud800"])
def test_a_waitlist_name_with_nul_or_a_lone_surrogate_is_refused(world, client, name):
    from room.models import QueueEntry

    client.raise_request_exception = False
    client.force_login(world["floor"])
    entries = QueueEntry.objects.count()
    game = world["room"].games.first()
    body = json.dumps({"op": "waitlist_add", "game_id": game.id, "name": name})
    response = client.post("/room/casino/act/", body, content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert QueueEntry.objects.count() == entries


# --------------------------------------------------------------------------- issue 24, finding 10
NON_FINITE_FRAMES = [
    '{"type": "interpret", "observed": {"chips": [Infinity]}}',
    '{"type": "interpret", "observed": {"chips": {"5": NaN}}}',
    '{"type": "interpret", "observed": {"chips": [-Infinity]}}',
    '{"type": "interpret", "observed": {"chips": [1e999]}}',
    '{"type": "floor_call", "reason": "other", "details": {"chips": Infinity}}',
    '{"type": "start_hand", "format": {"kind": "bomb_pot", "ante": NaN}}',
    '{"type": "snapshot", "extra": NaN}',
]


async def _dealer_frames(world, frames: list[str]) -> list[dict]:
    """The answers of one dealer socket to ``frames``, then to a snapshot request (the socket must stay
    open through all of them)."""
    table = world["table"]
    answers = []
    async with SocketRun(f"/ws/tables/{table.id}/dealer/", world["dealer"], Counter()) as run:
        for frame in [*frames, '{"type": "snapshot"}']:
            await run.ws.send_input({"type": "websocket.receive", "text": frame})
            answers.append(await run.reply(frame))
    return answers


@pytest.mark.parametrize("frame", NON_FINITE_FRAMES)
def test_a_non_finite_number_is_refused_and_the_dealer_socket_stays_open(world, frame, error_log):
    """``json.loads`` reads Infinity, NaN and 1e999 as floats; the interpreter's ``int(inf)`` closed the
    socket with 1011.  Every socket refuses them as ``invalid`` and goes on."""
    from tables import services

    services.start_hand(world["table"].id)
    before = state()
    *refused, snapshot = async_to_sync(_dealer_frames)(world, [frame])
    assert refused[0]["type"] == "error" and refused[0]["code"] == "invalid", refused
    assert "number" in refused[0]["message"], refused
    assert snapshot["type"] == "snapshot"
    assert state() == before
    assert not error_log.records


@pytest.mark.parametrize(
    ("observed", "field"),
    [
        ({"chips": {"5": 1.5}}, "observed.chips.5"),
        ({"chips": [1e300]}, "observed.chips"),
        ({"chips": {"five": 1}}, "observed.chips.five"),
        ({"chips": "a pile"}, "observed.chips"),
        ({"declared": 5}, "observed.declared"),
        ({"chips": {"100": 1}, "motions": "2"}, "observed.motions"),
        ({"chips": {"100": 1}, "amount_kind": "over"}, "observed.amount_kind"),
    ],
)
def test_what_the_dealer_saw_is_typed_at_the_edge(world, observed, field):
    """``observed`` of an ``interpret`` message has a schema: a bad field is named at the edge."""
    from tables import services

    services.start_hand(world["table"].id)
    answer = async_to_sync(_dealer_reply)(world, {"type": "interpret", "observed": observed})
    assert answer["type"] == "error" and answer["code"] == "invalid", answer
    assert answer["field"] == field, answer


def test_a_well_formed_observation_is_still_interpreted(world):
    from tables import services

    services.start_hand(world["table"].id)
    answer = async_to_sync(_dealer_reply)(
        world, {"type": "interpret", "observed": {"chips": {"100": 1}, "declared": None, "motions": 1}}
    )
    assert answer["type"] == "interpretation", answer
    assert answer["result"]["action"] in {"call", "raise", "all-in", "fold", "check", "bet", "none"}


@pytest.mark.parametrize("frame", ['{"type": "snapshot", "x": Infinity}', '{"type": "snapshot", "x": [NaN]}'])
def test_the_room_lobby_and_tournament_sockets_refuse_non_finite_numbers(world, frame):
    paths = [
        ("/ws/floor/", world["floor"]),
        (f"/ws/room/{world['room'].slug}/", world["floor"]),
        (f"/ws/tournaments/{world['tourney'].id}/", world["floor"]),
    ]

    async def ask(path, user):
        async with SocketRun(path, user, Counter(), terminal={"update", "batch"}) as run:
            await run.ws.send_input({"type": "websocket.receive", "text": frame})
            return await run.reply(frame)

    for path, user in paths:
        answer = async_to_sync(ask)(path, user)
        assert answer["type"] == "error" and answer["code"] == "invalid", (path, answer)


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/room/casino/act/", '{"op": "sweep", "x": NaN}'),
        ("/room/casino/act/", '{"op": "settings", "call_seconds": Infinity}'),
        ("tourney", '{"op": "start", "x": -Infinity}'),
    ],
)
def test_the_json_endpoints_refuse_non_finite_numbers(world, client, url, body):
    client.force_login(world["floor"])
    if url == "tourney":
        url = f"/tournaments/{world['tourney'].id}/action/"
    before = state()
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "invalid", response.content
    assert state() == before


def test_a_ruling_form_with_non_finite_corrections_is_refused(world, client):
    from rules.models import Ruling

    client.raise_request_exception = False
    client.force_login(world["floor"])
    response = client.post(
        f"/rules/calls/{world['call'].id}/rule/",
        {"decision": "chop", "corrections": '[{"type": "adjust", "seat": 1, "amount": Infinity}]'},
    )
    assert response.status_code == 302
    assert not Ruling.objects.exists()


@pytest.mark.parametrize("chips", [[float("inf")], [float("nan")], {"5": 1.5}, [1.5], [True]])
def test_the_interpreter_itself_refuses_non_integer_chips(chips):
    """The pure core (also read by ``manage.py interpret``) answers a bad denomination with its own error,
    not an ``OverflowError``."""
    from poker.floor.interpret import InterpretError
    from poker.floor.interpret_data import parse

    with pytest.raises(InterpretError):
        parse({"situation": {"big_blind": 2, "stack": 100}, "observed": {"chips": chips}})
