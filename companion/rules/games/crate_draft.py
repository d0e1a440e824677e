"""The crate-filling draft with secret cards (rule book 002; no title in our copy).

Each player is dealt three stock cards and drafts them in secret: keep one, pass the others to
the left, keep one of those passed in, and take the last. In turn a player stands a drink from the
middle in one of the crates of the middle row; a crate with six drinks is full and set aside, in
the order the crates fill. After the second full crate every player lays one hand card face down,
after the fourth a second one. When the fifth crate is full the game ends and the bank pays each
player: 200 for every drink matching their first laid card in the 2nd and 3rd full crates, 300 for
every drink matching the second in the 4th and 5th. The most yen wins; a tie goes to the most
drinks matching both laid cards in the first full crate.

The cards reach the service from the players' phones: the three dealt (a chance move for that
seat, one card at a time), each pick, and each card laid; everyone else sees only that it was
done, until the end shows every card.

>>> s = setup({"names": ["A", "B", "C"]})
>>> s.phase, [w.secret_for for w in pending(s)]
('deal', [0])
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from ...drinks import CARD_IDS, DRINK_IDS
from ..declared import Declared, Kind, Phase
from ..engine import CHANCE, ChanceSpec, Event, IllegalMove, Move, Pending, uniform
from ..options import GameOptions, WholeIn
from .common import arg_card, arg_drink, arg_int, count_matching, seat_names, set_at, sort_drinks, top
from .tower_turns import to_act

NAME = "crate_draft"
TITLE = "The crate-filling draft"
PLAYERS = (2, 3, 4)
RULE = "002 The crate-filling draft"

DEAL, DRAFT, PLAY, LAY, OVER = "deal", "draft", "play", "lay", "over"
DEALT = 3                     # cards dealt to each player
FULL = 6                      # drinks in a full crate
ENDS_AT = 5                   # full crates that end the game
LAY_AFTER = (2, 4)            # full crates after which a card is laid
SCORED = {0: (1, 2), 1: (3, 4)}   # laid card -> the full crates (0-based, in order filled) it scores


class Options(GameOptions):
    players: WholeIn(2, 4) = 3
    crates: WholeIn(5, 12) = 6          # crates in the middle row (the book: all of them)
    first_player: WholeIn(0, 3) = 0     # the book: who last bought a drink from a vending machine
    first_card_yen: WholeIn(0, 10_000) = 200
    second_card_yen: WholeIn(0, 10_000) = 300


@dataclass(frozen=True)
class Seat:
    name: str
    dealt: tuple[str, ...] = ()        # the three dealt (secret)
    packet: tuple[str, ...] = ()       # the cards to pick from now (secret)
    hand: tuple[str, ...] = ()         # drafted cards still in hand (secret)
    laid: tuple[str, ...] = ()         # laid face down, in order (secret until the end)
    picked: bool = False               # has picked in this draft round
    yen: int = 0                       # paid at the end


@dataclass(frozen=True)
class State:
    options: Options
    seats: tuple[Seat, ...]
    phase: str = DEAL
    player: int = 0
    draft_round: int = 0
    crates: tuple[tuple[str, ...], ...] = ()   # the middle row, by crate
    full: tuple[int, ...] = ()                 # crates in the order they filled
    winners: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def middle(self) -> tuple[str, ...]:
        used = {d for c in self.crates for d in c}
        return tuple(d for d in DRINK_IDS if d not in used)


def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, opts.players)
    if opts.first_player >= opts.players:
        raise IllegalMove(f"option first_player must be a seat from 0 to {opts.players - 1}")
    return State(opts, tuple(Seat(name) for name in names), player=opts.first_player, crates=((),) * opts.crates)


# --- who acts ---------------------------------------------------------------------------------

def _dealt_to(state: State) -> int:
    return next(p for p, s in enumerate(state.seats) if len(s.dealt) < DEALT)


def _deal_pending(state: State) -> list[Pending]:
    return [Pending(CHANCE, secret_for=_dealt_to(state))]


def _pickers(state: State) -> list[Pending]:
    return [Pending(p) for p, s in enumerate(state.seats) if not s.picked]


def _layers(state: State) -> list[Pending]:
    due = LAY_AFTER.index(len(state.full)) + 1
    return [Pending(p) for p, s in enumerate(state.seats) if len(s.laid) < due]


def _player(state: State) -> list[Pending]:
    return [Pending(state.player)]


def _waiting(state: State) -> str:
    name = state.seats[state.player].name
    return f"{name} to stand a drink in a crate"


# --- the deal: cards entered on the phones --------------------------------------------------

def _entered(state: State) -> set[str]:
    return {c for s in state.seats for c in s.dealt}


def _deals(state: State) -> ChanceSpec:
    possible = uniform(Move("card", CHANCE, {"card": c}) for c in CARD_IDS if c not in _entered(state))
    # The phone is offered every card: the ones left out would tell the others' cards.
    return replace(possible, offer=tuple(Move("card", CHANCE, {"card": c}) for c in CARD_IDS))


def _card(state: State, move: Move) -> tuple[State, list[Event]]:
    card, p = arg_card(move), _dealt_to(state)
    if card in _entered(state):
        raise IllegalMove(f"{card} cannot be dealt now; check the card you were dealt and enter it again", move)
    s = state.seats[p]
    seats = set_at(state.seats, p, dealt=s.dealt + (card,), packet=s.packet + (card,))
    state = replace(state, seats=seats)
    if all(len(x.dealt) == DEALT for x in seats):
        state = replace(state, phase=DRAFT)
    return state, [Event("card_entered", {"seat": p, "secret": True})]


# --- the draft ------------------------------------------------------------------------------

def _picks(state: State, seat: int) -> list[Move]:
    s = state.seats[seat]
    return [] if s.picked else [Move("pick", seat, {"card": c}) for c in s.packet]


def _pick(state: State, move: Move) -> tuple[State, list[Event]]:
    card, p = arg_card(move), move.player
    s = state.seats[p]
    if s.picked:
        raise IllegalMove("you have picked this round already; wait for the others", move)
    if card not in s.packet:
        cards = ", ".join(s.packet)
        raise IllegalMove(f"{card} is not in the cards you pick from; pick one of {cards}", move)
    seats = set_at(state.seats, p, hand=s.hand + (card,), packet=tuple(c for c in s.packet if c != card), picked=True)
    state = replace(state, seats=seats)
    events = [Event("card_kept", {"seat": p, "secret": True})]
    if not all(x.picked for x in seats):
        return state, events
    # everyone picked: the rest passes to the left; the last card of a packet is simply taken
    n = state.n
    passed = [seats[(p - 1) % n].packet for p in range(n)]
    seats = tuple(replace(x, packet=passed[p], picked=False) for p, x in enumerate(seats))
    events.append(Event("passed_left", {"cards": len(passed[0])}))
    if len(passed[0]) == 1:
        seats = tuple(replace(x, hand=x.hand + x.packet, packet=()) for x in seats)
        events.append(Event("draft_done", {"seat": state.player}))
        return replace(state, seats=seats, phase=PLAY, draft_round=state.draft_round + 1), events
    return replace(state, seats=seats, draft_round=state.draft_round + 1), events


# --- filling the crates ---------------------------------------------------------------------

def open_crates(state: State) -> list[int]:
    return [k for k, c in enumerate(state.crates) if k not in state.full]


def _puts(state: State, seat: int) -> list[Move]:
    return [Move("put", seat, {"drink": d, "crate": k}) for k in open_crates(state) for d in state.middle]


def _put(state: State, move: Move) -> tuple[State, list[Event]]:
    d = arg_drink(move)
    k = arg_int(move, "crate")
    if d not in state.middle:
        raise IllegalMove(f"{d} is not in the middle; stand one of the drinks still there", move)
    if k not in open_crates(state):
        crates = ", ".join(map(str, open_crates(state)))
        raise IllegalMove(f"crate {k} is not in the middle row (full crates are set aside); use one of {crates}", move)
    crates = tuple(c + (d,) if i == k else c for i, c in enumerate(state.crates))
    state = replace(state, crates=crates)
    events = [Event("put", {"seat": move.player, "drink": d, "crate": k})]
    nxt = (move.player + 1) % state.n
    if len(crates[k]) < FULL:
        return replace(state, player=nxt), events
    state = replace(state, full=state.full + (k,), player=nxt)
    events.append(Event("crate_full", {"crate": k, "order": len(state.full)}))
    if len(state.full) >= ENDS_AT:
        return _finish(state, events)
    if len(state.full) in LAY_AFTER:
        return replace(state, phase=LAY), events
    return state, events


def _lays(state: State, seat: int) -> list[Move]:
    due = LAY_AFTER.index(len(state.full)) + 1 if len(state.full) in LAY_AFTER else 0
    s = state.seats[seat]
    return [Move("lay", seat, {"card": c}) for c in s.hand] if len(s.laid) < due else []


def _lay(state: State, move: Move) -> tuple[State, list[Event]]:
    card, p = arg_card(move), move.player
    s = state.seats[p]
    if not _lays(state, p):
        raise IllegalMove("you have laid your card for now; wait for the others", move)
    if card not in s.hand:
        cards = ", ".join(s.hand)
        raise IllegalMove(f"{card} is not in your hand; lay one of {cards}", move)
    seats = set_at(state.seats, p, hand=tuple(c for c in s.hand if c != card), laid=s.laid + (card,))
    state = replace(state, seats=seats)
    events = [Event("laid", {"seat": p, "secret": True})]
    if not _layers(state):
        state = replace(state, phase=PLAY)
        events.append(Event("all_laid", {"cards": len(seats[p].laid), "seat": state.player}))
    return state, events


def earned(state: State, seat: Seat) -> tuple[int, list[int]]:
    """What a seat's laid cards earn, and per laid card the matching drinks in its crates."""
    o = state.options
    pay = (o.first_card_yen, o.second_card_yen)
    total, counts = 0, []
    for i, card in enumerate(seat.laid):
        n = sum(count_matching(state.crates[state.full[j]], card) for j in SCORED[i] if j < len(state.full))
        counts.append(n)
        total += pay[i] * n
    return total, counts


def _finish(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    seats = tuple(replace(s, yen=earned(state, s)[0]) for s in state.seats)
    first = state.crates[state.full[0]]
    best = top([s.yen for s in seats])
    winners = top({p: sum(count_matching(first, c) for c in seats[p].laid) for p in best})
    state = replace(state, seats=seats, phase=OVER, winners=winners)
    return state, events + [Event("game_over", {"winners": list(winners), "yen": [s.yen for s in seats]})]


# --- views ----------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    over = state.phase == OVER
    players = []
    for p, s in enumerate(state.seats):
        mine = viewer == p or over
        players.append({"seat": p, "name": s.name, "yen": s.yen, "cards_in_hand": len(s.hand), "laid_cards": len(s.laid),
                        "hand": list(s.hand) if mine else None, "laid": list(s.laid) if mine else None,
                        "packet": list(s.packet) if viewer == p and state.phase == DRAFT else None,
                        "turn": state.phase == PLAY and state.player == p})
    return {
        "game": NAME, "phase": state.phase, "players": players,
        "turn": state.player if state.phase == PLAY else None,
        "to_act": to_act(GAME.pending(state)),
        "crates": [{"crate": k, "drinks": sort_drinks(c), "full_order": state.full.index(k) + 1 if k in state.full else None}
                   for k, c in enumerate(state.crates)],
        "full": list(state.full), "draft_round": state.draft_round,
        "winners": list(state.winners), "over": over,
    }


def payouts(state: State) -> dict:
    return {"yen": [s.yen for s in state.seats], "final": state.phase == OVER, "winners": list(state.winners)}


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(DEAL, "the next dealt card to be entered on its player's phone", acting=_deal_pending, outcomes=_deals,
              ends="when every player's three cards are in"),
        Phase(DRAFT, "every player to pick a card on their phone", acting=_pickers,
              ends="when the last cards are taken: the crates are filled"),
        Phase(PLAY, _waiting, acting=_player, ends="when the fifth crate is full (a card is laid after the 2nd and 4th)"),
        Phase(LAY, "every player to lay a hand card face down on their phone", acting=_layers,
              ends="when everyone has laid: the crates are filled again"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("card", _card, f"{RULE}: VORBEREITUNG", phases=(DEAL,), chance=True),
        Kind("pick", _pick, f"{RULE}: VORBEREITUNG", phases=(DRAFT,), listed=_picks, secret=True,
             open_events=("passed_left", "draft_done")),
        Kind("put", _put, f"{RULE}: SPIELABLAUF", phases=(PLAY,), listed=_puts),
        Kind("lay", _lay, f"{RULE}: SPIELABLAUF", phases=(LAY,), listed=_lays, secret=True, open_events=("all_laid",)),
    ),
    # no estimates: the cards are secret and not drawn again for playouts
    view_of=view, payouts_of=payouts, seat_names=lambda state: [s.name for s in state.seats],
    # what a person does at the real table: a drink stood in a crate
    board_events=frozenset({"put", "crate_full"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
