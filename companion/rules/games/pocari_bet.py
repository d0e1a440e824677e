"""POCARI BET (rule book 002, "Alias: POCARI BET"): a quick betting game for three.

Each round: everyone draws a secret stock card; a colour and a shape card are
turned up and the drink matching both is set aside as the 7th drink; a snake
draft hands out six drinks; everyone stakes 100-300 yen on a colour or a shape;
the start player throws all seven into the tower; the drinks that come out pay.
Nine rounds, or an instant win at 10,000 yen. See docs/rules-notes.md for the
choices where the rule book is silent.

>>> s = setup({"start_player": 0})
>>> [m.args["deck"] for m in legal_moves(s, 0)]
['colour', 'shape']
>>> s, _ = apply(s, Move("draw", 0, {"deck": "colour"}))
>>> pending(s)
[Pending(actor='chance', secret_for=0)]
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from ...drinks import ALL_DRINKS, CARD_IDS, COLOUR_CARDS, SHAPE_CARDS, Card, Drink, drink_of
from ..engine import (CHANCE, Actor, ChanceDrop, ChanceSpec, Event, IllegalMove, Move, MoveInfo,
                      Pending, uniform)
from ..tower import Tower
from .common import option_value, sort_drinks

NAME = "pocari_bet"
PLAYERS = (3,)

# Phases, in the order a round runs through them (declared here, not scattered).
START, DRAW, SECRET, TURN_UP, DRAFT, INVEST, DECLARE, DROP, OVER = (
    "start", "draw", "secret", "turn_up", "draft", "invest", "declare", "drop", "over")
PHASES = (START, DRAW, SECRET, TURN_UP, DRAFT, INVEST, DECLARE, DROP, OVER)


@dataclass(frozen=True)
class Options:
    """The numbers of the rule book, and named choices where it is silent."""

    players: int = 3
    start_yen: int = 1000
    rounds: int = 9
    win_at: int = 10_000
    min_stake: int = 100
    max_stake: int = 300
    stake_step: int = 100
    bonus: int = 500
    restart_yen: int = 500
    # The 7th drink may be stuck in the tower when its cards turn up. True: it
    # still costs the start player his stake if it comes out in this round's drop.
    seventh_stuck_counts: bool = True

    # Bounds beyond common.OPTION_RANGE: stakes move in 100-yen tiles (a smaller step would list
    # thousands of stakes to choose from).
    BOUNDS = {"min_stake": (100, 10_000), "max_stake": (100, 10_000), "stake_step": (100, 10_000)}

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> "Options":
        known = set(cls.__dataclass_fields__)
        given = dict(config.get("options", {}))
        unknown = sorted(set(given) - known)
        if unknown:
            raise IllegalMove(f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        opts = cls(**{name: option_value(cls, name, value) for name, value in given.items()})
        if opts.players not in PLAYERS:
            raise IllegalMove("POCARI BET is played by exactly 3 players")
        return opts


@dataclass(frozen=True)
class Seat:
    name: str
    yen: int
    secret: str | None = None      # the stock card drawn this round
    hand: tuple[str, ...] = ()     # drinks drafted this round
    stake: int = 0                 # yen pushed forward this round
    declared: str | None = None    # the colour or shape invested in


@dataclass(frozen=True)
class State:
    options: Options
    seats: tuple[Seat, ...]
    bank: int                       # may go negative: the bank never runs dry (rules-notes)
    phase: str = START
    round: int = 1
    start_player: int = 0
    colour_deck: frozenset[str] = frozenset(c.id for c in COLOUR_CARDS)
    shape_deck: frozenset[str] = frozenset(c.id for c in SHAPE_CARDS)
    drawing_from: str | None = None           # the deck the current drawer chose
    face_up: tuple[str, ...] = ()             # the colour and shape card turned up
    seventh: str | None = None                # the drink those two cards name
    seventh_set_aside: bool = False           # False when it is stuck in the tower
    supply: frozenset[str] = frozenset(d.id for d in ALL_DRINKS)
    rethrow: frozenset[str] = frozenset()     # fell out between throws; goes in with the next throw
    tower: Tower = field(default_factory=Tower)
    picks: int = 0                            # draft picks made this round
    last_round: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()

    @property
    def order(self) -> tuple[int, ...]:
        """Seats clockwise from the start player (seat i+1 sits to the left of seat i)."""
        n = len(self.seats)
        return tuple((self.start_player + i) % n for i in range(n))


def setup(config: Mapping[str, Any]) -> State:
    opts = Options.from_config(config)
    names = list(config.get("names") or [f"Player {i + 1}" for i in range(opts.players)])
    if len(names) != opts.players:
        raise IllegalMove(f"give {opts.players} player names, not {len(names)}")
    seats = tuple(Seat(str(n), opts.start_yen) for n in names)
    state = State(opts, seats, bank=0)
    start = config.get("start_player")
    if start is not None:  # the table chose the start player already
        state, _ = _apply_start(state, _seat_arg(state, start))
    return state


# --- who acts, and what they may do -------------------------------------------------------

def pending(state: State) -> list[Pending]:
    if state.phase == OVER:
        return []
    if state.phase in (START, TURN_UP, DROP):
        return [Pending(CHANCE)]
    if state.phase == SECRET:
        return [Pending(CHANCE, secret_for=_current(state))]
    return [Pending(_current(state))]


def _current(state: State) -> int:
    """The seat whose turn it is in a phase where players take turns."""
    order = state.order
    if state.phase in (DRAW, SECRET):
        return order[sum(s.secret is not None for s in state.seats)]
    if state.phase == DRAFT:
        snake = order + order[::-1]
        return snake[state.picks % len(snake)]
    if state.phase == INVEST:
        return next(p for p in order if _must_invest(state, p))
    if state.phase == DECLARE:
        return next(p for p in order if state.seats[p].stake and state.seats[p].declared is None)
    raise AssertionError(state.phase)


def _must_invest(state: State, p: int) -> bool:
    seat = state.seats[p]
    return seat.stake == 0 and seat.yen >= state.options.min_stake


def legal_moves(state: State, actor: Actor) -> list[Move]:
    if actor == CHANCE:
        spec = chance(state)
        return [m for m, _ in spec.outcomes] if spec is not None and spec.kind == "choice" else []
    if state.phase in (START, SECRET, TURN_UP, DROP, OVER) or actor != _current(state):
        return []
    if state.phase == DRAW:
        decks = {"colour": state.colour_deck, "shape": state.shape_deck}
        return [Move("draw", actor, {"deck": d}) for d, cards in decks.items() if cards]
    if state.phase == DRAFT:
        return [Move("pick", actor, {"drink": d}) for d in _draftable(state)]
    if state.phase == INVEST:
        o = state.options
        top = min(o.max_stake, state.seats[actor].yen)
        return [Move("invest", actor, {"amount": a}) for a in range(o.min_stake, top + 1, o.stake_step)]
    if state.phase == DECLARE:
        return [Move("declare", actor, {"kind": k}) for k in CARD_IDS]
    raise AssertionError(state.phase)


def _draftable(state: State) -> list[str]:
    return sort_drinks(state.supply)


def chance(state: State) -> ChanceSpec | None:
    """The chance move the game waits for, with its outcomes (and odds where known)."""
    if state.phase == START:
        return uniform(Move("start_player", CHANCE, {"seat": p}) for p in range(len(state.seats)))
    if state.phase == SECRET:
        deck = state.colour_deck if state.drawing_from == "colour" else state.shape_deck
        return uniform(Move("secret_card", CHANCE, {"card": c}) for c in sorted(deck))
    if state.phase == TURN_UP:
        possible = uniform(Move("turn_up", CHANCE, {"colour": c, "shape": s})
                           for c in sorted(state.colour_deck) for s in sorted(state.shape_deck))
        # The table is offered every pair: the cards left would tell which ones were drawn.
        every_pair = tuple(Move("turn_up", CHANCE, {"colour": c.id, "shape": s.id})
                           for c in COLOUR_CARDS for s in SHAPE_CARDS)
        return replace(possible, offer=every_pair)
    if state.phase == DROP:
        return ChanceDrop("drop", _thrown(state), tuple(sorted(state.tower.inside)))
    return None


def _thrown(state: State) -> tuple[str, ...]:
    """All that the start player throws in: six drafted drinks, the 7th, and any re-throws."""
    drinks = [d for s in state.seats for d in s.hand]
    if state.seventh_set_aside:
        drinks.append(state.seventh)
    return tuple(drinks) + tuple(sorted(state.rethrow))


def is_over(state: State) -> bool:
    return state.phase == OVER


# --- applying moves -----------------------------------------------------------------------

def apply(state: State, move: Move) -> tuple[State, list[Event]]:
    """The new state and what happened; IllegalMove (state untouched) if not allowed now."""
    if state.phase == OVER:
        raise IllegalMove("the game is over", move)
    if move.kind == "spill" and move.player == CHANCE:  # may happen at any moment: not in legal_moves
        return _apply_spill(state, move)
    if move.player == CHANCE:
        handler = _CHANCE_HANDLERS.get((state.phase, move.kind))
        if handler is None:
            raise IllegalMove(f"no {move.kind!r} outcome is awaited now; the game waits for: {_waiting(state)}", move)
        return handler(state, move)
    legal = legal_moves(state, move.player) if isinstance(move.player, int) else []
    canonical = next((m for m in legal if m == move), None)  # e.g. 200.0 from JSON becomes 200
    if canonical is None:
        raise IllegalMove(_why_illegal(state, move), move)
    return _PLAYER_HANDLERS[move.kind](state, canonical)


def _waiting(state: State) -> str:
    return {START: "the start player to be chosen", DRAW: "a player to draw a card",
            SECRET: "the drawn card to be entered on that player's phone",
            TURN_UP: "a colour and a shape card to be turned up", DRAFT: "a draft pick",
            INVEST: "an investment", DECLARE: "a declared colour or shape",
            DROP: "the drinks that came out of the tower"}[state.phase]


def _why_illegal(state: State, move: Move) -> str:
    if not isinstance(move.player, int) or not 0 <= move.player < len(state.seats):
        return f"there is no seat {move.player!r}"
    if state.phase in (START, SECRET, TURN_UP, DROP) or move.player != _current(state):
        return f"it is not {state.seats[move.player].name}'s turn; the game waits for {_waiting(state)}"
    expected = {DRAW: "draw", DRAFT: "pick", INVEST: "invest", DECLARE: "declare"}[state.phase]
    if move.kind != expected:
        return f"now is the time to {expected}, not to {move.kind}"
    if state.phase == DRAW:
        return "draw from the 'colour' or the 'shape' deck (one that still has cards)"
    if state.phase == DRAFT:
        return f"{move.args.get('drink')!r} is not a drink left to pick"
    if state.phase == INVEST:
        o = state.options
        return (f"invest {o.min_stake} to {o.max_stake} yen in steps of {o.stake_step}, "
                f"and no more than you have ({state.seats[move.player].yen})")
    return f"declare one colour or one shape: {', '.join(CARD_IDS)}"


def _seat_arg(state: State, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < len(state.seats):
        raise IllegalMove(f"seat must be 0 to {len(state.seats) - 1}, not {value!r}")
    return value


def _set_seat(state: State, p: int, **changes: Any) -> tuple[Seat, ...]:
    return tuple(replace(s, **changes) if i == p else s for i, s in enumerate(state.seats))


def _apply_start(state: State, seat: int) -> tuple[State, list[Event]]:
    return replace(state, phase=DRAW, start_player=seat), [Event("start_player", {"seat": seat})]


def _start_player(state: State, move: Move) -> tuple[State, list[Event]]:
    return _apply_start(state, _seat_arg(state, move.args.get("seat")))


def _draw(state: State, move: Move) -> tuple[State, list[Event]]:
    deck = move.args["deck"]
    return (replace(state, phase=SECRET, drawing_from=deck),
            [Event("drew", {"seat": move.player, "deck": deck})])


def _text_arg(move: Move, name: str) -> str:
    value = move.args.get(name)
    if not isinstance(value, str):
        raise IllegalMove(f"'{name}' must be an id (text), not {value!r}", move)
    return value


def _drinks_arg(move: Move) -> tuple[str, ...]:
    out = move.args.get("out")
    if not isinstance(out, (list, tuple)) or not all(isinstance(d, str) for d in out):
        raise IllegalMove("'out' must be the list of drink ids that came out", move)
    return tuple(out)


def _secret_card(state: State, move: Move) -> tuple[State, list[Event]]:
    card = _text_arg(move, "card")
    deck_name = state.drawing_from
    deck = state.colour_deck if deck_name == "colour" else state.shape_deck
    if card not in deck:
        raise IllegalMove(f"{card!r} is not a card that can be drawn from the {deck_name} deck now; "
                          f"still in it: {', '.join(sorted(deck))}", move)
    p = _current(state)
    seats = _set_seat(state, p, secret=card)
    decks = ({"colour_deck": deck - {card}} if deck_name == "colour" else {"shape_deck": deck - {card}})
    everyone_drew = all(s.secret for s in seats)
    state = replace(state, seats=seats, drawing_from=None, phase=TURN_UP if everyone_drew else DRAW, **decks)
    return state, [Event("secret_card", {"seat": p, "secret": True})]


def _turn_up(state: State, move: Move) -> tuple[State, list[Event]]:
    colour, shape = _text_arg(move, "colour"), _text_arg(move, "shape")
    if colour not in state.colour_deck or shape not in state.shape_deck:
        # Naming the cards left would give the secret cards away.
        raise IllegalMove(f"{colour} and {shape} cannot both be turned up now: one of them is not a "
                          "card left in its deck (is it a player's secret card?); check the cards", move)
    seventh = drink_of(Card.parse(colour), Card.parse(shape)).id
    set_aside = seventh not in state.tower.inside
    state = replace(state, phase=DRAFT, face_up=(colour, shape), seventh=seventh,
                    seventh_set_aside=set_aside, supply=state.supply - {seventh},
                    rethrow=state.rethrow - {seventh},
                    colour_deck=state.colour_deck - {colour}, shape_deck=state.shape_deck - {shape})
    state = _end_draft_if_done(state)
    return state, [Event("turned_up", {"colour": colour, "shape": shape, "seventh": seventh,
                                       "set_aside": set_aside})]


def _pick(state: State, move: Move) -> tuple[State, list[Event]]:
    p, drink = move.player, move.args["drink"]
    seats = _set_seat(state, p, hand=state.seats[p].hand + (drink,))
    state = replace(state, seats=seats, supply=state.supply - {drink}, picks=state.picks + 1)
    return _end_draft_if_done(state), [Event("picked", {"seat": p, "drink": drink})]


def _end_draft_if_done(state: State) -> State:
    # Everyone ends with two drinks; an (unlikely) empty supply ends the draft early.
    if state.picks >= 2 * len(state.seats) or not state.supply:
        return _skip_to_invest(replace(state, phase=INVEST))
    return state


def _skip_to_invest(state: State) -> State:
    if any(_must_invest(state, p) for p in state.order):
        return state
    return replace(state, phase=DROP)  # nobody can afford a stake: just throw


def _invest(state: State, move: Move) -> tuple[State, list[Event]]:
    p, amount = move.player, move.args["amount"]
    seats = _set_seat(state, p, yen=state.seats[p].yen - amount, stake=amount)
    state = replace(state, seats=seats)
    if not any(_must_invest(state, q) for q in state.order):
        state = replace(state, phase=DECLARE)
    return state, [Event("invested", {"seat": p, "amount": amount})]


def _declare(state: State, move: Move) -> tuple[State, list[Event]]:
    p, kind = move.player, move.args["kind"]
    state = replace(state, seats=_set_seat(state, p, declared=kind))
    if all(s.declared or not s.stake for s in state.seats):
        state = replace(state, phase=DROP)
    return state, [Event("declared", {"seat": p, "kind": kind})]


def _drop(state: State, move: Move) -> tuple[State, list[Event]]:
    tower, drop = state.tower.drop(_thrown(state), _drinks_arg(move))
    result = score_round(state, drop.out)
    events = [Event("drop", drop.to_json()), Event("round_scored", result)]
    seats = tuple(replace(s, yen=s.yen + result["paid"][i]) for i, s in enumerate(state.seats))
    bank = state.bank - sum(result["paid"]) + sum(s.stake for s in state.seats)
    state = replace(state, seats=seats, bank=bank, tower=tower, supply=state.supply | set(drop.out),
                    rethrow=frozenset(), last_round={**result, "drop": drop.to_json(), "round": state.round})
    state, end_events = _end_round(state)
    return state, events + end_events


def score_round(state: State, out: tuple[str, ...]) -> dict:
    """What each seat is paid back from the bank for a drop (0 when the stake is lost)."""
    o = state.options
    drinks = [Drink.parse(d) for d in out]
    seventh_out = state.seventh in out and (state.seventh_set_aside or o.seventh_stuck_counts)
    paid, matches, bonus = [], [], []
    for p, seat in enumerate(state.seats):
        n = sum(d.matches(Card.parse(seat.declared)) for d in drinks) if seat.declared else 0
        forfeited = seventh_out and p == state.start_player
        pays = seat.stake > 0 and n > 0 and not forfeited
        got_bonus = pays and seat.secret == seat.declared
        paid.append(seat.stake * (1 + n) + (o.bonus if got_bonus else 0) if pays else 0)
        matches.append(n)
        bonus.append(got_bonus)
    return {"paid": paid, "matches": matches, "bonus": bonus, "seventh_out": seventh_out,
            "stakes": [s.stake for s in state.seats], "declared": [s.declared for s in state.seats],
            "secrets": [s.secret for s in state.seats], "start_player": state.start_player,
            "seventh": state.seventh}


def _end_round(state: State) -> tuple[State, list[Event]]:
    o, events = state.options, []
    rich = [p for p, s in enumerate(state.seats) if s.yen >= o.win_at]
    if rich or state.round >= o.rounds:
        contenders = rich or range(len(state.seats))
        best = max(state.seats[p].yen for p in contenders)
        winners = tuple(p for p in contenders if state.seats[p].yen == best)
        seats = tuple(replace(s, secret=None, hand=(), stake=0, declared=None) for s in state.seats)
        state = replace(state, seats=seats, phase=OVER, winners=winners, seventh=None,
                        seventh_set_aside=False, face_up=())
        return state, [Event("game_over", {"winners": list(winners), "instant": bool(rich)})]
    seats, bank = [], state.bank
    for p, s in enumerate(state.seats):
        yen = s.yen
        if yen == 0:  # broke: back in next round with the restart money
            yen, bank = o.restart_yen, bank - o.restart_yen
            events.append(Event("restarted", {"seat": p, "yen": o.restart_yen}))
        seats.append(Seat(s.name, yen))
    nxt = (state.start_player + 1) % len(seats)  # the crate passes to the left
    fresh = State(o, tuple(seats), bank, phase=DRAW, round=state.round + 1, start_player=nxt,
                  supply=state.supply, rethrow=state.rethrow, tower=state.tower, last_round=state.last_round)
    events.append(Event("round_started", {"round": fresh.round, "start_player": nxt}))
    return fresh, events


def _apply_spill(state: State, move: Move) -> tuple[State, list[Event]]:
    out = _drinks_arg(move)
    tower = state.tower.spill(out)
    # Drinks that fall out between throws go back in with the next throw.
    state = replace(state, tower=tower, rethrow=state.rethrow | set(out))
    return state, [Event("spill", {"out": list(out)})]


_CHANCE_HANDLERS = {(START, "start_player"): _start_player, (SECRET, "secret_card"): _secret_card,
                    (TURN_UP, "turn_up"): _turn_up, (DROP, "drop"): _drop}
_PLAYER_HANDLERS = {"draw": _draw, "pick": _pick, "invest": _invest, "declare": _declare}


# --- what the table and each phone see ----------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    """The state as ``viewer`` may see it (None: the shared table view, no secrets)."""
    players = []
    for p, s in enumerate(state.seats):
        players.append({
            "seat": p, "name": s.name, "yen": s.yen, "stake": s.stake, "declared": s.declared,
            "hand": list(s.hand), "has_secret": s.secret is not None,
            "secret": s.secret if viewer == p else None, "start": p == state.start_player,
        })
    return {
        "game": NAME, "phase": state.phase, "round": state.round, "rounds": state.options.rounds,
        "players": players, "bank": state.bank,
        "to_act": [{"actor": w.actor, "secret_for": w.secret_for} for w in pending(state)],
        "decks": {"colour": len(state.colour_deck), "shape": len(state.shape_deck)},
        "drawing_from": state.drawing_from,
        "face_up": list(state.face_up), "seventh": state.seventh,
        "seventh_set_aside": state.seventh_set_aside,
        "supply": sort_drinks(state.supply),
        "tower": {"stuck": sort_drinks(state.tower.inside)},
        "rethrow": sorted(state.rethrow),
        "thrown": list(_thrown(state)) if state.phase == DROP else [],
        "last_round": dict(state.last_round) if state.last_round else None,
        "winners": list(state.winners), "over": state.phase == OVER,
        "options": {"win_at": state.options.win_at, "bonus": state.options.bonus},
    }


def payouts(state: State) -> dict:
    """Money now; for the round in play each seat's best case (without the secret bonus,
    which would give the card away); the final standings once the game is over."""
    in_play = list(_thrown(state)) + sorted(state.tower.inside) if state.phase in (DECLARE, DROP) else []
    best = []
    for s in state.seats:
        n = sum(Drink.parse(d).matches(Card.parse(s.declared)) for d in in_play) if s.declared else 0
        best.append(s.yen + s.stake * (1 + n) if n else s.yen)
    return {"yen": [s.yen for s in state.seats], "stakes": [s.stake for s in state.seats],
            "best_case": best, "final": state.phase == OVER, "winners": list(state.winners)}


def move_info(state: State, move: Move) -> MoveInfo:
    if move.kind == "invest":
        most = max((_matching(state, k) for k in CARD_IDS), default=0)
        a = move.args["amount"]
        return MoveInfo(cost=a, pays_up_to=a * (1 + most) + state.options.bonus if most else 0)
    if move.kind == "declare":
        stake = state.seats[move.player].stake
        n = _matching(state, move.args["kind"])
        return MoveInfo(cost=0, pays_up_to=stake * (1 + n) if n else 0)
    return MoveInfo()


def _matching(state: State, kind: str) -> int:
    """How many drinks that could come out this round match a colour or shape."""
    card = Card.parse(kind)
    return sum(Drink.parse(d).matches(card) for d in list(_thrown(state)) + list(state.tower.inside))
