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

import random
from dataclasses import replace
from typing import Any, Callable, Mapping

from ...drinks import CARD_IDS, COLOUR_CARDS, SHAPE_CARDS, Card, drink_of
from ..declared import Declared, Kind, Phase
from ..engine import CHANCE, ChanceDrop, ChanceSpec, Event, IllegalMove, Move, MoveInfo, Pending, uniform
from .common import arg_text, seat_names, set_at, sort_drinks, spill_to_rethrow
from .pocari_bet_state import (DECLARE, DRAFT, DRAW, DROP, INVEST, OVER, SECRET, START, TURN_UP, Options, Seat,
                               State, matching, payouts, score_round, thrown)
from .tower_turns import config_start_player, drawn_start_player, start_player_outcomes, to_act

NAME = "pocari_bet"
TITLE = "POCARI BET"
PLAYERS = (3,)
RULE = "002 POCARI BET"


def start(opts: Options, config: Mapping[str, Any]) -> State:
    seats = tuple(Seat(n, opts.start_yen) for n in seat_names(config, opts.players))
    state = State(opts, seats, bank=0)
    first = config_start_player(config, len(seats))
    if first is not None:  # the table chose the start player already
        state, _ = _begin(state, first)
    return state


# --- who acts, and what they may do -------------------------------------------------------

def _drawer(state: State) -> int:
    return state.order[sum(s.secret is not None for s in state.seats)]


def _draft_order(state: State) -> list[int]:
    """Who picks, pick by pick: a snake (the turn order, then back again), two picks each."""
    snake = state.order + state.order[::-1]
    return [snake[k % len(snake)] for k in range(2 * len(state.seats))]


def _picker(state: State) -> int:
    order = _draft_order(state)
    return order[state.picks % len(order)]


def _investor(state: State) -> int:
    return next(p for p in state.order if _must_invest(state, p))


def _declarer(state: State) -> int:
    return next(p for p in state.order if state.seats[p].stake and state.seats[p].declared is None)


def _turn_of(seat: Callable[[State], int]) -> Callable[[State], list[Pending]]:
    return lambda state: [Pending(seat(state))]


def _card_for_drawer(state: State) -> list[Pending]:
    return [Pending(CHANCE, secret_for=_drawer(state))]


def _must_invest(state: State, p: int) -> bool:
    seat = state.seats[p]
    return seat.stake == 0 and seat.yen >= state.options.min_stake


def _open_decks(state: State) -> list[str]:
    return [d for d, cards in (("colour", state.colour_deck), ("shape", state.shape_deck)) if cards]


def _draws(state: State, seat: int) -> list[Move]:
    return [Move("draw", seat, {"deck": d}) for d in _open_decks(state)]


def _picks(state: State, seat: int) -> list[Move]:
    return [Move("pick", seat, {"drink": d}) for d in sort_drinks(state.supply)]


def _stakes(state: State, seat: int) -> list[int]:
    o = state.options
    return list(range(o.min_stake, min(o.max_stake, state.seats[seat].yen) + 1, o.stake_step))


def _investments(state: State, seat: int) -> list[Move]:
    return [Move("invest", seat, {"amount": a}) for a in _stakes(state, seat)]


def _declarations(state: State, seat: int) -> list[Move]:
    return [Move("declare", seat, {"kind": k}) for k in CARD_IDS]


# --- what chance may bring ------------------------------------------------------------------

def _secret_cards(state: State) -> ChanceSpec:
    deck = state.colour_deck if state.drawing_from == "colour" else state.shape_deck
    return uniform(Move("secret_card", CHANCE, {"card": c}) for c in sorted(deck))


def _turned_up(state: State) -> ChanceSpec:
    possible = uniform(Move("turn_up", CHANCE, {"colour": c, "shape": s})
                       for c in sorted(state.colour_deck) for s in sorted(state.shape_deck))
    # The table is offered every pair: the cards left would tell which ones were drawn.
    every_pair = tuple(Move("turn_up", CHANCE, {"colour": c.id, "shape": s.id})
                       for c in COLOUR_CARDS for s in SHAPE_CARDS)
    return replace(possible, offer=every_pair)


def _throw(state: State) -> ChanceSpec:
    return ChanceDrop("drop", thrown(state), tuple(sorted(state.tower.inside)))


# --- applying moves -----------------------------------------------------------------------

def _drinks_arg(move: Move) -> tuple[str, ...]:
    out = move.args.get("out")
    if not isinstance(out, (list, tuple)) or not all(isinstance(d, str) for d in out):
        raise IllegalMove("'out' must be the list of drink ids that came out", move)
    return tuple(out)


def _begin(state: State, seat: int) -> tuple[State, list[Event]]:
    return replace(state, phase=DRAW, start_player=seat), [Event("start_player", {"seat": seat})]


def _start_player(state: State, move: Move) -> tuple[State, list[Event]]:
    return _begin(state, drawn_start_player(state, move))


def _draw(state: State, move: Move) -> tuple[State, list[Event]]:
    deck = move.args.get("deck")
    if deck not in _open_decks(state):
        raise IllegalMove("draw from the 'colour' or the 'shape' deck (one that still has cards)")
    return (replace(state, phase=SECRET, drawing_from=deck),
            [Event("drew", {"seat": move.player, "deck": deck})])


def _secret_card(state: State, move: Move) -> tuple[State, list[Event]]:
    card = arg_text(move, "card")
    deck_name = state.drawing_from
    deck = state.colour_deck if deck_name == "colour" else state.shape_deck
    if card not in deck:
        raise IllegalMove(f"{card!r} is not a card that can be drawn from the {deck_name} deck now; "
                          f"still in it: {', '.join(sorted(deck))}", move)
    p = _drawer(state)
    seats = set_at(state.seats, p, secret=card)
    decks = ({"colour_deck": deck - {card}} if deck_name == "colour" else {"shape_deck": deck - {card}})
    everyone_drew = all(s.secret for s in seats)
    state = replace(state, seats=seats, drawing_from=None, phase=TURN_UP if everyone_drew else DRAW, **decks)
    return state, [Event("secret_card", {"seat": p, "secret": True})]


def _turn_up(state: State, move: Move) -> tuple[State, list[Event]]:
    colour, shape = arg_text(move, "colour"), arg_text(move, "shape")
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
    p, drink = move.player, move.args.get("drink")
    if not isinstance(drink, str) or drink not in state.supply:
        raise IllegalMove(f"{drink!r} is not a drink left to pick")
    seats = set_at(state.seats, p, hand=state.seats[p].hand + (drink,))
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
    p, amount = move.player, move.args.get("amount")
    if isinstance(amount, bool) or amount not in _stakes(state, p):  # 200.0 from JSON is 200
        o = state.options
        raise IllegalMove(f"invest {o.min_stake} to {o.max_stake} yen in steps of {o.stake_step}, "
                          f"and no more than you have ({state.seats[p].yen})")
    amount = int(amount)
    seats = set_at(state.seats, p, yen=state.seats[p].yen - amount, stake=amount)
    state = replace(state, seats=seats)
    if not any(_must_invest(state, q) for q in state.order):
        state = replace(state, phase=DECLARE)
    return state, [Event("invested", {"seat": p, "amount": amount})]


def _declare(state: State, move: Move) -> tuple[State, list[Event]]:
    p, kind = move.player, move.args.get("kind")
    if kind not in CARD_IDS:
        raise IllegalMove(f"declare one colour or one shape: {', '.join(CARD_IDS)}")
    state = replace(state, seats=set_at(state.seats, p, declared=kind))
    if all(s.declared or not s.stake for s in state.seats):
        state = replace(state, phase=DROP)
    return state, [Event("declared", {"seat": p, "kind": kind})]


def _drop(state: State, move: Move) -> tuple[State, list[Event]]:
    tower, drop = state.tower.drop(thrown(state), _drinks_arg(move))
    result = score_round(state, drop.out)
    events = [Event("drop", drop.to_json()), Event("round_scored", result)]
    seats = tuple(replace(s, yen=s.yen + result["paid"][i]) for i, s in enumerate(state.seats))
    bank = state.bank - sum(result["paid"]) + sum(s.stake for s in state.seats)
    state = replace(state, seats=seats, bank=bank, tower=tower, supply=state.supply | set(drop.out),
                    rethrow=frozenset(), last_round={**result, "drop": drop.to_json(), "round": state.round})
    state, end_events = _end_round(state)
    return state, events + end_events


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
        "to_act": to_act(GAME.pending(state)),
        "decks": {"colour": len(state.colour_deck), "shape": len(state.shape_deck)},
        "drawing_from": state.drawing_from,
        "face_up": list(state.face_up), "seventh": state.seventh,
        "seventh_set_aside": state.seventh_set_aside,
        "supply": sort_drinks(state.supply),
        # The snake draft, said in words on the dashboard: who picks, pick by pick, and how far it is.
        "draft": {"order": _draft_order(state), "picks": state.picks} if state.phase == DRAFT else None,
        "tower": {"stuck": sort_drinks(state.tower.inside)},
        "rethrow": sorted(state.rethrow),
        "thrown": list(thrown(state)) if state.phase == DROP else [],
        "last_round": dict(state.last_round) if state.last_round else None,
        "winners": list(state.winners), "over": state.phase == OVER,
        "options": {"win_at": state.options.win_at, "bonus": state.options.bonus},
    }


def _invest_info(state: State, move: Move) -> MoveInfo:
    """A stake comes back with as much again per matching drink that comes out: at best every
    drink in play of the colour or shape with the most. The secret-card bonus is left out: the
    table and the other seats must not learn whether it would apply (``_invest_owner_info``)."""
    a, most = move.args["amount"], _most_matching(state)
    return MoveInfo(cost=a, pays_up_to=a * (1 + most) if most else 0,
                    why="why.pocari_bet.invest", params={"stake": a, "n": most})


def _invest_owner_info(state: State, move: Move) -> MoveInfo:
    """The same on the investor's own phone, with the bonus their secret card would add when
    declared (where that beats the colour or shape with the most drinks in play)."""
    info, secret = _invest_info(state, move), state.seats[move.player].secret
    n = matching(state, secret) if secret else 0
    if not n:
        return info
    a, bonus = move.args["amount"], state.options.bonus
    return MoveInfo(cost=a, pays_up_to=max(info.pays_up_to, a * (1 + n) + bonus), why="why.pocari_bet.investSecret",
                    params={"stake": a, "n": _most_matching(state), "bonus": bonus, "card": secret, "matches": n})


def _most_matching(state: State) -> int:
    return max((matching(state, k) for k in CARD_IDS), default=0)


def _declare_info(state: State, move: Move) -> MoveInfo:
    stake, card = state.seats[move.player].stake, move.args["kind"]
    n = matching(state, card)
    return MoveInfo(cost=0, pays_up_to=stake * (1 + n) if n else 0,
                    why="why.pocari_bet.declare", params={"stake": stake, "n": n, "card": card})


def _declare_owner_info(state: State, move: Move) -> MoveInfo:
    """On the declarer's own phone: declaring their secret card adds the bonus when it pays."""
    info, secret = _declare_info(state, move), state.seats[move.player].secret
    if move.args["kind"] != secret or not info.pays_up_to:
        return info
    bonus = state.options.bonus
    return MoveInfo(cost=0, pays_up_to=info.pays_up_to + bonus, why="why.pocari_bet.declareSecret",
                    params={**info.params, "bonus": bonus})


# --- estimates ------------------------------------------------------------------------------

def redraw(state: State, viewer: int | None, rng: random.Random) -> State:
    """The secret cards ``viewer`` has not seen, drawn again: which deck each player drew from is
    public, so each other player's card is drawn from the cards of that deck out of the viewer's
    sight (the deck's face-down cards and the others' cards from it); the rest stay the deck."""
    seats, decks = list(state.seats), {}
    for kind, deck in (("colour", state.colour_deck), ("shape", state.shape_deck)):
        hidden = [p for p, s in enumerate(seats) if p != viewer and s.secret and Card.parse(s.secret).kind == kind]
        unseen = sorted(deck | {seats[p].secret for p in hidden})
        rng.shuffle(unseen)
        for p in hidden:
            seats[p] = replace(seats[p], secret=unseen.pop())
        decks[f"{kind}_deck"] = frozenset(unseen)
    return replace(state, seats=tuple(seats), **decks)


def _rounds_left(state: State) -> int:
    """The work of a playout, in seat-rounds (the session's estimate budget)."""
    return state.n * max(1, state.options.rounds - state.round + 1)


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(START, "the start player to be chosen", outcomes=start_player_outcomes,
              ends="when the crate is handed out"),
        Phase(DRAW, "a player to draw a card", acting=_turn_of(_drawer), ends="when the drawer chose a deck"),
        Phase(SECRET, "the drawn card to be entered on that player's phone", acting=_card_for_drawer,
              outcomes=_secret_cards, ends="with the card: the next player draws, or the pair is turned up"),
        Phase(TURN_UP, "a colour and a shape card to be turned up", outcomes=_turned_up,
              ends="when the 7th drink is set aside"),
        Phase(DRAFT, "a draft pick", acting=_turn_of(_picker), ends="when everyone holds two drinks"),
        Phase(INVEST, "an investment", acting=_turn_of(_investor), ends="when everyone who can has staked"),
        Phase(DECLARE, "a declared colour or shape", acting=_turn_of(_declarer),
              ends="when every stake names a colour or a shape"),
        Phase(DROP, "the drinks that came out of the tower", outcomes=_throw,
              ends="with the payouts: the next round, or the end"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("start_player", _start_player, f"{RULE}: VORBEREITUNG", phases=(START,), chance=True),
        Kind("draw", _draw, f"{RULE}: SPIELABLAUF 1", phases=(DRAW,), listed=_draws),
        Kind("secret_card", _secret_card, f"{RULE}: SPIELABLAUF 1", phases=(SECRET,), chance=True),
        Kind("turn_up", _turn_up, f"{RULE}: SPIELABLAUF 2", phases=(TURN_UP,), chance=True),
        Kind("pick", _pick, f"{RULE}: SPIELABLAUF 3", phases=(DRAFT,), listed=_picks),
        Kind("invest", _invest, f"{RULE}: SPIELABLAUF 4", phases=(INVEST,), listed=_investments, info=_invest_info,
             owner_info=_invest_owner_info),
        Kind("declare", _declare, f"{RULE}: SPIELABLAUF 5", phases=(DECLARE,), listed=_declarations,
             info=_declare_info, owner_info=_declare_owner_info),
        Kind("drop", _drop, f"{RULE}: SPIELABLAUF 6-8", phases=(DROP,), chance=True),
        Kind("spill", spill_to_rethrow, f"{RULE}: SPIELENDE", chance=True, anytime=True),
    ),
    view_of=view, payouts_of=payouts, seat_names=lambda state: [s.name for s in state.seats],
    redraw=redraw, playout_cost=_rounds_left,
    # what a person copies onto the real table (drinks into the tower or a crate; cards taken)
    board_events=frozenset({"picked", "drew"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
