# tapete: `make run` and `make test` each set themselves up from a fresh clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test screenshots bench bench-pg lint deps venv clean

$(STAMP): pyproject.toml
	@echo "make: installing tapete and its dependencies into $(VENV) (a minute or two, once; pip says what it fetches)"
	@test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install --progress-bar on -e '.[dev]'
	@touch $(STAMP)

venv: $(STAMP)

# System packages the tests need: PostgreSQL's server (the server tests start a throw-away cluster on loopback)
# Debian's Chromium (the browser tests drive /usr/bin/chromium; Playwright never downloads a browser) and dieharder
# (tapete rng stream's test). Only what is missing, with --no-install-recommends, announced first; nothing when all are.
deps:
	@sh scripts/deps.sh

# The demo casino on an embedded SQLite database (tapete.db); the address is printed at start-up.
run: venv
	@$(BIN)/tapete serve --config examples/casino.toml

# The whole suite, in parallel (pytest-xdist: one worker per core; tests/conftest.py keeps each test file, and all
# the browser files together, on one worker). It leaves the tree as it found it: screenshots go
# to build/screenshots, caches and databases to ignored folders.
test: deps venv
	$(BIN)/python -m pytest -n auto --dist loadfile

# Refresh the screenshots docs/browser.md shows (the browser tests, writing into docs/screenshots).
screenshots: deps venv
	TAPETE_SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest tests/browser
	$(BIN)/python scripts/gallery.py

lint: venv
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/lint-imports --no-cache

# The server benchmark's load generator is Debian's wrk: installed here, only if missing, announced first.
bench: venv
	@command -v wrk >/dev/null 2>&1 || { echo "make bench: about to install wrk (the server benchmark's load generator)"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends wrk; }
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	$(BIN)/python benchmarks/run.py

# The server section's PostgreSQL one-process row (with its profile and the pgbench ceiling) and the burst row only,
# about 3 minutes; merged into RESULTS.md's server table, its other rows kept (issue 33).
bench-pg: venv
	@command -v wrk >/dev/null 2>&1 || { echo "make bench-pg: about to install wrk (the server benchmark's load generator)"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends wrk; }
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	TAPETE_BENCH_SERVER=pg-1,pg-burst $(BIN)/python benchmarks/run.py bench_server

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache
