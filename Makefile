# Two commands do all the set-up on a fresh machine:
#   make run    train and evaluate the default bot on the default config
#   make test   lint and run the test suite
# Each creates .venv and installs what it needs (torch 2.13.0, the CPU wheel, first).
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[train,table,dev]'
	touch $(STAMP)

.PHONY: install run test bench lint
install: $(STAMP)

run: $(STAMP)
	$(PY) -m baselines.main --config configs/main.yaml

test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) scripts/bench_env.py

lint: $(STAMP)
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .
