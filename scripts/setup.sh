#!/usr/bin/env bash
# Installs everything the project needs into .venv (Python, the versions of constraints.txt), .venv/mecha (the
# command parser the datapack tests use) and server-setup/node_modules (npm, the lock file's versions).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[dev]'
# In this checkout's virtualenv the folders import by their own names too, from any folder, as the engines'
# replay contract is written (`python -m engines.nodes replay FILE --json`); an installed wheel has them as
# blockref.* alone, so nothing on a user's machine collides with them.
site_packages=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
pwd > "$site_packages/blockref-checkout.pth"
if ! cmp -s requirements-mecha.txt .venv/mecha/requirements-mecha.txt; then
  python3 -m venv .venv/mecha
  .venv/mecha/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-mecha.txt
  cp requirements-mecha.txt .venv/mecha/requirements-mecha.txt
fi
if [ -f server-setup/package-lock.json ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "setup: npm (Node.js >= 18) is needed for the embedded server; install nodejs and npm" >&2
    exit 1
  fi
  lock_hash=$(sha256sum server-setup/package-lock.json | cut -d' ' -f1)
  if [ "$(cat server-setup/node_modules/.lock-hash 2>/dev/null)" != "$lock_hash" ]; then
    (cd server-setup && npm ci --no-audit --no-fund --loglevel=error)
    echo "$lock_hash" > server-setup/node_modules/.lock-hash
  fi
fi
echo "setup: done (.venv ready${lock_hash:+, server-setup/node_modules ready})"
