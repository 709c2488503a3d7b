"""``manage.py protocol_doc [--check]``: regenerate docs/protocol.md's message reference from the schemas."""

from django.core.management.base import BaseCommand, CommandError

from pokerfloor.protocol import DOC, updated


class Command(BaseCommand):
    help = "Regenerate the message reference of docs/protocol.md from the message schemas (--check: only compare)."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="exit 1 when the document is out of date")

    def handle(self, *args, check=False, **options):
        text = DOC.read_text(encoding="utf-8")
        new = updated(text)
        if check:
            if new != text:
                raise CommandError("docs/protocol.md is out of date: run `manage.py protocol_doc`")
            self.stdout.write("docs/protocol.md is up to date")
            return
        DOC.write_text(new, encoding="utf-8")
        self.stdout.write("docs/protocol.md written")
