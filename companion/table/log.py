"""A game's log and its fold: the one place that turns records into a state.

Records (one JSON object each; docs/log-format.md):

- ``{"type": "move", "move": {...}, "by": ...}``: a move, applied in order;
- ``{"type": "undo", "by": ...}``: takes back the latest move a person made, with
  the automatic moves (simulated table, computer players) that followed it;
- ``{"type": "observation", "observation": {...}, "question": {...} | null}``:
  what a source saw; a question waits for a person until the next move; one that
  was taken carries the move it became (``"move": {...}, "by": source``) and is
  applied as that move (logs before it hold the move in a record of its own next);
- ``{"type": "dismiss", "by": ...}``: a person set the open question aside;
- ``{"type": "end", "by": ...}``: the host ended the game before its end; nothing follows it.

A log file (``.jsonl``) starts with ``{"type": "game", "game": ..., "config": ...}``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping

from ..rules.engine import CHANCE, ChanceDrop, Event, IllegalMove, Move
from ..rules.games import get as get_game
from .feed import Feed


AUTOMATIC = ("sim", "bot")  # who makes moves that an undo takes back along with a person's


class LogError(ValueError):
    """A record that cannot be applied: ``line`` (1-based) and ``reason``."""

    def __init__(self, line: int, reason: str):
        super().__init__(f"line {line}: {reason}")
        self.line, self.reason = line, reason


@dataclass
class Folded:
    """The state after a log, the states before each live move (for undo), the
    open question, and the events of the latest record."""

    game: Any
    config: Mapping[str, Any]
    state: Any
    history: list[tuple[Any, Move, str]] = field(default_factory=list)  # (state before, move, by)
    question: dict | None = None
    events: list[Event] = field(default_factory=list)
    # The move the events tell of, with the state before it (the move applied, or the one an
    # undo took back), so that a secret move's account reaches its owner alone; None when the
    # latest record was not a move or an undo.
    about: tuple[Any, Move] | None = None
    undone: bool = False
    # Break-beam passes (in, out) counted since the last drop was settled, and those that
    # went with that drop: what the camera's or a person's account is checked against.
    beams: tuple[int, int] = (0, 0)
    last_drop_beams: tuple[int, int] | None = None
    ended: bool = False  # the host ended the game early (an "end" record)
    # Whether the tray was reported (by a camera, a person, the simulated table) while the drop
    # now awaited was awaited: its drinks are in the tower's tray already, not still to throw.
    tray_seen: bool = False
    # The feed of the night: an entry per record that matters (table/feed.py).
    feed: Feed | None = None

    def __post_init__(self) -> None:
        if self.feed is None:
            self.feed = Feed.start(self.game, self.state)

    def trial(self) -> "Folded":
        """A copy to try a record on: the caller keeps it if the record is stored, else drops it."""
        return replace(self, history=list(self.history), feed=self.feed.copy())

    def last_personal_move(self) -> int | None:
        """Index in ``history`` of the latest move a person (or a real sensor) made."""
        return next((i for i in range(len(self.history) - 1, -1, -1)
                     if self.history[i][2] not in AUTOMATIC), None)

    def step(self, record: Mapping[str, Any], applied: tuple[Move, Any, list[Event]] | None = None) -> None:
        """Apply one record; IllegalMove/ValueError leaves this object unchanged. ``applied``: the
        engine's answer (move, state, events) to the record's move on this state, when the caller
        has it already (the table tried the move): the engine is not asked twice."""
        if not isinstance(record, Mapping):
            raise ValueError(f"a record must be a JSON object, not {type(record).__name__}")
        kind = record.get("type")
        if self.ended:
            raise IllegalMove("the host ended this game: nothing more can happen in it")
        if kind == "move":
            self._move(record, applied)
        elif kind == "observation" and record.get("move") is not None:
            # A reading taken as it came (or as the table settled it): one record, one move. Both
            # are checked before anything changes; the move settles what the reading said.
            move, state, events = self._apply(record, applied)
            self._observation(record)
            self._adopt(record, move, state, events)
        elif kind == "undo":
            last = self.last_personal_move()
            if last is None:
                raise IllegalMove("there is no move made by a person to undo")
            self.state, move, _ = self.history[last]
            del self.history[last:]
            self.feed.undone(self.game, record, self.state, move, last)
            self.tray_seen = False  # a drop awaited again is entered again
            self.about, self.undone = (self.state, move), True
            self.events, self.question = [Event("undone", {"move": move.to_json()})], None
        elif kind == "observation":
            self._observation(record)
            self.feed.noted(self.game, record, self.state)
        elif kind == "dismiss":
            if self.question is None:
                raise IllegalMove("there is no open question to dismiss")
            self.question, self.events, self.about, self.undone = None, [], None, False
            self.feed.noted(self.game, record, self.state)
        elif kind == "end":
            self.ended, self.question, self.events, self.about, self.undone = True, None, [], None, False
            self.feed.noted(self.game, record, self.state)
        else:
            raise ValueError(f"unknown record type {kind!r}; expected move, undo, observation, dismiss or end")

    def _move(self, record: Mapping[str, Any], applied=None) -> None:
        self._adopt(record, *self._apply(record, applied))

    def _apply(self, record: Mapping[str, Any], applied=None) -> tuple[Move, Any, list[Event]]:
        """The record's move and what the engine makes of it now (raises, changing nothing)."""
        if applied is not None:
            return applied
        move = Move.from_json(record.get("move"))
        state, events = self.game.apply(self.state, move)
        return move, state, events

    def _adopt(self, record: Mapping[str, Any], move: Move, state: Any, events: list[Event]) -> None:
        if move.player == CHANCE and isinstance(self.game.chance(self.state), ChanceDrop):  # it settles a drop
            self.last_drop_beams = self.beams if any(self.beams) else None  # None: no board counted
            self.beams = (0, 0)
            self.tray_seen = False
        self.history.append((self.state, move, str(record.get("by", ""))))
        self.feed.moved(self.game, record, self.state, move, state, events)
        self.about, self.undone = (self.state, move), False
        self.state, self.events, self.question = state, events, None

    def _observation(self, record: Mapping[str, Any]) -> None:
        self.question = record.get("question")
        self.events, self.about, self.undone = [], None, False
        seen = record.get("observation") or {}
        if seen.get("kind") == "beams":
            self.beams = (self.beams[0] + int(seen.get("passes_in", 0)),
                          self.beams[1] + int(seen.get("passes_out", 0)))
        elif isinstance(self.game.chance(self.state), ChanceDrop):
            self.tray_seen = True


