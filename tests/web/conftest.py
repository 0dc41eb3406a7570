"""The web app served by uvicorn on a free port, and Debian's Chromium driven by Playwright.

Without Chromium (``server-setup/browser/install.sh`` installs it; ``scripts/test.sh`` calls it) the
browser tests are skipped with that reason, and test.sh says so at the end.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from blockref.bridge.embedded_server import free_port, port_accepts
from blockref.bridge.web.serve import start_in_thread

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@dataclass(frozen=True)
class WebSite:
    url: str
    data: Path


@pytest.fixture
def site(tmp_path: Path) -> Iterator[WebSite]:
    """The app of a fresh data folder, served on 127.0.0.1."""
    port = free_port()
    server = start_in_thread(tmp_path, port)
    deadline = time.monotonic() + 20
    while not port_accepts("127.0.0.1", port):
        assert time.monotonic() < deadline, "the web server did not start"
        time.sleep(0.05)
    yield WebSite(f"http://127.0.0.1:{port}", tmp_path)
    server.should_exit = True


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless Chromium (Debian's package); the tests that need it are skipped where it is missing. One
    per module: Playwright's synchronous API holds an event loop in the main thread while it runs, which
    tests of asyncio code in later modules must not find."""
    if not CHROMIUM.is_file():
        pytest.skip(f"BROWSER TESTS NOT RUN: {CHROMIUM} is missing; install it with server-setup/browser/install.sh")
    sync_api = pytest.importorskip("playwright.sync_api", reason="BROWSER TESTS NOT RUN: playwright is missing")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
