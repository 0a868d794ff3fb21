# Two commands set everything up on a fresh machine (README.md, "Quick start"):
#   make run    create .venv, install Tableside, start it on http://localhost:8000 with demo inputs
#   make test   create/update .venv and run the whole test suite

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# On a Raspberry Pi the venv also sees Raspberry Pi OS's own Python packages: picamera2 (the Pi
# camera) and lgpio (the GPIO pins) come from apt, not PyPI. The `pi` extra puts simplejpeg in
# the venv, built for the venv's NumPy 2 (apt's is built for NumPy 1, and picamera2 imports
# it): docs/hardware.md, "Setting up the Pi".
PI_MODEL ?= /proc/device-tree/model
ON_PI := $(shell grep -qas 'Raspberry Pi' $(PI_MODEL) && echo yes)
COMMA := ,
VENV_FLAGS := $(if $(ON_PI),--system-site-packages)
EXTRAS := dev$(if $(ON_PI),$(COMMA)pi)

.PHONY: run test lint bench clean node-deps

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Tableside needs Python 3.11 or newer (found " + sys.version.split()[0] + ")")'
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	@if [ -n "$(ON_PI)" ]; then $(BIN)/python -c 'import picamera2, lgpio' 2>/dev/null || \
		echo "This Pi's camera or GPIO pins will not load: sudo apt install python3-picamera2 python3-lgpio (docs/hardware.md)"; fi
	@touch $(STAMP)

# More options for `make run`'s server, e.g. make run ARGS="--camera picamera:50hz"
# (tableside serve --help)
ARGS ?=

run: $(STAMP)
	$(BIN)/tableside serve --demo --host 0.0.0.0 --port 8000 $(ARGS)

# The suite runs on every core (pytest-xdist; a worker that runs out of tests takes some of
# another's, so the slow ones at the end are shared); make test TEST_ARGS= runs it in one process.
TEST_ARGS ?= -n auto --dist worksteal

# Python's compiled files are written even where the environment says not to
# (PYTHONDONTWRITEBYTECODE): the suite starts some two hundred Python processes (command-line
# tests, servers, the durability test's workers killed and started again), and each compiled
# the project's modules from source again (docs/dependencies.md, pytest-xdist).
test: $(STAMP) node-deps
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest $(TEST_ARGS)

# The firmware test runs the button box code under real MicroPython (an npm package run by
# Node), and the accessibility test injects axe-core (an npm package) into the pages. Without
# npm those tests are skipped and say why; .ci/run installs Node first.
node-deps:
	@if command -v npm >/dev/null 2>&1; then \
		npm ci --prefix tests/firmware_bridge/node --no-audit --no-fund --silent && \
		npm ci --prefix tests/e2e/node --no-audit --no-fund --silent; \
	else echo "npm not found: the MicroPython firmware and accessibility tests will be skipped"; fi

lint: $(STAMP)
	$(BIN)/ruff check .

# every benchmark runs, whether or not one before it exited with an error (some do on a missed
# target; the vision ones print their targets met or not); those that did are named
bench: $(STAMP)
	@missed=""; for b in benchmarks/bench_*.py; do echo "== $$b"; \
		$(BIN)/python $$b || missed="$$missed $$b"; done; \
	if [ -n "$$missed" ]; then echo "exited with an error:$$missed"; exit 1; fi

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
