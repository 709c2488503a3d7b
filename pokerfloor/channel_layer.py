"""The in-process channel layer used when no ``REDIS_URL`` is set.

Channels' ``InMemoryChannelLayer`` sweeps every channel queue and every
group membership for expired entries on *each* ``receive`` and
``group_send``.  With one consumer per lobby screen that is quadratic: a
room update sent to 200 screens makes 200 receives, each walking all 200
queues and group members again (measured with py-spy on ``bench/lobby.py``:
the sweep was the largest single cost of a fan-out).  This subclass keeps
the library's behaviour and runs the same sweep at most once per
``sweep_interval`` seconds, so a message or a membership may outlive its
expiry by up to that interval (messages live 60 s, memberships a day).
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer as _ChannelsInMemoryChannelLayer


class InMemoryChannelLayer(_ChannelsInMemoryChannelLayer):
    """``channels.layers.InMemoryChannelLayer`` with a rate-limited expiry sweep.

    Config (``CHANNEL_LAYERS["default"]["CONFIG"]``): the library's
    ``expiry``, ``group_expiry``, ``capacity`` and ``channel_capacity``, plus
    ``sweep_interval`` (seconds, float, default 1.0; 0 sweeps on every call
    as the library does).
    """

    def __init__(self, *args, sweep_interval: float = 1.0, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.sweep_interval = float(sweep_interval)
        self._next_sweep = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.sweep_interval
        super()._clean_expired()
