"""A move's views to every device at the table (issue 27, item 5).

Runs the real service (`companion serve`, a process of its own, no camera or board) with a
four-player TOKYO METRO game and 20 live views (WebSockets) held by this process, as the devices
at a table would hold them: 16 table views (the host's key, from a few addresses: a device holds at
most 8 live views of one key) and the four players' phones (each seat's key). Move after move,
the phone of a seat to act posts one of its legal moves; for each move it measures, on every
device, the time from the POST's answer to the first message that holds the move (a view with the
answer's ``seq`` or later; a message that came before the answer counts as 0), and from the POST
sent (which a slow answer to the POST does not hide). It also reports the
service's CPU time per move (the POST, its commit and every device's view), which a busy machine
does not change.

``--hog N`` keeps N processes spinning beside it all along (a busy machine: ``--hog 2`` keeps both
cores of the table's machine busy).

Run:  .venv/bin/python benchmarks/fanout.py --moves 60             (an idle machine)
      .venv/bin/python benchmarks/fanout.py --moves 60 --hog 2     (both cores busy)
Prints one line per move on stderr and the figures as JSON on stdout.
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
sys.path.insert(0, str(ROOT / "benchmarks"))

from live_devices import Device, hogs  # noqa: E402
from server_support import Server, authorization  # noqa: E402

TABLE_VIEWS = 16        # live views of the table (the host's key)
PER_ADDRESS = 8         # the server's bound of live views per (address, key): MAX_SOCKETS_PER_DEVICE
DEVICE_PATIENCE = 30.0  # seconds a device may take to show a move; later counts as never shown
NAMES = ["Aki", "Ben", "Chie", "Dai"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` has taken so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def play(server: Server, moves: int, seed: int) -> list[dict]:
    http = server.client()
    created = http.post("/api/games", json={"game": "tokyo_metro", "names": NAMES, "seed": seed})
    created.raise_for_status()
    gid = created.json()["id"]
    keys = [p["url"].split("token=")[1] for p in created.json()["players"]]
    url = server.url.replace("http://", "ws://") + f"/api/games/{gid}/ws"
    devices = [Device(url, server.host_key, False, f"127.0.0.{2 + i // PER_ADDRESS}") for i in range(TABLE_VIEWS)]
    devices += [Device(url, key, True) for key in keys]
    for device in devices:
        device.start()
    rng, results = random.Random(seed), []
    try:
        for n in range(moves):
            chosen = None
            for seat, key in enumerate(keys):
                view = http.get(f"/api/games/{gid}/view", params={"as": "player"}, headers=authorization(key)).json()
                if view["over"]:
                    return results
                if view["moves"]:
                    chosen = (key, rng.choice(view["moves"])["move"])
                    break
            if chosen is None:   # a computer's held move, or the table's own: the host taps it
                view = http.get(f"/api/games/{gid}/view").json()
                if not view["moves"]:
                    raise RuntimeError(f"nobody can move in {gid} and it is not over")
                chosen = (server.host_key, view["moves"][0]["move"])
            key, move = chosen
            cpu = cpu_seconds(server.proc.pid)
            sent = time.monotonic()
            r = http.post(f"/api/games/{gid}/moves", json={"move": move}, headers=authorization(key))
            answered = time.monotonic()
            r.raise_for_status()
            seq = r.json()["view"]["seq"]
            deadline = answered + DEVICE_PATIENCE
            while any(d.first_at(seq) is None for d in devices) and time.monotonic() < deadline:
                time.sleep(0.005)
            arrived = [d.first_at(seq) for d in devices]
            late = [max(0.0, t - answered) * 1000 if t is not None else None for t in arrived]
            whole = [(t - sent) * 1000 if t is not None else None for t in arrived]
            result = {"move": move["kind"], "seq": seq, "ms": [round(x, 1) if x is not None else None for x in late],
                      "from_request_ms": [round(x, 1) if x is not None else None for x in whole],
                      "server_cpu_ms": round((cpu_seconds(server.proc.pid) - cpu) * 1000, 1)}
            results.append(result)
            shown = [x for x in late if x is not None]
            print(f"move {n + 1} ({move['kind']}, seq {seq}): max {max(shown):.1f} ms, "
                  f"{len(late) - len(shown)} never shown", file=sys.stderr, flush=True)
            time.sleep(0.1)   # the table looks at the move before the next one
    finally:
        for device in devices:
            device.close()
        http.close()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=60, help="moves to measure (default 60)")
    parser.add_argument("--hog", type=int, default=0, help="processes spinning beside it (default 0)")
    parser.add_argument("--seed", type=int, default=27, help="the game's seed")
    args = parser.parse_args()
    spinning = hogs(args.hog)
    try:
        with Server(Path(tempfile.mkdtemp(prefix="fanout-")) / "data") as server:
            results = play(server, args.moves, args.seed)
    finally:
        for p in spinning:
            p.kill()
            p.wait()
    every = [x for r in results for x in r["ms"] if x is not None]
    last = [max(x for x in r["ms"] if x is not None) for r in results if any(x is not None for x in r["ms"])]
    missing = sum(x is None for r in results for x in r["ms"])
    cpu = [r["server_cpu_ms"] for r in results]
    whole = [x for r in results for x in r["from_request_ms"] if x is not None]
    print(json.dumps({
        "moves": len(results), "devices": TABLE_VIEWS + len(NAMES), "hog": args.hog, "never_shown": missing,
        "device_ms": {"p50": round(statistics.median(every), 1), "p95": round(percentile(every, 95), 1),
                      "max": round(max(every), 1)},
        "last_device_ms": {"p50": round(statistics.median(last), 1), "p95": round(percentile(last, 95), 1),
                           "max": round(max(last), 1)},
        # from the POST sent (the commit included) to each device's message: a faster answer to the
        # POST does not hide a slower push here
        "from_request_ms": {"p50": round(statistics.median(whole), 1), "p95": round(percentile(whole, 95), 1)},
        # the service's CPU time for a move (the POST, its commit and every device's view): what a
        # busy machine makes wait, whatever else runs on it
        "server_cpu_ms_per_move": {"p50": round(statistics.median(cpu), 1), "p95": round(percentile(cpu, 95), 1)},
    }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
