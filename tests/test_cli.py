"""The `companion` command as a person or a script uses it: serve (with a SIGKILL in
the middle of a game), replay, and a refused foreign database."""
from __future__ import annotations

import json
import signal
import subprocess
import sys

import httpx
import pytest

from waiting import PROCESS_PATIENCE, wait_for
from server_support import free_port


class http:
    """httpx with a patient timeout: a busy machine may answer slowly; a dead server fails at once."""

    @staticmethod
    def get(url: str, timeout: float = 60, **kw) -> httpx.Response:
        return httpx.get(url, timeout=timeout, **kw)

    @staticmethod
    def post(url: str, timeout: float = 60, **kw) -> httpx.Response:
        return httpx.post(url, timeout=timeout, **kw)


def companion(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True,
                          text=True, timeout=PROCESS_PATIENCE, **kw)


class Server:
    """`companion serve` in a process of its own; its output goes to a file (a pipe nobody reads
    could fill up and stall it)."""

    def __init__(self, data, *extra: str):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.output = data / f"serve-{self.port}.log"
        with open(self.output, "w") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--data", str(data), *extra],
                stdout=out, stderr=subprocess.STDOUT, text=True)
        wait_for(self.answers, f"`companion serve` to answer on {self.url}", PROCESS_PATIENCE, step=0.05)

    def answers(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(f"the server exited ({self.proc.returncode}): {self.output.read_text()}")
        try:
            http.get(self.url + "/api/games", timeout=5)  # each try short: the port may not be bound yet
            return True
        except httpx.HTTPError:
            return False

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=PROCESS_PATIENCE)


def test_sigkill_mid_game_then_restart_shows_the_same_game(tmp_path):
    server = Server(tmp_path)
    try:
        gid = http.post(server.url + "/api/games", json={"bots": [2], "seed": 9}).json()["id"]
        for _ in range(8):  # into the middle of round 1
            v = http.get(f"{server.url}/api/games/{gid}/view").json()
            r = http.post(f"{server.url}/api/games/{gid}/moves", json={"move": v["moves"][-1]["move"]})
            assert r.status_code == 200, r.text
        before = http.get(f"{server.url}/api/games/{gid}/view").json()
    finally:
        server.kill()
    server = Server(tmp_path)
    try:
        games = http.get(server.url + "/api/games").json()
        assert [g["id"] for g in games] == [gid]
        after = http.get(f"{server.url}/api/games/{gid}/view").json()
        assert after == before
        v = after  # and the game goes on from there
        r = http.post(f"{server.url}/api/games/{gid}/moves", json={"move": v["moves"][0]["move"]})
        assert r.status_code == 200
    finally:
        server.kill()


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
                                            ('{"type": "game", "game": "go", "config": {}}\n', 1)])
def test_replay_of_a_broken_file_is_a_clear_error(tmp_path, content, line):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    result = companion("replay", str(path), "--json")
    assert result.returncode == 2 and json.loads(result.stdout)["error"]["line"] == line
