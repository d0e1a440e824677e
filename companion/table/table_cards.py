"""The table's own METRO board, cards and track: named sets the host enters once and starts games with.

Our TOKYO METRO (and OSAKA METRO) board, action cards, share cards and revenue track are
approximations (the rule book prints none of them). A *set* names a system (``tokyo`` or
``osaka``) and gives any of the files docs/metro-files.md describes: a whole ``board`` or
``board_corrections`` to the system's default board, ``action_cards``, ``stock_cards``,
``revenue_track``; what it leaves out stays the default. :meth:`TableCards.check` answers every
fault (the file, the place as a JSON pointer, the reason) or a preview (the board's geometry for
the map and a summary); sets are kept in the store's ``table_cards`` table, by name, at most
:data:`MAX_SETS`; :meth:`TableCards.options_for` turns a set into a METRO game's options (the
files themselves: a game never depends on a set kept or deleted later).

The exceptions carry what went wrong as data; the server words them (server/routes/table_cards.py).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping

from ..rules.games import GAMES
from ..rules.metro.board import Board, load_board
from ..rules.metro.cards import Deck, load_deck, load_stock, load_track
from ..rules.metro.corrections import SOURCE as CORRECTIONS, apply_corrections, corrected_place
from ..rules.metro.files import DataError
from ..rules.metro.options import Options, rules_of
from .store import EventStore

SYSTEMS = ("tokyo", "osaka")
FILES = ("board", "board_corrections", "action_cards", "stock_cards", "revenue_track")
OPTION_FILES = ("board", "action_cards", "stock_cards", "revenue_track")   # the game options they become
MAX_NAME = 40            # the options' text bound (rules/engine.py OPTION_TEXT): the view shows it
MAX_SETS = 40
MAX_SET_BYTES = 131_072  # all files as compact JSON: what a game's options may hold (server/requests.py)
PLAYER_COUNTS = (1, 2, 3, 4, 5)


class NoSuchSet(KeyError):
    """No saved set has this id."""


class Refused(ValueError):
    """The set does not validate: ``faults`` is a list of {file, where, reason}."""

    def __init__(self, faults: list[dict]):
        super().__init__("; ".join(f"{f['file']}: {f['where']}: {f['reason']}" for f in faults))
        self.faults = faults


class Full(OverflowError):
    """MAX_SETS sets are saved already."""


class NotForGame(ValueError):
    """The set cannot be used for this game: ``why`` is "no_metro" (the game takes no board and
    cards), "system" (the set is for another system: ``system``, ``wanted``) or "both" (the options
    give files too: ``names``)."""

    def __init__(self, why: str, **about: Any):
        super().__init__(why)
        self.why, self.about = why, about


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def default_rules(system: str):
    """The rules of the system's defaults (its board, cards and track), for two players."""
    return rules_of(Options(players=2, system=system))


@dataclass(frozen=True)
class Checked:
    """A set that validates: its board and the files that become a game's options."""

    system: str
    board: Board
    options: dict          # board (the corrected board's data where corrections were given), cards, track
    summary: dict

    def preview(self) -> dict:
        return {"geometry": self.board.geometry(), "summary": self.summary}


def check_set(system: str, files: Mapping[str, Any]) -> Checked:
    """Check a set's files (Refused with every fault found: one per file, the first in each);
    the files given are JSON objects or None."""
    if system not in SYSTEMS:
        raise Refused([{"file": "system", "where": "/", "reason": f"{system!r} is no system; the systems are "
                                                                   f"{', '.join(SYSTEMS)}"}])
    given = {k: files.get(k) for k in FILES if files.get(k) is not None}
    faults: list[dict] = []

    def fault(file: str, where: str, reason: str) -> None:
        faults.append({"file": file, "where": where, "reason": reason})

    if "board" in given and "board_corrections" in given:
        fault("board_corrections", "/", "give a whole board or corrections to the default board, not both")
    if (size := len(compact(given).encode("utf-8"))) > MAX_SET_BYTES:
        fault("set", "/", f"the files take {size} bytes as JSON; at most {MAX_SET_BYTES}")
    if faults:
        raise Refused(faults)
    base = default_rules(system)
    board, board_data = base.board, None
    try:
        if "board" in given:
            board_data = given["board"]
            board = load_board(board_data, "board")
        elif "board_corrections" in given:
            board_data = apply_corrections(dict(base.board.data), given["board_corrections"])
            try:
                board = load_board(board_data, CORRECTIONS)
            except DataError as exc:
                fault(CORRECTIONS, corrected_place(board_data, exc.where, given["board_corrections"]),
                      f"the corrected board: {exc.reason}")
                board = None
    except DataError as exc:
        fault(exc.source, exc.where, exc.reason)
        board = None
    deck = stock = None
    track = base.track
    if board is not None:
        deck, stock = _cards(given, board, base, fault)
    if "revenue_track" in given:
        try:
            track = load_track(given["revenue_track"], "revenue_track")
        except DataError as exc:
            fault(exc.source, exc.where, exc.reason)
    if faults:
        raise Refused(faults)
    players = [n for n in PLAYER_COUNTS
               if len(board.start_fields) >= n and min(len(s.cards) for s in deck.sets) >= (2 if n == 1 else n)]
    if not players:
        fault("action_cards", "/sets", "no number of players can play with these cards: a column is dealt one "
                                       "card per player (2 alone), so every set needs at least 2 cards")
        raise Refused(faults)
    options = {k: given[k] for k in ("action_cards", "stock_cards", "revenue_track") if k in given}
    if board_data is not None:
        options["board"] = board_data
    summary = _summary(system, given, board, deck, stock, track, players)
    return Checked(system, board, options, summary)


