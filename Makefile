# Warfare — the two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/warfare
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0
# pytest-xdist processes for `make test` (one per core here; TEST_WORKERS=0 runs in one process).
TEST_WORKERS ?= 2

HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run check-port test lint e2e fuzz bench messages install install-test clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml requirements.lock | $(BIN)/python
	$(BIN)/pip install --quiet -c requirements.lock -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml requirements.lock | $(BIN)/python
	$(BIN)/pip install --quiet -c requirements.lock -e ".[test]"
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

## make run: set up, migrate, load the demo campaign, serve on http://127.0.0.1:8000
## (SQLite under var/ by default; PostgreSQL when DATABASE_URL is set). Another port:
## PORT=8001 make run. A port already taken is said at once, before anything is installed.
run: check-port $(VENV)/.installed
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py migrate --noinput
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py load_demo
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py runserver $(HOST):$(PORT)

check-port:
	@$(PYTHON) -c "$$CHECK_PORT" "$(HOST)" "$(PORT)"

define CHECK_PORT
import socket, sys
host, port = sys.argv[1], sys.argv[2]
if not port.isdigit() or not 0 < int(port) < 65536:
    sys.exit(f"PORT must be a number from 1 to 65535, not {port!r}.")
with socket.socket() as probe:
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        probe.bind((host, int(port)))
    except OSError as error:
        sys.exit(f"Port {port} on {host} is taken ({error.strerror}): stop what runs there, "
                 f"or choose another port, e.g. PORT={int(port) + 1} make run")
endef
export CHECK_PORT

## make test: guard rails, then the whole suite on PostgreSQL.
test: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	DATABASE_URL=sqlite:///:memory: $(BIN)/python manage.py makemigrations --check --dry-run --settings=warfare.settings.test
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} $(BIN)/pytest -n $(TEST_WORKERS)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

## make e2e: only the browser tests.
e2e: $(VENV)/.installed-test
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(BIN)/pytest -m e2e

## make fuzz: only the API fuzzing (schemathesis), with many more examples per operation and
## the coverage phase; FUZZ_EXAMPLES=1000 make fuzz for a longer run.
fuzz: $(VENV)/.installed-test
	FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-200} FUZZ_COVERAGE=1 \
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(BIN)/pytest tests/security/test_api_fuzz.py

## make bench: every benchmark of bench/ (bench/run.py), each in its own process, on the
## same PostgreSQL and Redis as `make test` (scratch databases, dropped afterwards); the ratios
## and goals of issues 13 and 14. Slow (minutes); not part of `make test`.
bench: $(VENV)/.installed-test
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} $(BIN)/python bench/run.py $(BENCH)

## make messages: refresh the Russian catalogue after changing user-facing text (the
## Pathfinder rules data's English texts included: warfare/systems/pf2e/texts.py is written first).
messages: $(VENV)/.installed
	DEBUG=true $(BIN)/python manage.py pf2e_texts
	DEBUG=true $(BIN)/python manage.py makemessages -l ru --no-location --ignore=.venv --ignore=var
	DEBUG=true $(BIN)/python manage.py compilemessages -l ru --ignore=.venv

clean:
	rm -rf $(VENV) var
