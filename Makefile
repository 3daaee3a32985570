# The README's commands. Everything a fresh machine needs is installed from here:
# a virtualenv in .venv with maturin, pytest, hypothesis, pandas, ruff, mypy, dask, matplotlib and
# pyarrow from PyPI, the Rust crates from crates.io through cargo, Debian's valgrind for `mobmem capture`
# (capture-deps) and Debian's chromium for the reports' browser test (report-deps); the tests need
# both.

PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.deps-installed

.PHONY: install wheel capture-deps report-deps demo test test-rust test-python lint fmt bench speed-guard fuzz fuzz-smoke clean records

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet "maturin>=1.7,<2" "pytest>=8" "hypothesis>=6" "pandas>=2" "ruff>=0.6" "zstandard>=0.22" "mypy>=1.10" "dask[distributed]>=2024.1" "matplotlib>=3.10" "pyarrow>=14"
	touch $(STAMP)

# Builds the Rust core and binding (release) into the virtualenv, editable. The package's modules
# are compiled to bytecode here, as pip does for a wheel: an editable install otherwise compiles
# them at every start where bytecode is not written (PYTHONDONTWRITEBYTECODE), which measured
# 35 ms of each `mobmem` command's start. PIP_QUIET: the dependencies are installed above; the pip
# maturin runs would print a line for each optional extra it skips.
install: $(STAMP)
	PIP_QUIET=1 VIRTUAL_ENV=$(abspath $(VENV)) PATH=$(abspath $(BIN)):$$PATH $(BIN)/maturin develop --release --quiet
	$(BIN)/python -m compileall -q python/mobmem >/dev/null

# An installable wheel in $(WHEEL_DIR): the core built for release, the package and the data it
# ships (mobmem/data: the demo's trace, the captures and the corpus). `pip install dist/*.whl`.
WHEEL_DIR ?= dist
wheel: $(STAMP)
	$(BIN)/maturin build --release --quiet --interpreter $(abspath $(BIN))/python --out $(WHEEL_DIR)
	@ls $(WHEEL_DIR)/mobmem-*.whl

# `mobmem capture` runs programs under Valgrind's Lackey: Debian's valgrind, installed as chromium
# is below (only when missing, no recommended packages, one line, apt's output in a log).
capture-deps:
	@command -v valgrind >/dev/null 2>&1 || { \
	  echo "capture-deps: installing Debian's valgrind (mobmem capture's tests); log in $(VENV)/apt-valgrind.log"; \
	  mkdir -p $(VENV); \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  { $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      --no-install-recommends --no-upgrade valgrind; } >$(VENV)/apt-valgrind.log 2>&1 \
	  || { cat $(VENV)/apt-valgrind.log; exit 1; }; }

# The HTML reports are tested in a real headless browser: Debian's chromium, installed only when
# missing, without recommended packages (--no-upgrade: a package named here that is installed
# stays as it is; apt may still upgrade a library chromium needs a newer version of); apt's output
# goes to a log (.venv/apt-chromium.log) and one line says what is installed and why.
report-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "report-deps: installing Debian's chromium and fonts-liberation (the HTML reports' browser test); log in $(VENV)/apt-chromium.log"; \
	  mkdir -p $(VENV); \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  { $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      --no-install-recommends --no-upgrade chromium fonts-liberation; } >$(VENV)/apt-chromium.log 2>&1 \
	  || { cat $(VENV)/apt-chromium.log; exit 1; }; }

# The main job on the bundled default workload.
demo: install
	$(BIN)/mobmem demo

test-rust:
	cargo test -p mobmem-core -p mobmem-fuzz --release --quiet

test-python: install capture-deps report-deps
	$(BIN)/pytest -q

# All tests: Rust (unit, property, end-to-end) and Python (unit, property, CLI, README).
test: install test-rust test-python

# The typed result records (python/mobmem/records.py), generated from the core's result structs;
# tests/test_records.py fails when the checked-in file differs from what the built core makes.
records: install
	$(BIN)/python -m mobmem._gen_records > python/mobmem/records.py.new && mv python/mobmem/records.py.new python/mobmem/records.py

# Lints, and the Python package's types: mypy over the package, stubtest of the binding's stubs
# (python/mobmem/_core.pyi) against the built module (hence `install` first).
lint: install
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings
	$(BIN)/ruff check python tests bench captures fuzz examples tools
	$(BIN)/ruff format --check python tests bench captures fuzz examples tools
	$(BIN)/mypy
	$(BIN)/mypy --strict examples/typed_results.py
	$(BIN)/python -m mypy.stubtest mobmem._core --allowlist python/stubtest-allowlist.txt

fmt: $(STAMP)
	cargo fmt --all
	$(BIN)/ruff format python tests bench captures fuzz examples tools
	$(BIN)/ruff check --fix python tests bench captures fuzz examples tools

# The fuzzing harness (docs/RELIABILITY.md): mutated inputs for every reader, in workers limited to
# 1 GiB and 10 s each, built with overflow checks (profile fuzz); then its Python side (fuzz/pyfuzz.py:
# experiment files, results stores, usage files through `phone`, the Python API), each command
# limited to 2 GiB and 30 s. Failures are kept in tests/data/fuzz/ (replayed by `make test`).
FUZZ_SECONDS ?= 1800
fuzz: install
	cargo run -p mobmem-fuzz --profile fuzz --quiet -- run --seconds $(FUZZ_SECONDS) --jobs 2 --corpus tests/data/fuzz --out tests/data/fuzz
	$(BIN)/python fuzz/pyfuzz.py run --seconds $(FUZZ_SECONDS) --jobs 2 --corpus tests/data/fuzz --out tests/data/fuzz

# A short run for CI: under two minutes, failures printed (and the run fails).
fuzz-smoke: install
	cargo run -p mobmem-fuzz --profile fuzz --quiet -- run --seconds 45 --jobs 2 --seed 1 --corpus tests/data/fuzz
	$(BIN)/python fuzz/pyfuzz.py run --seconds 45 --jobs 2 --seed 1 --corpus tests/data/fuzz

bench: install
	$(BIN)/python bench/bench.py

# Each policy's instructions and D1 misses per access under callgrind (valgrind, as capture's), against
# the counts recorded in bench/speed_guard.toml; its replay time over a bare loop's, printed.
speed-guard: install capture-deps
	$(BIN)/python bench/speed_guard.py

clean:
	rm -rf target $(VENV) python/mobmem/*.so
