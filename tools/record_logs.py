"""Record games of every title as log fixtures: the contract that logs written by this version
replay to the same result after the engine changes (issue 27, item 4; docs/log-format.md).

Each game is played through the real app (FastAPI's TestClient over a real SQLite store): the
computer in every seat but seat 0, whose moves its phone makes (a seeded choice among its legal
moves), the table's taps on computers' held moves, the simulated tower for the drops, one undo along the way. When the game is over its
log is downloaded as `companion replay` reads it, and written to
``tests/fixtures/logs/<game>-<seed>.jsonl`` with what replaying it gives (the final payouts and
the players' part of the view) in ``<game>-<seed>.expected.json``. tests/test_log_fixtures.py
replays every fixture and compares.

Run:  .venv/bin/python tools/record_logs.py            (every title, seeds 1 and 2)
Recording again is only for a deliberate change of the log format (say so in log-format.md):
the fixtures are the logs of the version that wrote them, and must keep replaying as they are.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from api_support import link_tokens, seat, table_client  # noqa: E402

from companion.rules.games import GAMES  # noqa: E402
from companion.table.log import replayed  # noqa: E402
from companion.table.store import EventStore  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "logs"
PLAYERS = {"tokyo_metro": 4, "osaka_metro": 3, "metro_drinks": 3, "pura": 1,
           "colour_sort": 1, "crate_duel": 2, "hidden_cards": 2, "bottle_giving": 3, "toriatama": 3, "crate_draft": 3, "golden_runner": 3, "bottle_bonus": 3, "shopping_mall": 3}  # seats per title (3 where not said)
STEPS = 5000                     # requests a game may take before it is called stuck


def expected_of(lines: list[str]) -> dict:
    """What the fixture's test compares: the final payouts and the players of the replayed log."""
    result = replayed(lines)
    return {"payouts": result["payouts"], "players": result["view"]["players"]}


def play(client, title: str, seed: int) -> str:
    n = PLAYERS.get(title, 3)
    created = client.post("/api/games", json={"game": title, "names": [f"P{i + 1}" for i in range(n)],
                                              "bots": list(range(1, n)), "simulated": True, "seed": seed})
    assert created.status_code == 201, created.text
    gid = created.json()["id"]
    phone = seat(link_tokens(created.json())[0])  # seat 0's own phone: sealed bids are made there
    rng, undone = random.Random(f"{title}-{seed}"), False
    for step in range(STEPS):
        view = client.get(f"/api/games/{gid}/view").json()
        if view["over"]:
            log = client.get(f"/api/games/{gid}/log.jsonl")
            assert log.status_code == 200, log.text
            return log.text
        if view.get("question"):
            q = view["question"]
            move = q.get("move") or {"kind": "drop", "player": "chance", "args": {"out": []}}
            r = client.post(f"/api/games/{gid}/moves", json={"move": move, "override_beams": True})
        elif view["chance"] and view["chance"]["kind"] == "drop":
            r = client.post(f"/api/games/{gid}/throw")
        elif (mine := client.get(f"/api/games/{gid}/view", headers=phone).json()["moves"]):
            r = client.post(f"/api/games/{gid}/moves", json={"move": rng.choice(mine)["move"]}, headers=phone)
            if not undone and step >= 6 and r.status_code == 200:
                undone = client.post(f"/api/games/{gid}/undo").status_code == 200
        elif view["moves"]:   # a computer's move held for a tap at the table, or the table's own
            r = client.post(f"/api/games/{gid}/moves", json={"move": view["moves"][0]["move"]})
        else:
            raise RuntimeError(f"{title} seed {seed}: nobody can move and the game is not over")
        assert r.status_code == 200, f"{title} seed {seed}: {r.status_code} {r.text}"
    raise RuntimeError(f"{title} seed {seed}: not over after {STEPS} requests")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--games", nargs="+", default=sorted(GAMES))
    args = parser.parse_args()
    FIXTURES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, table_client(EventStore(Path(tmp))) as client:
        for title in args.games:
            for seed in args.seeds:
                text = play(client, title, seed)
                stem = FIXTURES / f"{title}-{seed}"
                stem.with_suffix(".jsonl").write_text(text)
                expected = expected_of(text.splitlines())
                stem.with_suffix(".expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
                print(f"{stem.name}: {len(text.splitlines())} lines, final {expected['payouts'].get('final')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
