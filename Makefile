# The two set-up commands of README.md: `make run` and `make test`.
PYTHON ?= python3
PIP = $(PYTHON) -m pip

.PHONY: install install-test run test lint typecheck bench golden

install:
	$(PIP) install -q -e .

install-test:
	$(PIP) install -q -e '.[test,rl]'
	@command -v chromium >/dev/null 2>&1 || (apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium)

# The main job. Until the web table lands: a terminal game of S.P.Q.RisiKo! against three random bots.
run: install
	hegemon play spqrisiko --players 4 --seats human,random,random,random

lint:
	ruff check src tests benchmarks scripts
	mypy src

test: install-test lint
	$(PYTHON) -m pytest -n 2 -q

bench: install
	$(PYTHON) benchmarks/run_all.py

golden: install
	$(PYTHON) scripts/make_golden.py
