# Two commands do all the set-up on a fresh machine:
#   make run    train and evaluate the default bot on the default config
#   make test   lint, build the docs and run the test suite (what CI runs: .ci/run)
#   make docs   build the documentation site into site/ (strict: a warning fails it)
# Each creates .venv and installs what it needs, torch 2.13.0 (the CPU wheel) first.
#   make test-long   the test suite with the long playouts (tests/conftest.py: `games`)
VENV ?= .venv
PY := $(VENV)/bin/python
# Tianshou and AgileRL pin versions the other extras do not meet: their recipe tests run
# in their own venvs
TS_VENV ?= .venv-tianshou
TS_PY := $(TS_VENV)/bin/python
AG_VENV ?= .venv-agilerl
AG_PY := $(AG_VENV)/bin/python
# the core install: the package and its four dependencies at their newest versions, no extra
CORE_VENV ?= .venv-core
CORE_PY := $(CORE_VENV)/bin/python
# the tests of what the core install changes: the Gymnasium and PettingZoo views, what
# imports what, errors, records and configs, the commands (a missing extra is one line; the
# rest of the suite is the same code on the same numpy); run there, a test that needs an
# extra skips
CORE_TESTS ?= tests/views/test_env.py tests/views/test_parallel.py tests/views/test_single.py \
  tests/seating/test_layers.py tests/views/test_errors.py tests/seating/test_play.py \
  tests/commands/test_config.py tests/commands/test_cli.py
# the files that hold a `serial` test: the serial run collects only those (collecting the whole
# suite to run one test cost it 10 s)
SERIAL_FILES = $(shell grep -rl --include='test_*.py' 'mark\.serial' tests)
# pytest on every core (pytest-xdist); tests of one xdist_group share a worker (Ray)
PYTEST := -m pytest -q -n $(or $(PYTEST_WORKERS),auto) --dist loadgroup
MKDOCS := NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true $(PY) -m mkdocs build --strict

# Python caches what it compiles (__pycache__) as it first imports it, unless
# PYTHONDONTWRITEBYTECODE is set, as some machines' images set it: then every test worker and
# every subprocess of the tests compiled the package and its libraries again (the suite took a
# fifth longer; an AgileRL import 16 s instead of 7). The recipes here let Python keep its
# caches, so pip installs with --no-compile: it would compile all of the 18,000 files of the
# test venv one by one (compiling them all on every core took 72 CPU seconds), where the
# tests import a few thousand of them and cache those on the way
unexport PYTHONDONTWRITEBYTECODE

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q --no-compile torch==2.13.0

# the main job: the package with its training extra
$(VENV)/.run: pyproject.toml | $(PY)
	$(PY) -m pip install -q --no-compile -e '.[train,dev]'
	touch $@

# the tests: every extra (the table, Ray RLlib, the recipes' libraries, language models,
# OpenSpiel, the docs' tools) and, where apt can, Debian's chromium
$(VENV)/.test: pyproject.toml | $(PY)
	$(PY) -m pip install -q --no-compile -e '.[train,table,rllib,recipes,llm,openspiel,docs,dev]'
	touch $(VENV)/.docs
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) \
	  || echo "chromium not installed: the browser test will be skipped"; fi
	touch $@

# the documentation site's tools (extra docs)
$(VENV)/.docs: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[docs]'
	touch $@

# the Tianshou recipe's venv (tests/training/test_recipes.py finds it; TIANSHOU_PYTHON overrides);
# --no-compile: two test runs import a little of what it installs (compiling it all costs more),
# and one import of that little caches it
$(TS_VENV)/.test: pyproject.toml
	python3 -m venv $(TS_VENV)
	$(TS_PY) -m pip install -q --upgrade pip
	$(TS_PY) -m pip install -q --no-compile torch==2.13.0
	$(TS_PY) -m pip install -q --no-compile -e '.[tianshou]'
	$(TS_PY) -c 'import tianshou.algorithm, tianshou.data, tianshou.env, mafia_env'
	touch $@

# the AgileRL recipe's venv (AGILERL_PYTHON overrides): AgileRL pins its own pettingzoo; one
# import caches what the tests import of it
$(AG_VENV)/.test: pyproject.toml
	python3 -m venv $(AG_VENV)
	$(AG_PY) -m pip install -q --upgrade pip
	$(AG_PY) -m pip install -q --no-compile torch==2.13.0
	$(AG_PY) -m pip install -q --no-compile -e '.[agilerl]'
	$(AG_PY) -c 'import agilerl.algorithms, agilerl.vector.pz_async_vec_env, mafia_env'
	touch $@

# the core venv: no torch, no extra; --upgrade-strategy eager takes the newest numpy,
# gymnasium, pettingzoo and pyyaml even where pip's cache holds older ones
$(CORE_VENV)/.test: pyproject.toml
	python3 -m venv $(CORE_VENV)
	$(CORE_PY) -m pip install -q --upgrade pip
	$(CORE_PY) -m pip install -q --upgrade --upgrade-strategy eager -e '.[test]'
	touch $@

# every venv of the tests, built at once: pip is CPU-bound, and the machine has two cores
# (each editable install writes the same mafia_env.egg-info: harmless side by side)
VENVS := $(VENV)/.test $(TS_VENV)/.test $(AG_VENV)/.test $(CORE_VENV)/.test
venvs:
	@$(MAKE) --no-print-directory -j4 $(VENVS)

.PHONY: run test test-long venvs static bench lint docs
run: $(VENV)/.run
	$(PY) -m baselines.train --config configs/ppo/sport.yaml

# the static checks (ruff, the site) need the test venv alone: `test` runs them beside the
# other venvs' last installs (AgileRL's is the last to finish), not after them
static: $(VENV)/.test
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(MKDOCS)

test:
	@$(MAKE) --no-print-directory -j4 $(VENVS) static
	$(PY) $(PYTEST) -m "not serial"
	$(PY) -m pytest -q -m serial $(SERIAL_FILES)
	$(CORE_PY) $(PYTEST) $(CORE_TESTS)

test-long: venvs
	$(PY) $(PYTEST) --long -m "not serial"
	$(PY) -m pytest -q -m serial $(SERIAL_FILES)

# the site, strictly: pages generated from the code, a warning or a broken link fails it
# (not --quiet: it hides the warnings from the strict count)
docs: $(VENV)/.docs
	$(MKDOCS)

bench: $(VENV)/.run
	$(PY) scripts/bench_env.py

lint: $(VENV)/.run
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .
