"""Mr. Sudsy's laundromat with the tower (rule book 002, the add-on): detergent bought through it.

The laundromat game itself (its washers, its turns, its scoring) is not in our rule book: it is
played on the table as usual, and the service keeps the add-on's part. The tower stands in the
laundromat with the detergent bottles beside it. A player whose time in the laundromat it is (the
table enters whose) may buy detergent: pay 200 yen to the bank and throw one bottle from beside the
machine into the tower. A bottle that comes out is the buyer's; one that sticks stays inside until
another bottle thrown in pushes it out (rules/tower.py: a drink never frees it, and it never falls
out on its own). A bottle used to start a wash goes back beside the machine, to be bought again.
The table enters the laundromat game's end, with its scores if it likes.

The bottles are ``detergent-1`` .. ``detergent-N`` (``bottles``, default 6); each player's yen for
detergent is ``start_yen`` (the laundromat's own money is its game's: the table sets how much a
player brings). A stuck bottle pushed out goes to the player whose throw pushed it out
(``pushed_out_to``), or back to the one who paid for it. docs/rules-notes.md.

>>> s = setup({"names": ["A", "B"]})
>>> s, _ = apply(s, Move("visit", CHANCE, {"seat": 1}))
>>> s, _ = apply(s, Move("buy", 1, {"bottle": "detergent-1"}))
>>> s, _ = apply(s, Move("drop", CHANCE, {"out": []}))
>>> sorted(s.tower.inside), s.seats[1].yen
(['detergent-1'], 800)
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal, Mapping

from ...drinks import DETERGENT_IDS
from ..declared import Declared, Kind, Phase
from ..engine import CHANCE, ChanceSpec, Event, IllegalMove, Move, MoveInfo, Pending, Typed, uniform
from ..options import GameOptions, WholeIn
from ..tower import Tower
from .common import arg, awaited_drop, need_yen, seat_in, seat_names, set_at, top
from .tower_turns import to_act

NAME = "mr_sudsy"
TITLE = "Mr. Sudsy's laundromat"
PLAYERS = (1, 2, 3, 4, 5, 6)
RULE = "002 Mr. Sudsy"

VISIT, SHOP, DROP, OVER = "visit", "shop", "drop", "over"
MAX_SCORE = 1_000_000


class Options(GameOptions):
    players: WholeIn(1, 6) = 2
    bottles: WholeIn(1, len(DETERGENT_IDS)) = 6   # detergent bottles beside the machine at the start
    price: WholeIn(0, 10_000) = 200                # one throw of a bottle into the tower
    start_yen: WholeIn(0, 100_000) = 1000          # each player's yen for detergent
    pushed_out_to: Literal["thrower", "buyer"] = "thrower"   # a stuck bottle pushed out: whose
    max_visits: WholeIn(0, 1000) = 40              # a bound: the game ends after so many visits (0: the table ends it)


@dataclass(frozen=True)
class Seat:
    name: str
    yen: int
    held: tuple[str, ...] = ()       # bottles bought, not used yet
    bought: int = 0                  # bottles paid for
    used: int = 0                    # washes started with a bottle
    score: int | None = None         # the laundromat game's score, entered at the end


@dataclass(frozen=True)
class State:
    options: Options
    seats: tuple[Seat, ...]
    beside: tuple[str, ...]                       # bottles beside the machine, to be bought
    phase: str = VISIT
    visitor: int | None = None                    # whose time in the laundromat it is
    visits: int = 0
    flying: str | None = None                     # the bottle thrown now
    tower: Tower = Tower()
    paid_for: tuple[tuple[str, int], ...] = ()    # stuck bottles and who paid for each
    bank: int = 0                                 # yen paid for detergent
    last: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.seats)


def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, opts.players)
    return State(opts, tuple(Seat(name, opts.start_yen) for name in names), DETERGENT_IDS[:opts.bottles])


def _sorted(bottles) -> tuple[str, ...]:
    return tuple(sorted(bottles, key=DETERGENT_IDS.index))


# --- who acts ---------------------------------------------------------------------------------

def _visitor(state: State) -> list[Pending]:
    return [Pending(state.visitor)]


def _waiting_shop(state: State) -> str:
    return f"{state.seats[state.visitor].name} to buy or use detergent, or to leave the machine"


# --- what the table enters -----------------------------------------------------------------------

def _visits(state: State) -> ChanceSpec:
    """Whose time in the laundromat it is (the laundromat game decides; the simulated table draws
    one); the table is offered the end of the laundromat game too, plain or with its scores typed in."""
    visits = [Move("visit", CHANCE, {"seat": p}) for p in range(state.n)]
    return replace(uniform(visits), offer=tuple(visits) + (Move("end", CHANCE, {}),),
                   typed=(Typed("end", "scores", 0, MAX_SCORE, per_seat=True),))


def _drop(state: State) -> ChanceSpec:
    return awaited_drop((state.flying,), state.tower)


def _visit(state: State, move: Move) -> tuple[State, list[Event]]:
    p = seat_in(move, range(state.n))
    state = replace(state, phase=SHOP, visitor=p, visits=state.visits + 1)
    return state, [Event("visit", {"seat": p, "visit": state.visits})]


def _bottle(move: Move, among: tuple[str, ...], where: str) -> str:
    b = arg(move, "bottle")
    if b not in among:
        raise IllegalMove(f"{b!r} is not {where}; choose one of: {', '.join(among) or 'none'}", move)
    return b


def _buys(state: State, seat: int) -> list[Move]:
    s = state.seats[seat]
    if not state.beside or s.yen < state.options.price:
        return []
    return [Move("buy", seat, {"bottle": state.beside[0]})]


def _buy(state: State, move: Move) -> tuple[State, list[Event]]:
    p = move.player
    b = _bottle(move, state.beside, "beside the machine")
    need_yen(state.seats[p].yen, state.options.price, "a bottle of detergent")
    s = state.seats[p]
    state = replace(state, seats=set_at(state.seats, p, yen=s.yen - state.options.price, bought=s.bought + 1),
                    beside=tuple(x for x in state.beside if x != b), bank=state.bank + state.options.price,
                    flying=b, phase=DROP)
    return state, [Event("bought", {"seat": p, "bottle": b, "paid": state.options.price})]


def _buy_info(state: State, move: Move) -> MoveInfo:
    return MoveInfo(cost=state.options.price, why="why.mr_sudsy.buy", params={"price": state.options.price})


def _dropped(state: State, move: Move) -> tuple[State, list[Event]]:
    """What came out of the tower: the bottle thrown, a stuck one it pushed out, both or none."""
    out = arg(move, "out")
    if not isinstance(out, (list, tuple)) or not all(isinstance(x, str) for x in out):
        raise IllegalMove("'out' must list the detergent bottles that came out, such as 'detergent-1'", move)
    tower, drop = state.tower.drop((state.flying,), tuple(out))
    paid = dict(state.paid_for)
    seats = state.seats
    to: dict[str, int] = {}
    for b in drop.out:
        buyer = paid.pop(b, state.visitor)
        owner = buyer if state.options.pushed_out_to == "buyer" else state.visitor
        to[b] = owner
        seats = set_at(seats, owner, held=_sorted(seats[owner].held + (b,)))
    if state.flying in drop.stuck:
        paid[state.flying] = state.visitor
    state = replace(state, seats=seats, tower=tower, flying=None, phase=SHOP,
                    paid_for=tuple(sorted(paid.items())), last={"drop": drop.to_json()})
    return state, [Event("drop", {**drop.to_json(), "to": to})]


def _uses(state: State, seat: int) -> list[Move]:
    return [Move("use", seat, {"bottle": b}) for b in state.seats[seat].held]


def _use(state: State, move: Move) -> tuple[State, list[Event]]:
    """A wash started with a bottle: it goes back beside the machine, to be bought again."""
    p = move.player
    s = state.seats[p]
    b = _bottle(move, s.held, "a bottle you hold")
    state = replace(state, seats=set_at(state.seats, p, held=tuple(x for x in s.held if x != b), used=s.used + 1),
                    beside=_sorted(state.beside + (b,)))
    return state, [Event("used", {"seat": p, "bottle": b})]


def _leaves(state: State, seat: int) -> list[Move]:
    return [Move("leave", seat, {})]


def _leave(state: State, move: Move) -> tuple[State, list[Event]]:
    state = replace(state, phase=VISIT, visitor=None)
    events = [Event("left", {"seat": move.player})]
    if state.options.max_visits and state.visits >= state.options.max_visits:
        ended, more = _end(state, Move("end", CHANCE, {}))
        return ended, events + more
    return state, events


def _end(state: State, move: Move) -> tuple[State, list[Event]]:
    """The laundromat game is over. With ``scores`` (its score per player, seat order) the winners
    are the highest; without, the laundromat's own sheet names them and the table shares the win."""
    scores = move.args.get("scores")
    if scores is not None:
        if not isinstance(scores, (list, tuple)) or len(scores) != state.n or not all(
                isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= MAX_SCORE for x in scores):
            n, most = state.n, MAX_SCORE
            raise IllegalMove(f"'scores' lists each player's laundromat score in seat order: {n} whole numbers "
                              f"from 0 to {most}", move)
        state = replace(state, seats=tuple(replace(s, score=x) for s, x in zip(state.seats, scores)))
    totals = [s.score or 0 for s in state.seats]
    state = replace(state, phase=OVER, visitor=None, winners=top(totals))
    return state, [Event("game_over", {"winners": list(state.winners), "scores": totals,
                                       "with_scores": scores is not None})]


# --- views ------------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    players = [{"seat": p, "name": s.name, "yen": s.yen, "bottles": list(s.held), "bought": s.bought,
                "used": s.used, "score": s.score, "turn": state.visitor == p} for p, s in enumerate(state.seats)]
    over = state.phase == OVER
    return {
        "game": NAME, "phase": state.phase, "players": players, "to_act": to_act(GAME.pending(state)),
        "visitor_seat": state.visitor, "visits": state.visits, "by_machine": list(state.beside), "flying": state.flying,
        "tower": {"stuck": sorted(state.tower.inside, key=DETERGENT_IDS.index)},
        "price": state.options.price, "bank": state.bank, "last": dict(state.last) if state.last else None,
        "winners": list(state.winners), "over": over,
        "final": {"yen": [s.yen for s in state.seats], "score": [s.score for s in state.seats]} if over else None,
    }


def payouts(state: State) -> dict:
    over = state.phase == OVER
    return {"yen": [s.yen for s in state.seats], "final": over, "winners": list(state.winners),
            **({"projected": [s.score or 0 for s in state.seats]} if over else {})}


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(VISIT, "whose time in the laundromat it is (or the laundromat game's end)", outcomes=_visits,
              ends="with the player whose time it is"),
        Phase(SHOP, _waiting_shop, acting=_visitor, ends="when the player leaves the machine"),
        Phase(DROP, "the detergent that came out of the tower", outcomes=_drop, ends="with the drop"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("visit", _visit, f"{RULE}: WASCHMITTEL KAUFEN (your time in the laundromat)", phases=(VISIT,),
             chance=True),
        Kind("end", _end, f"{RULE}: (the laundromat game's end)", phases=(VISIT,), chance=True),
        Kind("buy", _buy, f"{RULE}: WASCHMITTEL KAUFEN", phases=(SHOP,), listed=_buys, info=_buy_info),
        Kind("drop", _dropped, f"{RULE}: WASCHMITTEL KAUFEN (stuck until pushed out)", phases=(DROP,), chance=True),
        Kind("use", _use, f"{RULE}: (used bottles back beside the machine, after WASCHMITTEL KAUFEN)",
             phases=(SHOP,), listed=_uses),
        Kind("leave", _leave, f"{RULE}: (your time in the laundromat)", phases=(SHOP,), listed=_leaves),
    ),
    # no estimates: the laundromat game's score is not the service's to play out
    view_of=view, payouts_of=payouts, seat_names=lambda state: [s.name for s in state.seats],
    board_events=frozenset({"bought", "used"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
