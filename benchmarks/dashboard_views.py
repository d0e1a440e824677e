"""What a pushed view costs the browser: a TOKYO METRO table page redrawing move after move.

Runs the real service (`companion serve`, a process of its own) with a four-player TOKYO METRO
game, opens its table view (the host's tablet, 1280x800) in Debian's headless Chromium, and plays
``--moves`` moves through the API (the phone of the seat to act posts one of its legal moves,
chosen by the seed; the host taps what the table must). After each move it waits until the page
shows that view (``#app``'s ``data-seq``) and a little longer for the raster to settle, then
counts:

- Chromium's CPU: user + system time of every Chromium process (the browser, the renderer, the
  GPU and utility processes that draw in software), read from /proc; the server is not counted.
- The page's own main thread by Chrome's `Performance.getMetrics` (DevTools protocol): script,
  layout, style recalculation and all tasks, in ms a view.
- The elements the view put on the page (a MutationObserver: new or moved ones, with everything
  inside), by where they went (the nearest test id): what a redraw did not keep.

The move's CPU is from the POST to the view on screen plus the settling; the settling alone (no
view) is measured before the moves and taken off, so the numbers are what the views cost.

Run:  .venv/bin/python benchmarks/dashboard_views.py --moves 40 --seed 7
Prints a line per move on stderr and the figures as JSON on stdout (median and mean ms a view).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from browser_support import ARGS, CHROMIUM  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from server_support import Server, authorization  # noqa: E402

NAMES = ["Aki", "Ben", "Chie", "Dai"]
TABLE_SIZE = {"width": 1280, "height": 800}
SETTLE = 0.25   # seconds after a view is on screen for the raster workers to finish drawing it
# The elements a view put on the page (new ones, with everything inside them), by the test id of
# the nearest marked ancestor: what a redraw did not keep.
COUNT_ADDED = """() => {
  window.__added = {};
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.nodeType !== 1) continue;
      const marked = n.closest('[data-testid]');
      const where = marked ? marked.dataset.testid : `${n.parentElement.className || n.parentElement.tagName}>${n.tagName}.${n.getAttribute('class') || ''}`;
      window.__added[where] = (window.__added[where] || 0) + 1 + n.querySelectorAll('*').length;
    }
  }).observe(document.getElementById('app'), { childList: true, subtree: true });
}"""
METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def chromium_cpu(exclude: int) -> float:
    """CPU seconds of every Chromium process below this one (not the server ``exclude``'s tree,
    not Playwright's driver)."""
    parents, comms = {}, {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))):
            parents[int(entry)] = int(fields[1])
            try:
                comms[int(entry)] = Path(f"/proc/{entry}/comm").read_text().strip()
            except OSError:
                comms[int(entry)] = ""
    me, total = os.getpid(), 0.0
    for pid, comm in comms.items():
        if comm == "node" or "python" in comm:
            continue
        chain, p = [], pid
        while p in parents and p not in (me, exclude, 0, 1):
            chain.append(p)
            p = parents[p]
        if p == me and (fields := _stat(pid)):
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def page_metrics(cdp) -> dict[str, float]:
    got = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {k: got.get(k, 0.0) for k in METRICS}


def next_move(http, gid: str, keys: list[str], host_key: str, rng: random.Random):
    """(the key that may post it, a legal move), or None when the game is over."""
    for key in keys:
        view = http.get(f"/api/games/{gid}/view", params={"as": "player"}, headers=authorization(key)).json()
        if view["over"]:
            return None
        if view["moves"]:
            return key, rng.choice(view["moves"])["move"]
    view = http.get(f"/api/games/{gid}/view").json()
    if view["over"] or not view["moves"]:
        return None
    return host_key, view["moves"][0]["move"]


def run(moves: int, seed: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp, Server(Path(tmp) / "data") as server, sync_playwright() as pw:
        http = server.client()
        created = http.post("/api/games", json={"game": "tokyo_metro", "names": NAMES, "bots": [], "seed": seed}).json()
        gid = created["id"]
        keys = [p["url"].split("token=")[1] for p in created["players"]]
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        context = browser.new_context(viewport=TABLE_SIZE, reduced_motion="reduce")
        context.add_cookies([{"name": "ttc_host", "value": server.host_key, "url": server.url + "/", "httpOnly": True}])
        page = context.new_page()
        page.on("pageerror", lambda e: print(f"page error: {e}", file=sys.stderr, flush=True))
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        page.goto(f"{server.url}/?game={gid}")
        page.wait_for_function("() => document.getElementById('app').dataset.seq !== undefined")
        page.evaluate(COUNT_ADDED)
        time.sleep(1.0)
        cpu0 = chromium_cpu(server.proc.pid)
        time.sleep(SETTLE * 4)
        idle = (chromium_cpu(server.proc.pid) - cpu0) / 4   # a settling without a view
        rng, rows = random.Random(seed), []
        for n in range(moves):
            chosen = next_move(http, gid, keys, server.host_key, rng)
            if chosen is None:
                break
            key, move = chosen
            cpu, before = chromium_cpu(server.proc.pid), page_metrics(cdp)
            r = http.post(f"/api/games/{gid}/moves", json={"move": move}, headers=authorization(key))
            r.raise_for_status()
            seq = r.json()["view"]["seq"]
            page.wait_for_function("n => Number(document.getElementById('app').dataset.seq) >= n", arg=seq)
            time.sleep(SETTLE)
            after = page_metrics(cdp)
            added = page.evaluate("() => { const n = window.__added; window.__added = {}; return n; }")
            row = {"move": move["kind"], "seq": seq,
                   "chromium_ms": round((chromium_cpu(server.proc.pid) - cpu - idle) * 1000, 1),
                   "added": sum(added.values()), "added_where": added,
                   **{k: round((after[k] - before[k]) * 1000, 1) for k in METRICS}}
            rows.append(row)
            print(f"move {n + 1} ({move['kind']}, seq {seq}): chromium {row['chromium_ms']} ms, "
                  f"script {row['ScriptDuration']}, layout {row['LayoutDuration']}, "
                  f"style {row['RecalcStyleDuration']}, tasks {row['TaskDuration']}, elements added {row['added']}", file=sys.stderr, flush=True)
        elements = page.evaluate("() => document.querySelectorAll('#app *').length")
        browser.close()
        http.close()
    summary = {k: {"median": round(statistics.median(r[k] for r in rows), 1),
                   "mean": round(statistics.fmean(r[k] for r in rows), 1)} for k in ("chromium_ms", *METRICS, "added")}
    return {"moves": len(rows), "seed": seed, "elements": elements, "idle_settle_ms": round(idle * 1000, 1),
            "per_view": summary, "rows": rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40, help="moves (views) to measure (default 40)")
    parser.add_argument("--seed", type=int, default=7, help="the game's and the moves' seed (default 7)")
    args = parser.parse_args()
    out = run(args.moves, args.seed)
    print(json.dumps({k: v for k, v in out.items() if k != "rows"}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
