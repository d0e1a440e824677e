"""The crate duel (rule book 002; no title in our copy, so the id ``crate_duel``): two players.

Six upturned crates stand in a row, worth 100 to 600 yen. One player lays the six colour cards
(in a random order, one per crate) on their side and plays colours; the other lays the six shape
cards on theirs and plays shapes. Each starts with 18 drinks (3 matching each of their cards) and
four 500-yen coins. In turn a player places one drink from their supply on one of their cards,
or spends a 500 to throw every drink on one of the opponent's cards into the tower (what comes out
goes back onto that card), or spends a 500 to take every drink on one of their own cards back.
A player may pass instead; their supply is then discarded and the other plays on alone. Once
both have passed, each crate goes to the side whose drinks matching its card score more (count
times the crate's value); the winner fills the crate with the drinks of both sides (choosing
which to discard beyond six). Last, each of the 12 cards pays its crate's yen from the bank to
the player whose won crates hold more drinks matching it. Most yen wins.

Seat 0 plays colours, seat 1 shapes. Dealing the cards and the tower's drops arrive as chance
moves; the book's gaps are options (docs/rules-notes.md, "crate duel").

>>> s = setup({"names": ["Aki", "Ben"]})
>>> s.phase, len(s.supply[0]), len(s.supply[1]), s.coins
('deal', 18, 18, (4, 4))
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal, Mapping

from ...drinks import COLOURS, DRINK_IDS, SHAPES
from ..declared import Declared, Kind, Phase, nothing_hidden
from ..engine import CHANCE, ChanceSpec, Event, IllegalMove, Move, MoveInfo, Pending, uniform
from ..options import Flag, GameOptions, Players, Whole, WholeIn
from ..tower import Tower
from .common import arg_drink, arg_drinks, arg_int, awaited_drop, count_matching, matches, seat_names, sort_drinks, top

NAME = "crate_duel"
TITLE = "Crate duel"
PLAYERS = (2,)
RULE = "002 crate duel"

DEAL, PLAY, DROP, KEEP, OVER = "deal", "play", "drop", "keep", "over"
CRATES = 6
COLOUR_IDS = tuple(c.value for c in COLOURS)
SHAPE_IDS = tuple(s.value for s in SHAPES)
SIDES = ("colour", "shape")  # seat 0 plays colours, seat 1 shapes


class Options(GameOptions):
    players: Players = 2
    value_step: WholeIn(1, 10_000) = 100    # crate k (0-based) is worth (k + 1) x this
    drinks_per_card: WholeIn(1, 3) = 3      # each player's supply: this many matching each of their cards
    coins: WholeIn(0, 20) = 4               # 500-yen coins each
    coin: WholeIn(1, 10_000) = 500          # what a coin action costs
    crate_size: WholeIn(1, 36) = 6          # a won crate holds this many drinks; the winner discards the rest
    # The book is silent on these (docs/rules-notes.md):
    first: Literal["colour", "shape"] = "colour"   # who acts first
    crate_yen: Flag = False                 # the winner of a crate also takes the yen lying on it
    bank_yen: Whole = 20_000                # what the bank holds at the start (pays the cards)


def supply_of(opts: Options, seat: int) -> tuple[str, ...]:
    """A player's starting drinks. The book gives each 3 matching each of their cards but not which:
    the 36 drinks split like a chessboard (colour i, shape j to the colour player when i + j is
    even), so that each colour has 3 on the colour side and each shape 3 on the other; with fewer
    per card, the lowest shapes (colour player) or the first colours (shape player) of the split.

    >>> supply_of(Options(drinks_per_card=1), 0)[:2]
    ('black-stubby_can', 'white-short_can')
    """
    k = opts.drinks_per_card
    if seat == 0:
        return tuple(f"{c}-{s}" for i, c in enumerate(COLOUR_IDS)
                     for s in [s for j, s in enumerate(SHAPE_IDS) if (i + j) % 2 == 0][:k])
    return tuple(sort_drinks(f"{c}-{s}" for j, s in enumerate(SHAPE_IDS)
                             for c in [c for i, c in enumerate(COLOUR_IDS) if (i + j) % 2 == 1][:k]))


Cards = tuple[tuple[str, ...], ...]  # per crate, the drinks standing on one side's card


@dataclass(frozen=True)
class State:
    options: Options
    names: tuple[str, str]
    phase: str = DEAL
    cards: tuple[tuple[str | None, ...], tuple[str | None, ...]] = ((None,) * CRATES, (None,) * CRATES)
    supply: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    placed: tuple[Cards, Cards] = (((),) * CRATES, ((),) * CRATES)
    coins: tuple[int, int] = (0, 0)
    earned: tuple[int, int] = (0, 0)     # yen paid by the bank (cards, crates)
    bank: int = 0
    turn: int = 0
    passed: tuple[bool, bool] = (False, False)
    tower: Tower = field(default_factory=Tower)
    thrown: tuple[str, ...] = ()         # in the tower now, awaiting the drop
    thrown_from: tuple[int, int] | None = None  # (side, crate) they came from
    discarded: tuple[str, ...] = ()
    box: tuple[str, ...] = ()            # drinks not in this game
    points: tuple[tuple[int, int] | None, ...] = (None,) * CRATES
    won_by: tuple[int | None, ...] = (None,) * CRATES
    contents: tuple[tuple[str, ...], ...] = ((),) * CRATES
    keeping: tuple[int, tuple[str, ...]] | None = None  # (crate, drinks) the winner chooses from
    scored: int = 0                      # crates scored so far
    card_pays: tuple[tuple[str, int, int | None], ...] = ()  # (card, yen, seat paid or None)
    winners: tuple[int, ...] = ()
    last: Mapping[str, Any] | None = None

    def yen(self, seat: int) -> int:
        return self.coins[seat] * self.options.coin + self.earned[seat]

    def value(self, crate: int) -> int:
        return (crate + 1) * self.options.value_step


def _pair(t: tuple, seat: int, v: Any) -> tuple:
    return tuple(v if k == seat else x for k, x in enumerate(t))


def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, 2)
    supply = (supply_of(opts, 0), supply_of(opts, 1))
    box = tuple(d for d in DRINK_IDS if d not in supply[0] and d not in supply[1])
    return State(opts, names, supply=supply, box=box, coins=(opts.coins, opts.coins), bank=opts.bank_yen,
                 turn=SIDES.index(opts.first))


# --- dealing the cards (chance) ----------------------------------------------------------------

def _next_place(state: State) -> tuple[int, int] | None:
    for side in (0, 1):
        for k, c in enumerate(state.cards[side]):
            if c is None:
                return side, k
    return None


def _cards_left(state: State) -> ChanceSpec:
    side, _ = _next_place(state)
    ids = COLOUR_IDS if side == 0 else SHAPE_IDS
    return uniform(Move("lay", CHANCE, {"card": c}) for c in ids if c not in state.cards[side])


def _lay(state: State, move: Move) -> tuple[State, list[Event]]:
    side, k = _next_place(state)
    ids = COLOUR_IDS if side == 0 else SHAPE_IDS
    card = move.args.get("card")
    if card not in ids or card in state.cards[side]:
        raise IllegalMove(f"lay a card not yet laid (the colours first, then the shapes), not {card!r}")
    state = replace(state, cards=_pair(state.cards, side, _pair(state.cards[side], k, card)))
    if _next_place(state) is None:
        state = replace(state, phase=PLAY)
    return state, [Event("card_laid", {"side": SIDES[side], "crate": k, "card": card, "yen": state.value(k)})]


# --- the turn ----------------------------------------------------------------------------------

def _acting(state: State) -> list[Pending]:
    return [Pending(state.turn)]


def _waiting(state: State) -> str:
    name = state.names[state.turn]
    return f"an action or a pass by {name}"


def _crate_arg(move: Move) -> int:
    k = arg_int(move, "crate")
    if not 0 <= k < CRATES:
        most = CRATES - 1
        raise IllegalMove(f"'crate' must be 0 to {most}, not {k}")
    return k


def _spend(state: State, seat: int, refusal: str) -> State:
    if not state.coins[seat]:
        raise IllegalMove(refusal)
    return replace(state, coins=_pair(state.coins, seat, state.coins[seat] - 1),
                   bank=state.bank + state.options.coin)


def _next_turn(state: State, seat: int) -> State:
    other = 1 - seat
    return replace(state, turn=seat if state.passed[other] else other)


def _place(state: State, move: Move) -> tuple[State, list[Event]]:
    p, k, d = move.player, _crate_arg(move), arg_drink(move)
    if d not in state.supply[p]:
        raise IllegalMove(f"{d} is not in your supply")
    on = state.placed[p][k] + (d,)
    state = replace(state, supply=_pair(state.supply, p, tuple(x for x in state.supply[p] if x != d)),
                    placed=_pair(state.placed, p, _pair(state.placed[p], k, tuple(sort_drinks(on)))),
                    last={"action": "place", "seat": p, "crate": k, "drink": d})
    return _next_turn(state, p), [Event("placed", {"seat": p, "crate": k, "drink": d,
                                                   "card": state.cards[p][k]})]


def _throw(state: State, move: Move) -> tuple[State, list[Event]]:
    p, k = move.player, _crate_arg(move)
    o = 1 - p
    drinks = state.placed[o][k]
    if not drinks:
        other = state.names[o]
        raise IllegalMove(f"no drinks stand on {other}'s card at crate {k}")
    state = _spend(state, p, "throwing costs a 500-yen coin and you have none left")
    state = replace(state, placed=_pair(state.placed, o, _pair(state.placed[o], k, ())), thrown=drinks,
                    thrown_from=(o, k), phase=DROP, last={"action": "throw", "seat": p, "crate": k})
    return state, [Event("throwing", {"seat": p, "crate": k, "drinks": list(drinks)})]


def _take_back(state: State, move: Move) -> tuple[State, list[Event]]:
    p, k = move.player, _crate_arg(move)
    drinks = state.placed[p][k]
    if not drinks:
        raise IllegalMove(f"no drinks stand on your card at crate {k}")
    state = _spend(state, p, "taking drinks back costs a 500-yen coin and you have none left")
    state = replace(state, placed=_pair(state.placed, p, _pair(state.placed[p], k, ())),
                    supply=_pair(state.supply, p, tuple(sort_drinks(state.supply[p] + drinks))),
                    last={"action": "take_back", "seat": p, "crate": k})
    return _next_turn(state, p), [Event("taken_back", {"seat": p, "crate": k, "drinks": list(drinks)})]


def _pass(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    events = [Event("passed", {"seat": p, "discarded": list(state.supply[p])})]
    state = replace(state, passed=_pair(state.passed, p, True), discarded=state.discarded + state.supply[p],
                    supply=_pair(state.supply, p, ()), last={"action": "pass", "seat": p})
    if all(state.passed):
        return _score(state, events)
    return _next_turn(state, p), events


def _throw_out(state: State) -> ChanceSpec:
    return awaited_drop(state.thrown, state.tower)


def _drop(state: State, move: Move) -> tuple[State, list[Event]]:
    out = arg_drinks(move, "out")
    tower, drop = state.tower.drop(state.thrown, out)
    side, k = state.thrown_from
    back = tuple(d for d in drop.out if d in state.thrown)
    # Stuck drinks of an earlier throw pushed out now do not go back: they are discarded.
    state = replace(state, tower=tower, thrown=(), thrown_from=None, phase=PLAY,
                    placed=_pair(state.placed, side, _pair(state.placed[side], k, tuple(sort_drinks(back)))),
                    discarded=state.discarded + drop.freed)
    thrower = 1 - side
    return _next_turn(state, thrower), [Event("drop", drop.to_json())]


def _spill(state: State, move: Move) -> tuple[State, list[Event]]:
    out = arg_drinks(move, "out")
    state = replace(state, tower=state.tower.spill(out), discarded=state.discarded + tuple(out))
    return state, [Event("spill", {"out": list(out)})]


# --- scoring -----------------------------------------------------------------------------------

def crate_points(state: State, k: int) -> tuple[int, int]:
    """Each side's points at crate ``k``: its drinks matching its card there, times the crate's value
    in hundreds (the book's example: two purple drinks at the 300 crate score 6)."""
    return tuple(count_matching(state.placed[s][k], state.cards[s][k]) * state.value(k) // 100
                 for s in (0, 1))


def _score(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Score the crates from ``state.scored`` on; stop where a winner must choose drinks to discard."""
    while state.scored < CRATES:
        k = state.scored
        pts = crate_points(state, k)
        pool = state.placed[0][k] + state.placed[1][k]
        state = replace(state, points=_pair(state.points, k, pts), placed=tuple(
            _pair(state.placed[s], k, ()) for s in (0, 1)), scored=k + 1)
        if pts[0] == pts[1]:
            state = replace(state, discarded=state.discarded + pool)
            events.append(Event("crate_tied", {"crate": k, "points": list(pts), "discarded": list(pool)}))
            continue
        w = 0 if pts[0] > pts[1] else 1
        state = replace(state, won_by=_pair(state.won_by, k, w))
        if state.options.crate_yen:
            state = _pay(state, w, state.value(k))
        events.append(Event("crate_won", {"crate": k, "seat": w, "points": list(pts), "drinks": len(pool)}))
        if len(pool) > state.options.crate_size:
            return replace(state, phase=KEEP, turn=w, keeping=(k, tuple(sort_drinks(pool)))), events
        state = replace(state, contents=_pair(state.contents, k, tuple(sort_drinks(pool))))
    return _pay_cards(state, events)


def _pay(state: State, seat: int, yen: int) -> State:
    yen = min(yen, state.bank)
    return replace(state, bank=state.bank - yen, earned=_pair(state.earned, seat, state.earned[seat] + yen))


def collected(state: State, seat: int) -> tuple[str, ...]:
    """The drinks in the crates ``seat`` won."""
    return tuple(d for k in range(CRATES) if state.won_by[k] == seat for d in state.contents[k])


def _pay_cards(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    pays = []
    for side in (0, 1):
        for k, card in enumerate(state.cards[side]):
            counts = [count_matching(collected(state, s), card) for s in (0, 1)]
            best = top(counts)
            seat = best[0] if len(best) == 1 else None
            if seat is not None:
                state = _pay(state, seat, state.value(k))
            pays.append((card, state.value(k), seat))
            events.append(Event("card_paid" if seat is not None else "card_tied",
                                {"card": card, "yen": state.value(k), "seat": seat, "counts": counts}))
    totals = [state.yen(s) for s in (0, 1)]
    state = replace(state, card_pays=tuple(pays), phase=OVER, keeping=None, winners=top(totals))
    return state, events + [Event("game_over", {"yen": totals, "winners": list(state.winners)})]


def _keep_moves(state: State, seat: int) -> list[Move]:
    return [Move("discard", seat, {"drink": d}) for d in state.keeping[1]]


def _discard(state: State, move: Move) -> tuple[State, list[Event]]:
    d = arg_drink(move)
    k, pool = state.keeping
    if d not in pool:
        raise IllegalMove(f"{d} is not among the drinks for crate {k}")
    pool = tuple(x for x in pool if x != d)
    state = replace(state, discarded=state.discarded + (d,), keeping=(k, pool))
    events = [Event("discarded", {"seat": move.player, "crate": k, "drink": d})]
    if len(pool) > state.options.crate_size:
        return state, events
    state = replace(state, contents=_pair(state.contents, k, pool), keeping=None, phase=PLAY)
    return _score(state, events)


def _waiting_keep(state: State) -> str:
    name, k, most = state.names[state.turn], state.keeping[0], state.options.crate_size
    return f"{name} to discard drinks from crate {k} down to {most}"


# --- listing -----------------------------------------------------------------------------------

def _places(state: State, seat: int) -> list[Move]:
    return [Move("place", seat, {"crate": k, "drink": d}) for d in state.supply[seat] for k in range(CRATES)]


def _throws(state: State, seat: int) -> list[Move]:
    return [Move("throw", seat, {"crate": k}) for k in range(CRATES) if state.placed[1 - seat][k]] \
        if state.coins[seat] else []


def _take_backs(state: State, seat: int) -> list[Move]:
    return [Move("take_back", seat, {"crate": k}) for k in range(CRATES) if state.placed[seat][k]] \
        if state.coins[seat] else []


def _passes(state: State, seat: int) -> list[Move]:
    return [Move("pass", seat, {})]


def _coin_info(state: State, move: Move) -> MoveInfo:
    return MoveInfo(cost=state.options.coin, why="why.crate_duel.coin")


def _place_info(state: State, move: Move) -> MoveInfo:
    k, d = move.args.get("crate"), move.args.get("drink")
    p = move.player
    if not (isinstance(k, int) and 0 <= k < CRATES and d in DRINK_IDS and p in (0, 1)):
        return MoveInfo()
    card = state.cards[p][k]
    if not (card and matches(d, card)):
        return MoveInfo()  # it scores nothing here (it still counts for the cards' payouts if the crate is won)
    return MoveInfo(why="why.crate_duel.place", params={"n": state.value(k) // 100})


# --- views -------------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    acting = state.phase in (PLAY, KEEP)
    return {
        "game": NAME, "phase": state.phase,
        "players": [{"seat": s, "name": state.names[s], "side": SIDES[s], "yen": state.yen(s),
                     "coins": state.coins[s], "supply": list(state.supply[s]), "has_passed": state.passed[s],
                     "won_drinks": sort_drinks(collected(state, s)), "turn": acting and state.turn == s}
                    for s in (0, 1)],
        "turn": state.turn if acting else None,
        "to_act": [{"actor": w.actor, "secret_for": w.secret_for} for w in GAME.pending(state)],
        "crates": [{"crate": k, "worth_yen": state.value(k), "colour_card": state.cards[0][k],
                    "shape_card": state.cards[1][k], "colour_side": list(state.placed[0][k]),
                    "shape_side": list(state.placed[1][k]),
                    "points": list(state.points[k]) if state.points[k] else None,
                    "won_by": state.won_by[k], "contents": list(state.contents[k])} for k in range(CRATES)],
        "keeping": {"crate": state.keeping[0], "drinks": list(state.keeping[1])} if state.keeping else None,
        "tower": {"stuck": sort_drinks(state.tower.inside)}, "thrown": list(state.thrown),
        "discarded": sort_drinks(state.discarded), "bank": state.bank,
        "card_pays": [{"card": c, "yen": y, "seat": s} for c, y, s in state.card_pays],
        "last": dict(state.last) if state.last else None,
        "winners": list(state.winners), "over": state.phase == OVER,
    }


def payouts(state: State) -> dict:
    return {"yen": [state.yen(s) for s in (0, 1)], "final": state.phase == OVER, "winners": list(state.winners)}


# --- the declaration ---------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(DEAL, "the next stock card laid beside a crate", outcomes=_cards_left,
              ends="when all twelve cards lie beside the crates"),
        Phase(PLAY, _waiting, acting=_acting, ends="when both players have passed"),
        Phase(DROP, "the drinks that came out of the tower", outcomes=_throw_out, ends="with the drop"),
        Phase(KEEP, _waiting_keep, acting=_acting, ends="when the won crate holds no more than it may"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("lay", _lay, f"{RULE}: VORBEREITUNG", phases=(DEAL,), chance=True),
        Kind("place", _place, f"{RULE}: SPIELABLAUF 1", phases=(PLAY,), listed=_places, info=_place_info),
        Kind("throw", _throw, f"{RULE}: SPIELABLAUF 2", phases=(PLAY,), listed=_throws, info=_coin_info),
        Kind("take_back", _take_back, f"{RULE}: SPIELABLAUF 3", phases=(PLAY,), listed=_take_backs,
             info=_coin_info),
        Kind("pass", _pass, f"{RULE}: PASSEN", phases=(PLAY,), listed=_passes),
        Kind("drop", _drop, f"{RULE}: SPIELABLAUF 2", phases=(DROP,), chance=True),
        Kind("spill", _spill, f"{RULE}: SPIELABLAUF 2", chance=True, anytime=True),
        Kind("discard", _discard, f"{RULE}: SPIELENDE", phases=(KEEP,), listed=_keep_moves),
    ),
    view_of=view, payouts_of=payouts, seat_names=lambda state: state.names,
    redraw=nothing_hidden,  # every drink and card lies open; only the tower's drops are chance
    board_events=frozenset({"card_laid", "placed", "throwing", "taken_back", "passed", "discarded"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
