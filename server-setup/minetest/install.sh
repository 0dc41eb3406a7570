#!/usr/bin/env bash
# Installs the Minetest peer: Debian's minetest-server and minetest-mod-pycraft packages.
# Quiet and instant when they are already installed. Exit status 0 when they are installed (already or
# now); 1, with one line saying why, when they cannot be installed here (not root, no apt, no network).
exec bash "$(dirname "$0")/../apt-install.sh" minetest-server minetest-mod-pycraft
