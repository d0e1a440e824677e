"""The event store against real SQLite files: durability, append-only, and refusing foreign files."""

import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.table.store import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    BoardEvent,
    Duplicate,
    EventStore,
    GameInfo,
    StoreError,
    default_data_dir,
)


@pytest.fixture
def store(tmp_path):
    s = EventStore(tmp_path)
    yield s
    s.close()


def db_path(tmp_path: Path) -> Path:
    return tmp_path / EventStore.FILE_NAME


def test_round_trip(store):
    config = {"players": ["Aiko", "Ben"], "variant": "metro_drinks", "nested": {"x": [1, 2.5, None]}}
    gid = store.create_game("pocari_bet", config)
    records = [{"type": "move", "player": 0, "text": "ドリンク"}, {"type": "undo"}, {}]
    for r in records:
        store.append(gid, r)
    assert store.records(gid) == records
    info = store.game(gid)
    assert isinstance(info, GameInfo)
    assert (info.id, info.game, info.config, info.status) == (gid, "pocari_bet", config, "open")
    assert info.created.endswith("+00:00")


def test_sequence_numbers_per_game(store):
    a = store.create_game("a", {})
    b = store.create_game("b", {})
    assert [store.append(a, {"i": i}) for i in range(3)] == [1, 2, 3]
    assert store.append(b, {"i": 0}) == 1
    assert store.append(a, {"i": 3}) == 4


def test_unknown_game(store):
    with pytest.raises(KeyError):
        store.append("nope", {})
    with pytest.raises(KeyError):
        store.game("nope")
    with pytest.raises(KeyError):
        store.records("nope")
    with pytest.raises(KeyError):
        store.set_status("nope", "finished")


def test_games_newest_first_and_status(store):
    ids = [store.create_game(f"g{i}", {"i": i}) for i in range(3)]
    assert [g.id for g in store.games()] == ids[::-1]
    store.set_status(ids[1], "finished")
    assert [g.id for g in store.games("finished")] == [ids[1]]
    assert [g.id for g in store.games("open")] == [ids[2], ids[0]]
    with pytest.raises(ValueError):
        store.set_status(ids[0], "deleted")


def test_persists_across_close_and_reopen(tmp_path):
    s = EventStore(tmp_path)
    gid = s.create_game("jasmine_tea", {"seed": 7})
    s.append(gid, {"n": 1})
    s.set_status(gid, "finished")
    s.close()
    s = EventStore(tmp_path)
    try:
        assert s.records(gid) == [{"n": 1}]
        assert s.game(gid).status == "finished"
        assert s.append(gid, {"n": 2}) == 2
    finally:
        s.close()


def test_pragmas(store, tmp_path):
    con = store._con
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert con.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    other = sqlite3.connect(db_path(tmp_path))
    try:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # persistent in the file
        assert other.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert other.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    finally:
        other.close()


def test_records_are_append_only(store, tmp_path):
    gid = store.create_game("g", {})
    store.append(gid, {"n": 1})
    con = sqlite3.connect(db_path(tmp_path))
    try:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            con.execute("UPDATE records SET body='{}'")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            con.execute("DELETE FROM records")
        con.rollback()
    finally:
        con.close()
    assert store.records(gid) == [{"n": 1}]


def assert_refused_untouched(tmp_path, path, match=None):
    before = path.read_bytes()
    with pytest.raises(StoreError) as err:
        EventStore(tmp_path)
    message = str(err.value)
    assert str(path) in message
    assert "--data" in message
    if match:
        assert match in message
    assert path.read_bytes() == before
    return message


def test_random_bytes_refused_and_untouched(tmp_path):
    path = db_path(tmp_path)
    path.write_bytes(os.urandom(8192))
    assert_refused_untouched(tmp_path, path, "not an SQLite database")


def test_damaged_sqlite_refused_and_untouched(tmp_path):
    s = EventStore(tmp_path)
    gid = s.create_game("g", {})
    for i in range(200):
        s.append(gid, {"i": i, "pad": "x" * 200})
    s.close()
    path = db_path(tmp_path)
    data = bytearray(path.read_bytes())
    assert len(data) > 4 * 4096
    data[2 * 4096 : 4 * 4096] = os.urandom(2 * 4096)  # keep the header, ruin some pages
    path.write_bytes(bytes(data))
    assert_refused_untouched(tmp_path, path)


def test_foreign_application_id_refused_and_untouched(tmp_path):
    path = db_path(tmp_path)
    con = sqlite3.connect(path)
    con.execute("PRAGMA application_id=1234")
    con.execute("CREATE TABLE games (id TEXT)")
    con.commit()
    con.close()
    assert_refused_untouched(tmp_path, path, "another application")


def test_foreign_tables_refused_and_untouched(tmp_path):
    path = db_path(tmp_path)
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, blob BLOB)")
    con.execute("INSERT INTO photos (blob) VALUES (x'00ff')")
    con.commit()
    con.close()
    assert_refused_untouched(tmp_path, path, "another application")


def test_newer_schema_refused_and_untouched(tmp_path):
    EventStore(tmp_path).close()
    path = db_path(tmp_path)
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version=99")
    con.commit()
    con.close()
    message = assert_refused_untouched(tmp_path, path, "newer")
    assert "99" in message


def test_empty_file_is_initialised(tmp_path):
    db_path(tmp_path).touch()
    with EventStore(tmp_path) as s:
        assert s.append(s.create_game("g", {}), {}) == 1


def test_creates_missing_data_dir(tmp_path):
    with EventStore(tmp_path / "a" / "b") as s:
        s.create_game("g", {})
    assert (tmp_path / "a" / "b" / EventStore.FILE_NAME).is_file()


def test_record_survives_sigkill(tmp_path):
    code = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from companion.table.store import EventStore\n"
        "s = EventStore(Path(sys.argv[1]))\n"
        "g = s.create_game('g', {'k': 1})\n"
        "seq = s.append(g, {'last': 'words'})\n"
        "print(g, seq, flush=True)\n"
        "os.kill(os.getpid(), 9)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == -9, proc.stderr
    gid, seq = proc.stdout.split()
    assert seq == "1"
    with EventStore(tmp_path) as s:
        assert s.game(gid).config == {"k": 1}
        assert s.records(gid) == [{"last": "words"}]
        assert s.append(gid, {"after": "restart"}) == 2


def test_concurrent_appends_are_gap_free(store):
    gid = store.create_game("g", {})
    per_thread, threads = 50, 4
    seqs: list[int] = []
    errors: list[BaseException] = []
    start = threading.Barrier(threads)

    def worker(t):
        try:
            start.wait()
            for i in range(per_thread):
                seqs.append(store.append(gid, {"t": t, "i": i}))
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    pool = [threading.Thread(target=worker, args=(t,)) for t in range(threads)]
    for th in pool:
        th.start()
    for th in pool:
        th.join()
    assert not errors
    assert sorted(seqs) == list(range(1, threads * per_thread + 1))
    recs = store.records(gid)
    assert len(recs) == threads * per_thread
    for t in range(threads):  # each thread's records stay in its own order
        assert [r["i"] for r in recs if r["t"] == t] == list(range(per_thread))


def test_default_data_dir(monkeypatch, tmp_path):
    if os.name == "nt":
        monkeypatch.setenv("APPDATA", str(tmp_path))
        assert default_data_dir() == tmp_path / "tokyo-table-companion"
        return
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_data_dir() == tmp_path / "tokyo-table-companion"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_data_dir() == tmp_path / "home" / ".local" / "share" / "tokyo-table-companion"


def test_find_reads_every_game_and_passes_over_records_it_cannot_read(store):
    a, b = store.create_game("a", {}), store.create_game("b", {})
    store.append(a, {"observation": {"detail": {"boot_id": "0000abcd", "event_id": 1}}})
    store.append(b, {"observation": {"detail": {"boot_id": "0000abcd", "event_id": 2}}})
    store.append(b, {"observation": {"detail": {"boot_id": "ffff0000", "event_id": 3}}})
    con = sqlite3.connect(store.path)  # written past the store: not JSON, and JSON but not UTF-8
    con.execute("INSERT INTO records VALUES (?, 3, 'now', '{\"observation\": {\"detail\": {\"boot_id\"')", (b,))
    con.execute("INSERT INTO records VALUES (?, 2, 'now', CAST(X'7B226F62736572766174696F6E223A7B2264657461696C223A7B22"
                "626F6F745F6964223A223030303061626364227D7D2C2278223A22FF227D' AS TEXT))", (a,))
    con.commit()
    con.close()
    found = store.find("$.observation.detail.boot_id", "0000abcd")
    assert [(gid, seq, r["observation"]["detail"]["event_id"]) for gid, seq, r in found] == [(a, 1, 1), (b, 1, 2)]


def test_a_store_of_schema_1_gains_the_keys_table_and_keeps_its_games(tmp_path):
    """A store written before the trust model (schema 1: games and records only) opens as before,
    its games untouched, and gains the table of keys (table/access.py)."""
    with EventStore(tmp_path) as s:
        gid = s.create_game("pocari_bet", {"names": ["A", "B", "C"], "tokens": ["a1", "b2", "c3"]})
        s.append(gid, {"type": "move"})
    con = sqlite3.connect(tmp_path / EventStore.FILE_NAME)
    con.execute("DROP TABLE keys")
    con.execute("PRAGMA user_version=1")
    con.commit()
    con.close()
    with EventStore(tmp_path) as s:
        assert s.records(gid) == [{"type": "move"}]
        assert s.key("host") is None
        s.set_key("host", "k")
        assert s.key("host") == "k"
    con = sqlite3.connect(tmp_path / EventStore.FILE_NAME)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    con.close()


# --- the sensor board's events (schema 3) -----------------------------------------------------------

def beams(boot: str, event: int | None, dropped: dict | None = None) -> dict:
    detail = {"boot_id": boot, "event_id": event}
    if dropped is not None:
        detail.update(lost_details=True, dropped=dropped)
    return {"type": "observation", "question": None,
            "observation": {"source": "sensors", "kind": "beams", "passes_in": 1, "detail": detail}}


def test_a_board_event_is_stored_once_in_any_game(store):
    a, b = store.create_game("a", {}), store.create_game("b", {})
    assert store.append(a, beams("0000abcd", 1), board=BoardEvent("0000abcd", 1)) == 1
    with pytest.raises(Duplicate):
        store.append(b, beams("0000abcd", 1), board=BoardEvent("0000abcd", 1))
    assert store.records(b) == [] and store.board_event("0000abcd", 1) == (a, 1)
    store.append(b, beams("0000abcd", 2), board=BoardEvent("0000abcd", 2))
    # lost-pass reports have no event id: never duplicates of one another
    store.append(b, beams("0000abcd", None, {"in": 2, "out": 1}), board=BoardEvent("0000abcd", None, (2, 1)))
    store.append(b, beams("0000abcd", None, {"in": 3, "out": 0}), board=BoardEvent("0000abcd", None, (3, 0)))
    assert store.board_books("0000abcd") == (frozenset({1, 2}), (3, 1))
    assert store.board_books("ffff0000") == (frozenset(), (0, 0)) and store.board_event("0000abcd", 3) is None


def test_a_store_of_schema_2_indexes_its_board_events_once_when_opened(tmp_path):
    """The sensors' records of a store written before the index are indexed when it is first opened;
    the others (other sources, unreadable records) are not."""
    with EventStore(tmp_path) as s:
        gid = s.create_game("pocari_bet", {"names": ["A", "B", "C"]})
        s.append(gid, beams("0badf00d", 1))
        s.append(gid, beams("0badf00d", 1))   # a duplicate that slipped in before: indexed once
        s.append(gid, beams("0badf00d", None, {"in": 4, "out": 2}))
        s.append(gid, {"type": "observation", "observation": {"source": "camera", "kind": "tray",
                                                             "detail": {"boot_id": "0badf00d", "event_id": 7}}})
    con = sqlite3.connect(tmp_path / EventStore.FILE_NAME)
    con.execute("DROP TABLE board_events")
    con.execute("INSERT INTO records VALUES (?, 5, 'now', '{\"observation\": {\"detail\"')", (gid,))
    con.execute("PRAGMA user_version=2")
    con.commit()
    con.close()
    with EventStore(tmp_path) as s:
        assert s.board_books("0badf00d") == (frozenset({1}), (4, 2))
        assert s.board_event("0badf00d", 1) == (gid, 1) and s.board_event("0badf00d", 7) is None
    con = sqlite3.connect(tmp_path / EventStore.FILE_NAME)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    con.close()
