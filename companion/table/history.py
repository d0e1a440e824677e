"""The table's history across nights: the games played (a page at a time), each player's record
by name, and the tower's own statistics from every drop in any game.

It reads the games' summaries (table/summary.py), kept in the store when each game finished, so a
page of the history reads a few hundred small rows, never a log. A finished game without a kept
summary (a store written before schema 4, a summary of an older format, a crash between the last
record and its summary) is summarised the first time the history is asked for, once. Games still
open are in the tower's statistics (their drops so far, from the fold the table holds) but not in
the list or the players' records until they finish. A game set aside (its log cannot be folded)
is listed as such, with the reason, and counts nowhere.

The players' records count the games played to their end: a game the host ended early is listed,
but its yen are no result and it has no winner. A computer seat's record is kept apart from a
person's of the same name.
"""
from __future__ import annotations

import threading
from typing import Any

from . import drops
from .log import read_jsonl
from .summary import SUMMARY_VERSION, of_stored, set_aside, summarize
from .tables import Tables


class History:
    """The history of the games in ``tables``' store (thread-safe)."""

    def __init__(self, tables: Tables):
        self.tables, self.store = tables, tables.store
        self._making = threading.Lock()  # one request makes the missing summaries; the others wait for them

    def games(self) -> list[dict]:
        """Every game of the history, newest first: the finished ones and those set aside."""
        with self._making:
            kept = self.store.summaries(SUMMARY_VERSION)
            found = []
            for info in self.store.games():
                if info.status == "finished":
                    summary = kept.get(info.id)
                    if summary is None:
                        summary = of_stored(self.store, info.id)
                        self.store.keep_summary(info.id, SUMMARY_VERSION, summary)
                    found.append(summary)
                    continue
                broken = self.tables.problem(info)  # an open game set aside at start (or its settings)
                if broken is not None:
                    found.append(set_aside(info.id, info.game, info.config, broken["seq"], broken["reason"],
                                           info.created, self.store.last_at(info.id)))
            return found

    def page(self, offset: int, limit: int) -> dict:
        """``limit`` games of the history from ``offset`` (newest first), without their tower's
        tallies (``drops``: how many drops each had), and how many there are in all."""
        every = self.games()
        games = [{**{k: v for k, v in g.items() if k != "tower"}, "drops": g["tower"]["drops"]}
                 for g in every[offset:offset + limit]]
        return {"total": len(every), "offset": offset, "limit": limit, "games": games}

    def players(self) -> dict:
        """Each player's record over the games played to their end, by name (a computer seat
        apart), most wins first: games, wins, the total and average of their final yen (the
        game's score), in all and per game."""
        records: dict[tuple[str, bool], dict] = {}
        completed = [g for g in self.games() if g["status"] == "completed"]
        for game in completed:
            for player in game["players"]:
                mine = records.setdefault((player["name"], player["bot"]),
                                          {"name": player["name"], "bot": player["bot"], **_tally(), "by_game": {}})
                for where in (mine, mine["by_game"].setdefault(game["game"], _tally())):
                    where["games"] += 1
                    where["wins"] += player["winner"]
                    if player["score"] is not None:
                        where["scored"] += 1
                        where["yen_total"] += player["score"]
        players = [_averaged(r) for r in records.values()]
        for p in players:
            p["by_game"] = {name: _averaged(t) for name, t in sorted(p["by_game"].items())}
        players.sort(key=lambda p: (-p["wins"], -p["games"], p["name"].casefold(), p["bot"]))
        return {"games": len(completed), "players": players}

    def tower(self) -> dict:
        """The tower's statistics from every drop in effect in any game (finished, ended early,
        or still open), the real tower's apart from the simulated one's: per drink how often it
        came out on the first try and how often it stuck, and the same over all drinks."""
        books = {True: drops.empty(), False: drops.empty()}
        games = {True: 0, False: 0}
        tallies = [(g["simulated"], g["tower"]) for g in self.games()]
        for session in list(self.tables.sessions.values()):
            folded = session.folded  # replaced whole on each commit: one consistent fold
            if not (folded.ended or folded.game.is_over(folded.state)):  # a finished one is summarised
                tallies.append((session.simulated, drops.tally(folded.game, folded.history)))
        for simulated, tally in tallies:
            if tally["drops"] or tally["spills"]:
                games[simulated] += 1
                drops.add(books[simulated], tally)
        return {kind: {"games": games[sim], **drops.rates(books[sim])}
                for kind, sim in (("real", False), ("simulated", True))}


def _tally() -> dict:
    return {"games": 0, "wins": 0, "scored": 0, "yen_total": 0}


def _averaged(t: dict) -> dict:
    scored = t.pop("scored")
    return {**t, "yen_average": round(t["yen_total"] / scored) if scored else None}


def replay_log(text: str) -> dict:
    """What a log file (``.jsonl``: a header line, then one record a line) comes to: its summary,
    as the history shows a game, and the game's payouts. LogError names the first bad line."""
    folded = read_jsonl(text.splitlines())  # its header's settings refused: a LogError of line 1 too
    config: dict[str, Any] = dict(folded.config)
    return {"summary": summarize(None, folded.game.name, config, folded),
            "payouts": folded.game.payouts(folded.state)}
