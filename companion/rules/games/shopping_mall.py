"""The shopping-mall game (rule book 002: TOKYO JUTAKU's cards laid out as a mall; id
``shopping_mall``).

Each shopper pushes an empty crate through the aisles of a mall of TOKYO JUTAKU cards. A turn is a
walk of 1 to 3 steps along the lines between the points of the plan (a turn back allowed, never
ending where one began), then one good from a card the shopper stands in front of, or a go at the
vending machine from one of its two points (its whole crate tipped into the tower: what comes out
is the shopper's, what sticks goes back into its crate). Twice in a game each shopper leaves through
the double aisles in the middle: the goods pay the market's prices (each price pile paid from
falls by 100), salmon 500 for the first to leave with salmon and 400 after, crabs and tunas (drawn
from the bag; a tuna costs 500 and 500 more for each one after) their number in hundreds, each
detergent doubles one clothing item, magazines break ties. When all but one have left twice, the
game is over; the one still inside is not paid for the crate.

The mall's plan is a picture our copy lacks: ``plan`` names an APPROXIMATE plan (mall_plan.py) that
agrees with the text; docs/rules-notes.md says what was chosen.

>>> s = setup({"names": ["A", "B"], "start_player": 0, "options": {"shelves": "sorted"}})
>>> s.phase, s.player
('move', 0)
>>> s, _ = apply(s, Move("enter", 0, {"point": "d5"}))
>>> [m.args for m in legal_moves(s, 0)][:2]
[{'card': 'r3_3', 'good': 'shirt'}, {'card': 'r3_4', 'good': 'magazine'}]
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal, Mapping

from ...drinks import DRINK_IDS
from ..choices import Choice
from ..declared import Declared, Kind, Phase
from ..engine import CHANCE, ChanceChoice, ChanceDrop, Event, IllegalMove, Move, MoveInfo, Pending
from ..options import Flag, GameOptions, WholeIn
from ..tower import Tower
from .common import arg_drinks, seat_names, set_at, sort_drinks
from .mall_plan import CLOTHING, COLOUR_PRICES, DRINKS_PER_CARD, OUTSIDE, PLANS, STACK_PRICES, good_kind
from .shopping_mall_state import (Shopper, State, best_detergent, exit_pay, lose, losses, ranking, set_shopper)
from .tower_turns import config_start_player, drawn_start_player, start_player_outcomes, to_act

NAME = "shopping_mall"
TITLE = "THE SHOPPING MALL"
PLAYERS = (2, 3, 4, 5, 6)
RULE = "002 the shopping-mall game"

STOCK, START, MOVE, SHOP, DRAW, DROP, OVER = "stock", "start", "move", "shop", "draw", "drop", "over"
PRICE_FALL = 100       # a price pile paid from falls by this much per exit
BARRELS_PER_PLAYER = 3


class Options(GameOptions):
    players: WholeIn(2, 6) = 3
    plan: Literal["approximate"] = "approximate"   # the mall's plan (mall_plan.PLANS); ours is approximate
    shelves: Literal["drawn", "sorted"] = "drawn"  # drinks drawn onto the cards one by one, or laid in catalogue order
    skill: Flag = False                            # the skill variant: a good that falls out of a crate is lost
    start_yen: WholeIn(0, 10_000) = 0              # the text gives the shoppers no money at the start
    trips: WholeIn(1, 2) = 2                       # exits per shopper (2 in the rule book; 1 for a short game)
    max_rounds: WholeIn(0, 500) = 60               # a bound so that a game always ends (0: none)


# --- the start -------------------------------------------------------------------------------

def start(opts: Options, config: Mapping[str, Any]) -> State:
    plan = PLANS[opts.plan]
    cards = {c.id: c.goods for c in plan.cards}
    lid = tuple(d for d in DRINK_IDS if not d.startswith("black-"))
    if opts.shelves == "sorted":
        for k, card in enumerate(plan.drink_cards):
            cards[card] = lid[k * DRINKS_PER_CARD:(k + 1) * DRINKS_PER_CARD]
        lid = ()
    prices = {**COLOUR_PRICES, **STACK_PRICES}
    state = State(opts, plan, tuple(Shopper(n, yen=opts.start_yen) for n in seat_names(config, opts.players)),
                  STOCK, cards, prices, plan.bag, lid=lid,
                  machine=tuple(d for d in DRINK_IDS if d.startswith("black-")),
                  barrels=BARRELS_PER_PLAYER * opts.players)
    state = replace(state, bank=state.bank - sum(prices.values()) - opts.start_yen * opts.players)
    first = config_start_player(config, opts.players)
    if lid:
        return replace(state, start_player=first if first is not None else -1)
    return _started(state, first)


def _started(state: State, first: int | None) -> State:
    if first is None or first < 0:
        return replace(state, phase=START)
    return replace(state, phase=MOVE, start_player=first, player=first)


def _next_shelf(state: State) -> str:
    return next(c for c in state.plan.drink_cards if len(state.cards[c]) < DRINKS_PER_CARD)


def _stock_outcomes(state: State) -> ChanceChoice:
    moves = [Move("stock", CHANCE, {"drink": d}) for d in state.lid]
    return ChanceChoice(tuple((m, 1 / len(moves)) for m in moves))


def _stock(state: State, move: Move) -> tuple[State, list[Event]]:
    d = move.args.get("drink")
    if d not in state.lid:
        raise IllegalMove(f"{d!r} is not among the drinks still to be laid; enter a drink that is not black "
                          f"and not on a card yet", move)
    card = _next_shelf(state)
    state = replace(state, lid=tuple(x for x in state.lid if x != d),
                    cards={**state.cards, card: state.cards[card] + (d,)})
    events = [Event("stocked", {"drink": d, "card": card})]
    if not state.lid:
        state = _started(state, state.start_player)
    return state, events


def _start_player(state: State, move: Move) -> tuple[State, list[Event]]:
    p = drawn_start_player(state, move)
    return replace(state, phase=MOVE, start_player=p, player=p), [Event("start_player", {"seat": p})]


# --- who acts ---------------------------------------------------------------------------------

def _shopper(state: State) -> list[Pending]:
    return [Pending(state.player)]


def _waiting_move(state: State) -> str:
    return f"{state.shopper.name} to walk 1 to 3 steps (or enter, or leave)"


def _waiting_shop(state: State) -> str:
    return f"{state.shopper.name} to take a good, use the vending machine, or pass"


# --- walking ----------------------------------------------------------------------------------

def _can_leave(state: State) -> bool:
    s = state.shopper
    return s.at != OUTSIDE and state.plan.steps_out(s.at) <= 3


def _walks(state: State, seat: int) -> list[Move]:
    s = state.seats[seat]
    kind = "enter" if s.at == OUTSIDE else "move"
    return [Move(kind, seat, {"point": p}) for p in sorted(state.plan.reach(s.at))]


def _entering(state: State, seat: int) -> list[Move]:
    return _walks(state, seat) if state.seats[seat].at == OUTSIDE else []


def _moving(state: State, seat: int) -> list[Move]:
    return _walks(state, seat) if state.seats[seat].at != OUTSIDE else []


def _walk(state: State, move: Move) -> tuple[State, list[Event]]:
    s = state.shopper
    inside = s.at != OUTSIDE
    if move.kind == "move" and not inside:
        raise IllegalMove("you are outside the mall: enter through the double aisles in the middle", move)
    if move.kind == "enter" and inside:
        raise IllegalMove("you are in the mall already: move", move)
    reach = sorted(state.plan.reach(s.at))
    to = move.args.get("point")
    if to not in reach:
        raise IllegalMove(f"walk 1 to 3 steps along the lines, not ending where you began: {', '.join(reach)}; "
                          f"not {to!r}", move)
    state = replace(state, seats=set_at(state.seats, state.player, at=to), phase=SHOP)
    return state, [Event("entered" if move.kind == "enter" else "walked", {"seat": state.player, "point": to})]


# --- shopping ---------------------------------------------------------------------------------

def _offers(state: State) -> list[tuple[str, str]]:
    """(card, good) the shopper may take now: a drink by its id, other goods by their kind; crabs
    and tunas from the bag (the ones shown on the cards when the bag has none left)."""
    s, offers = state.shopper, []
    for card in state.plan.faces.get(s.at, ()):
        kinds: list[str] = []
        for g in state.cards[card]:
            kind = good_kind(g)
            name = g if kind == "drink" else kind
            if name not in kinds:
                kinds.append(name)
        for name in kinds:
            if name == "tuna" and state.tuna_price > s.yen:
                continue
            offers.append((card, name))
    return offers


def _takes(state: State, seat: int) -> list[Move]:
    return [Move("take", seat, {"card": c, "good": g}) for c, g in _offers(state)]


def _take(state: State, move: Move) -> tuple[State, list[Event]]:
    card, good = move.args.get("card"), move.args.get("good")
    if (card, good) not in _offers(state):
        offered = "; ".join(f"{g} from {c}" for c, g in _offers(state)) or "nothing: use the vending machine or pass"
        raise IllegalMove(f"take one good from a card you stand in front of ({offered}), not {good!r} from {card!r}",
                          move)
    p, s = state.player, state.shopper
    cost = state.tuna_price if good == "tuna" else 0
    if cost:
        state = replace(state, bank=state.bank + cost, seats=set_at(state.seats, p, yen=s.yen - cost, tunas=s.tunas + 1))
    if good in ("crab", "tuna") and state.in_bag(good):
        events = [Event("bought_tuna", {"seat": p, "price": cost})] if cost else []
        return replace(state, phase=DRAW, drawing=good), events + [Event("drawing", {"seat": p, "good": good})]
    taken = next(g for g in state.cards[card] if g == good or good_kind(g) == good)
    state = replace(state, cards={**state.cards, card: tuple(g for g in state.cards[card] if g != taken)},
                    seats=set_at(state.seats, p, crate=state.seats[p].crate + (taken,)))
    events = [Event("took", {"seat": p, "card": card, "good": good, "item": taken, "price": cost})]
    return _next_turn(state, events)


def _draw_outcomes(state: State) -> ChanceChoice:
    goods = state.in_bag(state.drawing)
    faces = sorted({state.plan.values[g] // 100 for g in goods})
    moves = [Move("draw", CHANCE, {"value": v}) for v in faces]
    return ChanceChoice(tuple((m, sum(state.plan.values[g] == 100 * m.args["value"] for g in goods) / len(goods))
                              for m in moves))


def _draw(state: State, move: Move) -> tuple[State, list[Event]]:
    goods = state.in_bag(state.drawing)
    value = move.args.get("value")
    drawn = next((g for g in goods if state.plan.values[g] == 100 * value), None) if isinstance(value, int) else None
    if drawn is None:
        faces = sorted({state.plan.values[g] // 100 for g in goods})
        raise IllegalMove(f"the bag holds {state.drawing} numbered {', '.join(map(str, faces))}; not {value!r}", move)
    p = state.player
    state = replace(state, bag=tuple(g for g in state.bag if g != drawn), drawing=None,
                    seats=set_at(state.seats, p, crate=state.seats[p].crate + (drawn,)))
    return _next_turn(state, [Event("drew", {"seat": p, "good": good_kind(drawn), "item": drawn, "value": value})])


def _vends(state: State, seat: int) -> list[Move]:
    return [Move("use_machine", seat, {})] if state.shopper.at in state.plan.vending and state.machine else []


def _vend(state: State, move: Move) -> tuple[State, list[Event]]:
    if not _vends(state, state.player):
        raise IllegalMove("stand on one of the vending machine's two points, with drinks in its crate, to use it", move)
    thrown = tuple(sort_drinks(state.machine))
    state = replace(state, machine=(), thrown=thrown, phase=DROP)
    return state, [Event("machine_tipped", {"seat": state.player, "thrown": list(thrown)})]


def _drop_awaited(state: State) -> ChanceDrop:
    return ChanceDrop("drop", state.thrown, ())


def _dropped(state: State, move: Move) -> tuple[State, list[Event]]:
    """What came out is the shopper's; what stuck is taken out and goes back into the machine's crate."""
    out = arg_drinks(move, "out")
    _, drop = Tower().drop(state.thrown, out)
    p = state.player
    state = replace(state, thrown=(), machine=tuple(sort_drinks(drop.stuck)),
                    seats=set_at(state.seats, p, crate=state.seats[p].crate + tuple(sort_drinks(out))))
    return _next_turn(state, [Event("drop", {**drop.to_json(), "seat": p})])


def _pass(state: State, move: Move) -> tuple[State, list[Event]]:
    return _next_turn(state, [Event("passed", {"seat": state.player})])


# --- leaving ----------------------------------------------------------------------------------

def _leaves(state: State, seat: int) -> list[Move]:
    if not _can_leave(state):
        return []
    return [Move("leave", seat, {"detergent": list(best_detergent(state.shopper.crate, state.prices))})]


def _detergent_arg(state: State, move: Move) -> tuple[str, ...]:
    crate = state.shopper.crate
    chosen = move.args.get("detergent", [])
    bottles = sum(1 for g in crate if good_kind(g) == "detergent")
    clothes = [g for g in crate if good_kind(g) in CLOTHING]
    if (not isinstance(chosen, (list, tuple)) or len(set(map(str, chosen))) != len(chosen)
            or not set(chosen) <= set(clothes) or len(chosen) > bottles):
        raise IllegalMove(f"'detergent' names up to {bottles} clothing items of your crate, each once "
                          f"({', '.join(clothes) or 'none'}), not {chosen!r}", move)
    return tuple(chosen)


def _leave(state: State, move: Move) -> tuple[State, list[Event]]:
    if not _can_leave(state):
        raise IllegalMove("leave through the double aisles in the middle: walk to within 3 steps of outside first", move)
    detergent = _detergent_arg(state, move)
    p, s = state.player, state.shopper
    total, piles, lines = exit_pay(s.crate, state.prices, state.salmon_price, state.plan.values, detergent)
    fall = {k: min(PRICE_FALL, state.prices[k]) for k in piles}
    prices = {k: v - fall.get(k, 0) for k, v in state.prices.items()}
    drinks = tuple(g for g in s.crate if good_kind(g) == "drink")   # paid-out drinks go to the machine's crate
    barrel = 1 if state.barrels else 0
    state = set_shopper(state, p, at=OUTSIDE, crate=(), yen=s.yen + total, barrels=s.barrels + 1,
                        pile=s.pile + tuple(g for g in s.crate if g not in drinks))
    state = replace(state, prices=prices,
                    bank=state.bank - total + sum(fall.values()), barrels=state.barrels - barrel,
                    machine=tuple(sort_drinks(state.machine + drinks)),
                    salmon_sold=state.salmon_sold or any(good_kind(g) == "salmon" for g in s.crate))
    events = [Event("left", {"seat": p, "paid": total, "lines": lines, "fell": sorted(fall), "trip": s.barrels + 1})]
    if sum(state.done(q) for q in range(state.n)) >= state.n - 1:
        return _end(state, events)
    return _next_turn(state, events)


# --- the skill variant, turns and the end ----------------------------------------------------------

def _next_turn(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """The next shopper clockwise who has not left for good; a round ends at the start player."""
    n, start, p, rnd = state.n, state.start_player, state.player, state.round
    for k in range(1, n + 1):
        q = (p + k) % n
        rnd += q == start      # passing the start player's seat begins a new round
        if not state.done(q):
            break
    state = replace(state, player=q, phase=MOVE, round=rnd)
    if state.options.max_rounds and state.round > state.options.max_rounds:
        return _end(state, events)
    return state, events


def _end(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Over at once: the shopper still inside is not paid for the crate."""
    state = replace(state, phase=OVER)
    state = replace(state, winners=ranking(state))
    return state, events + [Event("game_over", {"winners": list(state.winners), "yen": [s.yen for s in state.seats]})]


