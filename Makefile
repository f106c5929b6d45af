# Cargoboard: `make demo`, `make test`, `make bench`. The first run creates .venv and installs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# rp2040js for the emulated Pico (`cargoboard sim --target pico`), pinned in package.json
NODE_STAMP := node_modules/.installed-stamp

.PHONY: test demo bench venv clean browser

venv: $(STAMP) $(NODE_STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Re-install whenever pyproject.toml changes (editable: the repo's own files are used).
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'
	touch $@

# Node.js and npm from Debian when missing; then exactly the versions of package-lock.json.
$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq nodejs npm; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The web tests (tests/test_web_*.py) drive Debian's chromium through chromedriver: installed
# here when missing (as root, with apt-get); where that cannot be done they skip and say why.
browser:
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing chromium and chromium-driver for the web tests (apt-get)"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    chromium chromium-driver fonts-dejavu-core >/dev/null) \
	  || echo "apt-get could not install chromium: the web tests will be skipped"; \
	else echo "no chromium/chromedriver and no root to install them: the web tests will be skipped"; fi


test: $(STAMP) $(NODE_STAMP) browser
	$(BIN)/python -m pytest -q -n 2 -rs

demo: $(STAMP) $(NODE_STAMP)
	$(BIN)/cargoboard demo

bench: $(STAMP) $(NODE_STAMP)
	$(BIN)/python bench/cargocube/perft.py
	$(BIN)/python bench/frame.py
	$(BIN)/python bench/cargocube/inference.py
	$(BIN)/python bench/cargocube/hint.py
	$(BIN)/python bench/heap.py
	$(BIN)/python bench/cephalopod/cephalopod.py
	$(BIN)/python bench/cephalopod/cephalopod_board.py
	$(BIN)/python bench/kubitva/kubitva.py
	$(BIN)/python bench/kubitva/kubitva_board.py
	$(BIN)/python bench/formula99/formula99.py
	$(BIN)/python bench/formula99/formula99_board.py
	$(BIN)/python bench/log.py
	$(BIN)/python bench/sync.py
	$(BIN)/python bench/pico.py
	$(BIN)/python bench/revb_scan.py
	$(BIN)/python bench/web.py

clean:
	rm -rf $(VENV) node_modules *.egg-info host/*.egg-info .pytest_cache .hypothesis
	find . \( -path ./.git -o -path ./$(VENV) \) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
