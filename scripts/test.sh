#!/usr/bin/env bash
# Runs the whole test suite (unit, property, golden and end-to-end tests on the embedded server).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# the optional world-save export (MIT, no dependencies) is installed here so that its tests run too
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[world]'
.venv/bin/ruff check .
.venv/bin/mypy
exec .venv/bin/python -m pytest "$@"
