# Warfare — the two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/warfare
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0

.PHONY: run test lint e2e fuzz messages install install-test clean

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
## (SQLite under var/ by default; PostgreSQL when DATABASE_URL is set).
run: $(VENV)/.installed
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py migrate --noinput
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py load_demo
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py runserver 127.0.0.1:8000

## make test: guard rails, then the whole suite on PostgreSQL.
test: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	DATABASE_URL=sqlite:///:memory: $(BIN)/python manage.py makemigrations --check --dry-run --settings=warfare.settings.test
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} REDIS_URL=$${REDIS_URL:-$(TEST_REDIS_URL)} $(BIN)/pytest

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

## make messages: refresh the Russian catalogue after changing user-facing text.
messages: $(VENV)/.installed
	DEBUG=true $(BIN)/python manage.py makemessages -l ru --no-location --ignore=.venv --ignore=var
	DEBUG=true $(BIN)/python manage.py compilemessages -l ru --ignore=.venv

clean:
	rm -rf $(VENV) var
