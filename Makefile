# The two commands of the README: `make run` (the server: open the address it prints) and
# `make test` (the whole suite). Both create .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/henderson serve

# The browser tests need Debian's chromium; the storage tests also run on PostgreSQL when
# it can be started here (otherwise they run on SQLite only).
test: install
	scripts/ensure-browser
	$(BIN)/ruff check .
	$(BIN)/mypy
	HENDERSON_TEST_POSTGRES="$$(scripts/ensure-postgres || true)" HENDERSON_RANDOM_GAMES=2000 \
		$(BIN)/pytest -q -n auto

lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
