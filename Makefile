# The two set-up commands of README.md: `make run` and `make test`.
PYTHON ?= python3
PIP = $(PYTHON) -m pip

.PHONY: install install-test run test lint typecheck bench golden

install:
	$(PIP) install -q -e .

install-test:
	$(PIP) install -q -e '.[test,rl,postgres]'
	@(command -v chromium >/dev/null 2>&1 && command -v node >/dev/null 2>&1 && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1) || \
	  (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium nodejs postgresql)

# The main job: the web table on http://127.0.0.1:8000 (tables kept in SQLite in the user data directory).
run: install
	hegemon serve

lint:
	ruff check src tests benchmarks scripts
	mypy src

test: install-test lint
	$(PYTHON) -m pytest -n 2 -q

bench: install
	$(PYTHON) benchmarks/run_all.py

golden: install
	$(PYTHON) scripts/make_golden.py
	$(PYTHON) scripts/make_perft.py
