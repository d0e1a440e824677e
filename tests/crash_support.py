"""The crash campaign: play games through the HTTP API of the real server, SIGKILL it at random
points (seeded), restart it on the same data folder, and check what a table relies on.

After every restart:
- no confirmed move is lost: every action whose POST answered 2xx is in the stored log, in order
  (an action whose POST got no answer may be there or not);
- nobody waits on nobody: a game that is not over offers someone at the table a move (a phone,
  the table view, a throw into the simulated tower), and on the simulated table no phone or
  table is asked to choose a chance outcome the simulated table draws itself;
- every view (the table's, each player's) equals a fold of the stored log (table/log.py).
At the end every game is played on to its end.

Used by tests/test_crash_campaign.py (a short run) and benchmarks/crash_campaign.py (a long one).
"""
from __future__ import annotations

import json
import random
import statistics
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable
from urllib.parse import parse_qs, urlparse

import httpx

from companion.table.log import fold
from companion.table.store import EventStore
from server_support import Server

from api_support import seat

# The tables a campaign plays, each short: computer seats, sealed bids (JASMINE TEA's start bid,
# TOKYO METRO's bids, the upside-down tower's), secret cards drawn on phones (POCARI BET, dealt
# by the simulated table or entered on the phone at a real table), chance entered on the table
# view at a real table, and the simulated tower.
TABLES = [
    {"game": "pocari_bet", "names": ["Aki", "Bot 1", "Bot 2"], "bots": [1, 2], "simulated": True,
     "options": {"rounds": 2}},
    {"game": "pocari_bet", "names": ["Aki", "Ben", "Bot"], "bots": [2], "simulated": False, "options": {"rounds": 1}},
    {"game": "jasmine_tea", "names": ["Aki", "Ben", "Bot"], "bots": [2], "simulated": True, "options": {"rounds": 1}},
    {"game": "tokyo_metro", "names": ["Aki", "Bot"], "bots": [1], "simulated": True,
     "options": {"cards_per_column": 8}},
    {"game": "upside_down_tower", "names": ["Aki", "Ben", "Bot"], "bots": [2], "simulated": True,
     "options": {"max_rounds": 2}},
]
KILL_CHANCE = 0.3      # an action is the one the server is killed during
KILL_AT_COMMIT = 0.5   # ... as soon as the action's first record is in the log, or else
KILL_WITHIN = 0.015    # ... after a delay drawn from 0 to this many seconds (a move takes ~5-50 ms)
REQUEST_BOUND = 60.0   # seconds any one request may take: far above the slowest on a busy machine
PLAY_ON_BOUND = 2_000  # actions to finish a game: the longest here needs about 30


def normal(value: Any) -> Any:
    """As JSON carries it (tuples become lists), for comparing."""
    return json.loads(json.dumps(value, sort_keys=True))


@dataclass
class Table:
    """One game as the campaign plays it, and the records its confirmed actions must have left."""

    id: str
    game: str
    simulated: bool
    humans: list[int]
    tokens: dict[int, str]
    expected: list[dict] = field(default_factory=list)
    over: bool = False
    played: bool = True   # played since the last check (a finished game is checked once more)


@dataclass
class Report:
    kills: int = 0
    kills_in_request: int = 0        # the POST got no answer
    committed_unanswered: int = 0    # ... and yet its action is in the log (committed, then killed)
    confirmed: int = 0               # actions whose POST answered 2xx
    refused: int = 0                 # offered chance outcomes refused (409) as they hide a secret
    resumed_automatic: int = 0       # records a restart appended on its own (computer seats, chance)
    restarts_with_automatic: int = 0
    games: int = 0
    finished: int = 0
    checks: int = 0                  # views compared with a fold of the stored log
    restart_seconds: list[float] = field(default_factory=list)
    wall_seconds: float = 0.0

    def summary(self) -> dict:
        r = self.restart_seconds
        return {"kills": self.kills, "kills_during_a_request": self.kills_in_request,
                "unanswered_but_committed": self.committed_unanswered, "confirmed_actions": self.confirmed,
                "confirmed_lost": 0, "refused_offers": self.refused,
                "restarts_that_played_due_moves": self.restarts_with_automatic,
                "records_played_on_resume": self.resumed_automatic, "games": self.games,
                "games_finished": self.finished, "views_checked_against_the_log": self.checks,
                "restart_to_ready_s": {"median": round(statistics.median(r), 2) if r else None,
                                       "max": round(max(r), 2) if r else None},
                "wall_s": round(self.wall_seconds, 1)}


