"""The server's machinery, in one place, each piece saying why it exists: what makes it fast and what
protects it from too much at once.

Everything here but the two guards changes how fast the same work is done, never what is done: the
views, consumers and services above would behave the same on Django's and Channels' stock pieces, only
slower.  The guards, :mod:`~pokerfloor.runtime.admission` and :mod:`~pokerfloor.runtime.throttle`, refuse
what would overload the server or serve a guesser.  The figures
behind each choice are in ``bench/RESULTS.md`` ("Runtime machinery"), dated and with the machine.

* :mod:`pokerfloor.runtime.http` -- Django's HTTP handler with the middleware and view in one call on a
  small pool of long-lived threads (Django's own handler hops threads ~18 times per request and, under
  ASGI, opens a database connection per request: ``CONN_MAX_AGE`` has no effect, Django ticket #33497).
* :mod:`pokerfloor.runtime.dispatch` -- the consumers' ``dispatch`` without Channels' per-message
  ``close_old_connections`` hop through its one database thread (a table update cost one hop per floor
  dashboard, all queued on one thread).
* :mod:`pokerfloor.runtime.layers` -- the channel layers: the in-memory one with its expiry sweep run
  once a second instead of on every message, and the Redis one made safe for a Redis that restarts.
* :mod:`pokerfloor.runtime.threads` -- the thread pools: sockets' reads (two threads, not Channels' one)
  and services (``SERVICE_THREADS``), each thread keeping its database connection, checked only after an
  error or past its age (no ``SELECT 1`` before each call).
* :mod:`pokerfloor.runtime.loopdb` -- PostgreSQL connections of the event loop itself (psycopg's
  ``AsyncConnection``) for the one statement of a dealer's betting action decided in memory: the thread
  hop per action cost about ten context switches of the server process.
* :mod:`pokerfloor.runtime.auth` -- Channels' session authentication on the read pool, so sockets opened
  at once authenticate side by side.
* :mod:`pokerfloor.runtime.admission` -- at most ``WS_CONNECT_LIMIT`` websocket connects in progress and a
  queue of those whose turn comes within ``WS_CONNECT_QUEUE_MS``; the rest are closed at once with "try
  again in N ms" (close code 4503) instead of timing out in an unbounded queue while the server still does
  their work (a reconnect loop that never converged at 500+ tablets).
* :mod:`pokerfloor.runtime.shared` -- one read for the sockets that connect at the same moment and need the
  same picture (the floor dashboards' summaries of every table, a room's lobby screens), never a read begun
  before a socket subscribed (after a restart 20 dashboards each read 1,000 tables' summaries).
* :mod:`pokerfloor.runtime.memory` -- ``gc.freeze()`` of everything loaded at start-up.
* :mod:`pokerfloor.runtime.handshake` -- autobahn's pretty-printing of its options at every websocket
  handshake, for a debug line nobody writes, done only when one is written.
* :mod:`pokerfloor.runtime.throttle` -- rate limits counted in Django's cache (failed logins, guessed lobby
  tokens, remote waitlist joins), used by the project's login and by the room's, the tournaments' and the
  public pages' views and sockets: not the tables' business, so not in the ground app.

:mod:`pokerfloor.asgi`, the apps' consumers and the views that throttle import from here; nothing here
imports an app.
"""
