"""SMS backends for the one-time codes of remote waitlist entries (issue 29).

The backend is named by the setting ``POKERFLOOR_SMS_BACKEND`` (a dotted path to a class with
``send(number: str, text: str) -> None``); the default :class:`ConsoleSMSBackend` prints the message
(development).  README "Remote waitlist: SMS provider" says how to plug a provider.
"""

from __future__ import annotations

import sys
from typing import Protocol

from django.conf import settings
from django.utils.module_loading import import_string

#: Messages sent by :class:`LocmemSMSBackend` (tests), as ``(number, text)``.
outbox: list[tuple[str, str]] = []


class SMSBackend(Protocol):
    def send(self, number: str, text: str) -> None:
        """Send ``text`` to the phone ``number`` (E.164, e.g. ``+41791234567``); raise on failure."""


class ConsoleSMSBackend:
    """Writes the SMS to standard output (development)."""

    def send(self, number: str, text: str) -> None:
        """Print ``number`` and ``text``."""
        sys.stdout.write(f"SMS to {number}: {text}\n")
        sys.stdout.flush()


class FileSMSBackend:
    """Appends each SMS as a line ``number<TAB>text`` to the file named by the setting
    ``POKERFLOOR_SMS_FILE`` (browser tests read the code from it)."""

    def send(self, number: str, text: str) -> None:
        """Append ``number`` and ``text`` (one line) to the file."""
        with open(settings.POKERFLOOR_SMS_FILE, "a", encoding="utf-8") as out:
            out.write(f"{number}\t{text}\n")


class LocmemSMSBackend:
    """Keeps the SMS in :data:`outbox` (tests)."""

    def send(self, number: str, text: str) -> None:
        """Append ``(number, text)`` to :data:`outbox`."""
        outbox.append((number, text))


def backend() -> SMSBackend:
    """An instance of the class named by ``POKERFLOOR_SMS_BACKEND`` (default: the console)."""
    path = getattr(settings, "POKERFLOOR_SMS_BACKEND", "room.sms.ConsoleSMSBackend")
    return import_string(path)()
