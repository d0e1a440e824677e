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


# Pages kept open from one browser test to the next (unless the module says ``REUSE_PAGES = False``), by the options
# they were opened with: a page opened anew (a context, a renderer process, some 50 requests, the
# scripts compiled) costs Chromium 1.5-2.5 s of CPU, the same page sent to the next test's address
# 0.3-0.5 s (docs/performance.md, 2026-12-03). Before a page is kept its origin's storage and the
# context's cookies are cleared and it is sent to about:blank, so the next test finds it as a new
# page would be but for the HTTP cache (the same static files) and the listeners earlier tests
# added (each still writes to its own test's list). Routes, the window size and the motion setting
# are put back; a module whose tests count requests, add init scripts or install a clock opts out.
_KEPT_PAGES: dict[tuple, list] = {}
CLEAN_STORAGE = "() => { try { localStorage.clear(); sessionStorage.clear(); } catch (_) { /* opaque origin */ } }"


def _options_key(options: dict) -> tuple:
    return tuple(sorted((k, tuple(sorted(v.items())) if isinstance(v, dict) else v) for k, v in options.items()))


def _keep(page, key: tuple, options: dict) -> None:
    """Clean ``page`` and keep it for a later test (its routes gone, its window size and motion
    setting as opened); close it when it cannot be cleaned."""
    try:
        if page.is_closed():
            raise RuntimeError("closed by the test")
        page.unroute_all(behavior="ignoreErrors")
        page.evaluate(CLEAN_STORAGE)
        page.goto("about:blank")
        page.context.clear_cookies()
        if "viewport" in options:
            page.set_viewport_size(options["viewport"])
        page.emulate_media(reduced_motion=options["reduced_motion"])
    except Exception:  # a page that cannot be cleaned is not kept
        page.context.close()
        return
    _KEPT_PAGES.setdefault(key, []).append(page)


class _LessMotion:
    """The browser, whose new pages ask for less motion (prefers-reduced-motion) unless told:
    the dashboard's endless pulses repaint a page every frame, which on a busy machine takes the
    CPU that the server and the other pages need (the pulse itself: test_dashboard_metro.py).

    And whose new pages are the host's (the table view on the host's tablet): each carries the
    cookie `ttc_host` with the host key of every running server (server_support.HOST_KEYS; none
    while serve prints no key). A cookie ignores the port, so with two servers running the
    newest one's key wins; ``host=URL`` picks that server's, ``host=False`` none (a phone, a
    spectator)."""

    def __init__(self, browser, reuse: bool = False):
        self._browser, self.reuse = browser, reuse
        self.opened: list[tuple] = []    # (page, key, options) of each page this test opened, when reused

    def new_page(self, host: bool | str = True, **options):
        options.setdefault("reduced_motion", "reduce")
        if self.reuse:
            key = _options_key(options)
            kept = _KEPT_PAGES.get(key)
            page = kept.pop() if kept else self._browser.new_page(**options)
            self.opened.append((page, key, options))
        else:
            page = self._browser.new_page(**options)
        cookies = [{"name": "ttc_host", "value": key, "url": base + "/", "httpOnly": True}
                   for base, key in HOST_KEYS.items() if host is True or host and base == host.rstrip("/")]
        if cookies:
            page.context.add_cookies(cookies)
        return page

    def put_away(self, page) -> None:
        """Done with ``page`` before the test ends (a phone put back in a pocket): closed, or
        cleaned and kept for the next page asked for alike."""
        mine = next((entry for entry in self.opened if entry[0] is page), None)
        if mine is None:
            page.close()
            return
        self.opened.remove(mine)
        _keep(*mine)

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture
def browser(chromium_browser, request):
    """The run's Chromium (pages asking for less motion); the pages a test opened are closed after
    it, or cleaned and kept for the next test unless the module says ``REUSE_PAGES = False``."""
    before = set(chromium_browser.contexts)
    kept = {page.context for pages in _KEPT_PAGES.values() for page in pages}
    less = _LessMotion(chromium_browser, reuse=getattr(request.module, "REUSE_PAGES", True))
    yield less
    for page, key, options in less.opened:
        _keep(page, key, options)
    kept |= {page.context for pages in _KEPT_PAGES.values() for page in pages}
    for context in chromium_browser.contexts:
        if context not in before and context not in kept:
            context.close()
