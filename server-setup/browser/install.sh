#!/usr/bin/env bash
# Installs the browser of the web tests (tests/web): Debian's chromium package, which Playwright drives.
# Quiet and instant when it is installed; exit status 1, with one line saying why, when it cannot be.
exec bash "$(dirname "$0")/../apt-install.sh" chromium
