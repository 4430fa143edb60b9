# Two commands do all the set-up on a fresh machine:
#   make run    train and evaluate the default bot on the default config
#   make test   lint, build the docs and run the test suite (what CI runs: .ci/run)
#   make docs   build the documentation site into site/ (strict: a warning fails it)
# Each creates .venv and installs what it needs, torch 2.13.0 (the CPU wheel) first.
VENV ?= .venv
PY := $(VENV)/bin/python
# Tianshou and AgileRL pin versions the other extras do not meet: their recipe tests run
# in their own venvs
TS_VENV ?= .venv-tianshou
TS_PY := $(TS_VENV)/bin/python
AG_VENV ?= .venv-agilerl
AG_PY := $(AG_VENV)/bin/python

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==2.13.0

# the main job: the package with its training extra
$(VENV)/.run: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[train,dev]'
	touch $@

# the tests: every extra (the table, Ray RLlib, the recipes' libraries, language models,
# OpenSpiel) and, where apt can, Debian's chromium
$(VENV)/.test: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[train,table,rllib,recipes,llm,openspiel,dev]'
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) \
	  || echo "chromium not installed: the browser test will be skipped"; fi
	touch $@

# the documentation site's tools (extra docs)
$(VENV)/.docs: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[docs]'
	touch $@

# the Tianshou recipe's venv (tests/test_recipes.py finds it; TIANSHOU_PYTHON overrides)
$(TS_VENV)/.test: pyproject.toml
	python3 -m venv $(TS_VENV)
	$(TS_PY) -m pip install -q --upgrade pip
	$(TS_PY) -m pip install -q torch==2.13.0
	$(TS_PY) -m pip install -q -e '.[tianshou]'
	touch $@

# the AgileRL recipe's venv (AGILERL_PYTHON overrides): AgileRL pins its own pettingzoo
$(AG_VENV)/.test: pyproject.toml
	python3 -m venv $(AG_VENV)
	$(AG_PY) -m pip install -q --upgrade pip
	$(AG_PY) -m pip install -q torch==2.13.0
	$(AG_PY) -m pip install -q -e '.[agilerl]'
	touch $@

.PHONY: run test bench lint docs
run: $(VENV)/.run
	$(PY) -m baselines.train --config configs/ppo/sport.yaml

test: $(VENV)/.test $(TS_VENV)/.test $(AG_VENV)/.test docs
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m pytest -q

# the site, strictly: pages generated from the code, a warning or a broken link fails it
# (not --quiet: it hides the warnings from the strict count)
docs: $(VENV)/.docs
	NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true $(PY) -m mkdocs build --strict

bench: $(VENV)/.run
	$(PY) scripts/bench_env.py

lint: $(VENV)/.run
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .
