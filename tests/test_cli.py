"""The `companion` command as a person or a script uses it: serve (with a SIGKILL in
the middle of a game), replay, and a refused foreign database."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from waiting import PROCESS_PATIENCE
from server_support import Server, free_port


def companion(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True,
                          text=True, timeout=PROCESS_PATIENCE, **kw)


def test_sigkill_mid_game_then_restart_shows_the_same_game(tmp_path):
    with Server(tmp_path) as server, server.client() as api:
        gid = api.post("/api/games", json={"bots": [2], "seed": 9}).json()["id"]
        for _ in range(8):  # into the middle of round 1
            v = api.get(f"/api/games/{gid}/view").json()
            r = api.post(f"/api/games/{gid}/moves", json={"move": v["moves"][-1]["move"]})
            assert r.status_code == 200, r.text
        before = api.get(f"/api/games/{gid}/view").json()
        # A hung service says where it waits (`kill -USR1`), and goes on serving.
        dump = server.thread_dump()
        assert "Thread 0x" in dump and "uvicorn" in dump, dump[-2000:]
        assert api.get(f"/api/games/{gid}/view").json() == before
        server.kill()
    with Server(tmp_path) as server, server.client() as api:
        games = api.get("/api/games").json()
        assert [g["id"] for g in games] == [gid]
        after = api.get(f"/api/games/{gid}/view").json()
        assert after == before
        v = after  # and the game goes on from there
        r = api.post(f"/api/games/{gid}/moves", json={"move": v["moves"][0]["move"]})
        assert r.status_code == 200


def test_serve_refuses_a_foreign_database_and_leaves_it_alone(tmp_path):
    db = tmp_path / "companion.sqlite3"
    db.write_bytes(b"not a database at all " * 100)
    result = companion("serve", "--data", str(tmp_path), "--port", str(free_port()))
    assert result.returncode == 1
    assert str(db) in result.stderr and "--data" in result.stderr
    assert db.read_bytes() == b"not a database at all " * 100


def test_serve_refuses_a_real_camera_without_a_profile_and_a_nonsense_port(tmp_path):
    result = companion("serve", "--data", str(tmp_path), "--camera", "0")
    assert result.returncode == 2 and "--profile" in result.stderr
    result = companion("serve", "--data", str(tmp_path), "--serial", "usb:zz")
    assert result.returncode == 2 and "--serial" in result.stderr
    result = companion("serve", "--data", str(tmp_path), "--board-settle-s", "9")
    assert result.returncode == 2 and "--board-settle-s 9: give a number from 0.2 to 5" in result.stderr


def play_log(tmp_path, client_fixture_store=None):
    """A finished game's log, played by three computer players through the real app."""

    from api_support import table_client
    from companion.table.store import EventStore

    with table_client(EventStore(tmp_path / "d")) as client:
        gid = client.post("/api/games", json={"bots": [0, 1, 2], "seed": 4}).json()["id"]
        log = client.get(f"/api/games/{gid}/log.jsonl").text
        final = client.get(f"/api/games/{gid}/view").json()
    path = tmp_path / "game.jsonl"
    path.write_text(log)
    return path, final


def test_replay_prints_the_final_view_and_payouts(tmp_path):
    path, final = play_log(tmp_path)
    result = companion("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)  # stdout is JSON and nothing else
    assert out["view"] == final["state"]
    assert out["payouts"] == final["payouts"] and out["payouts"]["final"]
    assert "tokens" not in path.read_text()  # player links stay out of exported logs


def test_replay_names_the_first_illegal_line(tmp_path):
    path, _ = play_log(tmp_path)
    lines = path.read_text().splitlines()
    record = json.loads(lines[5])
    record["move"]["player"] = 99 if record["move"]["player"] != "chance" else record["move"]["player"]
    record["move"]["args"] = {"nonsense": True}
    lines[5] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")
    result = companion("replay", str(path), "--json")
    assert result.returncode == 2
    assert json.loads(result.stdout)["error"]["line"] == 6
    assert "line 6" in result.stderr


@pytest.mark.parametrize("content, line", [("", 1), ("{not json\n", 1),
                                            ('{"type": "game", "game": "go", "config": {}}\n', 1),
                                            # settings the game refuses: one name for three seats
                                            ('{"type": "game", "game": "pocari_bet", "config": {"names": ["a"]}}\n', 1)])
def test_replay_of_a_broken_file_is_a_clear_error(tmp_path, content, line):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    result = companion("replay", str(path), "--json")
    assert result.returncode == 2 and json.loads(result.stdout)["error"]["line"] == line


@pytest.mark.parametrize("given,tray,expected", [
    (None, "sim", "sim"), (None, "sim:7", "sim"),          # a simulated table has simulated cameras over its pieces
    (None, None, None), (None, "0", None),                 # a real tray camera, or none: none over the pieces unless asked
    ("none", "sim", None), ("", "sim", None),              # switched off
    ("2", None, "2"), ("sim:3", "0", "sim:3"),             # as given
])
def test_the_cameras_over_the_pieces_default_to_simulated_on_a_simulated_table(given, tray, expected):
    from companion.cli import _table_camera
    assert _table_camera(given, tray) == expected
