"""The feed of the night: what happened at the table, one entry per record that matters, kept by
the fold (table/log.py) so that replaying a log gives the same feed.

An entry tells whose move it was (a seat; by whom it was entered: the seat's phone, the table,
the computer, the camera, the sensors, the simulated table), the move and its events, and what
it did to each seat's yen *as the table view shows yen* (the public payouts' ``yen``, before and
after: a game that hides yen for a while, as the upside-down tower does while bidding, has its
changes told once they show again, so the changes of the entries always add up to what the view
shows). An undo says whose move was taken back and which entries; a question set aside and the
host ending the game are entries too. Events that change the physical board or pieces (the
game's ``board_events``) are marked ``on_board``: a person copies them onto the real table.

Secrets: a secret move (a sealed bid, a card drawn) reaches only its owner in full; everyone else
is told that the seat made a secret move, with the events of it that are public all the same
(the kind's ``open_events``: the bids opened at once, the winner) and the yen changes the table
view shows anyway; nothing else, also when it is taken back.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Mapping, Sequence

from ..rules.engine import Event, Move

# Who entered a record (its "by"), in the feed's words: a seat's phone, the host's table, ...
_BY = {"table": "table", "person": "table", "bot": "computer", "sim": "simulated", "camera": "camera",
       "sensors": "sensors", "board": "board", "crates": "crates"}


def who(by: str) -> str:
    """The feed's word for a record's ``by``: seat, table, computer, simulated, camera, sensors, board,
    crates (the board or crate camera proposed it: the record's ``confirmed`` says who confirmed it)."""
    return "seat" if by.startswith("seat") else _BY.get(by, "table")


def shown_yen(game: Any, state: Any) -> list[int | None]:
    """Each seat's yen as the table view shows it (None where it is hidden for now)."""
    yen = game.payouts(state).get("yen")
    n = len(game.seat_names(state))
    return list(yen) if isinstance(yen, (list, tuple)) else [None] * n


@dataclass(frozen=True)
class Entry:
    """One record's account (see the module): shown to a viewer by :meth:`for_viewer`."""

    seq: int                              # the record's number in the log (1-based; the view's seq)
    type: str                             # move | undo | dismiss | end
    by: str                               # the record's "by" as it was logged
    yen: tuple[int, ...]                  # the change of each seat's yen, as the table view shows yen
    move: Move | None = None              # the move made, or the one an undo took back
    events: tuple[dict, ...] = ()         # JSON-ready, board changes marked "on_board"
    owner: int | None = None              # the seat the move is a secret of
    open_events: frozenset[str] = frozenset()
    takes_back: tuple[int, ...] = ()      # an undo: the entries (seqs) it took back
    confirmed: str = ""                   # proposed by the board camera: who confirmed it (table, seat N, auto)

    def for_viewer(self, viewer: int | None) -> dict:
        """This entry as ``viewer`` (a seat, or None: the table and spectators) may know it."""
        out: dict = {"seq": self.seq, "type": self.type, "by": who(self.by), "yen": list(self.yen)}
        if self.by.startswith("seat "):
            out["from_seat"] = int(self.by.split()[1])
        if self.takes_back:
            out["takes_back"] = list(self.takes_back)
        if self.confirmed:   # "auto": the host's auto mode took the board camera's proposal
            out["confirmed"] = "auto" if self.confirmed == "auto" else who(self.confirmed)
            if self.confirmed.startswith("seat "):
                out["confirmed_seat"] = int(self.confirmed.split()[1])
        if self.move is None:
            return out
        seat = self.move.player if isinstance(self.move.player, int) else None
        if self.owner is not None and self.owner != viewer:
            # Only that the seat made (or took back) a secret move, and what of it is public.
            events = [] if self.type == "undo" else [e for e in self.events if e["kind"] in self.open_events]
            out.update(seat=self.owner, secret=True, events=events)
        else:
            out.update(seat=seat if self.owner is None else self.owner, move=self.move.to_json(),
                       events=list(self.events),
                       **({"secret": True} if self.owner is not None else {}))
        out["board"] = any(e.get("on_board") for e in out["events"])
        return out


@dataclass
class Feed:
    """The entries of a game so far, and what the fold needs to make the next one."""

    entries: list[Entry] = field(default_factory=list)
    shown: list[int | None] = field(default_factory=list)   # the yen the table view showed last
    seqs: list[int] = field(default_factory=list)           # the record seq of each live move (Folded.history)
    count: int = 0                                          # records folded so far

    @classmethod
    def start(cls, game: Any, state: Any) -> "Feed":
        return cls(shown=shown_yen(game, state))

    def copy(self) -> "Feed":
        return Feed(list(self.entries), list(self.shown), list(self.seqs), self.count)

    # --- what the fold tells it --------------------------------------------------------------

    def _yen(self, game: Any, state: Any) -> tuple[int, ...]:
        now = shown_yen(game, state)
        change = []
        for i, yen in enumerate(now):
            last = self.shown[i] if i < len(self.shown) else None
            change.append(yen - last if yen is not None and last is not None else 0)
            if yen is not None:
                if i < len(self.shown):
                    self.shown[i] = yen
                else:
                    self.shown.append(yen)
        return tuple(change)

    def moved(self, game: Any, record: Mapping[str, Any], before: Any, move: Move, after: Any,
              events: Sequence[Event]) -> None:
        """A move was applied (a move record, or an observation taken as a move)."""
        self.count += 1
        self.seqs.append(self.count)
        board = game.board_events
        marked = tuple({**e.to_json(), **({"on_board": True} if e.kind in board else {})} for e in events)
        self.entries.append(Entry(self.count, "move", str(record.get("by", "")), self._yen(game, after), move,
                                  marked, game.secret_owner(before, move), game.open_events(move),
                                  confirmed=str(record.get("confirmed", ""))[:20]))

    def undone(self, game: Any, record: Mapping[str, Any], before: Any, move: Move, last: int) -> None:
        """An undo took back ``move`` (made in ``before``, the state the undo goes back to), the
        ``last``-th live move, and all after it: the yen they moved go back with this entry."""
        self.count += 1
        taken = tuple(self.seqs[last:])
        del self.seqs[last:]
        self.entries.append(Entry(self.count, "undo", str(record.get("by", "")), self._yen(game, before), move,
                                  owner=game.secret_owner(before, move), takes_back=taken))

    def noted(self, game: Any, record: Mapping[str, Any], state: Any) -> None:
        """Any other record: a question set aside and the end are entries; an observation is not."""
        self.count += 1
        kind = record.get("type")
        if kind in ("dismiss", "end"):
            self.entries.append(Entry(self.count, kind, str(record.get("by", "")), self._yen(game, state)))

    # --- what a viewer is shown ---------------------------------------------------------------

    def for_viewer(self, viewer: int | None, before: int | None = None, limit: int = 40) -> list[dict]:
        """The latest ``limit`` entries (those before record ``before``, when given) as ``viewer``
        may know them, newest first."""
        end = len(self.entries) if before is None else bisect_left(self.entries, before, key=attrgetter("seq"))
        return [e.for_viewer(viewer) for e in reversed(self.entries[max(0, end - limit):end])]
