# Every target uses the virtualenv's own binaries; nothing relies on activation.
VENV := .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
FLASK := $(BIN)/flask --app dealer
# Installs into the virtualenv (uv: see the virtualenv's rule below), each module compiled to
# bytecode as it is installed, as pip does (uv does not by default).
UV_INSTALL := $(BIN)/uv pip install --compile-bytecode --python $(PY)
# The npm tools of the generated clients' test (tests/api/client/package.json); npm ci leaves
# its own copy of the lockfile in node_modules, the stamp of the install.
CLIENT_TOOLS := tests/api/client
NODE_TOOLS := $(CLIENT_TOOLS)/node_modules/.package-lock.json
# Python keeps each module it compiles (__pycache__, ignored by git) unless told not to: some
# shells set PYTHONDONTWRITEBYTECODE, and then every process the suite starts (three workers,
# some 35 `flask db`, gunicorn and CLI runs) compiles the app and its tests from source again,
# about a second of CPU each before it does anything. The targets here let Python keep them.
unexport PYTHONDONTWRITEBYTECODE
# Where `make run` listens: HOST=0.0.0.0 lets the tablets on the card room's network reach it.
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: install install-test translations run serve users-add lint test bench mutants fmt clean

# The message catalogues' compiled files, each remade when its catalogue changes (a .po edited
# or merged), so the app and the tests never read an older .mo than the .po beside it.
CATALOGUES := $(wildcard dealer/words/locale/*/LC_MESSAGES/dealer.po)
COMPILED := $(CATALOGUES:.po=.mo)

# The app alone: what `make run` needs (no test tools).
install: $(VENV)/.installed $(COMPILED)

# The app and its test tools (the `test` extra): what `make test`, lint and bench need.
install-test: $(VENV)/.installed-test $(NODE_TOOLS) $(COMPILED)

# uv installs into the virtualenv what pyproject.toml asks for, as pip would, but in 2 s rather
# than 20-24 s for the test extra from a fresh clone (measured with cold caches for both): a
# tenth of `make test`'s set-up, and a newcomer's first `make run` sooner. The virtualenv's own
# pip brings uv in, so nothing is needed beyond `python3 -m venv`.
$(VENV)/bin/python:
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet uv

# The stamps make each install rerun only when pyproject.toml changes; the catalogues are
# compiled at each install (and by `make translations`): their .mo files are not in git.
$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	$(UV_INSTALL) -e .
	$(COMPILE_CATALOGUES)
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(VENV)/bin/python
	$(UV_INSTALL) -e '.[test]'
	$(COMPILE_CATALOGUES)
	touch $@ $(VENV)/.installed

# The message catalogues (dealer/words/catalogue.py): every message of the code, the templates
# and the rules extracted as pyproject.toml's [tool.babel] maps them (into build/, not kept),
# each language's catalogue (dealer/words/locale/<language>/LC_MESSAGES/dealer.po) updated to
# them, and each compiled to the dealer.mo the app reads.
LOCALES := dealer/words/locale
POT := build/dealer.pot
COMPILE_CATALOGUES := if ls $(LOCALES)/*/LC_MESSAGES/dealer.po >/dev/null 2>&1; then \
	$(BIN)/pybabel compile --domain dealer --directory $(LOCALES) --statistics; fi

%.mo: %.po | $(VENV)/.installed
	$(BIN)/pybabel compile --domain dealer --input-file $< --output-file $@ --statistics

translations: install-test
	mkdir -p build
	$(BIN)/pybabel --quiet extract -F pyproject.toml -o $(POT) --project dealer .
	@set -e; for po in $(LOCALES)/*/LC_MESSAGES/dealer.po; do \
		[ -e "$$po" ] || continue; \
		$(BIN)/pybabel --quiet update -i $(POT) -o "$$po" -l "$$(basename $$(dirname $$(dirname $$po)))"; \
	done
	$(COMPILE_CATALOGUES)

# The generated clients' test needs three npm tools (openapi-typescript, TypeScript's tsc and
# Redocly CLI, pinned by tests/api/client/package-lock.json): npm ci installs exactly those,
# some 60 MB in 5-10 s, and again only when the lockfile changes.
$(NODE_TOOLS): $(CLIENT_TOOLS)/package-lock.json
	npm ci --prefix $(CLIENT_TOOLS) --no-audit --no-fund

run: install
	$(FLASK) db upgrade
	$(FLASK) run --host $(HOST) --port $(PORT)

# Production: gunicorn on 0.0.0.0 with gunicorn.conf.py (HOST, PORT, WEB_CONCURRENCY, ...).
serve: install
	$(FLASK) db upgrade
	$(BIN)/gunicorn --config gunicorn.conf.py

# make users-add NAME=Ann ROLE=admin PIN=1234
users-add: install
	@test -n "$(NAME)" -a -n "$(ROLE)" -a -n "$(PIN)" || \
		{ echo 'usage: make users-add NAME=Ann ROLE=dealer|supervisor|admin PIN=1234'; exit 2; }
	$(FLASK) db upgrade
	$(FLASK) users add "$(NAME)" --role "$(ROLE)" --pin "$(PIN)"

lint: install-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# The suite on TEST_WORKERS processes (pytest-xdist); TEST_WORKERS=0 runs it in this one.
# Three on two cores: a worker waiting on PostgreSQL, a browser or a server it started leaves
# its core to another (the tests took 516-596 s against 640 s with two, on a 2-core machine).
# worksteal: a worker that runs out takes tests queued for another, so a long test near the
# end (a browser, a fuzzing shard) does not leave a core idle.
TEST_WORKERS ?= 3

test: install-test lint
	$(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal

# Each benchmark runs as a module (python -m bench.NAME); simulate.py is the load generator,
# run on its own (python -m bench.simulate), not a benchmark; hand_length.py is a part of
# bench.api (the engine's cost early and late in a hand), not one of its own.
bench: install-test
	@set -e; for script in bench/*.py; do \
		name=$$(basename "$$script" .py); \
		case "$$name" in __init__|simulate|mutants|hand_length) continue;; esac; \
		echo "== $$script"; \
		$(PY) -m "bench.$$name"; \
	done

# The mutation score of each package (bench/mutants.py, mutmut), never part of `make test`:
# minutes per module, hours for every package. PACKAGE=floor for one, MODULE=counts for one
# module of it, SAMPLE=40 for a random sample of 40 mutants of each (SEED= to draw another).
# Run at the lowest priority: it keeps every core busy for as long as it runs.
PACKAGE ?=
MODULE ?=
SAMPLE ?=
SEED ?=
mutants: install-test
	nice -n 19 $(PY) -m bench.mutants $(if $(PACKAGE),--package $(PACKAGE)) \
		$(if $(MODULE),--module $(MODULE)) $(if $(SAMPLE),--sample $(SAMPLE)) \
		$(if $(SEED),--seed $(SEED))

fmt: install-test
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis \
		.coverage htmlcov mutants $(CLIENT_TOOLS)/node_modules
	find . -path ./.git -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
