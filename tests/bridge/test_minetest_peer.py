"""Setting up the Minetest peer's folder (no Minetest needed): the config, and the mods copied and patched."""

from __future__ import annotations

from pathlib import Path

import pytest

from blockref.bridge.peers.minetest import Installation, PeerError, install_mods, write_config


def test_the_config_is_flat_creative_local_and_names_the_area_in_minetest_coordinates(tmp_path: Path) -> None:
    path = write_config(tmp_path, game_port=30123, api_port=4799, area=((2, 8, -48), (48, 14, -2)))
    settings = dict(line.split(" = ", 1) for line in path.read_text().splitlines())
    assert settings["port"] == "30123" and settings["bind_address"] == "127.0.0.1"
    assert settings["pycraft_port"] == "4799" and settings["secure.enable_security"] == "false"
    assert settings["mg_name"] == "flat" and settings["creative_mode"] == "true"
    assert settings["blockref_area"] == "2,8,48,48,14,2"  # z negated
    assert settings["blockref_ready_file"] == str(tmp_path / "area-ready")


def test_listen_opens_only_the_game_port(tmp_path: Path) -> None:
    path = write_config(tmp_path, game_port=30000, api_port=4711, area=None, listen="0.0.0.0")
    text = path.read_text()
    assert "bind_address = 0.0.0.0" in text and "blockref_area" not in text


def _fake_pycraft(root: Path, bind_line: str) -> Installation:
    mod = root / "pycraft"
    mod.mkdir()
    (mod / "init.lua").write_text(f"local server,err = {bind_line}\nassert(server, err)\n")
    return Installation(server=root / "minetestserver", pycraft=mod)


def test_the_mods_are_copied_with_the_api_port_from_the_config_and_loopback_only(tmp_path: Path) -> None:
    installation = _fake_pycraft(tmp_path, "socket.bind(remote_address, 4711)")
    world = tmp_path / "world"
    install_mods(world, installation)
    init = (world / "worldmods" / "pycraft" / "init.lua").read_text()
    assert 'minetest.settings:get("pycraft_port")' in init
    assert "restrict_to_local_connections = true" in (world / "worldmods" / "pycraft" / "override.conf").read_text()
    assert (world / "worldmods" / "blockref_forceload" / "init.lua").is_file()
    assert "gameid = minetest" in (world / "world.mt").read_text()
    install_mods(world, installation)  # again, over the previous copy
    assert (installation.pycraft / "init.lua").read_text().count("4711") == 1  # the original is untouched


def test_a_pycraft_that_binds_differently_is_refused(tmp_path: Path) -> None:
    installation = _fake_pycraft(tmp_path, "socket.bind('*', 4711)")
    with pytest.raises(PeerError, match="does not bind its API port as expected"):
        install_mods(tmp_path / "world", installation)
