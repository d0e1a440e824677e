"""One bad record sets one game aside, never the service (issue 25, defect 7).

A game whose stored log holds a record that cannot be read (not JSON, not UTF-8, not an object)
or applied (an illegal move), or whose own settings cannot be read or set up, is set aside with
a message that names the game and the record, in the server's log and in the game list; it can
still be read (its log) and is never rewritten; every other game runs. And a file that is not
our database is refused without a side file (-wal, -shm, -journal) left next to it. The real
`companion serve` in a process, over a real SQLite file."""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.rules.engine import Move
from companion.sim.table import SIM_TABLE  # the simulated table, wired in as `companion serve` does
from companion.table.session import TableSession
from companion.table.store import EventStore, StoreError
from server_support import Server, free_port


def raw_insert(path: Path, game_id: str, body) -> int:
    """A record written past the store (as a damaged disk or another program might)."""
    con = sqlite3.connect(path)
    (seq,) = con.execute("SELECT coalesce(max(seq), 0) + 1 FROM records WHERE game_id=?", (game_id,)).fetchone()
    con.execute("INSERT INTO records (game_id, seq, at, body) VALUES (?, ?, '2025-01-01T00:00:00+00:00', " + body + ")",
                (game_id, seq))
    con.commit()
    con.close()
    return seq


def rows(path: Path) -> list[tuple]:
    """Every game and record exactly as stored (bytes, not decoded)."""
    con = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return con.execute("SELECT 'game', id, CAST(config AS BLOB), status FROM games UNION ALL "
                           "SELECT 'record', game_id, seq, CAST(body AS BLOB) FROM records ORDER BY 1, 2, 3").fetchall()
    finally:
        con.close()


def make_games(data: Path) -> tuple[str, dict[str, tuple[str, int]]]:
    """One good game and six bad ones: {what is wrong: (game id, seq of the bad record)}."""
    bad = {}
    with EventStore(data) as store:
        good = TableSession.create(store, "pocari_bet", ["Aki", "Ben", "Chie"], seed=1, automation=SIM_TABLE)
        good.submit(Move.from_json(good.view(None)["moves"][0]["move"]), None)
        gid = TableSession.create(store, "pocari_bet", ["Aki", "Ben", "Chie"], simulated=False, seed=2,
                                  automation=SIM_TABLE).id
        bad["illegal"] = gid, store.append(gid, {"type": "move", "by": "table",
                                                 "move": {"kind": "invest", "player": 0, "args": {"amount": 900}}})
        for what, body in (("truncated", "'{\"type\": \"move\", \"mo'"),
                           ("not utf-8", "CAST(X'7B2274797065223A22FF227D' AS TEXT)"),
                           ("a list", "'[1, 2]'"), ("teleport", "'{\"type\": \"teleport\"}'")):
            gid = TableSession.create(store, "jasmine_tea", ["Aki", "Ben"], seed=3, automation=SIM_TABLE).id
            bad[what] = gid, raw_insert(store.path, gid, body)
        bad["unknown game"] = store.create_game("chess", {"names": ["Aki", "Ben"]}), 0
    return good.id, bad


def test_a_bad_record_sets_its_game_aside_and_the_others_run(tmp_path):
    data = tmp_path / "data"
    good, bad = make_games(data)
    db = data / EventStore.FILE_NAME
    stored = rows(db)
    with Server(data) as server, server.client() as api:
        games = {g["id"]: g for g in api.get("/api/games").json()}
        assert set(games) == {good, *(gid for gid, _ in bad.values())}
        assert games[good]["broken"] is None
        v = api.get(f"/api/games/{good}/view").json()
        r = api.post(f"/api/games/{good}/moves", json={"move": v["moves"][0]["move"]})
        assert r.status_code == 200, r.text
        r = api.post("/api/games", json={"names": ["A", "B", "C"], "seed": 1})
        assert r.status_code == 201 and api.get(f"/api/games/{r.json()['id']}/view").status_code == 200
        for what, (gid, seq) in bad.items():
            broken = games[gid]["broken"]
            assert broken and broken["seq"] == seq and broken["reason"], (what, games[gid])
            message = broken["message"]
            assert gid in message and (f"record {seq}" in message if seq else "settings" in message), message
            assert "set aside" in message and message in server.output(), (what, server.output())
            r = api.get(f"/api/games/{gid}/view")
            assert r.status_code == 409 and r.json()["detail"] == message, what
            r = api.post(f"/api/games/{gid}/moves", json={"move": {"kind": "x", "player": 0}})
            assert r.status_code == 409 and r.json()["detail"] == message, what
            log = api.get(f"/api/games/{gid}/log.jsonl")  # still readable, as stored
            lines = log.text.splitlines()
            assert log.status_code == 200 and len(lines) == 1 + sum(
                1 for row in stored if row[0] == "record" and row[1] == gid), (what, log.text)
            assert "tokens" not in lines[0], "a log leaves the server without the players' tokens"
        assert "teleport" in games[bad["teleport"][0]]["broken"]["reason"]
        assert "unknown game 'chess'" in games[bad["unknown game"][0]]["broken"]["reason"]
        assert "Traceback" not in server.output(), server.output()
    untouched = {gid for gid, _ in bad.values()}
    assert [row for row in rows(db) if row[1] in untouched] == [row for row in stored if row[1] in untouched]


# --- a file that is not ours: refused, and nothing left beside it -----------------------------

def foreign_wal(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, blob BLOB)")
    con.execute("INSERT INTO photos (blob) VALUES (x'00ff')")
    con.commit()
    con.close()


def foreign_rollback(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("PRAGMA application_id=1234")
    con.execute("CREATE TABLE games (id TEXT)")
    con.commit()
    con.close()


def ours_but_newer(path: Path) -> None:
    EventStore(path.parent).close()
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version=99")
    con.commit()
    con.close()


def ours_but_damaged(path: Path) -> None:
    with EventStore(path.parent) as store:
        gid = store.create_game("g", {})
        for i in range(200):
            store.append(gid, {"i": i, "pad": "x" * 200})
    data = bytearray(path.read_bytes())
    data[2 * 4096: 4 * 4096] = os.urandom(2 * 4096)
    path.write_bytes(bytes(data))


def not_sqlite(path: Path) -> None:
    path.write_bytes(b"not a database at all " * 100)


FILES = {"another program's (WAL)": foreign_wal, "another program's (rollback journal)": foreign_rollback,
         "a newer companion's": ours_but_newer, "damaged": ours_but_damaged, "not SQLite": not_sqlite}


@pytest.mark.parametrize("kind", sorted(FILES))
def test_a_file_refused_as_not_ours_gets_no_side_files(tmp_path, kind):
    path = tmp_path / EventStore.FILE_NAME
    FILES[kind](path)
    assert os.listdir(tmp_path) == [EventStore.FILE_NAME], "the test's file was left closed"
    before = path.read_bytes()
    with pytest.raises(StoreError) as refused:
        EventStore(tmp_path)
    assert str(path) in str(refused.value)
    assert os.listdir(tmp_path) == [EventStore.FILE_NAME], f"{kind}: side files were left"
    assert path.read_bytes() == before


def test_serve_refuses_another_programs_database_and_leaves_nothing_beside_it(tmp_path):
    foreign_wal(tmp_path / EventStore.FILE_NAME)
    before = (tmp_path / EventStore.FILE_NAME).read_bytes()
    result = subprocess.run([sys.executable, "-m", "companion.cli", "serve", "--data", str(tmp_path), "--port",
                             str(free_port()), "--camera", "none", "--serial", "none"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "another application" in result.stderr
    assert os.listdir(tmp_path) == [EventStore.FILE_NAME]
    assert (tmp_path / EventStore.FILE_NAME).read_bytes() == before
