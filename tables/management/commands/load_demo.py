"""``manage.py load_demo``: the demo room (idempotent).

Creates the groups ``dealer``, ``floor`` and ``manager``; the accounts
``dealer`` (assigned to Table 1), ``dealer2`` (Table 2), ``floor`` and
``manager``; three open tables with players seated; and prints the
credentials.
"""

from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand
from django.db import transaction

from tables import services
from tables.models import Table

ACCOUNTS = [
    ("dealer", "dealer-demo", "dealer"),
    ("dealer2", "dealer2-demo", "dealer"),
    ("floor", "floor-demo", "floor"),
    ("manager", "manager-demo", "manager"),
]

TABLES = [
    # name, small blind, big blind, straddle, profile, dealer, players (seat, name, stack)
    ("Table 1", 1, 2, 0, "tda-2024", "dealer",
     [(1, "Anna", 200), (2, "Ben", 340), (4, "Clara", 150), (5, "David", 500), (7, "Eva", 260), (9, "Felix", 180)]),
    ("Table 2", 2, 5, 0, "casino-cash", "dealer2",
     [(1, "Gina", 500), (3, "Hugo", 820), (6, "Ines", 450), (8, "Jonas", 1000)]),
    ("Table 3", 5, 10, 0, "tda-2024", None,
     [(2, "Karl", 1500), (5, "Lena", 2200), (8, "Mia", 1000)]),
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
                table = services.create_table(name, small_blind=sb, big_blind=bb, straddle=straddle,
                                              rules_profile=profile, dealer=users.get(dealer))
                for seat, player, stack in players:
                    services.seat_player(table.id, seat, player, stack)
        self.stdout.write("Demo room loaded. Log in at /login/ with:")
        for username, password, group in ACCOUNTS:
            extra = ""
            if group == "dealer":
                table = Table.objects.filter(dealer__username=username).first()
                extra = f"  (tablet of {table.name})" if table else ""
            self.stdout.write(f"  {group:8s} {username:8s} / {password}{extra}")
