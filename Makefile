# Every target bootstraps .venv itself: `make serve` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Python keeps its bytecode (pytest its rewritten test modules) in the git-ignored __pycache__/: where
# the shell sets PYTHONDONTWRITEBYTECODE, as some containers do, every run recompiled every test module,
# 12 s of each worker's start-up.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: serve cluster cluster-stop check test build lint format jscheck typecheck fast unit slow browser bench chromium hooks spec clean

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

# Several nodes on one address (docs/deploy.md): PostgreSQL, Redis, two room nodes and HAProxy on :8000,
# everything under .cluster/ (git-ignored); `make cluster-stop` stops all of it.
cluster: $(STAMP)
	$(BIN)/python -m feltroom.server.local_cluster start --folder .cluster --port 8000 --nodes 2

cluster-stop: $(STAMP)
	$(BIN)/python -m feltroom.server.local_cluster stop --folder .cluster

# Two tiers of checks (README, "Tests"):
#   make check  every edit, under a minute: lint, types and the fast tests (no `slow`, no `browser` mark);
#   make test   the full run, what CI runs (.ci/run): lint, types and every test, slow and browser ones too.
# Both say how long they took.
check: $(STAMP)
	@$(call timed,check,lint typecheck fast)

test: $(STAMP)
	@$(call timed,test,lint typecheck unit)

# $(call timed,NAME,TARGETS): make TARGETS, then print how long that took.
timed = start=$$(date +%s%N) && $(MAKE) --no-print-directory $(2) && \
	ms=$$(( ($$(date +%s%N) - start) / 1000000 )) && \
	echo "make $(1): $(2) passed in $$((ms / 1000)).$$((ms % 1000 / 100)) s"

# `ruff format --check` joins `make lint` (and so check and test) with FORMAT_CHECK=1. The tree is not
# formatted yet: run `make format` once, then set FORMAT_CHECK ?= 1 here.
FORMAT_CHECK ?= 0

# cython-lint (the .pyx/.pxd, configured in pyproject.toml) runs pycodestyle from PATH.
lint: $(STAMP) jscheck
	$(BIN)/ruff check src tests bench
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/cython-lint src
ifeq ($(FORMAT_CHECK),1)
	$(BIN)/ruff format --check src tests bench
endif

format: $(STAMP)
	$(BIN)/ruff format src tests bench
	$(BIN)/ruff check --fix src tests bench

# The browser client's JavaScript, type-checked from its JSDoc (tsc --checkJs: tsconfig.json for the page,
# tsconfig.sw.json for the service worker, whose global and events are a worker's);
# typescript is pinned in package.json/package-lock.json and installed into node_modules/.
NODE_STAMP := node_modules/.installed

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

jscheck: $(NODE_STAMP)
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p tsconfig.sw.json

typecheck: $(STAMP)
	$(BIN)/mypy

# Two workers; an idle one takes tests from a busy one's queue (worksteal): many server tests wait
# on sockets and timers, and a long one at the end of a queue no longer holds up the run. Three were
# measured (3 December 2026): alone on an idle machine the tests but the browser ones took 522 s
# against 606 s with two, but beside the browser tests, as `make unit` runs them, 861 s against 743 s
# (and the browser tests 638 s against 544 s), the machine as fast in both runs; the fast tier 53 s
# against 50 s.
XDIST := -n 2 --dist worksteal

# Every test (the browser tests need chromium). The browser tests run one at a time (two Chromiums and
# their rooms on two cores made their timing waits flaky) and mostly wait (about 0.3 of a core), so they
# run beside the rest, which take two workers at a lower priority (nice): the browser, its room and
# their waits get the CPU when they ask for it, the other tests take what is left. The browser tests
# write to $(BROWSER_LOG) (not under test-results/, which pytest-playwright empties as it starts), shown
# when both are done; the run fails if either fails.
BROWSER_LOG := test-logs/browser.log

unit: $(STAMP) chromium
	@mkdir -p $(dir $(BROWSER_LOG))
	@echo "make unit: the browser tests run beside the others; their output: $(BROWSER_LOG)"
	@$(BIN)/pytest -q -p no:cacheprovider -m browser > $(BROWSER_LOG) 2>&1 & browser=$$!; \
	trap 'kill $$browser 2>/dev/null; exit 130' INT TERM; \
	nice -n 10 $(BIN)/pytest -q $(XDIST) -m "not browser"; others=$$?; \
	wait $$browser; browsed=$$?; \
	echo "--- the browser tests ($(BROWSER_LOG)):"; cat $(BROWSER_LOG); \
	[ $$others -eq 0 ] && [ $$browsed -eq 0 ]

# The fast tests: all but the slow ones (`slow`: random play over many games, floods) and the browser.
fast: $(STAMP)
	$(BIN)/pytest -q $(XDIST) -m "not slow and not browser"

# The slow tests alone.
slow: $(STAMP)
	$(BIN)/pytest -q $(XDIST) -m slow

# The browser tests drive Debian's chromium (Playwright's own browser download does not work here).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else echo "make test needs chromium for the browser tests: sudo apt-get install chromium" >&2; exit 1; fi; }

browser: $(STAMP) chromium
	$(BIN)/pytest -q -m browser

# Git hooks (.pre-commit-config.yaml): ruff check, ruff format and mypy on every commit, from .venv.
hooks: $(STAMP)
	$(BIN)/pre-commit install

bench: $(STAMP)
	$(BIN)/python bench/engine.py

# The rules specification's copy for clones with no ../shared beside them (tests/rules_text.py):
# refresh it when ../shared/rules changes (tests/test_rules_pages.py fails until then).
spec:
	cp ../shared/rules/*.md tests/spec/

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info test-results test-logs node_modules
	find src -name '*.so' -delete -o -name '*.c' -path '*/feltroom/*' -delete
