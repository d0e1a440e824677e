"""The bottle-giving game (rule book 002; no title in our copy): give drinks that your neighbour's
secret card does not want.

A start player is drawn; drinks are handed out unevenly, the fewest to the start player (three
players 8, 10, 12; four 7 to 10; five 5 to 9; six 3 to 8), the rest stay in the box, and each
player gets the same yen (1,500, 1,000, 700 or 500). Each player holds a secret stock card. In turn
the other players each give the active player one of their drinks (two each at three players);
then the active player shows their card and pays the bank 100 for every drink given to them that
matches it (its colour or its shape), lays the card on the discard pile and draws a new one. The
game ends at once when a player has no yen left: the most yen wins, a tie goes to the fewest
drinks.

The drinks are public (they stand in front of their players); the card each player holds is
entered on their own phone as a chance move for that seat and shown to nobody until the card is
turned up.

>>> s = setup({"names": ["A", "B", "C"], "start_player": 1})
>>> s.phase, [x.yen for x in s.seats], s.counts
('hand_out', [1500, 1500, 1500], (12, 8, 10))
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from ...drinks import CARD_IDS, DRINK_IDS
from ..declared import Declared, Kind, Phase
from ..engine import CHANCE, ChanceSpec, Event, IllegalMove, Move, Pending, uniform
from ..options import GameOptions, Players, Whole, WholeIn
from .common import arg_card, arg_drink, clockwise, count_matching, seat_names, set_at, sort_drinks, top
from .tower_turns import config_start_player, drawn_start_player, start_player_outcomes, to_act

NAME = "bottle_giving"
TITLE = "The bottle-giving game"
PLAYERS = (3, 4, 5, 6)
RULE = "002 The bottle-giving game"

START, HAND_OUT, CARDS, GIVE, DRAW, OVER = "start", "hand_out", "cards", "give", "draw", "over"
# drinks handed out by seat from the start player on, and the yen each (VORBEREITUNG)
DRINKS_BY_PLAYERS = {3: (8, 10, 12), 4: (7, 8, 9, 10), 5: (5, 6, 7, 8, 9), 6: (3, 4, 5, 6, 7, 8)}
YEN_BY_PLAYERS = {3: 1500, 4: 1000, 5: 700, 6: 500}


class Options(GameOptions):
    players: Players = 3
    price: Whole = 100                 # paid to the bank per matching drink received
    gifts_at_three: WholeIn(1, 2) = 2  # drinks each player gives at three players (the book: two)
    max_turns: Whole = 120             # a bound so that a game always ends (0: none): the most yen wins then


@dataclass(frozen=True)
class Seat:
    name: str
    yen: int
    drinks: tuple[str, ...] = ()       # in front of the player, open
    card: str | None = None            # the secret stock card


@dataclass(frozen=True)
class State:
    options: Options
    seats: tuple[Seat, ...]
    start_player: int = 0
    phase: str = START
    bank: int = 0
    player: int = 0                            # whose turn it is
    given: tuple[tuple[int, str], ...] = ()    # this turn: (giver, drink)
    discard: tuple[str, ...] = ()              # turned-up cards, in order (open)
    turns: int = 0
    last: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def counts(self) -> tuple[int, ...]:
        """How many drinks each seat is handed out, by seat."""
        by_order = DRINKS_BY_PLAYERS[self.n]
        return tuple(by_order[(p - self.start_player) % self.n] for p in range(self.n))

    def box(self) -> tuple[str, ...]:
        held = {d for s in self.seats for d in s.drinks}
        return tuple(d for d in DRINK_IDS if d not in held)


def start(opts: Options, config: Mapping[str, Any]) -> State:
    n = opts.players
    if n not in DRINKS_BY_PLAYERS:
        raise IllegalMove(f"the bottle-giving game is for 3 to 6 players, not {n}")
    names = seat_names(config, n)
    state = State(opts, tuple(Seat(name, YEN_BY_PLAYERS[n]) for name in names))
    first = config_start_player(config, n)
    if first is not None:
        state, _ = _begin(state, first)
    return state


def gifts_each(state: State) -> int:
    return state.options.gifts_at_three if state.n == 3 else 1


# --- who acts ---------------------------------------------------------------------------------

def _receiver(state: State) -> int | None:
    """The seat whose next handed-out drink is entered: from the start player on, each to their count."""
    return next((p for p in clockwise(state.start_player, state.n)
                 if len(state.seats[p].drinks) < state.counts[p]), None)


def _drawer(state: State) -> int | None:
    """The seat whose card is entered next: at the start each in turn, later the active player."""
    if state.phase == DRAW:
        return state.player
    return next((p for p in clockwise(state.start_player, state.n) if state.seats[p].card is None), None)


def _card_pending(state: State) -> list[Pending]:
    return [Pending(CHANCE, secret_for=_drawer(state))]


def owes(state: State, seat: int) -> int:
    """How many drinks ``seat`` still gives the active player this turn (none without drinks)."""
    if seat == state.player:
        return 0
    gave = sum(g == seat for g, _ in state.given)
    return max(0, min(gifts_each(state) - gave, len(state.seats[seat].drinks)))


def _givers(state: State) -> list[Pending]:
    return [Pending(p) for p in clockwise(state.player, state.n) if owes(state, p)]


def _waiting_give(state: State) -> str:
    name = state.seats[state.player].name
    return f"the other players to give {name} their drinks"


# --- what chance may bring ----------------------------------------------------------------------

def _hand_outs(state: State) -> ChanceSpec:
    p = _receiver(state)
    return uniform(Move("hand_out", CHANCE, {"seat": p, "drink": d}) for d in state.box())


def _held(state: State) -> set[str]:
    return {s.card for s in state.seats if s.card}


def _deck(state: State) -> tuple[str, ...]:
    """The cards that may be drawn now: those neither held nor on the discard pile; when none is
    left, the discard pile is shuffled into a new deck (all cards not held)."""
    held = _held(state)
    deck = tuple(c for c in CARD_IDS if c not in held and c not in state.discard)
    return deck or tuple(c for c in CARD_IDS if c not in held)


def _cards(state: State) -> ChanceSpec:
    possible = uniform(Move("card", CHANCE, {"card": c}) for c in _deck(state))
    # The phone is offered every card: the ones left out would tell the others' cards.
    return replace(possible, offer=tuple(Move("card", CHANCE, {"card": c}) for c in CARD_IDS))


# --- applying moves -----------------------------------------------------------------------------

def _begin(state: State, seat: int) -> tuple[State, list[Event]]:
    return replace(state, phase=HAND_OUT, start_player=seat, player=seat), [Event("start_player", {"seat": seat})]


def _start_player(state: State, move: Move) -> tuple[State, list[Event]]:
    return _begin(state, drawn_start_player(state, move))


def _hand_out(state: State, move: Move) -> tuple[State, list[Event]]:
    d, p = arg_drink(move), _receiver(state)
    if d not in state.box():
        raise IllegalMove(f"{d} was handed out already; enter a drink still in the box", move)
    seats = set_at(state.seats, p, drinks=tuple(sort_drinks(state.seats[p].drinks + (d,))))
    state = replace(state, seats=seats)
    events = [Event("handed_out", {"seat": p, "drink": d})]
    if _receiver(state) is None:
        state = replace(state, phase=CARDS)
    return state, events


def _card(state: State, move: Move) -> tuple[State, list[Event]]:
    """A card drawn: at the start each player's in turn (then the first turn), later the active
    player's new one (then the turn passes to the left)."""
    card, p = arg_card(move), _drawer(state)
    if card not in _deck(state):
        # The same words whichever reason: naming it would tell where the card is.
        raise IllegalMove(f"{card} cannot be drawn now; check the card you drew and enter it again", move)
    reshuffled = not any(c not in _held(state) and c not in state.discard for c in CARD_IDS)
    state = replace(state, seats=set_at(state.seats, p, card=card), discard=() if reshuffled else state.discard)
    events = [Event("card_drawn", {"seat": p, "secret": True})] + ([Event("reshuffled", {})] if reshuffled else [])
    if state.phase == CARDS:
        if _drawer(state) is not None:
            return state, events
        return _next_giving(replace(state, phase=GIVE), events)
    return _next_giving(replace(state, phase=GIVE, player=(state.player + 1) % state.n), events)


def _gives(state: State, seat: int) -> list[Move]:
    return [Move("give", seat, {"drink": d}) for d in state.seats[seat].drinks] if owes(state, seat) else []


def _give(state: State, move: Move) -> tuple[State, list[Event]]:
    d, p = arg_drink(move), move.player
    if not owes(state, p):
        raise IllegalMove("you have given your drinks this turn", move)
    if d not in state.seats[p].drinks:
        raise IllegalMove(f"{d} is not one of your drinks; give one of those in front of you", move)
    seats = set_at(state.seats, p, drinks=tuple(x for x in state.seats[p].drinks if x != d))
    a = state.player
    seats = set_at(seats, a, drinks=tuple(sort_drinks(seats[a].drinks + (d,))))
    state = replace(state, seats=seats, given=state.given + ((p, d),))
    return _next_giving(state, [Event("gave", {"seat": p, "to_seat": a, "drink": d})])


def _next_giving(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """When nobody owes a drink any more the card is turned up and paid for."""
    if _givers(state):
        return state, events
    return _turn_up(state, events)


def _turn_up(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    a, seat = state.player, state.seats[state.player]
    drinks = [d for _, d in state.given]
    matching = [d for d in drinks if count_matching([d], seat.card)]
    due = state.options.price * len(matching)
    paid = min(due, seat.yen)
    seats = set_at(state.seats, a, yen=seat.yen - paid, card=None)
    state = replace(state, seats=seats, bank=state.bank + paid, discard=state.discard + (seat.card,),
                    given=(), turns=state.turns + 1,
                    last={"seat": a, "card": seat.card, "given": drinks, "matching": matching, "paid": paid})
    events = events + [Event("card_shown", {"seat": a, "card": seat.card, "matching": matching, "paid": paid})]
    o = state.options
    if seats[a].yen <= 0 or (o.max_turns and state.turns >= o.max_turns):
        return _finish(state, events)
    return replace(state, phase=DRAW), events


def _finish(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    best = top([s.yen for s in state.seats])
    winners = top({p: -len(state.seats[p].drinks) for p in best})
    state = replace(state, phase=OVER, winners=winners)
    return state, events + [Event("game_over", {"winners": list(winners), "yen": [s.yen for s in state.seats]})]


# --- views ----------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    over = state.phase == OVER
    players = [{"seat": p, "name": s.name, "yen": s.yen, "drinks": list(s.drinks), "count": len(s.drinks),
                "has_secret": s.card is not None, "secret": s.card if viewer == p else None,
                "owes": owes(state, p) if state.phase == GIVE else 0,
                "turn": state.phase == GIVE and state.player == p, "start": p == state.start_player}
               for p, s in enumerate(state.seats)]
    return {
        "game": NAME, "phase": state.phase, "players": players,
        "turn": state.player if state.phase in (GIVE, DRAW) else None,
        "to_act": to_act(GAME.pending(state)),
        "given": [{"seat": g, "drink": d} for g, d in state.given],
        "discard": list(state.discard), "box": len(state.box()), "bank": state.bank, "turns": state.turns,
        "last": dict(state.last) if state.last else None,
        "winners": list(state.winners), "over": over,
    }


def payouts(state: State) -> dict:
    return {"yen": [s.yen for s in state.seats], "final": state.phase == OVER, "winners": list(state.winners)}


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(START, "the start player to be drawn", outcomes=start_player_outcomes,
              ends="with the start player: the drinks are handed out"),
        Phase(HAND_OUT, "the next drink handed out (from the start player on, each to their number)",
              outcomes=_hand_outs, ends="when every player has their drinks"),
        Phase(CARDS, "each player's card, entered on their own phone", acting=_card_pending, outcomes=_cards,
              ends="when every player holds a card"),
        Phase(GIVE, _waiting_give, acting=_givers, ends="when every other player has given: the card is turned up"),
        Phase(DRAW, "the active player's new card, entered on their phone", acting=_card_pending,
              outcomes=_cards, ends="with the card: the next player's turn"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("start_player", _start_player, f"{RULE}: VORBEREITUNG", phases=(START,), chance=True),
        Kind("hand_out", _hand_out, f"{RULE}: VORBEREITUNG", phases=(HAND_OUT,), chance=True),
        Kind("card", _card, f"{RULE}: VORBEREITUNG, SPIELABLAUF", phases=(CARDS, DRAW), chance=True),
        Kind("give", _give, f"{RULE}: SPIELABLAUF", phases=(GIVE,), listed=_gives),
    ),
    # no estimates: the cards held are secret and not drawn again for playouts
    view_of=view, payouts_of=payouts, seat_names=lambda state: [s.name for s in state.seats],
    # what a person does at the real table: a drink handed over
    board_events=frozenset({"handed_out", "gave"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