def _cards(given: Mapping[str, Any], board: Board, base, fault) -> tuple[Deck | None, Any]:
    """The set's action and share cards checked against its board (the defaults too, when the
    board is the set's own: they may not fit it)."""
    deck = stock = None
    try:
        deck = load_deck(given["action_cards"], board, "action_cards") if "action_cards" in given \
            else load_deck(base.deck.data, board, "action_cards (the default)")
    except DataError as exc:
        fault("action_cards", exc.where, exc.reason if "action_cards" in given else
              f"our default action cards do not fit this board ({exc.reason}): enter the table's own")
    try:
        if "stock_cards" in given:
            stock = load_stock(given["stock_cards"], board, "stock_cards")
        else:
            stock = _default_stock(board, base)
    except DataError as exc:
        fault("stock_cards", exc.where, exc.reason if "stock_cards" in given else
              f"our default share cards do not fit this board ({exc.reason}): enter the table's own")
    return deck, stock


def _default_stock(board: Board, base):
    """The system's default share cards as a file, checked against ``board``."""
    cards = [{"line": ln.letter, "number": k + 1, "surcharge": sur}
             for ln, row in zip(base.board.lines, base.stock.surcharges) for k, sur in enumerate(row)]
    return load_stock({"format": "tokyo-table-companion/metro-stock-cards", "version": 1, "cards": cards}, board,
                      "stock_cards (the default)")


def _summary(system, given, board: Board, deck: Deck, stock, track, players) -> dict:
    source = lambda name: "table" if name in given else "default"  # noqa: E731
    return {
        "system": system,
        "players": players,
        "board": {"from": "corrections" if "board_corrections" in given else source("board"), "name": board.name,
                  "approximate": board.approximate, "stations": len(board.stations),
                  "lines": [{"letter": ln.letter, "name": ln.name, "colour": ln.colour, "shares": ln.shares,
                             "disc_spaces": ln.disc_spaces, "stops": len(ln.stops), "vehicle": ln.vehicle,
                             "vehicles": ln.vehicles} for ln in board.lines]},
        "action_cards": {"from": source("action_cards"), "cards": len(deck.cards),
                         "sets": [{"id": s.id, "colours": list(s.colours), "cards": len(s.cards),
                                   "dots": [sum(deck.cards[c].dots == d for c in s.cards) for d in (1, 2, 3)]}
                                  for s in deck.sets]},
        "stock_cards": {"from": source("stock_cards"),
                        "lines": [{"letter": ln.letter, "surcharges": list(row)}
                                  for ln, row in zip(board.lines, stock.surcharges)]},
        "revenue_track": {"from": source("revenue_track"), "step": track.step, "top": track.top,
                          "rows": [[k * track.step, hi, lo] for k, (hi, lo) in enumerate(zip(track.high, track.low))]},
    }


class TableCards:
    """The table's saved sets (in the store's ``table_cards`` table)."""

    def __init__(self, store: EventStore):
        self.store = store

    def check(self, system: str, files: Mapping[str, Any]) -> dict:
        """The preview of a set (Refused: its faults)."""
        return check_set(system, files).preview()

    def save(self, name: str, system: str, files: Mapping[str, Any]) -> dict:
        """Check and save a set under ``name`` (a set of that name is replaced): its listing and
        preview; Refused (nothing saved), Full."""
        name = name.strip()
        if not 1 <= len(name) <= MAX_NAME:
            raise Refused([{"file": "name", "where": "/", "reason": f"a set's name has 1 to {MAX_NAME} characters"}])
        checked = check_set(system, files)
        body = {k: files[k] for k in FILES if files.get(k) is not None}
        try:
            set_id, new = self.store.keep_table_cards(name, system, body, MAX_SETS)
        except OverflowError:
            raise Full(MAX_SETS) from None
        saved = self.store.table_card_set(set_id)
        return {**self._listing(set_id, name, system, saved[3] if saved else "", body), "new": new,
                **checked.preview()}

    @staticmethod
    def _listing(set_id: str, name: str, system: str, saved: str, body: dict) -> dict:
        return {"id": set_id, "name": name, "system": system, "saved": saved or None,
                "files": [k for k in FILES if k in body]}

    def list(self) -> list[dict]:
        return [self._listing(i, n, s, at, body) for i, n, s, at, body in self.store.table_card_sets()]

    def get(self, set_id: str) -> dict:
        """A saved set with its files (NoSuchSet)."""
        row = self.store.table_card_set(set_id)
        if row is None:
            raise NoSuchSet(set_id)
        set_id, name, system, saved, body = row
        return {**self._listing(set_id, name, system, saved, body), "content": {k: body[k] for k in FILES if k in body}}

    def delete(self, set_id: str) -> None:
        if not self.store.drop_table_cards(set_id):
            raise NoSuchSet(set_id)

    def options_for(self, set_id: str, game: str, options: Mapping[str, Any]) -> dict:
        """``options`` of a new ``game`` with the saved set's files (checked again: a default it
        corrects may have changed since) and its name; NoSuchSet, NotForGame, Refused."""
        saved = self.get(set_id)
        declared = GAMES.get(game)
        fields = declared.options.model_fields if declared is not None else {}
        if "table_cards" not in fields:
            raise NotForGame("no_metro", game=game)
        both = sorted(k for k in (*OPTION_FILES, "table_cards") if options.get(k) is not None)
        if both:
            raise NotForGame("both", names=", ".join(both))
        wanted = options.get("system", fields["system"].default)
        if wanted != saved["system"]:
            raise NotForGame("system", system=saved["system"], wanted=wanted)
        checked = check_set(saved["system"], saved["content"])
        return {**options, **checked.options, "table_cards": saved["name"]}

