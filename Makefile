# The two set-up commands of README.md: `make run` and `make test`.
# Both create and use the project's own virtual environment (.venv, by scripts/setup_env.py, standard library
# only): the Python that runs make (python3, any >= 3.11, a distribution's own included) is never installed into.
#   make run                      the web table on http://127.0.0.1:8000
#   make run HOST=0.0.0.0 PORT=8080
#   make PYTHON=python3.13 test   another interpreter for the environment (delete .venv first to switch)
PYTHON ?= python3
VENV ?= .venv
HOST ?= 127.0.0.1
PORT ?= 8000
VPY = $(VENV)/bin/python
SETUP = $(PYTHON) scripts/setup_env.py --venv $(VENV)

.PHONY: install install-test system-deps run test lint typecheck bench golden lock

# playing and serving: requirements/run.lock
install:
	@$(SETUP) --lock requirements/run.lock

# every extra and the test tools: requirements/test.lock; then what the tests need from Debian
install-test: system-deps
	@$(SETUP) --lock requirements/test.lock

# Chromium (browser tests), Node.js (the client's JS tests), PostgreSQL (started by the tests themselves),
# systemd (to verify the shipped unit), nginx (to check the shipped configuration): installed with apt-get
# when missing (CI runs as root)
system-deps:
	@(command -v chromium >/dev/null 2>&1 && command -v node >/dev/null 2>&1 && \
	  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && command -v nginx >/dev/null 2>&1 && \
	  command -v systemd-analyze >/dev/null 2>&1 && command -v openssl >/dev/null 2>&1) || \
	  (echo "hegemon setup: installing chromium, nodejs, postgresql, nginx, systemd and openssl with apt-get" && \
	   apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	     chromium nodejs postgresql nginx systemd openssl)

# The main job: the web table (tables kept in SQLite in the user data directory).
run: install
	$(VENV)/bin/hegemon serve --host $(HOST) --port $(PORT)

lint: install-test
	$(VENV)/bin/ruff check src tests benchmarks scripts
	$(VENV)/bin/ruff format --check src tests benchmarks scripts
	$(VENV)/bin/mypy src

typecheck: install-test
	$(VENV)/bin/mypy src

test: install-test lint
	$(VPY) -m pytest -n 2 -q

bench: install-test
	$(VPY) benchmarks/run_all.py

golden: install-test
	$(VPY) scripts/make_golden.py
	$(VPY) scripts/make_perft.py

# regenerate requirements/*.lock from pyproject.toml (uv, fetched from PyPI when missing)
lock:
	scripts/lock.sh
