"""From a drop settled in the tray to its reading on every tablet (issue 26, item 8).

Runs the real service (`companion serve --camera sim --serial sim`, a process of its own) with
games of POCARI BET against two computer players, and tablets: live views (WebSockets) of the
host and of each seat, in this process, as phones and tablets at the table would hold them.
Drop after drop, the host throws; the simulated board counts the drinks and the simulated camera
shows them land. For each drop it measures, on every tablet, the time from the moment the
camera first showed the drinks at rest (the simulated camera's ``settled_at``, on the machine's
monotonic clock, which processes share) to the first view that holds the camera's reading (or
the question about it). It also counts:

- partial readings: a camera reading of fewer drinks than had landed (a reading made from a
  frame taken before the drop settled would be one; so would a drink the reader missed, which
  benchmarks/vision.py measures on its own),
- drops the camera did not read in time (the simulated throw then reports the drop directly).

``--hog N`` keeps N processes spinning beside it all along (a busy machine: ``--hog 2`` keeps
both cores of the table's machine busy).

Run:  .venv/bin/python benchmarks/drop_latency.py --drops 40             (an idle machine)
      .venv/bin/python benchmarks/drop_latency.py --drops 200 --hog 2    (both cores busy)
Prints one line per drop on stderr and the figures as JSON on stdout.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from companion.table.store import EventStore  # noqa: E402
from browser_support import call, pocari_with_computers  # noqa: E402
from live_devices import Device, hogs  # noqa: E402
from server_support import Server  # noqa: E402

READ_PATIENCE = 180.0   # seconds a drop may take to be read (or reported) even with the CPU hogged
TABLET_PATIENCE = 60.0  # seconds a tablet may take to show it after that; later counts as never shown


class Table:
    """The host's side: calls as the host, a game against computers with its tablets."""

    def __init__(self, server: Server, seed: int):
        self.server, self.seed = server, seed
        self.store = EventStore(server.data)
        self.game_id: str | None = None
        self.tablets: list[Device] = []

    def call(self, method: str, path: str, body: dict | None = None):
        return call(self.server.url, method, path, body)   # as the host (the server's key)

    def camera_ready(self) -> None:
        """Wait until the camera runs and its watcher has seen the empty tray still: a throw
        before that is reported without the camera, and measures nothing."""
        deadline = time.monotonic() + READ_PATIENCE
        while time.monotonic() < deadline:
            camera = self.call("GET", "/api/devices")["camera"] or {}
            if (camera.get("source") or {}).get("state") == "ok" and (camera.get("watcher") or {}).get("last_read"):
                return
            time.sleep(0.1)
        raise RuntimeError(f"the camera did not start within {READ_PATIENCE:.0f} s: {camera}")

    def new_game(self) -> None:
        for tablet in self.tablets:
            tablet.close()
        self.seed += 1
        created = pocari_with_computers(self.server.url, self.seed)
        self.game_id = created["id"]
        self.call("PUT", "/api/feed", {"game_id": self.game_id})
        ws = self.server.url.replace("http://", "ws://") + f"/api/games/{self.game_id}/ws"
        keys = [p["url"].split("token=")[1] for p in created["players"]]
        self.tablets = [Device(ws, self.server.host_key, False)] + [Device(ws, k, True) for k in keys]
        for tablet in self.tablets:
            tablet.start()

    def to_the_drop(self) -> dict:
        """Seat 0's moves (and answers to any question) up to the next throw; a new game at the end."""
        for _ in range(200):
            view = self.call("GET", f"/api/games/{self.game_id}/view")
            if view.get("over") or view.get("ended"):
                self.new_game()
                continue
            if view["chance"] and view["chance"]["kind"] == "drop" and not view.get("question"):
                return view
            if view.get("question"):
                q = view["question"]
                move = q.get("move") or {"kind": "drop", "player": "chance", "args": {"out": []}}
                self.call("POST", f"/api/games/{self.game_id}/moves", {"move": move, "override_beams": True})
                continue
            if view["moves"]:
                self.call("POST", f"/api/games/{self.game_id}/moves", {"move": view["moves"][0]["move"]})
            else:
                time.sleep(0.1)   # the computers are moving
        raise RuntimeError("the game did not come to a throw")

    def records(self) -> list[dict]:
        # (the store itself, read beside the service: the API gives a game's log only once it is over)
        return self.store.records(self.game_id)


