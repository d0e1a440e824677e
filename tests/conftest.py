"""Shared fixtures: a real SQLite store in a temporary folder and the real FastAPI app."""
from __future__ import annotations

import pytest
from api_support import table_client
from hypothesis import settings

from companion.table.store import EventStore
from server_support import HOST_KEYS, Server

pytest_plugins = ("suite_plan", "cpu_usage")  # the kinds, order and grouping over the workers; --cpu-log

# No hypothesis example has a deadline: a deadline is a timed assertion, and on a busy machine an
# example that takes 0.2 ms alone took 920 ms and failed the run (docs/testing.md).
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")


@pytest.fixture
def store(tmp_path):
    s = EventStore(tmp_path / "data")
    yield s
    s.close()


@pytest.fixture
def client(store):
    """The real app over ``store``, called by the host (tests/api_support.py)."""
    with table_client(store) as c:
        yield c


# --- the dashboard in a real browser (tests/browser_support.py) --------------------------------

@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    """`companion serve` (no camera, no board) in a process of its own on a free port, with its
    own store; one per test module: each test plays games of its own (their own ids)."""
    with Server(tmp_path_factory.mktemp("served") / "data") as server:
        yield server.url


@pytest.fixture(scope="session")
def chromium_browser():
    """Debian's headless Chromium, driven by Playwright: one for the whole run (a launch takes
    1 to 10 s on a busy machine); each test's pages are closed after it (`browser`)."""
    from browser_support import chromium

    with chromium() as b:
        yield b


class _LessMotion:
    """The browser, whose new pages ask for less motion (prefers-reduced-motion) unless told:
    the dashboard's endless pulses repaint a page every frame, which on a busy machine takes the
    CPU that the server and the other pages need (the pulse itself: test_dashboard_metro.py).

    And whose new pages are the host's (the table view on the host's tablet): each carries the
    cookie `ttc_host` with the host key of every running server (server_support.HOST_KEYS; none
    while serve prints no key). A cookie ignores the port, so with two servers running the
    newest one's key wins; ``host=URL`` picks that server's, ``host=False`` none (a phone, a
    spectator)."""

    def __init__(self, browser):
        self._browser = browser

    def new_page(self, host: bool | str = True, **options):
        options.setdefault("reduced_motion", "reduce")
        page = self._browser.new_page(**options)
        cookies = [{"name": "ttc_host", "value": key, "url": base + "/", "httpOnly": True}
                   for base, key in HOST_KEYS.items() if host is True or host and base == host.rstrip("/")]
        if cookies:
            page.context.add_cookies(cookies)
        return page

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture
def browser(chromium_browser):
    """The run's Chromium (pages asking for less motion); the pages a test opened are closed after it."""
    before = set(chromium_browser.contexts)
    yield _LessMotion(chromium_browser)
    for context in chromium_browser.contexts:
        if context not in before:
            context.close()