class Campaign:
    def __init__(self, data: Path, seed: int, say: Callable[[str], None] = lambda _line: None):
        self.data, self.rng, self.say = data, random.Random(seed), say
        self.report = Report()
        self.tables: list[Table] = []
        self.server: Server | None = None
        self.store: EventStore | None = None
        self.client: httpx.Client | None = None

    # --- the server -----------------------------------------------------------------------------

    def start(self) -> None:
        if self.server is not None:
            said = self.server.output()
            assert "Traceback" not in said, f"the server before the kill said: {said}"
            self.client.close()
        before = self._record_count()
        began = time.monotonic()
        self.server = Server(self.data)
        self.report.restart_seconds.append(time.monotonic() - began)
        self.client = self.server.client(timeout=REQUEST_BOUND)  # as the host of this run
        if self.store is None:
            self.store = EventStore(self.data)
        added = self._record_count() - before
        if added:
            self.report.restarts_with_automatic += 1
            self.report.resumed_automatic += added

    def _record_count(self) -> int:
        if self.store is None:
            return 0
        return sum(len(self.store.raw_records(t.id)) for t in self.tables)

    def kill(self) -> None:
        self.server.kill()
        self.report.kills += 1

    def close(self) -> None:
        if self.server is not None:
            self.server.stop()
        if self.store is not None:
            self.store.close()
        if self.client is not None:
            self.client.close()

    # --- playing --------------------------------------------------------------------------------

    def new_tables(self) -> None:
        for spec in TABLES:
            r = self.client.post("/api/games", json={**spec, "seed": self.rng.randrange(2**32)})
            assert r.status_code == 201, f"a new {spec['game']} game: {r.status_code} {r.text}"
            body = r.json()
            tokens = {p["seat"]: parse_qs(urlparse(p["url"]).query)["token"][0] for p in body["players"]}
            humans = [s for s in range(len(spec["names"])) if s not in spec["bots"]]
            self.tables.append(Table(body["id"], spec["game"], spec["simulated"], humans, tokens))
            self.report.games += 1

    def views(self, table: Table) -> dict:
        """The table's view and each person's, by viewer (None: the table view)."""
        found = {}
        for viewer in [None, *table.humans]:
            headers = {} if viewer is None else seat(table.tokens[viewer])
            r = self.client.get(f"/api/games/{table.id}/view", headers=headers)
            assert r.status_code == 200, f"view of {table.game} {table.id} for {viewer}: {r.status_code} {r.text}"
            found[viewer] = r.json()
        return found

    def actions(self, table: Table, views: dict) -> list[tuple]:
        """What the people at this table could do now: (kind, viewer, payload)."""
        found = []
        for viewer, view in views.items():
            found += [("move", viewer, m["move"]) for m in view["moves"]]
            chance = view["chance"]
            if chance and chance["kind"] == "choice":
                found += [("move", viewer, o["move"]) for o in chance["outcomes"]]
            elif chance and chance["kind"] == "drop":
                found.append(("throw", None, None) if table.simulated else
                             ("observe", None, self.rng.sample(sorted(chance["thrown"] + chance["inside"]),
                                                               self.rng.randint(0, len(chance["thrown"])))))
        return found

    def act(self, table: Table, kill_after: float | None) -> None:
        """One action by a person at the table; with ``kill_after``, SIGKILL the server that many
        seconds after sending it (or as soon as it answers, if sooner); a negative one: as soon as
        the game's log grows (or it answers)."""
        views = self.views(table)
        table.played = True
        if next(iter(views.values()))["over"]:
            table.over = True
            return
        options = self.actions(table, views)
        assert options, self.wedged(table, views)
        kind, viewer, payload = self.rng.choice(options)
        if kind == "move":
            path, body = f"/api/games/{table.id}/moves", {"move": payload}
            headers = {} if viewer is None else seat(table.tokens[viewer])
        elif kind == "throw":
            path, body, headers = f"/api/games/{table.id}/throw", None, {}
        else:
            path, body, headers = f"/api/games/{table.id}/observations", {"source": "person", "appeared": payload}, {}
        answer: dict[str, Any] = {}
        done = threading.Event()
        stored = len(self.store.raw_records(table.id))

        def post() -> None:
            try:
                answer["r"] = self.client.post(path, json=body, headers=headers)
            except httpx.HTTPError as exc:
                answer["error"] = exc
            finally:
                done.set()

        sender = threading.Thread(target=post)
        sender.start()
        if kill_after is not None:
            if kill_after < 0:  # the kill point: as soon as the log grows (the window before the
                while not done.is_set() and len(self.store.raw_records(table.id)) == stored:
                    done.wait(0.0005)  # computer seats and chance that follow a person's move)
            else:  # the kill point: a moment into the request, or right after its answer
                done.wait(kill_after)
            answered = done.is_set()
            self.kill()
            if not answered:
                self.report.kills_in_request += 1
        sender.join(REQUEST_BOUND)
        assert done.is_set(), f"POST {path} did not end within {REQUEST_BOUND} s"
        r = answer.get("r")
        if r is None:
            assert kill_after is not None, f"POST {path} failed with the server up: {answer.get('error')}"
            table.expected.append({"unanswered": expected_record(kind, viewer, payload, None)})
            return
        if r.status_code == 409 and kind == "move" and payload.get("player") == "chance":
            # An outcome of an offer that hides secrets (every pair of cards may be turned up at a
            # real table, though a player holds one of them): refused, and nothing changed.
            assert len(self.store.raw_records(table.id)) == stored, f"a refused {payload} changed the log"
            self.report.refused += 1
            return
        assert r.status_code < 300, f"POST {path} {body}: {r.status_code} {r.text[:300]}"
        table.expected.append(expected_record(kind, viewer, payload, r.json()))
        self.report.confirmed += 1

    # --- checking -------------------------------------------------------------------------------

    def check(self, every: bool = False) -> None:
        """After a restart: confirmed actions kept, views equal to the fold, nobody wedged; for
        the games not over and those played since the last check (``every``: all games)."""
        for table in self.tables:
            if not (every or table.played or not table.over):
                continue
            table.played = False
            records = self.store.records(table.id)
            self._confirmed_kept(table, records)
            info = self.store.game(table.id)
            folded = fold(info.game, info.config, records)
            views = self.views(table)
            for viewer, view in views.items():
                where = f"{table.game} {table.id}, viewer {viewer}, after {self.report.kills} kills"
                assert view["seq"] == len(records), f"{where}: the view is at {view['seq']}, the log has {len(records)}"
                assert view["state"] == normal(folded.game.view(folded.state, viewer)), \
                    f"{where}: the state differs from the fold"
                assert view["payouts"] == normal(folded.game.payouts(folded.state)), f"{where}: payouts differ"
                assert view["over"] == folded.game.is_over(folded.state), where
                if viewer is None:
                    assert view["question"] == normal(folded.question), f"{where}: question differs"
                if table.simulated and view["chance"] is not None:
                    assert view["chance"]["kind"] == "drop", \
                        f"{where}: on the simulated table this viewer is asked to choose {view['chance']}"
                self.report.checks += 1
            if not folded.game.is_over(folded.state):
                assert self.actions(table, views), self.wedged(table, views)

    def _confirmed_kept(self, table: Table, records: list[dict]) -> None:
        at = 0
        kept: list[dict] = []
        for want in table.expected:
            unanswered = "unanswered" in want
            pattern = want["unanswered"] if unanswered else want
            match = next((i for i in range(at, len(records)) if matches(records[i], pattern)), None)
            if match is None:
                assert unanswered, (f"{table.game} {table.id}: the confirmed action {pattern} is not in the log "
                                    f"after {self.report.kills} kills (records from {at}: {records[at:at + 5]})")
                continue   # never committed: the kill came first
            if unanswered:
                self.report.committed_unanswered += 1
            kept.append(pattern)
            at = match + 1
        table.expected = kept   # what is in the log now is confirmed from here on

    def wedged(self, table: Table, views: dict) -> str:
        info = self.store.game(table.id)
        folded = fold(info.game, info.config, self.store.records(table.id))
        return (f"{table.game} {table.id} is stuck after {self.report.kills} kills: nobody at the table can act; "
                f"the game waits on {folded.game.pending(folded.state)}")

    # --- the campaign ---------------------------------------------------------------------------

    def run(self, kills: int) -> Report:
        began = time.monotonic()
        self.start()
        self.new_tables()
        while self.report.kills < kills:
            open_tables = [t for t in self.tables if not t.over]
            if not open_tables:
                self.new_tables()
                continue
            table = self.rng.choice(open_tables)
            killing = self.rng.random() < KILL_CHANCE
            when = -1.0 if self.rng.random() < KILL_AT_COMMIT else self.rng.uniform(0, KILL_WITHIN)
            self.act(table, when if killing else None)
            if killing:
                self.start()
                self.check()
                self.say(f"kill {self.report.kills}: {self.report.confirmed} confirmed, "
                         f"{self.report.resumed_automatic} records played on resume")
        self.play_on()
        self.check(every=True)
        self.report.finished = sum(t.over for t in self.tables)
        self.report.wall_seconds = time.monotonic() - began
        return self.report

    def play_on(self) -> None:
        """Every game to its end, no more kills."""
        for table in self.tables:
            for _ in range(PLAY_ON_BOUND):
                self.act(table, None)
                if table.over:
                    break
            assert table.over, f"{table.game} {table.id} did not end within {PLAY_ON_BOUND} actions"


def expected_record(kind: str, viewer: int | None, payload: Any, answer: dict | None) -> dict:
    """The record an action leaves: a pattern (keys to compare) for ``matches``."""
    if kind == "move":
        return {"type": "move", "move": normal(payload), "by": "table" if viewer is None else f"seat {viewer}"}
    if answer is not None and answer.get("result") == "applied":
        return {"type": "move", "move": normal(answer["move"]), "by": "sim" if kind == "throw" else "person"}
    if kind == "throw":
        return {"type": "observation", "source": "sim"}
    return {"type": "observation", "source": "person", "appeared": sorted(payload)}


def matches(record: dict, pattern: dict) -> bool:
    if pattern["type"] == "move" and record.get("type") == "observation" and record.get("move") is not None:
        # a reading that was taken: one record, the observation carrying the move it became
        return normal(record.get("move")) == pattern["move"] and record.get("by") == pattern["by"]
    if record.get("type") != pattern["type"]:
        return False
    if pattern["type"] == "move":
        return normal(record.get("move")) == pattern["move"] and record.get("by") == pattern["by"]
    seen = record.get("observation") or {}
    return seen.get("source") == pattern["source"] and (
        "appeared" not in pattern or sorted(seen.get("appeared", [])) == pattern["appeared"])
