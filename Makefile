# The two commands of the README: `make run` and `make test`. Both create .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/henderson play firstblood --us human --jp random

test: install
	$(BIN)/ruff check .
	HENDERSON_RANDOM_GAMES=2000 $(BIN)/pytest -q -n auto

lint: install
	$(BIN)/ruff check .

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
