# Every target uses the virtualenv's own binaries; nothing relies on activation.
VENV := .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
FLASK := $(BIN)/flask --app dealer

.PHONY: install run serve lint test bench fmt clean

install: $(VENV)/.installed

# The stamp makes the install rerun only when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -e '.[test]'
	touch $@

run: install
	$(FLASK) db upgrade
	$(FLASK) run --host 127.0.0.1 --port 5000

# Production: gunicorn on 0.0.0.0 with gunicorn.conf.py (HOST, PORT, WEB_CONCURRENCY, ...).
serve: install
	$(FLASK) db upgrade
	$(BIN)/gunicorn --config gunicorn.conf.py

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: install lint
	$(BIN)/pytest

# Each benchmark runs as a module (python -m bench.NAME); simulate.py is the load generator,
# run on its own (python -m bench.simulate), not a benchmark.
bench: install
	@set -e; for script in bench/*.py; do \
		name=$$(basename "$$script" .py); \
		case "$$name" in __init__|simulate) continue;; esac; \
		echo "== $$script"; \
		$(PY) -m "bench.$$name"; \
	done

fmt: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis \
		.coverage htmlcov
	find . -path ./.git -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
