# tapete: `make run` and `make test` each set themselves up from a fresh clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test bench lint deps venv clean

$(STAMP): pyproject.toml
	@test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $(STAMP)

venv: $(STAMP)

# System packages: none needed yet (later: PostgreSQL, Chromium).
deps:
	@true

run: venv
	@$(BIN)/tapete games
	@echo
	@$(BIN)/tapete edge roulette-french -j ES
	@echo
	@echo "Play at the terminal:  $(BIN)/tapete play roulette-french -j ES"

test: deps venv
	$(BIN)/python -m pytest

lint: venv
	$(BIN)/ruff check src tests benchmarks

bench: venv
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache
