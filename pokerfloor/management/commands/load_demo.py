"""``manage.py load_demo``: the demo room (idempotent).

Creates the groups ``dealer``, ``floor`` and ``manager``; the accounts
``dealer`` (assigned to Table 1 and the cash floor's NL 1/2 Main: his
login opens Table 1, the tablet switches), ``dealer2`` (Table 2), ``floor`` and
``manager``; three open tables with players seated; a demo tournament with
twelve players registered; the cash floor "casino" (games, tables, a
waitlist, a lobby display link); and prints the credentials and links.

It lives in the project package because it uses every app (tables, room,
tournaments), and ``tables`` imports none of the apps above it.
"""

from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand
from django.db import transaction

from room import services as room
from room.models import Room
from tables import services
from tables.models import Table
from tables.views import dealer_tables
from tournaments import services as tournament_services
from tournaments.models import Tournament
from tournaments.views import DEFAULT_STRUCTURE

ACCOUNTS = [
    ("dealer", "dealer-demo", "dealer"),
    ("dealer2", "dealer2-demo", "dealer"),
    ("floor", "floor-demo", "floor"),
    ("manager", "manager-demo", "manager"),
]

TABLES = [
    # name, small blind, big blind, straddle, profile, dealer, players (seat, name, stack)
    (
        "Table 1",
        1,
        2,
        0,
        "tda-2024",
        "dealer",
        [(1, "Anna", 200), (2, "Ben", 340), (4, "Clara", 150), (5, "David", 500), (7, "Eva", 260), (9, "Felix", 180)],
    ),
    (
        "Table 2",
        2,
        5,
        0,
        "casino-cash",
        "dealer2",
        [(1, "Gina", 500), (3, "Hugo", 820), (6, "Ines", 450), (8, "Jonas", 1000)],
    ),
    ("Table 3", 5, 10, 0, "tda-2024", None, [(2, "Karl", 1500), (5, "Lena", 2200), (8, "Mia", 1000)]),
]


class Command(BaseCommand):
    help = "Load the demo room: 3 tables, players, dealer/floor/manager accounts (idempotent)."

    def handle(self, *args, **options):
        with transaction.atomic():
            groups = {name: Group.objects.get_or_create(name=name)[0] for name in ("dealer", "floor", "manager")}
            users = {}
            for username, password, group in ACCOUNTS:
                user, created = User.objects.get_or_create(username=username)
                if created:
                    user.set_password(password)
                    user.is_staff = group == "manager"
                    user.save()
                user.groups.add(groups[group])
                users[username] = user
            for name, sb, bb, straddle, profile, dealer, players in TABLES:
                if Table.objects.filter(name=name).exists():
                    continue
                table = services.create_table(
                    name,
                    small_blind=sb,
                    big_blind=bb,
                    straddle=straddle,
                    rules_profile=profile,
                    dealer=users.get(dealer) if dealer else None,
                )
                for seat, player, stack in players:
                    services.seat_player(table.id, seat, player, stack)
        # Cash floor (room app): games, a main and a must-move table, a waitlist, a lobby display link;
        # loaded before the logins are printed, since the dealer deals a table of it too.
        token = load_cash_floor(users)
        self.stdout.write("Demo room loaded. Log in at /login/ with:")
        for username, password, group in ACCOUNTS:
            extra = ""
            if group == "dealer":
                # the table the login opens first, then the others of the tablet's switcher
                tables = [t.name for t in dealer_tables(users[username])]
                if tables:
                    also = f"; also {', '.join(tables[1:])}" if len(tables) > 1 else ""
                    extra = f"  (tablet of {tables[0]}{also})"
            self.stdout.write(f"  {group:8s} {username:8s} / {password}{extra}")
        # Demo tournament (tournaments app): 004 MunotPoker, 12 players registered, not started.
        demo = Tournament.objects.filter(name="Demo Deepstack").first()
        if demo is None:
            demo = tournament_services.create_tournament(
                "Demo Deepstack",
                "munotpoker",
                DEFAULT_STRUCTURE,
                starting_stack=20_000,
                buy_in=100,
                re_entries_allowed=1,
            )
            for i in range(12):
                tournament_services.register(demo.id, f"Guest {i + 1:02d}")
        self.stdout.write(
            f"  tournament director: /tournaments/{demo.id}/   lobby: /tournaments/lobby/{demo.public_token}/"
        )
        self.stdout.write(f"  room dashboard: /room/casino/   lobby screen (no login): /lobby/{token}/")


def load_cash_floor(users) -> str:
    """The demo room "casino" (idempotent): NLHE 1/2 with a main table and a
    must-move table, NLHE 2/5, PLO 1/2 and split-limit Hold'em 2/4; a
    waitlist with a few names; returns the token of its lobby display link."""
    existing = Room.objects.filter(slug="casino").first()
    if existing is not None:
        display = existing.displays.filter(revoked=False).first()
        return display.token if display else room.create_display(existing.id, actor=users["manager"]).token
    with transaction.atomic():
        casino = room.create_room("casino", "Casino", call_seconds=300)
        nl12 = room.create_game(casino.id, "NLHE 1/2", small_blind=1, big_blind=2, min_buy_in=40, max_buy_in=200)
        nl25 = room.create_game(casino.id, "NLHE 2/5", small_blind=2, big_blind=5, min_buy_in=100, max_buy_in=500)
        plo = room.create_game(
            casino.id, "PLO 1/2", variant="plo", small_blind=1, big_blind=2, min_buy_in=100, max_buy_in=400
        )
        room.create_game(
            casino.id,
            "Limit Hold'em 2/4",
            variant="limit_holdem",
            small_blind=2,
            big_blind=4,
            min_buy_in=40,
            max_buy_in=400,
        )
        main = room.open_table(nl12.id, "NL 1/2 Main", max_seats=9, dealer=users.get("dealer"))
        must = room.open_table(nl12.id, "NL 1/2 Must-move", kind="must_move", max_seats=9)
        for seat, name in enumerate(["Olga", "Paul", "Rita", "Sven", "Tina", "Uwe", "Vera", "Walt", "Xaver"], start=1):
            services.seat_player(main.id, seat, name, 0)
            room.buy_in(main.id, seat, 100 + 20 * (seat % 5))
        for name in ("Yvonne", "Zeno"):  # through the list to the must-move table: the must-move order
            entry = room.add_to_waitlist(nl12.id, name)
            call = entry.calls.get(status="open")
            room.accept_call(call.id)
            room.buy_in(must.id, call.seat_number, 160)
        room.open_table(nl25.id, "NL 2/5", max_seats=9)
        room.open_table(plo.id, "PLO 1/2", max_seats=9)
    for game, name, source in ((nl25, "Quentin", "walk_in"), (nl25, "Ronja", "phone_in"), (plo, "Quentin", "walk_in")):
        room.add_to_waitlist(game.id, name, source=source)
    # the must-move table fills from the NLHE 1/2 list: callers for its open seats
    room.add_to_waitlist(nl12.id, "Ada", source="walk_in")
    room.add_to_waitlist(nl12.id, "Bruno", source="phone_in")
    return room.create_display(casino.id, actor=users["manager"], label="Lobby TV").token
