"""TOKYO METRO options, and the static part of a game built from them (board, cards, track).

The options are the rule book's numbers, and named choices where it is silent
(docs/rules-notes.md). A table whose board, cards or track differ gives its own file's JSON as
``board``, ``action_cards``, ``stock_cards`` or ``revenue_track`` (``files.py`` says their shape).

>>> Options.from_config({"names": ["Aki", "Ben"]}, "TOKYO METRO", (1, 2, 3, 4, 5)).players
2
>>> rules_for({"names": ["Aki", "Ben", "Chie"]}).rounds
7
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, Mapping, Sequence

from pydantic import BeforeValidator

from ..engine import IllegalMove
from ..options import Flag, GameOptions, Whole, WholeIn
from .board import Board, default_board, load_board
from .cards import (Deck, RevenueTrack, StockCards, default_deck, default_stock, default_track, load_deck,
                    load_stock, load_track)
from .files import DataError

NAME = "tokyo_metro"
TITLE = "TOKYO METRO"
PLAYERS = (1, 2, 3, 4, 5)


def _file_object(value: Any) -> Any:
    if value is not None and not isinstance(value, Mapping):
        raise ValueError(f"must be the file's JSON object, not {value!r:.40}")
    return value


# A data file's JSON (validated when the game's rules are built: files.py, board.py, cards.py).
DataFile = Annotated[Mapping[str, Any] | None, BeforeValidator(_file_object)]


class Options(GameOptions):
    """The counts of pieces and steps stay near the box's: a train running 100,000 stops, or a bid
    step of 1 yen listing thousands of bids, would make a game nobody can play or show.

    One engine plays three declared games (game.py): TOKYO METRO (these options), OSAKA METRO
    (:class:`OsakaOptions`: the Osaka board by default) and METRO DRINKS (:class:`DrinksOptions`);
    ``GAME``/``TITLE`` name the game a set of options belongs to."""

    GAME: ClassVar[str] = NAME
    TITLE: ClassVar[str] = TITLE

    players: WholeIn(1, 5) = 4          # default: the number of names given (4 without names)
    start_yen: Whole = 2000
    bank_yen: WholeIn(0, 10_000_000) = 73_500   # the yen tiles in the box; the bank may still go below 0
    start_discs: WholeIn(0, 20) = 3
    max_discs: WholeIn(0, 20) = 6
    extra_discs: WholeIn(0, 20) = 3     # discs per colour in the general supply
    pyramids: WholeIn(0, 50) = 6
    speculations: WholeIn(0, 20) = 2
    tempo_tokens: WholeIn(0, 100) = 12
    loan_tokens: WholeIn(0, 100) = 8
    bicycles: WholeIn(0, 20) = 4
    loan: Whole = 1000
    loan_end_cost: Whole = 1500
    steps: WholeIn(0, 50) = 5           # stops a train moves per train phase, before tempo
    fare: Whole = 100
    owner_payout: Whole = 200           # to a station's owner without a share of the line (and to the value)
    holder_value: Whole = 500           # to the line's value when the owner holds a share
    walk: WholeIn(0, 20) = 2
    pass_bonus: Whole = 100             # per action disc not placed when passing
    bid_step: WholeIn(100, 10_000) = 100
    speculation_offer_up_to: Whole = 900   # legal_moves offers stakes up to this (apply takes any)
    cards_per_column: WholeIn(0, 36) = 0   # 0: the number of players (2 in the solo game)
    # Which metro system: TOKYO METRO's board, track and share cards, or OSAKA METRO's (rule book
    # 000, OSAKA METRO EXPANSION). The action cards follow the board unless ``card_set`` names the
    # other set (the modular variant). ``drinks``: the METRO DRINKS variant with JIDOHANBAIKI.
    system: Literal["tokyo", "osaka"] = "tokyo"
    card_set: Literal["board", "tokyo", "osaka"] = "board"
    drinks: Literal[False] = False      # True only in METRO DRINKS (its own game id: it uses the tower)
    board: DataFile = None              # a board file's data instead of the default
    action_cards: DataFile = None
    stock_cards: DataFile = None
    revenue_track: DataFile = None
    # Who may not board at the station where they got off, in the same train phase: the train they
    # left ("that_train"), or everyone on any train ("any_train", how rules version 1 read it).
    reboarding: Literal["that_train", "any_train"] = "that_train"

    EARLIER = {1: {"reboarding": "any_train"}}

    @classmethod
    def from_config(cls, config: Mapping[str, Any], title: str, allowed: Sequence[int]) -> "Options":
        names = config.get("names")
        if names and "players" not in (config.get("options") or {}) and len(names) not in allowed:
            raise IllegalMove(f"{title} is played by 2 to 5 players, or alone (solo); not {len(names)}")
        return super().from_config(config, title, allowed)


class OsakaOptions(Options):
    """OSAKA METRO EXPANSION: the same options, the Osaka board, track and cards by default."""

    GAME: ClassVar[str] = "osaka_metro"
    TITLE: ClassVar[str] = "OSAKA METRO"
    system: Literal["tokyo", "osaka"] = "osaka"


class DrinksOptions(Options):
    """METRO DRINKS: TOKYO METRO (or OSAKA METRO with ``system``) with JIDOHANBAIKI's stock cards,
    crates and drinks."""

    GAME: ClassVar[str] = "metro_drinks"
    TITLE: ClassVar[str] = "METRO DRINKS"
    drinks: Literal[True] = True
    # The crate of a colour card goes through the real tower (its six drinks thrown in, what comes out
    # into the taker's supply, the stuck ones to their colour's holder when freed); False: handed over.
    drinks_through_tower: Flag = True


@dataclass(frozen=True, eq=False)
class Rules:
    """The static part of a game: options, board, cards, track. Equal when built from equal options."""

    key: str
    options: Options
    players: int
    board: Board
    deck: Deck
    stock: StockCards
    track: RevenueTrack
    per_column: int

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Rules) and self.key == other.key)

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def rounds(self) -> int:
        """Rounds the columns allow: one for the first layout, one more per card left in the
        smallest column (5/6/7/8 rounds for 5/4/3/2 players with the default deck)."""
        return 1 + min(len(s.cards) for s in self.deck.sets) - self.per_column


_RULES: dict[str, Rules] = {}


def rules_of(opts: Options) -> Rules:
    """The rules these options make (one object per distinct options: replays compare equal)."""
    key = opts.GAME + json.dumps(opts.model_dump(mode="json"), sort_keys=True)
    cached = _RULES.get(key)
    if cached is not None:
        return cached
    players = opts.players
    try:
        board = default_board() if opts.board is None else load_board(opts.board, "option board")
        deck = default_deck(board) if opts.action_cards is None else load_deck(opts.action_cards, board, "option action_cards")
        stock = default_stock(board) if opts.stock_cards is None else load_stock(opts.stock_cards, board, "option stock_cards")
        track = default_track() if opts.revenue_track is None else load_track(opts.revenue_track, "option revenue_track")
    except DataError as exc:
        raise IllegalMove(f"this data does not validate: {exc}") from None
    per_column = opts.cards_per_column or (2 if players == 1 else players)
    short = [s.id for s in deck.sets if len(s.cards) < per_column]
    if short:
        raise IllegalMove(f"card set(s) {', '.join(short)} have fewer than the {per_column} cards a column needs")
    if len(board.start_fields) < players:
        raise IllegalMove("the board's start area has fewer fields than there are players")
    rules = Rules(key, opts, players, board, deck, stock, track, per_column)
    _RULES[key] = rules
    return rules


def rules_for(config: Mapping[str, Any], options: type[Options] = Options) -> Rules:
    """The rules of a game configuration (``names``, ``options``, ``rules``: the rules version)."""
    return rules_of(options.from_config(config, options.TITLE, PLAYERS))
