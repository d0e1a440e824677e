"""TOKYO METRO cards and the revenue track as data: action cards, share cards, track numbers.

Three files in ``data/``, each described by its model in ``files.py``:

- ``action_cards.json``: sets of action cards, one set per card column, named by a colour pair of
  line letters; per card 1-3 dots (its place in the deck) and one or two actions (kind, 1-3 action
  spaces, amount). The default deck is our assumption (docs/rules-notes.md).
- ``stock_cards.json``: the share cards, per line numbered 1.. with the surcharge of each.
- ``revenue_track.json``: the two numbers printed beside each value of the track.

>>> track = default_track()
>>> track.numbers(2900), track.numbers(1400)
((2000, 900), (1000, 400))
>>> track.numbers(6500) == (track.numbers(6000)[0] + track.numbers(500)[0], track.numbers(6000)[1] + track.numbers(500)[1])
True
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from .board import DATA, Board, read_json
from .files import DataError, DeckFile, StockFile, TrackFile, check

__all__ = ["Action", "ActionCard", "CardSet", "Deck", "RevenueTrack", "StockCards", "ACTION_KINDS",
           "YEN_KINDS", "OSAKA_KINDS", "load_deck", "load_stock", "load_track", "default_deck", "default_stock", "default_track"]

# The kinds of action, and what their amount means (None: the kind takes no amount).
ACTION_KINDS: Mapping[str, str | None] = {
    "move": "fields", "station": "yen per stop circle", "station_swap": None, "invest": "yen",
    "start": "yen added to the line's value", "tempo": "tokens", "bicycle": None, "discount": "yen off",
    "bid_bonus": "yen added to the next bid", "loan": None, "repay": None, "speculate": None,
    "action_disc": "yen", "card": "yen",
    "sell": None, "copy": "yen", "invest_disc": None,
}
OSAKA_KINDS = frozenset({"sell", "copy", "invest_disc"})   # only on OSAKA METRO's cards
YEN_KINDS = frozenset({"station", "invest", "start", "discount", "bid_bonus", "action_disc", "card", "copy"})
DISCOUNTABLE = frozenset({"station", "invest", "action_disc", "card", "copy"})  # printed yen costs


@dataclass(frozen=True)
class Action:
    kind: str
    spaces: int
    amount: int = 0


@dataclass(frozen=True)
class ActionCard:
    id: str
    set: str              # the set (= card column) id
    colours: tuple[str, ...]
    dots: int
    actions: tuple[Action, ...]


@dataclass(frozen=True)
class CardSet:
    id: str
    colours: tuple[str, ...]
    cards: tuple[str, ...]          # card ids in file order


@dataclass(frozen=True, eq=False)
class Deck:
    """All action cards; ``sets`` in column order. Compared by identity."""

    sets: tuple[CardSet, ...]
    cards: Mapping[str, ActionCard]
    data: Mapping[str, Any]

    def groups(self, column: int) -> tuple[tuple[str, ...], ...]:
        """The column's deck as dealt from: groups by dots, the group drawn first (1 dot) first."""
        ids = self.sets[column].cards
        return tuple(tuple(sorted(c for c in ids if self.cards[c].dots == d)) for d in (1, 2, 3)
                     if any(self.cards[c].dots == d for c in ids))


@dataclass(frozen=True, eq=False)
class StockCards:
    """Per line index: the surcharge of share #1, #2, ..."""

    surcharges: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, eq=False)
class RevenueTrack:
    step: int
    top: int
    high: tuple[int, ...]   # per row (value // step)
    low: tuple[int, ...]

    def numbers(self, value: int) -> tuple[int, int]:
        """The (high, low) pair beside a value; above the top row, the top row's numbers are
        added to those of the remainder (the rule book's note on values over 6,000)."""
        value = max(0, value)
        high = low = 0
        while value > self.top:
            high += self.high[-1]
            low += self.low[-1]
            value -= self.top
        row = value // self.step
        return high + self.high[row], low + self.low[row]


