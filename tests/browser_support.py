"""What the browser tests share: Debian's Chromium driven by Playwright, a small JSON client of
the API, and a tap that cannot be lost. The server they drive: tests/server_support.py.
"""
from __future__ import annotations

import json
import os
import re
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, expect, sync_playwright
from server_support import HOST_KEYS, authorization

# Debian's old headless shell, not its full browser: the same Blink, but a page costs a tenth of
# the CPU to open (the full browser in headless mode starts a WebUI renderer of its own, the
# address bar's popup, beside each window) and a play-through a quarter less (docs/performance.md,
# "The test suite", 2026-12-03). TTC_CHROMIUM names another build to drive (e.g. /usr/bin/chromium).
CHROMIUM = Path(os.environ.get("TTC_CHROMIUM", "/usr/bin/chromium-headless-shell"))
# Without the background-networking flags Chromium keeps dialling out of this closed network.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

# Bounds far above the worst case seen on a busy 2-core machine: they only turn a hang into a
# failure that says what it waited for.
REPLY_MS = 60_000     # a page's answer to a tap (a move takes well under a second)
TAP_TRIES = 5         # a tap swallowed by a redraw between finger down and up is tapped again
# Every wait for something on a page looks on a timer, not on Playwright's default animation frames:
# a busy machine can starve a page's frames (a page drawing the METRO trains' glide most), and a
# wait polled on frames can then run out with the page right (the likeliest reading of two full
# runs: the page "still at view 91", the server at 92, its answer sent after 54 ms, no error on the
# page; the message now says what the page shows, should it happen again).
POLL_MS = 50
# What a page must show (a push, a redraw) comes within a second or two on a busy machine, not
# Playwright's default 5 s: every `expect` of the browser tests waits up to 30 s.
EXPECT_MS = 30_000
expect.set_options(timeout=EXPECT_MS)


