#!/usr/bin/env bash
# Installs Debian packages given as arguments (the test peers' install.sh scripts call it).
# Quiet and instant when they are already installed. Exit status 0 when they are installed (already or
# now); 1, with one line saying why, when they cannot be installed here (not root, no apt, no network).
set -uo pipefail
packages=("$@")

installed() {
    [ "$(dpkg-query -W -f='${Status}\n' "${packages[@]}" 2>/dev/null | grep -c 'install ok installed')" = "${#packages[@]}" ]
}

if installed; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "cannot install ${packages[*]}: apt-get is not available here (not Debian/Ubuntu)"
    exit 1
fi
if [ "$(id -u)" != 0 ]; then
    echo "cannot install ${packages[*]}: not root (run: sudo apt-get install ${packages[*]})"
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -qq "${packages[@]}" >/dev/null 2>&1; then
    apt-get update -qq >/dev/null 2>&1
    if ! apt-get install -y -qq "${packages[@]}" >/dev/null 2>&1; then
        echo "cannot install ${packages[*]}: apt-get install failed (no network or no such packages)"
        exit 1
    fi
fi
installed
