# Two commands do all the set-up on a fresh machine:
#   make run    train and evaluate the default bot on the default config
#   make test   lint and run the test suite (what CI runs: .ci/run)
# Each creates .venv and installs what it needs, torch 2.13.0 (the CPU wheel) first.
VENV ?= .venv
PY := $(VENV)/bin/python

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==2.13.0

# the main job: the package with its training extra
$(VENV)/.run: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[train,dev]'
	touch $@

# the tests: every extra (the table, Ray RLlib, OpenSpiel) and, where apt can, Debian's chromium
$(VENV)/.test: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[train,table,rllib,openspiel,dev]'
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) \
	  || echo "chromium not installed: the browser test will be skipped"; fi
	touch $@

.PHONY: run test bench lint
run: $(VENV)/.run
	$(PY) -m baselines.train --config configs/ppo/sport.yaml

test: $(VENV)/.test
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m pytest -q

bench: $(VENV)/.run
	$(PY) scripts/bench_env.py

lint: $(VENV)/.run
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .
