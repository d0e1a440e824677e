"""The hidden cards: a two-player deduction game (rule book 002; no title in our copy).

One colour card and one shape card lie face down between the players, seen by nobody: the
*hidden cards*. The other ten stock cards are dealt, five to each player, who lays one of them
face down in front of them (drinks are stood on it) and keeps four in hand. In turn a player
picks a drink from the middle and asks: does it match one of your hand cards? The other player
answers on their phone: on "yes" the drink goes onto the answerer's card, on "no" onto the
asker's. At any time in their turn a player may name the hidden colour and shape: both right
wins the game, one wrong hands the win to the other player. Whoever has six drinks on their card
must guess at once. No money changes hands.

The cards dealt are chance moves entered on each player's own phone, one card at a time (the
other player's phone and the table see only that a card was entered); the laid card and the
answer are that player's own moves. Every one of the twelve cards is somewhere known to the
service once both hands are in (the hidden pair is what is left), so a guess is settled at once
and an answer is checked against the hand: only the true answer is offered.

>>> s = setup({"names": ["A", "B"]})
>>> s.phase, [w.secret_for for w in pending(s)]
('deal', [0])
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from ...drinks import CARD_IDS, COLOURS, DRINK_IDS, SHAPES
from ..declared import Declared, Kind, Phase
from ..engine import CHANCE, ChanceSpec, Event, IllegalMove, Move, MoveInfo, Pending, uniform
from ..options import GameOptions, WholeIn
from .common import arg_card, arg_drink, arg_text, matches, seat_names, set_at, sort_drinks

NAME = "hidden_cards"
TITLE = "The hidden cards"
PLAYERS = (2,)
RULE = "002 The hidden cards"

DEAL, LAY, ASK, ANSWER, GUESS, OVER = "deal", "lay", "ask", "answer", "guess", "over"
HAND = 5                 # cards dealt to each player
FULL = 6                 # drinks on a player's card that force the guess
COLOUR_IDS = tuple(c.value for c in COLOURS)
SHAPE_IDS = tuple(s.value for s in SHAPES)
ANSWERS = ("yes", "no")


class Options(GameOptions):
    players: WholeIn(2, 2) = 2
    first_player: WholeIn(0, 1) = 0    # the book: who last used a vending machine


@dataclass(frozen=True)
class Seat:
    name: str
    cards: tuple[str, ...] = ()       # the five dealt (secret), in the order entered
    laid: str | None = None           # the one laid face down (secret)
    won: tuple[str, ...] = ()         # the drinks stood on the laid card

    @property
    def hand(self) -> tuple[str, ...]:
        return tuple(c for c in self.cards if c != self.laid)


@dataclass(frozen=True)
class State:
    options: Options
    seats: tuple[Seat, Seat]
    phase: str = DEAL
    turn: int = 0
    asked: str | None = None                         # the drink awaiting an answer
    answers: tuple[tuple[int, str, str], ...] = ()   # (asker, drink, "yes"/"no"), in order
    guesser: int | None = None                       # the seat that must guess now (six drinks)
    guessed: tuple[int, str, str] | None = None      # (seat, colour, shape) at the end
    winners: tuple[int, ...] = ()

    @property
    def middle(self) -> tuple[str, ...]:
        """The drinks still in the middle, in catalogue order."""
        taken = {d for s in self.seats for d in s.won}
        return tuple(d for d in DRINK_IDS if d not in taken)

    @property
    def dealt(self) -> tuple[str, ...]:
        return tuple(c for s in self.seats for c in s.cards)

    def hidden(self) -> tuple[str, str] | None:
        """The hidden colour and shape: the two cards nobody was dealt (known once both hands are in)."""
        left = [c for c in CARD_IDS if c not in self.dealt]
        if len(self.dealt) < 2 * HAND:
            return None
        return next(c for c in left if c in COLOUR_IDS), next(c for c in left if c in SHAPE_IDS)


def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, 2)
    return State(opts, (Seat(names[0]), Seat(names[1])), turn=opts.first_player)


def other(seat: int) -> int:
    return 1 - seat


# --- who acts ---------------------------------------------------------------------------------

def _dealt_to(state: State) -> int:
    """The seat whose next dealt card is entered: seat 0's five first, then seat 1's."""
    return 0 if len(state.seats[0].cards) < HAND else 1


def _deal_pending(state: State) -> list[Pending]:
    return [Pending(CHANCE, secret_for=_dealt_to(state))]


def _layers(state: State) -> list[Pending]:
    return [Pending(p) for p, s in enumerate(state.seats) if s.laid is None]


def _asker(state: State) -> list[Pending]:
    return [Pending(state.turn)]


def _answerer(state: State) -> list[Pending]:
    return [Pending(other(state.turn))]


def _guesser(state: State) -> list[Pending]:
    return [Pending(state.guesser if state.guesser is not None else state.turn)]


def _waiting(state: State) -> str:
    asker, answerer = state.seats[state.turn].name, state.seats[other(state.turn)].name
    guesser = state.seats[state.guesser if state.guesser is not None else state.turn].name
    if state.phase == ASK:
        return f"{asker} to pick a drink and ask, or to guess"
    if state.phase == ANSWER:
        return f"{answerer} to answer on their phone"
    if state.phase == GUESS:
        return f"{guesser} to guess the hidden cards"
    return "nothing"


# --- what chance may bring: the cards dealt ----------------------------------------------------

def _may_deal(state: State, card: str) -> bool:
    """A card may still be dealt when nobody holds it and dealing it leaves a colour and a shape
    card over for the hidden pair."""
    dealt = state.dealt + (card,)
    return (card not in state.dealt and sum(c in COLOUR_IDS for c in dealt) < len(COLOUR_IDS)
            and sum(c in SHAPE_IDS for c in dealt) < len(SHAPE_IDS))


def _deals(state: State) -> ChanceSpec:
    possible = uniform(Move("card", CHANCE, {"card": c}) for c in CARD_IDS if _may_deal(state, c))
    # The phone is offered all twelve cards: the ones left out would tell the other hand.
    return replace(possible, offer=tuple(Move("card", CHANCE, {"card": c}) for c in CARD_IDS))


def _card(state: State, move: Move) -> tuple[State, list[Event]]:
    card = arg_card(move)
    p = _dealt_to(state)
    if not _may_deal(state, card):
        # The same words whichever reason: naming it would tell where the card is.
        raise IllegalMove(f"{card} cannot be dealt now; check the card in your hand and enter it again", move)
    seats = set_at(state.seats, p, cards=state.seats[p].cards + (card,))
    state = replace(state, seats=seats)
    if len(state.dealt) == 2 * HAND:
        state = replace(state, phase=LAY)
    return state, [Event("card_entered", {"seat": p, "secret": True})]


# --- the players' moves ---------------------------------------------------------------------

def _lays(state: State, seat: int) -> list[Move]:
    s = state.seats[seat]
    return [] if s.laid is not None else [Move("lay", seat, {"card": c}) for c in s.cards]


def _lay(state: State, move: Move) -> tuple[State, list[Event]]:
    card, s = arg_card(move), state.seats[move.player]
    if s.laid is not None:
        raise IllegalMove("you have laid your card already", move)
    if card not in s.cards:
        cards = ", ".join(s.cards)
        raise IllegalMove(f"{card} is not one of your cards; lay one of {cards}", move)
    seats = set_at(state.seats, move.player, laid=card)
    state = replace(state, seats=seats)
    events = [Event("laid", {"seat": move.player, "secret": True})]
    if all(x.laid is not None for x in seats):
        state = replace(state, phase=ASK)
        events.append(Event("play_begins", {"seat": state.turn}))
    return state, events


def _asks(state: State, seat: int) -> list[Move]:
    return [Move("ask", seat, {"drink": d}) for d in state.middle]


def _ask(state: State, move: Move) -> tuple[State, list[Event]]:
    d = arg_drink(move)
    if d not in state.middle:
        raise IllegalMove(f"{d} is not in the middle any more; pick one of the drinks still there", move)
    return (replace(state, phase=ANSWER, asked=d),
            [Event("asked", {"seat": move.player, "to_seat": other(move.player), "drink": d})])


def truthful(state: State, seat: int, drink: str) -> str:
    """The answer ``seat``'s hand gives for ``drink``: "yes" when it matches a hand card."""
    return ANSWERS[0] if any(matches(drink, c) for c in state.seats[seat].hand) else ANSWERS[1]


def _answers(state: State, seat: int) -> list[Move]:
    return [Move("answer", seat, {"answer": truthful(state, seat, state.asked)})]


def _answer_info(state: State, move: Move) -> MoveInfo:
    """On the answerer's own phone: which hand cards make it a yes."""
    cards = [c for c in state.seats[move.player].hand if matches(state.asked, c)]
    return MoveInfo(why="why.hidden_cards.answer", params={"drink": state.asked, "cards": cards})


def _answer(state: State, move: Move) -> tuple[State, list[Event]]:
    said = arg_text(move, "answer", ANSWERS)
    seat, drink = move.player, state.asked
    true = truthful(state, seat, drink)
    if said != true:
        raise IllegalMove(f"your hand says {true} to {drink}: answer that", move)
    to = seat if said == "yes" else other(seat)
    seats = set_at(state.seats, to, won=state.seats[to].won + (drink,))
    state = replace(state, seats=seats, asked=None, answers=state.answers + ((other(seat), drink, said),))
    events = [Event("answered", {"seat": seat, "drink": drink, "answer": said, "to_seat": to})]
    if len(seats[to].won) >= FULL:
        events.append(Event("must_guess", {"seat": to}))
        return replace(state, phase=GUESS, guesser=to), events
    return replace(state, phase=ASK, turn=other(state.turn)), events


def _guesses(state: State, seat: int) -> list[Move]:
    return [Move("guess", seat, {"colour": c, "shape": s}) for c in COLOUR_IDS for s in SHAPE_IDS]


def _guess(state: State, move: Move) -> tuple[State, list[Event]]:
    colour = arg_text(move, "colour", COLOUR_IDS)
    shape = arg_text(move, "shape", SHAPE_IDS)
    hidden = state.hidden()
    right = hidden == (colour, shape)
    winner = move.player if right else other(move.player)
    state = replace(state, phase=OVER, guessed=(move.player, colour, shape), winners=(winner,), guesser=None)
    return state, [Event("guessed", {"seat": move.player, "colour": colour, "shape": shape, "right": right,
                                     "hidden": list(hidden), "winners": [winner]})]


# --- views ------------------------------------------------------------------------------------

def candidates(state: State, viewer: int) -> dict[str, list[str]]:
    """What ``viewer`` can tell of the hidden cards from their own five alone: the colours and
    shapes not among them (the answers narrow it further; that is the player's game)."""
    own = set(state.seats[viewer].cards)
    return {"colours": [c for c in COLOUR_IDS if c not in own], "shapes": [s for s in SHAPE_IDS if s not in own]}


def view(state: State, viewer: int | None) -> dict:
    over = state.phase == OVER
    players = []
    for p, s in enumerate(state.seats):
        mine = viewer == p or over
        players.append({
            "seat": p, "name": s.name, "won": sort_drinks(s.won), "on_card": len(s.won),
            "cards_entered": len(s.cards), "has_laid": s.laid is not None,
            "hand": list(s.hand) if mine else None, "laid": s.laid if mine else None,
            "turn": state.phase in (ASK, ANSWER) and state.turn == p,
        })
    return {
        "game": NAME, "phase": state.phase, "players": players,
        "turn": state.turn if state.phase in (ASK, ANSWER) else None,
        "to_act": [{"actor": w.actor, "secret_for": w.secret_for} for w in GAME.pending(state)],
        "middle": list(state.middle), "asked": state.asked,
        "answers": [{"seat": a, "drink": d, "answer": x} for a, d, x in state.answers],
        "guesser": state.guesser,
        "candidates": candidates(state, viewer) if viewer is not None and not over
        and len(state.seats[viewer].cards) == HAND else None,
        "hidden": list(state.hidden()) if over and state.guessed else None,
        "guessed": {"seat": state.guessed[0], "colour": state.guessed[1], "shape": state.guessed[2]}
        if state.guessed else None,
        "winners": list(state.winners), "over": over,
    }


def payouts(state: State) -> dict:
    return {"yen": [0, 0], "final": state.phase == OVER, "winners": list(state.winners),
            "projected": [int(p in state.winners) for p in range(2)]}


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(DEAL, "the next dealt card to be entered on its player's phone", acting=_deal_pending,
              outcomes=_deals, ends="when both players' five cards are in"),
        Phase(LAY, "both players to lay one card face down", acting=_layers, ends="when both have laid a card"),
        Phase(ASK, _waiting, acting=_asker, ends="with a question (then the answer) or a guess"),
        Phase(ANSWER, _waiting, acting=_answerer, ends="with the answer: the drink goes onto a card"),
        Phase(GUESS, _waiting, acting=_guesser, ends="with the guess: the game is over"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("card", _card, f"{RULE}: VORBEREITUNG", phases=(DEAL,), chance=True),
        Kind("lay", _lay, f"{RULE}: VORBEREITUNG", phases=(LAY,), listed=_lays, secret=True,
             open_events=("play_begins",)),
        Kind("ask", _ask, f"{RULE}: SPIELABLAUF", phases=(ASK,), listed=_asks),
        Kind("answer", _answer, f"{RULE}: SPIELABLAUF", phases=(ANSWER,), listed=_answers,
             owner_info=_answer_info, secret=True, open_events=("answered", "must_guess")),
        Kind("guess", _guess, f"{RULE}: DIE VERBORGENEN KARTEN ERRATEN, SPIELENDE", phases=(ASK, GUESS),
             listed=_guesses),
    ),
    # no estimates: no money changes hands, and a guess is right or wrong
    view_of=view, payouts_of=payouts, seat_names=lambda state: [s.name for s in state.seats],
    # what a person does at the real table: a drink stood on a card
    board_events=frozenset({"answered"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
