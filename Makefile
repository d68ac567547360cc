# The two commands of the README: `make run` and `make test`. Each sets itself up.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: setup run test test-fast docs bench bench-faults clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed-dev: $(BIN)/python requirements/base.txt requirements/dev.txt
	$(BIN)/pip install --quiet -r requirements/dev.txt
	touch $@

setup: $(VENV)/.installed-dev    ## virtual environment with every dependency

run: setup                       ## the product on its embedded default (no servers)
	bin/run

test: setup                      ## the whole suite: PostgreSQL + Redis, then SQLite
	bin/test

test-fast: setup                 ## the suite without the slow exhaustive checks
	bin/test -m "not slow"

docs: setup                      ## the documentation site on http://127.0.0.1:8001 (reloads on edit)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --dev-addr 127.0.0.1:8001

bench: setup                     ## benchmarks (PostgreSQL: set DATABASE_URL and SECRET_KEY)
	$(BIN)/python manage.py migrate --noinput -v0
	$(BIN)/python manage.py seed_demo
	$(BIN)/python manage.py seed_demo_tables
	$(BIN)/python manage.py bench_events
	$(BIN)/python manage.py bench_commands
	$(BIN)/python manage.py bench_hands
	$(BIN)/python manage.py bench_poker
	$(BIN)/python manage.py bench_poker_room
	$(BIN)/python manage.py bench_jackpot_follower
	$(BIN)/python manage.py bench_high_hand_close
	$(BIN)/python manage.py bench_console
	$(BIN)/python manage.py bench_floor

bench-faults: setup              ## the fault harness, 10 injections of each kind (root: network namespaces)
	$(BIN)/python manage.py bench_faults --injections 10 --out var/faults

clean:
	rm -rf $(VENV) var