def load_deck(data: Any, board: Board, source: str = "action_cards", own_lines: bool = True) -> Deck:
    """The action cards of a file; with ``own_lines`` False (the other metro system's set, in the
    modular variant) a set's colours need not be line letters of this board."""
    file = check(DeckFile, data, source)

    def fail(where: str, reason: str) -> None:
        raise DataError(source, where, reason)

    sets, cards, set_ids = [], {}, {}
    card_where: dict[str, str] = {}
    for s, raw in enumerate(file.sets):
        where = f"/sets/{s}"
        if raw.id in set_ids:
            fail(f"{where}/id", f"set id {raw.id!r} is used twice (first at {set_ids[raw.id]})")
        set_ids[raw.id] = where
        for k, letter in enumerate(raw.colours):
            if own_lines and letter not in board.line_index:
                fail(f"{where}/colours/{k}", f"unknown line letter {letter!r}; the board's lines are "
                                             f"{' '.join(board.line_index)}")
        ids = []
        for c, card in enumerate(raw.cards):
            cw = f"{where}/cards/{c}"
            if card.id in card_where:
                fail(f"{cw}/id", f"card id {card.id!r} is used twice (first at {card_where[card.id]})")
            card_where[card.id] = cw
            actions = []
            for a, act in enumerate(card.actions):
                aw = f"{cw}/actions/{a}"
                meaning = ACTION_KINDS[act.kind]
                if meaning is None and act.amount is not None:
                    fail(f"{aw}/amount", f"a {act.kind} action takes no amount")
                if meaning is not None and act.amount is None:
                    fail(aw, f"a {act.kind} action needs an amount ({meaning})")
                amount = act.amount or 0
                if act.kind in YEN_KINDS and amount % 100:
                    fail(f"{aw}/amount", f"{amount} is not a multiple of 100 yen")
                if act.kind in ("move", "tempo") and amount < 1:
                    fail(f"{aw}/amount", f"a {act.kind} action needs an amount of at least 1")
                actions.append(Action(act.kind, act.spaces, amount))
            cards[card.id] = ActionCard(card.id, raw.id, tuple(raw.colours), card.dots, tuple(actions))
            ids.append(card.id)
        sets.append(CardSet(raw.id, tuple(raw.colours), tuple(ids)))
    return Deck(tuple(sets), cards, data)


def load_stock(data: Any, board: Board, source: str = "stock_cards") -> StockCards:
    file = check(StockFile, data, source)
    found: dict[int, dict[int, int]] = {}
    for k, card in enumerate(file.cards):
        where = f"/cards/{k}"
        if card.line not in board.line_index:
            raise DataError(source, f"{where}/line", f"unknown line letter {card.line!r}; the board's lines are "
                                                     f"{' '.join(board.line_index)}")
        numbers = found.setdefault(board.line_index[card.line], {})
        if card.number in numbers:
            raise DataError(source, f"{where}/number", f"share #{card.number} of line {card.line} is listed twice")
        numbers[card.number] = card.surcharge
    surcharges = []
    for line in board.lines:
        numbers = found.get(line.index, {})
        if sorted(numbers) != list(range(1, line.shares + 1)):
            raise DataError(source, "/cards", f"line {line.letter} has {line.shares} shares on the board, but the "
                                              f"cards number {sorted(numbers) or 'none'}; list shares 1 to {line.shares}")
        surcharges.append(tuple(numbers[n] for n in range(1, line.shares + 1)))
    return StockCards(tuple(surcharges))


def load_track(data: Any, source: str = "revenue_track") -> RevenueTrack:
    file = check(TrackFile, data, source)
    step, top, rows = file.step, file.top, file.rows
    if top % step:
        raise DataError(source, "/top", f"top {top} is not a multiple of the step {step}")
    if len(rows) != top // step + 1:
        raise DataError(source, "/rows", f"needs one row per value 0, {step}, ... {top}: {top // step + 1} rows, "
                                         f"not {len(rows)}")
    for k, (value, high, low) in enumerate(rows):
        if value != k * step:
            raise DataError(source, f"/rows/{k}/0", f"row {k} must be the value {k * step}, not {value}")
        if low > high:
            raise DataError(source, f"/rows/{k}", f"the lower number {low} is above the higher {high}")
    return RevenueTrack(step, top, tuple(r[1] for r in rows), tuple(r[2] for r in rows))


@lru_cache(maxsize=None)
def default_deck(board: Board) -> Deck:
    return load_deck(read_json(DATA / "action_cards.json"), board, "action_cards.json")


@lru_cache(maxsize=None)
def default_stock(board: Board) -> StockCards:
    return load_stock(read_json(DATA / "stock_cards.json"), board, "stock_cards.json")


@lru_cache(maxsize=1)
def default_track() -> RevenueTrack:
    return load_track(read_json(DATA / "revenue_track.json"), "revenue_track.json")
