# The two commands a newcomer needs: `make serve` (build the verified site, then serve it) and
# `make test`. Both create the virtual environment in .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# make serve's address: make serve PORT=8001 for another port, HOST=0.0.0.0:8000 for another host.
PORT ?= 8000
HOST ?= 127.0.0.1:$(PORT)
export NO_MKDOCS_2_WARNING := 1

NPM ?= npm
# The browser runtime (Pyodide) of the "Ask the engine" and "Play a game" pages, pinned by
# package-lock.json and copied into the site at every build.
RUNTIME := node_modules/.oracle-installed

.PHONY: serve site test lint dist bench mutation-bench schema lock clean screenshots screenshots-review

# Everything: the engine, the site's packages and the development tools, at the versions of the
# lock file, so that make lint and make test give the same answers next month.
$(BIN)/.installed: pyproject.toml requirements-dev.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c requirements-dev.lock -e '.[dev]'
	touch $@

$(RUNTIME): package.json package-lock.json
	@command -v $(NPM) >/dev/null 2>&1 || { echo "make: npm is needed to install the site's browser runtime (Debian: apt-get install npm)"; exit 1; }
	$(NPM) ci --no-audit --no-fund --loglevel=error
	touch $@

serve: $(BIN)/.installed $(RUNTIME) schema
	@$(BIN)/python -c "import socket, sys; host, port = '$(HOST)'.rsplit(':', 1); \
	busy = socket.socket().connect_ex((host, int(port))) == 0; \
	sys.exit(f'make serve: {host}:{port} is in use; try make serve PORT={int(port) + 1}' if busy else 0)"
	$(BIN)/mkdocs serve --strict --dev-addr $(HOST)

site: $(BIN)/.installed $(RUNTIME)
	$(BIN)/mkdocs build --strict

# Spread over the machine's cores, a test file to a worker. The long soaks and the browser tests
# are left out (pyproject.toml); CI runs them with -m "slow or browser".
test: $(BIN)/.installed $(RUNTIME)
	$(BIN)/pytest -n auto --dist loadfile

# actionlint checks the GitHub workflow, and shellcheck its run: steps and the CI scripts.
lint: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/shellcheck .ci/run .ci/gate
	$(BIN)/actionlint -shellcheck $(BIN)/shellcheck

# The wheel and the source archive, in dist/: the engine, the CLI, the pytest plugin and the
# MkDocs plugin with their schemas (tests/test_packaging.py installs the wheel and builds a site).
dist: $(BIN)/.installed
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

# Choose newer versions of the development tools and the site's packages (then run make test).
# The project's own extras name the project, which must not be pinned to this folder.
lock: $(BIN)/.installed
	$(BIN)/python -m pip install --quiet pip-tools
	$(BIN)/pip-compile --upgrade --extra dev --strip-extras --quiet --no-emit-index-url \
		--no-emit-find-links --unsafe-package schotten-totten-oracle \
		-o requirements-dev.lock pyproject.toml

# The reader tests' pictures (tests/test_reader.py): take them all again, leaving each changed
# one in test-artefacts/screenshots/ with a page showing old, new and diff; then accept or keep
# each (tests/review_screenshots.py).
screenshots: $(BIN)/.installed $(RUNTIME)
	rm -rf test-artefacts/screenshots
	ORACLE_SCREENSHOTS=record $(BIN)/pytest -m browser -k looks_as_reviewed -n auto --dist load \
		-q tests/test_reader.py
	$(BIN)/python tests/review_screenshots.py --list

screenshots-review: $(BIN)/.installed
	$(BIN)/python tests/review_screenshots.py

schema: $(BIN)/.installed
	$(BIN)/python -m oracle.casefile.schema

bench: $(BIN)/.installed $(RUNTIME)
	$(BIN)/python bench/claim_bench.py
	$(BIN)/python bench/game_bench.py
	$(BIN)/python bench/browser_bench.py
	$(BIN)/python bench/page_weight.py
	$(BIN)/python bench/mutation_bench.py --coverage --mutants 0

# What the catalogue alone catches: 150 mutants of the rule modules, each judged by pytest cases
# (about 8 minutes on two cores, too long for make bench), with the coverage table first.
MUTATION_SEED ?= 1
mutation-bench: $(BIN)/.installed $(RUNTIME)
	$(BIN)/python bench/mutation_bench.py --catalogue-only --coverage --mutants 150 \
		--seed $(MUTATION_SEED) --jobs 2

clean:
	rm -rf $(VENV) node_modules site dist .pytest_cache .mypy_cache .ruff_cache
