#!/usr/bin/env bash
# Runs the whole test suite (unit, property, golden and end-to-end tests on the embedded server).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/mypy
exec .venv/bin/python -m pytest "$@"