def start(game_name: str, config: Mapping[str, Any]) -> Folded:
    game = get_game(game_name)
    return Folded(game, config, game.setup(config))


def fold(game_name: str, config: Mapping[str, Any], records: Iterable[Mapping[str, Any]],
         first_line: int = 1) -> Folded:
    """Rebuild a game from its records; LogError names the first record that fails (for any
    reason: a record the rules refuse, or one so malformed that the game's code trips on it)."""
    folded = start(game_name, config)
    for line, record in enumerate(records, start=first_line):
        try:
            folded.step(record)
        except (IllegalMove, ValueError, KeyError, TypeError) as exc:
            raise LogError(line, str(exc)) from None
        except Exception as exc:
            raise LogError(line, f"the game could not apply it ({type(exc).__name__}: {exc})") from None
    return folded


def read_jsonl(lines: Iterable[str]) -> Folded:
    """Fold a log file's lines (header first)."""
    lines = list(lines)
    try:
        header = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError as exc:
        raise LogError(1, f"not JSON: {exc}") from None
    if not isinstance(header, dict) or header.get("type") != "game":
        raise LogError(1, 'the first line must be {"type": "game", "game": ..., "config": ...}')
    records = []
    for line, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        try:
            records.append(json.loads(text))
        except json.JSONDecodeError as exc:
            raise LogError(line, f"not JSON: {exc}") from None
    game, config = header.get("game", ""), header.get("config") or {}
    try:
        start(game, config)  # the header's game and settings first: their faults are line 1's
    except KeyError as exc:
        raise LogError(1, str(exc.args[0])) from None
    except Exception as exc:  # refused (IllegalMove, a validation error) or so odd the setup trips on them
        raise LogError(1, f"the game's settings cannot be used: {exc}") from None
    return fold(game, config, records, first_line=2)


def replayed(lines: Iterable[str]) -> dict:
    """What a log file's lines come to, as `companion replay --json` prints it: the table's view
    (no secrets) and the payouts. Raises LogError as ``read_jsonl`` does."""
    folded = read_jsonl(lines)
    return {"view": folded.game.view(folded.state, None), "payouts": folded.game.payouts(folded.state)}


def to_jsonl(game_name: str, config: Mapping[str, Any], records: Iterable[Mapping[str, Any]]) -> str:
    header = {"type": "game", "game": game_name, "config": dict(config)}
    return "".join(json.dumps(r, sort_keys=True) + "\n" for r in [header, *records])
