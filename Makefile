# Parlour: `make run` and `make test` each set up a local .venv first (no sudo, no global installs).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# What `make run` needs (the program and its runtime libraries), then what `make test` adds
# (pytest, hypothesis, Playwright, zxing-cpp): an SD card running the table carries no test tools.
STAMP  := $(VENV)/.installed
TESTED := $(VENV)/.installed-test
# setuptools warns on every editable install of a project whose packages sit at its top level
# ("folders ... with the same name as your package"): that is this layout on purpose.
PIP    := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip install --quiet \
          --disable-pip-version-check
# On a Pi, gpiozero's lgpio backend is Debian's python3-lgpio: let the venv see system packages.
VENV_FLAGS := $(shell grep -qs 'Raspberry Pi' /proc/device-tree/model && echo --system-site-packages)

.PHONY: run test test-floors bench soak venv clean install uninstall

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Parlour needs Python 3.11 or newer (set PYTHON=...)")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(PIP) --upgrade pip
	$(PIP) -e .
	@touch $@

# axe-core (npm) checks the pages' accessibility in the browser tests.
AXE := $(VENV)/npm/node_modules/axe-core/axe.min.js
$(TESTED): $(STAMP)
	$(PIP) -e '.[dev]'
	@command -v npm >/dev/null || { echo "make test needs npm (Debian: apt-get install npm)"; exit 2; }
	npm install --prefix $(VENV)/npm --no-save --no-audit --no-fund --silent axe-core@4.10.3
	@touch $@

venv: $(TESTED)

run: $(STAMP)
	$(BIN)/parlour run $(ARGS)

# The tests run in one process a core (pytest-xdist): most of their time is spent waiting on a
# browser, a server or a broker. TEST_WORKERS=0 runs them in this one process (for -s or pdb).
TEST_WORKERS ?= auto

test: $(TESTED)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

# The unit tests again in a second venv holding the lowest supported versions (tests/floors.txt):
# what Debian Bookworm and Raspberry Pi OS ship, so the floors in pyproject.toml stay true.
FLOORS := $(VENV)/floors
$(FLOORS)/.installed: tests/floors.txt pyproject.toml
	@test -x $(FLOORS)/bin/python || $(PYTHON) -m venv $(FLOORS)
	$(subst $(BIN)/python,$(FLOORS)/bin/python,$(PIP)) --upgrade pip
	$(subst $(BIN)/python,$(FLOORS)/bin/python,$(PIP)) -c tests/floors.txt -r tests/floors.txt -e '.[dev]'
	@touch $@

test-floors: $(FLOORS)/.installed
	$(FLOORS)/bin/python -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) \
		-m "not slow and not soak" tests/companion tests/firmware tests/web tests/club \
		tests/test_layers.py $(PYTEST_ARGS)

bench: $(TESTED)
	$(BIN)/python tests/bench/run.py $(ARGS)

# Reliability at length: many kill -9 restarts and far more fuzz examples than `make test`.
PARLOUR_SOAK ?= 500
# Then the table at random (box, two phones, API, Pi) for PARLOUR_SOAK_SECONDS.
PARLOUR_SOAK_SECONDS ?= 300
soak: $(TESTED)
	PARLOUR_SOAK=$(PARLOUR_SOAK) $(BIN)/python -m pytest -q -s tests/reliability \
		-k "kill9 or fuzz" $(PYTEST_ARGS)
	PARLOUR_SOAK_SECONDS=$(PARLOUR_SOAK_SECONDS) $(BIN)/python -m pytest -q -s -m soak \
		tests/table $(PYTEST_ARGS)

# On a Raspberry Pi: the systemd service (sudo inside; ARGS="--force" elsewhere, "--purge").
install:
	systemd/install.sh install $(ARGS)

uninstall:
	systemd/install.sh uninstall $(ARGS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
