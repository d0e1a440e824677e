"""`companion replay` on a recorded TOKYO METRO game: four computer players play it through the
real app and store; the exported log replays to the same final scoring."""
from __future__ import annotations

import json
import subprocess
import sys

from api_support import table_client

from companion.table.store import EventStore


def test_replay_of_a_recorded_tokyo_metro_game(tmp_path):
    with table_client(EventStore(tmp_path / "data")) as client:
        r = client.post("/api/games", json={"game": "tokyo_metro", "names": ["A", "B", "C", "D"],
                                            "bots": [0, 1, 2, 3], "seed": 12})
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        final = client.get(f"/api/games/{gid}/view").json()
        assert final["over"] and final["payouts"]["final"]
        log = client.get(f"/api/games/{gid}/log.jsonl")
        assert log.status_code == 200
    path = tmp_path / "metro.jsonl"
    path.write_text(log.text)
    result = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(path), "--json"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    replayed = json.loads(result.stdout)
    assert replayed["payouts"] == final["payouts"]
    assert replayed["view"]["players"] == final["state"]["players"]
