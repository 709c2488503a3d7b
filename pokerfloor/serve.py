"""Serve HTTP and websockets from several daphne processes on one port.

    python -m pokerfloor.serve --workers 4 [--bind 127.0.0.1] [--port 8000] [-- DAPHNE OPTIONS...]

(``make run WORKERS=4``).  This launcher binds the listening socket once and
hands it to every daphne (``daphne --fd N``); all of them accept from the one
queue of new connections, a busy process simply accepts fewer.  When a
daphne dies (even ``kill -9``), only the connections it had accepted end (its
clients reconnect); connections not yet accepted wait in the queue for the
others, and the launcher starts a fresh daphne on the same socket a second
later.  (One ``SO_REUSEPORT`` socket per process was tried first: the kernel
then resets the connections queued on a dying process's socket.)

The processes share everything through outside servers, never through memory:

* PostgreSQL: the one ``DATABASE_URL``, or the one embedded server in
  ``.pgdata/`` that the first process starts and the others adopt (its start
  is serialised by an inter-process lock; each process's watchdog restarts it
  under the same lock if it dies);
* Redis (``REDIS_URL``, required for more than one process): the channel
  layer, so an update committed by a dealer on one process reaches the floor
  dashboards on every other, and the rate-limit counters;
* the floor's clock (``manage.py run_worker``) runs once beside them, not in
  each process (``make run`` starts it; several are safe but useless).

Each process keeps only per-connection state (a socket's session expiry
timer, the lobby screens' shared subscription per process), so a client
whose process dies reconnects to another one, receives a fresh snapshot and
resends its unacknowledged message with the same ``client_id``
(docs/protocol.md), which is applied once.

SIGTERM or SIGINT stops every daphne (SIGTERM, then SIGKILL after 10 s) and
exits.  On Linux each daphne is also told SIGTERM by the kernel when the
launcher dies without stopping them (``kill -9``, a crash: ``PR_SET_PDEATHSIG``),
so no daphne is left holding the port.  The launcher imports neither Django
nor the application.
"""

from __future__ import annotations

import argparse
import functools
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Seconds before a daphne that exited on its own is started again.
RESTART_DELAY = 1.0
#: Seconds a daphne is given to stop after SIGTERM before SIGKILL.
STOP_TIMEOUT = 10.0


def _die_with_parent(launcher_pid: int) -> None:
    """In a daphne between fork and exec: ask the kernel for SIGTERM when the launcher
    (``launcher_pid``) dies (Linux ``prctl(PR_SET_PDEATHSIG)``, kept across exec); nothing
    elsewhere.  Then check that the launcher did not die already before the request was made."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_pdeathsig = 1
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != launcher_pid:
        os.kill(os.getpid(), signal.SIGTERM)


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket listening on ``host:port`` (IPv4 or IPv6 by the address's form; port 0: a free one),
    inheritable by the daphnes.  Raises ``OSError`` when the address is taken or cannot be bound."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    sock.set_inheritable(True)
    return sock


class Launcher:
    """Start and supervise ``workers`` daphne processes serving ``app`` on ``host:port``.

    ``daphne_args``: further daphne options (e.g. ``--proxy-headers``), given to each process.
    ``daphne``: the daphne executable (default: the one beside this Python)."""

    def __init__(
        self,
        workers: int,
        host: str,
        port: int,
        app: str = "pokerfloor.asgi:application",
        daphne_args: list[str] | None = None,
        daphne: str | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError("--workers must be at least 1")
        self.workers = workers
        self.host = host
        self.app = app
        self.daphne_args = list(daphne_args or [])
        self.daphne = daphne or str(Path(sys.executable).with_name("daphne"))
        self.procs: dict[int, subprocess.Popen] = {}  # slot -> process
        self.stopping = False
        self.socket = listening_socket(host, port)
        self.port = self.socket.getsockname()[1]

    def start(self, slot: int) -> subprocess.Popen:
        """Start the daphne of ``slot`` on the shared socket."""
        fd = self.socket.fileno()
        proc = subprocess.Popen(
            [self.daphne, "--fd", str(fd), *self.daphne_args, self.app],
            cwd=ROOT,
            pass_fds=(fd,),
            env={**os.environ, "POKERFLOOR_SERVER_SLOT": str(slot)},
            preexec_fn=functools.partial(_die_with_parent, os.getpid()),  # the launcher runs no threads: safe
        )
        self.procs[slot] = proc
        return proc

    def start_all(self) -> None:
        for slot in range(self.workers):
            self.start(slot)

    def stop(self, *_: object) -> None:
        """Stop every daphne: SIGTERM, then SIGKILL after ``STOP_TIMEOUT`` seconds."""
        self.stopping = True
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        deadline = time.monotonic() + STOP_TIMEOUT
        for proc in self.procs.values():
            try:
                proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.socket.close()

    def supervise(self) -> None:
        """Restart a daphne that exits on its own, until :meth:`stop`."""
        while not self.stopping:
            time.sleep(0.2)
            for slot, proc in list(self.procs.items()):
                if self.stopping or proc.poll() is None:
                    continue
                print(
                    f"pokerfloor.serve: daphne {proc.pid} (process {slot + 1}) exited with {proc.returncode}; "
                    f"starting another in {RESTART_DELAY:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
                time.sleep(RESTART_DELAY)
                if not self.stopping:
                    self.start(slot)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pokerfloor.serve",
        description="Serve pokerfloor from several daphne processes on one port (see the module docstring).",
    )
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WORKERS", "1") or 1))
    parser.add_argument("--bind", "-b", default="127.0.0.1")
    parser.add_argument("--port", "-p", type=int, default=8000)
    parser.add_argument("--app", default="pokerfloor.asgi:application")
    parser.add_argument("daphne_args", nargs=argparse.REMAINDER, help="after --: options for each daphne")
    args = parser.parse_args(argv)
    extra = args.daphne_args[1:] if args.daphne_args[:1] == ["--"] else args.daphne_args
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.workers > 1 and not os.environ.get("REDIS_URL") and args.app == "pokerfloor.asgi:application":
        parser.error(
            "more than one process needs REDIS_URL (the channel layer they share: without it a dealer's "
            "update reaches only the dashboards on the dealer's own process)"
        )
    try:
        launcher = Launcher(args.workers, args.bind, args.port, args.app, extra)
    except OSError as error:
        parser.error(f"cannot listen on {args.bind}:{args.port}: {error}")
    signal.signal(signal.SIGTERM, launcher.stop)
    signal.signal(signal.SIGINT, launcher.stop)
    launcher.start_all()
    print(
        f"pokerfloor on http://{args.bind}:{launcher.port}/ ({args.workers} processes)",
        file=sys.stderr,
        flush=True,
    )
    launcher.supervise()
    return 0


if __name__ == "__main__":
    sys.exit(main())
