"""Web Push of a call to a remote player's phone (issue 29): a closed page still gets the call.

The VAPID keys come from the settings: ``POKERFLOOR_VAPID_PRIVATE_KEY`` (the private key, PEM text or
the base64url raw key ``vapid --gen`` prints), ``POKERFLOOR_VAPID_PUBLIC_KEY`` (base64url, given to the
browser's ``pushManager.subscribe``) and ``POKERFLOOR_VAPID_SUBJECT`` (``mailto:`` of the house).  Without
a private key nothing is pushed.  Sending uses ``pywebpush`` in a background thread after the commit, so
a slow push service never holds up the floor.
"""

from __future__ import annotations

import json
import logging
import threading

from django.conf import settings
from django.db import transaction

from room.models import Call, PushSubscription

logger = logging.getLogger(__name__)


def vapid_public_key() -> str:
    """The VAPID public key for the phone page (``""`` when push is not set up)."""
    return getattr(settings, "POKERFLOOR_VAPID_PUBLIC_KEY", "") or ""


def call_payload(call: Call) -> dict:
    """The push message of a call: ``{"type": "call", "game", "table", "seat", "deadline"}`` (no names)."""
    return {
        "type": "call",
        "game": call.game.name,
        "table": call.table.name,
        "seat": call.seat_number,
        "deadline": call.deadline.isoformat(),
    }


def _messages(call_id: int) -> list[tuple[int, dict, str, int]]:
    """The pushes of a call: ``[(subscription id, subscription info, data, ttl seconds)]`` (empty without
    VAPID keys or subscriptions)."""
    call = Call.objects.select_related("game", "table").filter(pk=call_id).first()
    if not getattr(settings, "POKERFLOOR_VAPID_PRIVATE_KEY", "") or call is None:
        return []
    data = json.dumps(call_payload(call))
    ttl = int(max(60, (call.deadline - call.called_at).total_seconds()))
    return [
        (sub.pk, {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}, data, ttl)
        for sub in PushSubscription.objects.filter(session__entries__entry=call.entry)
    ]


def _deliver(messages: list[tuple[int, dict, str, int]]) -> int:
    """Send the pushes (pywebpush: payload encrypted for the browser, VAPID-signed); returns how many the
    push services accepted.  A subscription answered 404 or 410 (gone) is deleted."""
    from py_vapid import Vapid02
    from pywebpush import WebPushException, webpush

    if not messages:
        return 0
    raw = getattr(settings, "POKERFLOOR_VAPID_PRIVATE_KEY", "")
    key = Vapid02.from_pem(raw.encode()) if raw.lstrip().startswith("-----BEGIN") else Vapid02.from_string(raw)
    subject = getattr(settings, "POKERFLOOR_VAPID_SUBJECT", "mailto:floor@example.invalid")
    sent = 0
    for sub_id, info, data, ttl in messages:
        try:
            webpush(info, data, vapid_private_key=key, vapid_claims={"sub": subject}, ttl=ttl, timeout=5)
            sent += 1
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in (404, 410):
                PushSubscription.objects.filter(pk=sub_id).delete()
            logger.info("web push refused: %s", status)
        except Exception as exc:  # a push service being down must not break the floor
            logger.info("web push failed: %s", exc)
    return sent


def send_call(call_id: int) -> int:
    """Push the call ``call_id`` to every subscription of its entry's phone now; returns how many pushes
    were accepted (0 without VAPID keys)."""
    return _deliver(_messages(call_id))


def push_call_on_commit(call_id: int) -> None:
    """After the commit, push call ``call_id``: the messages are read at once, sent in a background thread."""
    if not getattr(settings, "POKERFLOOR_VAPID_PRIVATE_KEY", ""):
        return

    def start() -> None:
        messages = _messages(call_id)
        if not messages:
            return

        def run() -> None:
            from django.db import connections

            try:
                _deliver(messages)
            finally:
                connections.close_all()

        threading.Thread(target=run, daemon=True).start()

    transaction.on_commit(start)
