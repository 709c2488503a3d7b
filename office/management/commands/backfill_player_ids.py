"""``manage.py backfill_player_ids [--dry-run]``: the player ids of hands dealt before the player record
existed, matched by the seats' normalised names (issue 28, :func:`office.backfill.backfill_player_ids`)."""

from django.core.management.base import BaseCommand

from office.backfill import backfill_player_ids


class Command(BaseCommand):
    help = "Back-fill Hand.metadata.player_ids from the seats' names (exact normalised name); idempotent."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="count only, write nothing")

    def handle(self, *args, dry_run=False, **options):
        r = backfill_player_ids(dry_run=dry_run)
        verb = "would match" if dry_run else "matched"
        self.stdout.write(f"{r.hands} hands examined; {verb} {r.seats} seats in {r.updated} hands")
        if r.ambiguous:
            self.stdout.write(f"ambiguous names ({len(r.ambiguous)}), left out -- merge the duplicates first:")
            for name in sorted(r.ambiguous):
                records = ", ".join(f"#{pk}" for pk in r.ambiguous[name])
                self.stdout.write(f"  {name!r}: records {records}; {r.ambiguous_seats[name]} seats")
        if r.unmatched:
            seats = sum(r.unmatched.values())
            self.stdout.write(f"no player record ({len(r.unmatched)} names, {seats} seats):")
            for name in sorted(r.unmatched):
                self.stdout.write(f"  {name!r}: {r.unmatched[name]} seats")
