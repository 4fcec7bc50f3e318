# Every target bootstraps .venv itself: `make serve` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: serve test build lint jscheck typecheck unit browser bench chromium clean

# The compiled cores (Cython, src/feltroom/**/*.pyx) are built by the install, in place.
CORES := $(wildcard src/feltroom/*.pyx src/feltroom/*.pxd src/feltroom/games/*.pyx)

$(STAMP): pyproject.toml setup.py $(CORES)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Rebuild the compiled cores in place after editing a .pyx (make test does it too).
build: $(STAMP)
	$(BIN)/python setup.py --quiet build_ext --inplace

serve: $(STAMP)
	$(BIN)/feltroom serve

test: lint typecheck unit

lint: $(STAMP) jscheck
	$(BIN)/ruff check src tests bench

# The browser client's JavaScript, type-checked from its JSDoc (tsc --checkJs, tsconfig.json);
# typescript is pinned in package.json/package-lock.json and installed into node_modules/.
NODE_STAMP := node_modules/.installed

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

jscheck: $(NODE_STAMP)
	node_modules/.bin/tsc -p tsconfig.json

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP) chromium
	$(BIN)/pytest -q -n 2

# The browser tests drive Debian's chromium (Playwright's own browser download does not work here).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else echo "make test needs chromium for the browser tests: sudo apt-get install chromium" >&2; exit 1; fi; }

browser: $(STAMP) chromium
	$(BIN)/pytest -q -m browser

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info test-results node_modules
	find src -name '*.so' -delete -o -name '*.c' -path '*/feltroom/*' -delete
