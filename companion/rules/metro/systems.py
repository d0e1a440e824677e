"""The metro systems' default data files: TOKYO METRO's and OSAKA METRO's board, revenue track and
share cards, and each system's set of action cards (rule book 000: OSAKA METRO EXPANSION, and the
modular variant that plays one system's board with the other's cards).

>>> system_files("tokyo", "osaka").cards_file
'osaka_action_cards.json'
>>> system_files("osaka", "board")
Traceback (most recent call last):
...
ValueError: unknown card set 'board' (tokyo, osaka)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .board import DATA, Board, default_board, load_board, read_json
from .cards import (Deck, RevenueTrack, StockCards, default_deck, default_stock, default_track, load_deck, load_stock,
                    load_track)

# Per system: board, stock cards, revenue track, action cards (in data/).
FILES = {
    "tokyo": ("tokyo_board.json", "stock_cards.json", "revenue_track.json", "action_cards.json"),
    "osaka": ("osaka_board.json", "osaka_stock_cards.json", "osaka_revenue_track.json", "osaka_action_cards.json"),
}


@dataclass(frozen=True)
class SystemFiles:
    """The default files of a game: the ``system``'s board, share cards and track, and the action
    cards of ``card_set`` (a system name). Each loads once per process."""

    system: str
    card_set: str

    @property
    def cards_file(self) -> str:
        return FILES[self.card_set][3]

    def board(self) -> Board:
        return _board(FILES[self.system][0])

    def stock(self, board: Board) -> StockCards:
        return _stock(FILES[self.system][1], board)

    def track(self) -> RevenueTrack:
        return _track(FILES[self.system][2])

    def deck(self, board: Board) -> Deck:
        # The other system's cards name their columns by that system's line letters: colours only.
        return _deck(self.cards_file, board, self.card_set == self.system)


def system_files(system: str, card_set: str) -> SystemFiles:
    if system not in FILES:
        raise ValueError(f"unknown metro system {system!r} ({', '.join(FILES)})")
    if card_set not in FILES:
        raise ValueError(f"unknown card set {card_set!r} ({', '.join(FILES)})")
    return SystemFiles(system, card_set)


@lru_cache(maxsize=None)
def _board(name: str) -> Board:
    if name == FILES["tokyo"][0]:
        return default_board()   # the one object tests and scripts get from board.default_board()
    return load_board(read_json(DATA / name), source=name)


@lru_cache(maxsize=None)
def _stock(name: str, board: Board) -> StockCards:
    if name == FILES["tokyo"][1]:
        return default_stock(board)
    return load_stock(read_json(DATA / name), board, name)


@lru_cache(maxsize=None)
def _track(name: str) -> RevenueTrack:
    if name == FILES["tokyo"][2]:
        return default_track()
    return load_track(read_json(DATA / name), name)


@lru_cache(maxsize=None)
def _deck(name: str, board: Board, own_lines: bool) -> Deck:
    if name == FILES["tokyo"][3] and own_lines:
        return default_deck(board)
    return load_deck(read_json(DATA / name), board, name, own_lines=own_lines)