def camera_reading(records: list[dict], after: int) -> tuple[int, dict] | None:
    """The first camera reading of the tray from record ``after`` on: (the seq that holds it, it)."""
    for i, record in enumerate(records[after:], start=after):
        seen = record.get("observation") or {}
        if record.get("type") == "observation" and seen.get("kind") == "tray" and seen.get("source") == "camera":
            return i + 1, seen
    return None


def one_drop(table: Table) -> dict:
    table.to_the_drop()
    before = len(table.records())
    table.call("POST", f"/api/games/{table.game_id}/throw")
    deadline = time.monotonic() + READ_PATIENCE
    while time.monotonic() < deadline:
        if table.game_id not in table.call("GET", "/api/devices")["throwing"]:
            break
        time.sleep(0.05)
    devices = table.call("GET", "/api/devices")
    camera = devices["camera"]["source"]
    found = camera_reading(table.records(), before)
    if found is None:   # nothing came out (the tower kept every drink), or the camera missed the drop
        return {"read": False, "nothing_out": not camera["in_tray"]}
    seq, reading = found
    first = (reading.get("detail") or {}).get("first_reading") or {}
    appeared = first.get("appeared", reading.get("appeared", []))
    # (the throw is over when the service has the reading; the tablets may still be receiving it)
    deadline = time.monotonic() + TABLET_PATIENCE
    while any(t.first_at(seq) is None for t in table.tablets) and time.monotonic() < deadline:
        time.sleep(0.02)
    arrived = [t.first_at(seq) for t in table.tablets]
    settled = camera["settled_at"]
    return {"read": True, "in_tray": len(camera["in_tray"]), "read_drinks": len(appeared),
            "partial": len(appeared) < len(camera["in_tray"]),
            "latency_s": [round(t - settled, 3) if t is not None else None for t in arrived]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--drops", type=int, default=40,
                        help="drops with drinks out to measure (default 40; throws of which nothing came out are not)")
    parser.add_argument("--hog", type=int, default=0, help="processes spinning beside it (default 0)")
    parser.add_argument("--seed", type=int, default=26, help="the first game's seed")
    args = parser.parse_args()
    spinning = hogs(args.hog)
    try:
        with Server(Path(tempfile.mkdtemp(prefix="drop-latency-")) / "data", camera="sim", serial="sim") as server:
            table = Table(server, args.seed)
            table.new_game()        # first: the camera rests while no game throws into the tower
            table.camera_ready()
            results = []
            while sum(r["read"] or not r["nothing_out"] for r in results) < args.drops:
                result = one_drop(table)
                results.append(result)
                print(f"throw {len(results)}: {result}", file=sys.stderr, flush=True)
            for tablet in table.tablets:
                tablet.close()
    finally:
        for p in spinning:
            p.kill()
    read = [r for r in results if r["read"]]
    latencies = sorted(x for r in read for x in r["latency_s"] if x is not None)
    never = sum(1 for r in read for x in r["latency_s"] if x is None)

    def q(p: float) -> float | None:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] if latencies else None

    nothing = sum(1 for r in results if not r["read"] and r["nothing_out"])
    print(json.dumps({"drops": len(results) - nothing, "hog": args.hog, "read_by_camera": len(read),
                      "reported_directly": len(results) - nothing - len(read),
                      "throws_nothing_out": nothing,
                      "partial_readings": sum(r["partial"] for r in read),
                      "tablet_views": len(latencies), "never_shown": never,
                      "latency_s": {"median": statistics.median(latencies) if latencies else None,
                                    "p95": q(0.95), "max": latencies[-1] if latencies else None}}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