# --- what a move costs and pays ------------------------------------------------------------------

def _take_info(state: State, move: Move) -> MoveInfo:
    if move.args.get("good") != "tuna":
        return MoveInfo()
    price = state.tuna_price
    best = max((state.plan.values[g] for g in state.in_bag("tuna")), default=0)
    return MoveInfo(cost=price, pays_up_to=best, why="why.shopping_mall.tuna", params={"price": price})


def _leave_info(state: State, move: Move) -> MoveInfo:
    try:
        detergent = _detergent_arg(state, move)
    except IllegalMove:
        detergent = ()
    total = exit_pay(state.shopper.crate, state.prices, state.salmon_price, state.plan.values, detergent)[0]
    return MoveInfo(pays_up_to=total, why="why.shopping_mall.exit", params={"pays_yen": total})


# --- views ------------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    plan = state.plan
    shopping = state.phase in (MOVE, SHOP)
    players = [{"seat": p, "name": s.name, "yen": s.yen, "standing": s.at, "crate": list(s.crate), "pile": list(s.pile),
                "barrels": s.barrels, "magazines": s.magazines(), "done": state.done(p),
                "turn": shopping and p == state.player} for p, s in enumerate(state.seats)]
    return {
        "game": NAME, "phase": state.phase, "round": state.round, "players": players,
        "to_act": to_act(GAME.pending(state)),
        "plan": {"name": plan.name, "approximate": plan.approximate,
                 "cards": [{"id": c.id, "row": c.row, "x2": c.x2, "goods": list(state.cards[c.id])} for c in plan.cards],
                 "points": [{"id": p.id, "aisle": p.aisle, "x2": p.x2} for p in plan.points],
                 "lines": [list(line) for line in plan.lines if OUTSIDE not in line],
                 "exits": list(plan.exits), "vending": list(plan.vending)},
        "reachable": sorted(plan.reach(state.shopper.at)) if state.phase == MOVE else [],
        "prices": dict(state.prices), "salmon": state.salmon_price, "tuna_price": state.tuna_price,
        "machine": list(state.machine), "thrown": list(state.thrown),
        "in_bag": {"crab": len(state.in_bag("crab")), "tuna": len(state.in_bag("tuna"))},
        "drawing": state.drawing, "barrels": state.barrels, "lost": list(state.box), "to_lay": len(state.lid),
        "winners": list(state.winners), "over": state.phase == OVER,
        "final": {"yen": [s.yen for s in state.seats]} if state.phase == OVER else None,
    }


