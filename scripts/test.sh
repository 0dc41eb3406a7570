#!/usr/bin/env bash
# Runs the whole test suite (unit, property, golden and end-to-end tests on the embedded server, and the
# bridge against a real Minetest server with the pycraft mod when it can be installed).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# the optional world-save export (MIT, no dependencies) is installed here so that its tests run too
.venv/bin/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[world]'
# the Minetest peer (Debian packages) for tests/peers; without it those tests are skipped, and said so below
peer_missing="$(bash server-setup/minetest/install.sh)" || true
# Debian's chromium for the browser tests (tests/web, driven by Playwright); without it they are skipped, and said so
browser_missing="$(bash server-setup/browser/install.sh)" || true
.venv/bin/ruff check .
.venv/bin/mypy --strict  # the whole tree, tests and benchmarks included ([tool.mypy] in pyproject.toml)
.venv/bin/python scripts/typing_counts.py  # how loosely typed the code still is (lower is better)
status=0
# on every core (up to four), each test module kept in one process with its fixtures (`-n 0` runs it in one)
.venv/bin/python -m pytest --numprocesses auto --maxprocesses 4 --dist loadscope "$@" || status=$?
if [ -n "$peer_missing" ]; then
    echo "!!! PEER TESTS NOT RUN (tests/peers, the bridge against Minetest): $peer_missing" >&2
fi
if [ -n "$browser_missing" ]; then
    echo "!!! BROWSER TESTS NOT RUN (tests/web, the pages in Chromium): $browser_missing" >&2
fi
exit "$status"
