# Cargoboard: `make demo`, `make test`, `make bench`. The first run creates .venv and installs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: test demo bench venv clean

venv: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Re-install whenever pyproject.toml changes (editable: the repo's own files are used).
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'
	touch $@

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2

demo: $(STAMP)
	$(BIN)/cargoboard demo

bench: $(STAMP)
	$(BIN)/python bench/perft.py
	$(BIN)/python bench/frame.py
	$(BIN)/python bench/inference.py
	$(BIN)/python bench/hint.py
	$(BIN)/python bench/heap.py
	$(BIN)/python bench/cephalopod.py
	$(BIN)/python bench/cephalopod_board.py
	$(BIN)/python bench/formula99.py
	$(BIN)/python bench/formula99_board.py
	$(BIN)/python bench/log.py
	$(BIN)/python bench/sync.py

clean:
	rm -rf $(VENV) *.egg-info host/*.egg-info .pytest_cache .hypothesis
	find . \( -path ./.git -o -path ./$(VENV) \) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
