"""Browser test support: the server on a free port in a thread, Debian's chromium driven by
Playwright for Python, pages that collect console errors and save screenshots."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from henderson.server import create_app

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

if not CHROMIUM.exists():
    pytest.skip(
        "chromium not found at /usr/bin/chromium (scripts/ensure-browser installs it)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
expect.set_options(timeout=15_000)  # a loaded machine is slow; a failure still fails


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server on a free localhost port, in a thread of this process (the toy game known)."""
    db = tmp_path_factory.mktemp("browser") / "games.sqlite"
    listening = socket.socket()  # bound here and handed over: no other process can take the port meanwhile
    listening.bind(("127.0.0.1", 0))
    port = int(listening.getsockname()[1])
    config = uvicorn.Config(
        create_app(f"sqlite:///{db}"),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="on",
    )
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    end = time.monotonic() + 20
    while not instance.started:
        if time.monotonic() > end or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    instance.should_exit = True
    thread.join(timeout=10)
    listening.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS, headless=True)
        yield launched
        launched.close()


class Page:
    """A browser page that collects console errors and saves screenshots."""

    def __init__(self, browser: Any, width: int = 1366, height: int = 768) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"))

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def tab(browser: Any) -> Iterator[Page]:
    page = Page(browser)
    yield page
    page.close()


def log_count(page: Any) -> int:
    return int(page.locator("#log li").count())


def wait_my_turn(page: Any) -> None:
    expect(page.locator("#status")).to_contain_text(re.compile("your decision|Game over"), timeout=15000)


def then_my_turn(page: Any, before: int) -> bool:
    """Wait for the log to grow past `before` entries, then for this seat's decision or the
    end of the game (the computer may win); True when it is this seat's decision."""
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}", timeout=15000)
    page.wait_for_function(
        "!document.getElementById('action-input').disabled"
        " || document.getElementById('status').textContent.includes('Game over')",
        timeout=15000,
    )
    return "Game over" not in page.locator("#status").inner_text()


def open_record(page: Any, server: str, path: Any, record: Any) -> None:
    """Upload `record` (written to `path`) from the lobby and wait until it is my turn in it."""
    path.write_text(record.dumps())
    page.goto(server + "/")
    page.set_input_files("#record-file", str(path))
    page.click("#upload-form button")
    page.wait_for_url(re.compile(r"/play#"))
    wait_my_turn(page)


SEAT = """async () => {
  const token = decodeURIComponent(location.hash.slice(1));
  const answer = await fetch('/api/seat', {headers: {Authorization: 'Bearer ' + token}});
  return answer.json();
}"""


def seat(page: Any) -> dict[str, Any]:
    """This seat's state message from the API: what the server lets the page know."""
    return dict(page.evaluate(SEAT))


def settle(page: Any, before: int) -> None:
    """After an action: wait for the log to grow, then for this seat's decision or the end, and
    for the action's answer (the new state may be drawn first; until the answer is in, the page
    sends nothing, `body.sending`)."""
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}", timeout=20000)
    page.wait_for_function(
        "(!document.getElementById('action-input').disabled"
        " || document.getElementById('status').textContent.includes('Game over'))"
        " && !document.body.classList.contains('sending')",
        timeout=30000,
    )
