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

# System packages: PostgreSQL (the server's tests start a throw-away cluster on loopback) and Debian's Chromium
# (the browser tests drive /usr/bin/chromium; Playwright never downloads a browser of its own).
# A no-op when both are installed; as root (CI) apt-get runs directly, otherwise through sudo.
deps:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && test -x /usr/bin/chromium; then true; else \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q postgresql chromium; \
	fi
	@command -v wrk >/dev/null 2>&1 || { SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q --no-install-recommends wrk; }   # the load generator of benchmarks/bench_server.py

# The demo casino on an embedded SQLite database (tapete.db); the address is printed at start-up.
run: venv
	@$(BIN)/tapete serve --config examples/casino.toml

test: deps venv
	$(BIN)/python -m pytest

lint: venv
	$(BIN)/ruff check src tests benchmarks

bench: venv
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache
