"""The append-only event store: one SQLite file per user, one log of JSON records per game.

Game state is a fold over events, so the log is the only thing worth keeping: it must survive a
pulled plug (WAL + synchronous=FULL, committed before `append` returns) and it must never be
rewritten (triggers refuse UPDATE and DELETE of records). The store knows nothing about games;
a record is whatever dict the table hands it.

A file we did not write is never touched: it is inspected read-only first, and anything that is
not our database (not SQLite, damaged, another application's, a newer schema) is refused with a
message that names the file and says what to do.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

APPLICATION_ID = 0x544B5443  # "TKTC": marks a file as ours in the SQLite header
SCHEMA_VERSION = 5  # 2: the table's keys (table/access.py); 3: the sensor board's events (board_events);
# 4: each finished game's summary for the history (summaries); 5: the table's own METRO cards (table_cards)
STATUSES = ("open", "finished")

_SCHEMA = (
    """CREATE TABLE games (
        id      TEXT PRIMARY KEY,
        game    TEXT NOT NULL,
        config  TEXT NOT NULL,        -- JSON
        created TEXT NOT NULL,        -- ISO 8601, UTC
        status  TEXT NOT NULL CHECK (status IN ('open', 'finished')))""",
    """CREATE TABLE records (
        game_id TEXT NOT NULL REFERENCES games(id),
        seq     INTEGER NOT NULL,     -- 1-based within the game, gap-free
        at      TEXT NOT NULL,        -- ISO 8601, UTC
        body    TEXT NOT NULL,        -- JSON
        PRIMARY KEY (game_id, seq))""",
    """CREATE TRIGGER records_no_update BEFORE UPDATE ON records
        BEGIN SELECT RAISE(ABORT, 'records are append-only'); END""",
    """CREATE TRIGGER records_no_delete BEFORE DELETE ON records
        BEGIN SELECT RAISE(ABORT, 'records are append-only'); END""",
    f"PRAGMA application_id={APPLICATION_ID}",
)
# Schema 2: the keys that let a device act (the host's, each seat's, each game's spectators').
# Unlike records they are replaced when revoked: a key is access, not history.
_KEYS = (
    """CREATE TABLE keys (
        scope  TEXT PRIMARY KEY,      -- 'host', 'seat:<game id>:<seat>', 'watch:<game id>'
        token  TEXT NOT NULL,
        issued TEXT NOT NULL)""",
)


# Schema 3: the sensor board's events by what only the board knows (its boot id and the event's
# id), written in the same transaction as the record that holds the event: the table asks it
# whether an event is stored already (a re-send after a lost ACK, a restarted companion) and what
# a power-on of the board has committed, by the index instead of reading every record. A lost-pass
# report has no event id (NULL: never a duplicate of another) and carries the board's dropped counts.
_BOARD = (
    """CREATE TABLE IF NOT EXISTS board_events (
        boot_id     TEXT NOT NULL,    -- the board's power-on, 8 hex digits
        event_id    INTEGER,          -- NULL: a lost-pass report
        dropped_in  INTEGER NOT NULL DEFAULT 0,
        dropped_out INTEGER NOT NULL DEFAULT 0,
        game_id     TEXT NOT NULL,
        seq         INTEGER NOT NULL)""",
    "CREATE UNIQUE INDEX IF NOT EXISTS board_events_once ON board_events (boot_id, event_id)",
    # Stores written before schema 3: their sensors' records are indexed once, when first opened.
    """INSERT OR IGNORE INTO board_events (boot_id, event_id, dropped_in, dropped_out, game_id, seq)
       SELECT boot, event, din, dout, game_id, seq FROM (
         SELECT game_id, seq, rowid AS r,
           CASE WHEN json_valid(body) THEN json_extract(body, '$.observation.detail.boot_id') END AS boot,
           CASE WHEN json_valid(body) AND json_type(body, '$.observation.detail.event_id') = 'integer'
                THEN json_extract(body, '$.observation.detail.event_id') END AS event,
           CASE WHEN json_valid(body) AND json_extract(body, '$.observation.detail.lost_details')
                THEN coalesce(json_extract(body, '$.observation.detail.dropped.in'), 0) ELSE 0 END AS din,
           CASE WHEN json_valid(body) AND json_extract(body, '$.observation.detail.lost_details')
                THEN coalesce(json_extract(body, '$.observation.detail.dropped.out'), 0) ELSE 0 END AS dout,
           CASE WHEN json_valid(body) THEN json_extract(body, '$.observation.source') END AS source,
           CASE WHEN json_valid(body) THEN json_extract(body, '$.observation.kind') END AS kind
         FROM records)
       WHERE source = 'sensors' AND kind = 'beams' AND typeof(boot) = 'text' ORDER BY r""",
)


# Schema 4: what a finished game came to (players, scores, winners, its tower's drops), kept so that
# the history pages need not fold hundreds of logs (table/history.py). Derived from the records and
# made again when ``version`` is not the summary's current one (table/summary.py SUMMARY_VERSION):
# like a key, a summary is replaced, never history. A store written before schema 4 gains the
# empty table; its finished games are summarised when the history first asks for them.
_SUMMARIES = (
    """CREATE TABLE IF NOT EXISTS summaries (
        game_id TEXT PRIMARY KEY REFERENCES games(id),
        version INTEGER NOT NULL,     -- the summary's format (table/summary.py SUMMARY_VERSION)
        body    TEXT NOT NULL)""",    # JSON
)


# Schema 5: the table's own TOKYO/OSAKA METRO board, cards and track, saved by name
# (table/table_cards.py): a setting of the table like a key, replaced or deleted by the host; a
# game started with a set copies its files into its own options, so its log never depends on it.
_TABLE_CARDS = (
    """CREATE TABLE IF NOT EXISTS table_cards (
        id     TEXT PRIMARY KEY,
        name   TEXT NOT NULL UNIQUE,
        system TEXT NOT NULL,
        saved  TEXT NOT NULL,         -- ISO 8601, UTC
        body   TEXT NOT NULL)""",     # JSON: the files
)


@dataclass(frozen=True)
class BoardEvent:
    """What only the sensor board knows of an observation: its power-on (``boot_id``), the event's
    id (None: a lost-pass report) and the board's cumulative dropped passes in such a report."""

    boot_id: str
    event_id: int | None = None
    dropped: tuple[int, int] = (0, 0)