def payouts(state: State) -> dict:
    return {"yen": [s.yen for s in state.seats], "final": state.phase == OVER, "winners": list(state.winners),
            "magazines": [s.magazines() for s in state.seats]}


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(STOCK, "the next drink drawn onto the drink cards", outcomes=_stock_outcomes,
              ends="when each card of the second row holds 5 drinks"),
        Phase(START, "the start player to be drawn", outcomes=start_player_outcomes, ends="when it is drawn"),
        Phase(MOVE, _waiting_move, acting=_shopper, ends="with the walk (then shopping) or the exit (the next shopper)"),
        Phase(SHOP, _waiting_shop, acting=_shopper, ends="with a good taken, the machine used, or a pass"),
        Phase(DRAW, "the crab or tuna drawn from the bag", outcomes=_draw_outcomes, ends="with the draw"),
        Phase(DROP, "the drinks that came out of the vending machine", outcomes=_drop_awaited,
              ends="with the drop: the next shopper"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("stock", _stock, f"{RULE}: VORBEREITUNG 2", phases=(STOCK,), chance=True),
        Kind("start_player", _start_player, f"{RULE}: SPIELABLAUF", phases=(START,), chance=True),
        Kind("leave", _leave, f"{RULE}: SPIELABLAUF (leaving the mall)", phases=(MOVE,), listed=_leaves,
             info=_leave_info),
        Kind("enter", _walk, f"{RULE}: SPIELABLAUF (entering again)", phases=(MOVE,), listed=_entering),
        Kind("move", _walk, f"{RULE}: SPIELABLAUF (1-3 steps)", phases=(MOVE,), listed=_moving),
        Kind("take", _take, f"{RULE}: SPIELABLAUF; KRABBEN, THUNFISCH, LACHS", phases=(SHOP,), listed=_takes,
             info=_take_info),
        Kind("use_machine", _vend, f"{RULE}: VERKAUFSAUTOMAT", phases=(SHOP,), listed=_vends),
        Kind("pass", _pass, f"{RULE}: SPIELABLAUF (a good may be taken)", phases=(SHOP,),
             listed=lambda state, seat: [Move("pass", seat, {})]),
        Kind("draw", _draw, f"{RULE}: KRABBEN, THUNFISCH", phases=(DRAW,), chance=True),
        Kind("drop", _dropped, f"{RULE}: VERKAUFSAUTOMAT", phases=(DROP,), chance=True),
        Kind("lose", lose, f"{RULE}: SPIELABLAUF (the skill variant)", listed=losses, anytime=True),
    ),
    view_of=view, payouts_of=payouts, seat_names=lambda state: [s.name for s in state.seats],
    choices=(Choice("skill"), Choice("shelves")),   # the lobby: the skill variant; drinks drawn or laid in order
    board_events=frozenset({"stocked", "entered", "walked", "took", "drew", "left", "lost"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