@contextmanager
def chromium():
    """Debian's Chromium; never skipped: the tests fail plainly when it is missing."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium-headless-shell "
                    "(or: apt-get install chromium-headless-shell)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def call(base: str, method: str, path: str, body: dict | None = None, *, as_host: bool = True,
         token: str | None = None, raw: bool = False):
    """The JSON answer of the API at ``base`` (``raw``: its text), asked as the host (the bearer:
    the host key of the server there) unless ``as_host`` is false (a phone, a spectator);
    ``token``: that bearer instead (a player's key, a wrong key). An error status raises HTTPError."""
    base = base.rstrip("/")
    bearer = token or (HOST_KEYS.get(base) if as_host else None)
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json", **authorization(bearer)})
    with urllib.request.urlopen(req, timeout=60) as res:
        text = res.read().decode()
    return text if raw else json.loads(text)


def pocari_with_computers(base: str, seed: int, simulated: bool = True) -> dict:
    """A POCARI BET game with a person in seat 0 and the computer in seats 1 and 2 (the created game)."""
    return call(base, "POST", "/api/games", {"game": "pocari_bet", "names": ["Aki", "Ben", "Chie"], "bots": [1, 2],
                                             "simulated": simulated, "seed": seed})


def to_the_drop(base: str, gid: str) -> dict:
    """Seat 0's moves through the API (the computers and the simulated table do the rest), up to
    the throw; the view there."""
    for _ in range(40):
        view = call(base, "GET", f"/api/games/{gid}/view")
        if view["chance"] and view["chance"]["kind"] == "drop":
            return view
        call(base, "POST", f"/api/games/{gid}/moves", {"move": view["moves"][0]["move"]})
    raise AssertionError("the round did not reach the throw")


# --- pictures for a person ------------------------------------------------------------------------

# The tests' screenshots are for a person to look at after a change of the dashboard: none is
# compared with anything. So they are taken only with TTC_SCREENSHOTS=1: some 45 a run, a
# full-page METRO table 0.44 CPU-s of Chromium alone (docs/performance.md, "The test suite",
# 2026-12-04). Without it, an element's picture still waits for the element to be visible, as
# taking it would have.
SCREENSHOTS = os.environ.get("TTC_SCREENSHOTS") == "1"


def for_a_person(target, path, **options) -> None:
    """``target.screenshot(path=path, **options)`` with TTC_SCREENSHOTS=1 (a page or a locator)."""
    if SCREENSHOTS:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        target.screenshot(path=str(path), **options)
    elif isinstance(target, Locator):
        expect(target).to_be_visible()


# --- tapping ----------------------------------------------------------------------------------------

# Every page records, for each click event, the test ids on its path: a tap whose finger-down and
# finger-up landed on different elements (the page redrew in between) has no click on the button,
# and is tapped again at once (a lost tap used to cost a 10 s wait). Kept in sessionStorage, so
# that a tap that navigates (the lobby's start) is still on record. Installed on a page by its first
# tap, and again after it navigated. Answers what a tap needs to know before it taps.
BEFORE_TAP = """() => {
  const taps = () => JSON.parse(sessionStorage.getItem('test.taps') || '[]');
  if (!window.__tapRecorder) {
    window.__tapRecorder = true;
    document.addEventListener('click', (e) => {
      const path = e.composedPath().filter((n) => n.dataset && n.dataset.testid).map((n) => n.dataset.testid);
      sessionStorage.setItem('test.taps', JSON.stringify([...taps(), path]));
    }, true);
  }
  const app = document.getElementById('app');
  return { taps: taps().length, seq: app && app.dataset.seq !== undefined ? Number(app.dataset.seq) : null,
           toasts: document.querySelectorAll('[data-testid=toast]').length };
}"""
# After the tap: "missed" when no click reached the button; with `newer`, "ok" once the page shows
# a view newer than before (or "toast: ..." when the server refused), else false (still waiting).
AFTER_TAP = """([before, id, newer]) => {
  const taps = JSON.parse(sessionStorage.getItem('test.taps') || '[]').slice(before.taps);
  if (!taps.some((path) => path.includes(id))) return 'missed';
  if (!newer) return 'ok';
  const app = document.getElementById('app');
  const seq = app && app.dataset.seq !== undefined ? Number(app.dataset.seq) : null;
  if (seq !== null && (before.seq === null || seq > before.seq)) return 'ok';
  const toasts = document.querySelectorAll('[data-testid=toast]');
  return toasts.length > before.toasts ? 'toast: ' + toasts[toasts.length - 1].innerText : false;
}"""


def _after(page, before: dict, testid: str, newer: bool, what: str) -> str:
    for _ in range(10):
        try:
            return page.wait_for_function(AFTER_TAP, arg=[before, testid, newer], polling=POLL_MS,
                                          timeout=REPLY_MS).json_value()
        except PlaywrightError as exc:
            if "context was destroyed" in str(exc) or "navigat" in str(exc):
                page.wait_for_load_state("domcontentloaded", timeout=REPLY_MS)  # the tap led to another page
                continue
            if "Timeout" in str(exc):
                raise AssertionError(f"{what}: the page showed view {before['seq']} when tapped, and still shows "
                                     f"{shows(page)} {REPLY_MS // 1000} s after the tap (waited for the server's "
                                     f"answer to reach it)") from None
            raise
    raise AssertionError(f"{what}: the page kept navigating after the tap")


def tap(page, target, what: str | None = None, *, newer: bool = False, force: bool = False,
        before: dict | None = None) -> None:
    """Tap ``target`` (a test id, or a locator whose element carries one) the way a finger does, and
    make sure the button received the tap: a tap swallowed by a redraw is tapped again (found again,
    on the redrawn page), at most TAP_TRIES times. With ``newer``, also wait for the
    reply: a newer view on the page (a refusal in a toast fails at once). ``force`` skips
    Playwright's checks that the element is visible, still and on top (a caller that checked that
    itself saves the round trips; a tap that misses is still caught and repeated). ``before``: what
    BEFORE_TAP answered just now, when the caller asked for it along with other things."""
    if isinstance(target, str):
        testid, locator = target, page.locator(f'[data-testid="{target}"]:visible').first
    else:
        testid, locator = target.get_attribute("data-testid", timeout=REPLY_MS), target
        if testid is None:
            raise AssertionError(f"tap: {what or target} has no data-testid")
    what = what or testid
    for _ in range(TAP_TRIES):
        before = before or page.evaluate(BEFORE_TAP)
        try:
            locator.click(timeout=REPLY_MS, force=force)
        except PlaywrightError as exc:  # forced: the page redrew between finding the button and tapping it
            if not force or not re.search(r"not visible|not attached|detached", str(exc)):
                raise
            got = "missed"
        else:
            got = _after(page, before, testid, newer, what)
        if got == "ok":
            return
        if got != "missed":
            raise AssertionError(f"{what}: the server refused ({got}) instead of answering with a newer view")
        if isinstance(target, str):
            locator = page.locator(f'[data-testid="{testid}"]:visible').first
        before = None
    raise AssertionError(f"{what}: {TAP_TRIES} taps never reached the button (each one swallowed by a redraw)")


def tap_and_wait(page, target, what: str | None = None, *, table=None, force: bool = False,
                 before: dict | None = None) -> int | None:
    """Tap and wait for the reply: the page showing a newer view (its #app data-seq), and the
    table view too when given (then the new sequence number is returned)."""
    tap(page, target, what, newer=True, force=force, before=before)
    if table is None or table is page:
        return None
    new = seq_of(page)
    shown(table, new, f"the table view after {what or target}")
    return new


def wait_until(page, js: str, what: str, arg=None, timeout_ms: int = REPLY_MS):
    """Wait until the page function ``js`` (given ``arg``) answers something true, and return it;
    a failure says what was waited for."""
    try:
        return page.wait_for_function(js, arg=arg, polling=POLL_MS, timeout=timeout_ms).json_value()
    except PlaywrightError as exc:
        if "Timeout" not in str(exc):
            raise
        raise AssertionError(f"waited {timeout_ms // 1000} s for {what}, in vain") from None


# --- layout --------------------------------------------------------------------------------------

# Whatever a person would have to scroll sideways to see, or that sticks out of its own button:
# the page wider than the window, a box that scrolls sideways (a table in an overflow wrapper; a
# picture made to be panned, such as the METRO map, is fine), a visible control or test-id'd
# element beyond the window's edges (unless a box clips it: then that box is what is checked),
# something inside a button beyond the button's (an estimate badge over the next button, a name
# cut off). Each as a line naming it.
OVERFLOWS = """() => {
  const width = document.documentElement.clientWidth;
  const name = (el) => {
    const id = el.dataset && el.dataset.testid;
    const cls = typeof el.className === 'string' && el.className ? '.' + el.className.split(' ')[0] : '';
    const text = (el.innerText || el.value || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return el.tagName.toLowerCase() + (id ? `[data-testid=${id}]` : cls) + (text ? ` "${text}"` : '');
  };
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  // A box panned around a picture (an svg, img or canvas wider than the box: a map to move over).
  const pans = (el) => [...el.children].some((c) => ['svg', 'img', 'canvas'].includes(c.tagName.toLowerCase())
    && c.getBoundingClientRect().width > el.clientWidth);
  // The nearest box that clips el sideways (its content beyond the box is hidden or scrolled).
  const clipper = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') return a;
    }
    return null;
  };
  const found = [];
  const page = document.scrollingElement;
  if (page.scrollWidth > width + 1) found.push(`the page scrolls sideways (${page.scrollWidth} px in ${width})`);
  for (const el of document.querySelectorAll('body *')) {
    const x = getComputedStyle(el).overflowX;
    if ((x === 'auto' || x === 'scroll') && el.scrollWidth > el.clientWidth + 1 && shown(el) && !pans(el)) {
      found.push(`${name(el)} scrolls sideways (${el.scrollWidth} px in ${el.clientWidth})`);
    }
  }
  for (const el of document.querySelectorAll('button, input, select, textarea, a, label, [data-testid]')) {
    if (!shown(el) || el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;  // (a drawing's parts)
    const r = el.getBoundingClientRect();
    const box = clipper(el);
    if (box && box !== document.documentElement) {
      const b = box.getBoundingClientRect();
      if (r.right <= b.left + 1 || r.left >= b.right - 1 || r.left < b.left - 1 || r.right > b.right + 1) continue;
    }
    if (r.left < -1 || r.right > width + 1) {
      found.push(`${name(el)} spans ${Math.round(r.left)}..${Math.round(r.right)} px of ${width}`);
    }
    if (el.tagName !== 'BUTTON') continue;
    const out = [...el.querySelectorAll('*')].find((c) => {
      if (!shown(c)) return false;
      const q = c.getBoundingClientRect();
      return q.left < r.left - 1 || q.right > r.right + 1;
    });
    if (out) found.push(`${name(out)} sticks out of ${name(el)}`);
  }
  return found;
}"""


def assert_fits(page, what: str) -> None:
    """Fail, listing each of them, when anything on ``page`` overflows the window sideways or its
    own button (OVERFLOWS); for the phone-sized pages above all (390 px)."""
    found = page.evaluate(OVERFLOWS)
    assert not found, f"{what}: {len(found)} things do not fit the {page.viewport_size['width']} px window:\n  " + \
        "\n  ".join(found[:20]) + (f"\n  … and {len(found) - 20} more" if len(found) > 20 else "")


def seq_of(page) -> int | None:
    seq = page.evaluate("() => document.getElementById('app').dataset.seq")
    return None if seq is None else int(seq)


def shows(page) -> str:
    """For a failure's message: the view the page shows (never a second failure hiding the first)."""
    try:
        return str(seq_of(page))
    except PlaywrightError as exc:
        return f"(could not ask the page: {exc})"


def shown(page, seq: int, what: str = "the page") -> None:
    """Wait until the page shows the view with sequence number ``seq`` (or later)."""
    try:
        page.wait_for_function("n => Number(document.getElementById('app').dataset.seq) >= n", arg=seq,
                               polling=POLL_MS, timeout=REPLY_MS)
    except PlaywrightError as exc:
        if "Timeout" not in str(exc):
            raise
        raise AssertionError(f"{what}: no view with seq >= {seq} reached the page by WebSocket within "
                             f"{REPLY_MS // 1000} s (it shows {shows(page)})") from None


def move_testid(move: dict) -> str:
    """A move button's test id, as the dashboard makes it (js/moves.js): move-<kind>-<args>."""
    vals = []
    for v in move["args"].values():
        vals.extend(v if isinstance(v, list) else [v])
    return "move-" + move["kind"] + "".join(f"-{v}" for v in vals)


def pick_testid(view: dict) -> str:
    """A reasonable move among the legal ones, as the testid of its button."""
    moves = view["moves"]
    kind = moves[0]["move"]["kind"]
    if kind == "draw":
        return "move-draw-colour"
    if kind == "pick":
        return f"move-pick-{moves[0]['move']['args']['drink']}"
    if kind == "invest":
        return "move-invest-200"
    if kind == "declare":
        best = max(moves, key=lambda m: m["pays_up_to"])
        return f"move-declare-{best['move']['args']['kind']}"
    raise AssertionError(f"unexpected move kind {kind}")