class Duplicate(Exception):
    """The board's event is stored already (same boot id and event id): nothing was written."""


class StoreError(Exception):
    """A message a person can act on: it names the file and says what to do."""


class CorruptRecord(ValueError):
    """A stored record that cannot be read: ``seq`` (1-based) and ``reason`` ("is not JSON ...")."""

    def __init__(self, seq: int, reason: str):
        super().__init__(f"record {seq} {reason}")
        self.seq, self.reason = seq, reason


def default_data_dir() -> Path:
    """Where a user's games live unless `--data DIR` says otherwise (XDG on Unix, APPDATA on Windows)."""
    if os.name == "nt":
        base = os.environ.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
        return Path(base) / "tokyo-table-companion"
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "tokyo-table-companion"


@dataclass(frozen=True)
class GameInfo:
    id: str
    game: str
    config: dict
    created: str
    status: str  # 'open' | 'finished'
    problem: str | None = None  # why the config cannot be read (config is then {})


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def _refuse(path: Path, why: str) -> StoreError:
    return StoreError(
        f"{path} {why}. It was left untouched: move it aside, or start with --data DIR "
        f"pointing to another folder."
    )


def _inspect(path: Path) -> bool:
    """Check an existing file read-only; True if it is an empty database we may initialise."""
    with open(path, "rb") as f:
        header = f.read(16)
    if not header:
        return True  # zero bytes: what a crash before the first commit leaves behind
    if header != b"SQLite format 3\x00":
        raise _refuse(path, "is not an SQLite database, so it is not a Tokyo Table Companion store")
    # Read as an immutable file: no lock, no -shm, -wal or -journal is made beside it (a
    # read-only open of a WAL-mode file makes both). Only when a -wal file is already there
    # may it hold the latest changes, so then the file is read through it.
    wal = path.with_name(path.name + "-wal").exists()
    try:
        con = sqlite3.connect(path.resolve().as_uri() + ("?mode=ro" if wal else "?immutable=1"), uri=True)
    except sqlite3.Error as e:
        raise _refuse(path, f"cannot be opened ({e})") from e
    try:
        check = con.execute("PRAGMA quick_check").fetchall()
        app_id = con.execute("PRAGMA application_id").fetchone()[0]
        version = con.execute("PRAGMA user_version").fetchone()[0]
        tables = con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.Error as e:
        raise _refuse(path, f"is damaged or unreadable ({e})") from e
    finally:
        con.close()
    if check != [("ok",)]:
        raise _refuse(path, f"is damaged (integrity check: {check[0][0]})")
    if app_id == 0 and version == 0 and tables == 0:
        return True
    if app_id != APPLICATION_ID:
        raise _refuse(path, "belongs to another application (it is not a Tokyo Table Companion store)")
    if version > SCHEMA_VERSION:
        raise _refuse(
            path,
            f"was written by a newer Tokyo Table Companion (schema {version}, this one knows "
            f"{SCHEMA_VERSION}); upgrade the companion to open it",
        )
    if version < 1:
        raise _refuse(path, "has no known schema version")
    return False


class EventStore:
    """The games and their logs in DATA_DIR/companion.sqlite3; safe to share between threads."""

    FILE_NAME = "companion.sqlite3"

    def __init__(self, data_dir: Path):
        self.path = Path(data_dir) / self.FILE_NAME
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fresh = _inspect(self.path) if self.path.exists() else True
            # Autocommit mode: transactions are explicit, so commit points are obvious.
            self._con = sqlite3.connect(
                self.path, timeout=30, isolation_level=None, check_same_thread=False
            )
            self._con.execute("PRAGMA journal_mode=WAL")
            self._con.execute("PRAGMA synchronous=FULL")
            self._con.execute("PRAGMA foreign_keys=ON")
        except OSError as e:
            raise StoreError(
                f"cannot use {self.path} ({e.strerror or e}): check the folder's permissions, "
                f"or start with --data DIR pointing to another folder."
            ) from e
        except sqlite3.Error as e:
            raise _refuse(self.path, f"cannot be opened ({e})") from e
        self._lock = threading.Lock()
        with self._tx() as con:  # re-checked under the write lock: another process may have won
            if fresh and con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                for statement in _SCHEMA:
                    con.execute(statement)
            version = con.execute("PRAGMA user_version").fetchone()[0]
            if version < 2:  # new, or written by schema 1
                for statement in _KEYS:
                    con.execute(statement)
            if version < 3:  # new, or written by schema 1 or 2
                for statement in _BOARD:
                    con.execute(statement)
            if version < 4:  # new, or written by schema 1 to 3
                for statement in _SUMMARIES:
                    con.execute(statement)
            if version < 5:  # new, or written by schema 1 to 4
                for statement in _TABLE_CARDS:
                    con.execute(statement)
            if version < SCHEMA_VERSION:
                con.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    @contextmanager
    def _tx(self):
        """Hold the lock for BEGIN IMMEDIATE ... COMMIT: one writer, no half-done changes."""
        with self._lock:
            self._con.execute("BEGIN IMMEDIATE")
            try:
                yield self._con
            except BaseException:
                self._con.execute("ROLLBACK")
                raise
            self._con.execute("COMMIT")

    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._con.execute(sql, args).fetchall()

    def create_game(self, game: str, config: dict) -> str:
        """Start a new game log (status 'open') and return its short id."""
        config_json = json.dumps(config, ensure_ascii=False, allow_nan=False)
        with self._tx() as con:
            while True:
                game_id = secrets.token_hex(4)
                if not con.execute("SELECT 1 FROM games WHERE id=?", (game_id,)).fetchone():
                    break
            con.execute(
                "INSERT INTO games (id, game, config, created, status) VALUES (?, ?, ?, ?, 'open')",
                (game_id, game, config_json, _now()),
            )
        return game_id

    def append(self, game_id: str, record: dict, board: BoardEvent | None = None) -> int:
        """Append one record; it is on disk when this returns. Returns its 1-based sequence number.
        ``board``: the sensor board's event the record holds, indexed in the same transaction;
        Duplicate (nothing written) when that event is stored already."""
        body = json.dumps(record, ensure_ascii=False, allow_nan=False)
        with self._tx() as con:
            if not con.execute("SELECT 1 FROM games WHERE id=?", (game_id,)).fetchone():
                raise KeyError(game_id)
            (last,) = con.execute(
                "SELECT coalesce(max(seq), 0) FROM records WHERE game_id=?", (game_id,)
            ).fetchone()
            if board is not None:
                try:
                    con.execute("INSERT INTO board_events (boot_id, event_id, dropped_in, dropped_out, game_id, seq) "
                                "VALUES (?, ?, ?, ?, ?, ?)", (board.boot_id, board.event_id, int(board.dropped[0]),
                                                              int(board.dropped[1]), game_id, last + 1))
                except sqlite3.IntegrityError:
                    raise Duplicate(f"the board's event {board.boot_id}/{board.event_id} is stored already") from None
            con.execute(
                "INSERT INTO records (game_id, seq, at, body) VALUES (?, ?, ?, ?)",
                (game_id, last + 1, _now(), body),
            )
        return last + 1

    def board_event(self, boot_id: str, event_id: int) -> tuple[str, int] | None:
        """Where the sensor board's event is stored (game id, seq), or None: one look-up in the index."""
        rows = self._read("SELECT game_id, seq FROM board_events WHERE boot_id=? AND event_id=?", (boot_id, event_id))
        return (rows[0][0], rows[0][1]) if rows else None

    def board_books(self, boot_id: str) -> tuple[frozenset[int], tuple[int, int]]:
        """What the store holds of one power-on of the sensor board, in any game: the ids of its
        events, and the highest of its cumulative dropped-pass counts (lost-pass reports)."""
        rows = self._read("SELECT event_id, dropped_in, dropped_out FROM board_events WHERE boot_id=?", (boot_id,))
        ids = frozenset(e for e, _i, _o in rows if e is not None)
        return ids, (max((i for _e, i, _o in rows), default=0), max((o for _e, _i, o in rows), default=0))

    def records(self, game_id: str) -> list[dict]:
        """The game's records in the order they were appended (unknown game: KeyError); a record
        that is not a JSON object in UTF-8 raises CorruptRecord, which names it."""
        records = []
        for seq, body in self.raw_records(game_id):
            try:
                record = json.loads(body.decode("utf-8"))
            except UnicodeDecodeError as e:
                raise CorruptRecord(seq, f"is not UTF-8 text (byte {e.start})") from None
            except json.JSONDecodeError as e:
                raise CorruptRecord(seq, f"is not JSON ({e})") from None
            if not isinstance(record, dict):
                raise CorruptRecord(seq, f"is not a JSON object but {type(record).__name__}")
            records.append(record)
        return records

    def raw_records(self, game_id: str) -> list[tuple[int, bytes]]:
        """The game's records as stored, (seq, bytes), unread: what is left of a damaged game."""
        self.game(game_id)
        return [(seq, bytes(body)) for seq, body in self._read(
            "SELECT seq, CAST(body AS BLOB) FROM records WHERE game_id=? ORDER BY seq", (game_id,))]

    def find(self, path: str, value) -> list[tuple[str, int, dict]]:
        """Records of any game whose JSON holds ``value`` at ``path`` (an SQLite JSON path such as
        ``$.observation.detail.boot_id``), oldest first, as (game id, seq, record). It reads every
        record, so it is for rare questions asked by hand (the sensor board's events have their
        own index: ``board_event``, ``board_books``); a record that cannot be read (see
        ``records``) is passed over."""
        rows = self._read(
            "SELECT game_id, seq, CAST(body AS BLOB) FROM records WHERE "
            "CASE WHEN json_valid(body) THEN json_extract(body, ?) END = ? ORDER BY rowid", (path, value))
        found = []
        for game_id, seq, body in rows:
            try:
                found.append((game_id, seq, json.loads(bytes(body).decode("utf-8"))))
            except (UnicodeDecodeError, json.JSONDecodeError):
                continue
        return found

    def game(self, game_id: str) -> GameInfo:
        rows = self._read(_GAME_SQL + " WHERE id=?", (game_id,))
        if not rows:
            raise KeyError(game_id)
        return _info(rows[0])

    def games(self, status: str | None = None) -> list[GameInfo]:
        """All games, or those with the given status; newest first."""
        where, args = (" WHERE status=?", (status,)) if status is not None else ("", ())
        rows = self._read(_GAME_SQL + where + " ORDER BY created DESC, rowid DESC", args)
        return [_info(row) for row in rows]

    def set_status(self, game_id: str, status: str) -> None:
        if status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, not {status!r}")
        with self._tx() as con:
            if con.execute("UPDATE games SET status=? WHERE id=?", (status, game_id)).rowcount == 0:
                raise KeyError(game_id)

    def last_at(self, game_id: str) -> str | None:
        """When the game's latest record was written (ISO 8601, UTC), or None before its first."""
        return self._read("SELECT max(at) FROM records WHERE game_id=?", (game_id,))[0][0]

    def keep_summary(self, game_id: str, version: int, summary: dict) -> None:
        """Keep (or replace) what a game came to, in the summary format ``version``."""
        body = json.dumps(summary, ensure_ascii=False, allow_nan=False)
        with self._tx() as con:
            con.execute("INSERT INTO summaries (game_id, version, body) VALUES (?, ?, ?) ON CONFLICT(game_id) "
                        "DO UPDATE SET version=excluded.version, body=excluded.body", (game_id, version, body))

    def summaries(self, version: int) -> dict[str, dict]:
        """The kept summaries in format ``version`` by game id (others are due to be made again)."""
        found = {}
        for game_id, body in self._read("SELECT game_id, body FROM summaries WHERE version=?", (version,)):
            try:
                found[game_id] = json.loads(body)
            except json.JSONDecodeError:
                continue  # made again when asked: a summary is derived from the records
        return found

    def key(self, scope: str) -> str | None:
        """The token that opens ``scope`` ('host', 'seat:<game>:<seat>', 'watch:<game>'), or None."""
        rows = self._read("SELECT token FROM keys WHERE scope=?", (scope,))
        return rows[0][0] if rows else None

    def set_key(self, scope: str, token: str) -> None:
        """Issue (or replace: the old token opens nothing from now on) the token of ``scope``."""
        with self._tx() as con:
            con.execute("INSERT INTO keys (scope, token, issued) VALUES (?, ?, ?) ON CONFLICT(scope) "
                        "DO UPDATE SET token=excluded.token, issued=excluded.issued", (scope, token, _now()))

    def add_key(self, scope: str, token: str) -> str:
        """Issue ``token`` for ``scope`` unless one is issued already; the token in force."""
        with self._tx() as con:
            con.execute("INSERT OR IGNORE INTO keys (scope, token, issued) VALUES (?, ?, ?)", (scope, token, _now()))
            return con.execute("SELECT token FROM keys WHERE scope=?", (scope,)).fetchone()[0]

    # --- the table's own METRO cards (table/table_cards.py checks and bounds them) ---------------

    def keep_table_cards(self, name: str, system: str, body: dict, most: int) -> tuple[str, bool]:
        """Save a set under ``name`` (replacing the set of that name): (its id, whether it was
        new); OverflowError, nothing written, when ``most`` sets are kept already."""
        text = json.dumps(body, ensure_ascii=False, allow_nan=False)
        with self._tx() as con:
            row = con.execute("SELECT id FROM table_cards WHERE name=?", (name,)).fetchone()
            if row is not None:
                con.execute("UPDATE table_cards SET system=?, saved=?, body=? WHERE id=?", (system, _now(), text, row[0]))
                return row[0], False
            if con.execute("SELECT count(*) FROM table_cards").fetchone()[0] >= most:
                raise OverflowError(most)
            while True:
                set_id = secrets.token_hex(4)
                if not con.execute("SELECT 1 FROM table_cards WHERE id=?", (set_id,)).fetchone():
                    break
            con.execute("INSERT INTO table_cards (id, name, system, saved, body) VALUES (?, ?, ?, ?, ?)",
                        (set_id, name, system, _now(), text))
            return set_id, True

    def table_card_sets(self) -> list[tuple[str, str, str, str, dict]]:
        """Every saved set, by name: (id, name, system, saved, body); a body that is no JSON object
        is given as {} (the table layer says so)."""
        return [(i, n, s, at, _json_object(b))
                for i, n, s, at, b in self._read("SELECT id, name, system, saved, body FROM table_cards ORDER BY name")]

    def table_card_set(self, set_id: str) -> tuple[str, str, str, str, dict] | None:
        rows = self._read("SELECT id, name, system, saved, body FROM table_cards WHERE id=?", (set_id,))
        return (*rows[0][:4], _json_object(rows[0][4])) if rows else None

    def drop_table_cards(self, set_id: str) -> bool:
        """Delete a saved set (games started with it keep their copy); whether there was one."""
        with self._tx() as con:
            return con.execute("DELETE FROM table_cards WHERE id=?", (set_id,)).rowcount > 0

    def close(self) -> None:
        with self._lock:
            self._con.close()

    def __enter__(self) -> "EventStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _json_object(text: str) -> dict:
    try:
        value = json.loads(text)
    except (TypeError, json.JSONDecodeError):
        return {}
    return value if isinstance(value, dict) else {}


_GAME_SQL = "SELECT id, game, CAST(config AS BLOB), created, status FROM games"


def _info(row: tuple) -> GameInfo:
    config, problem = {}, None
    try:
        config = json.loads(bytes(row[2]).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        problem = f"the game's settings are not JSON ({e})"
    if not isinstance(config, dict):
        config, problem = {}, "the game's settings are not a JSON object"
    return GameInfo(id=row[0], game=row[1], config=config, created=row[3], status=row[4], problem=problem)
