"""The Vend Machine unit for Wash Machine (rule book 002, the add-on): drinks as ammunition.

Wash Machine (a miniatures battle game, not in our rule book) is played on the table as usual; the
service keeps the add-on's part: the six crates, filled with the 36 drinks by colour; each party's
chain of drinks (three, taken from the crates and set out as terrain); the vending machine as a
draftable unit (6 points, 6 HP, triangle movement, the vend attack) with its ammunition.

The table enters which party drafted the unit, and what happens in Wash Machine that concerns it:
the unit's activation, or damage it takes. Activated, the unit either ends a move (at a crate: it
takes all the crate's drinks as ammunition) or, instead of moving, fires: any number of its drinks
go into the tower. Each drink that comes out is a shot: the table enters a miss, or a hit on an
enemy party with the damage Wash Machine's standard attack gives. After the shot the drinks that
came out go back to their own crates (a drink's crate is its colour's); the ones stuck in the tower
stay there and may come out with a later shot, where they count as shots of that shot
(``stuck_shots``). At 0 HP the unit is destroyed and its ammunition goes back to the crates. The
table enters the end of Wash Machine and who won. docs/rules-notes.md.

>>> s = setup({"names": ["A", "B"], "options": {"chain": 0}})
>>> s, _ = apply(s, Move("drafted", CHANCE, {"seat": 0}))
>>> s, _ = apply(s, Move("activate", CHANCE, {}))
>>> s, _ = apply(s, Move("collect", 0, {"crate": "red"}))
>>> len(s.ammo), s.crate("red")
(6, ())
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal, Mapping

from ...drinks import COLOURS, DRINK_IDS
from ..declared import Declared, Kind, Phase
from ..engine import CHANCE, ChanceChoice, ChanceSpec, Composite, Event, IllegalMove, Move, Pending, Typed, uniform
from ..options import GameOptions, WholeIn
from ..tower import Tower
from .common import arg, arg_drink, arg_drinks, arg_int, awaited_drop, seat_in, seat_names, set_at, sort_drinks
from .tower_turns import to_act

NAME = "vend_machine"
TITLE = "Vend Machine"
PLAYERS = (2, 3, 4)
RULE = "002 Vend Machine"

DRAFT, CHAIN, BATTLE, ACT, DROP, SHOTS, OVER = "draft", "chain", "battle", "act", "drop", "shots", "over"
CRATES = tuple(c.value for c in COLOURS)     # one crate per colour, in catalogue order
UNIT = {"points": 6, "movement": "triangle", "attack": "vend"}
MAX_DAMAGE = 20                              # one hit's damage, as the table enters it


class Options(GameOptions):
    players: WholeIn(2, 4) = 2
    hp: WholeIn(1, 60) = 6                       # the unit's hit points
    chain: WholeIn(0, 6) = 3                     # drinks each party sets out in a chain
    draft_points: WholeIn(1, 100) = 8            # each party's draft points (three parties: three_party_points)
    three_party_points: WholeIn(1, 100) = 6
    damage_offered: WholeIn(1, MAX_DAMAGE) = 3   # a hit's damage buttons offer 1 to this
    stuck_shots: Literal["count", "back"] = "count"   # a stuck drink out with a later shot: a shot, or back
    max_turns: WholeIn(0, 1000) = 30             # a bound: after this many entries the table is asked for the end


@dataclass(frozen=True)
class State:
    options: Options
    names: tuple[str, ...]
    crates: tuple[tuple[str, ...], ...]          # CRATES order: the drinks in each
    chains: tuple[tuple[str, ...], ...]          # per party
    phase: str = DRAFT
    owner: int | None = None                     # the party that drafted the unit
    hp: int = 0
    ammo: tuple[str, ...] = ()
    chainer: int = 0                             # the party setting out its chain
    fired: tuple[str, ...] = ()                  # thrown now, awaiting the drop
    out: tuple[str, ...] = ()                    # out of the tower with this shot, back to the crates after it
    shots: tuple[str, ...] = ()                  # of those, hit or miss still to enter
    tower: Tower = Tower()
    damage: tuple[int, ...] = ()                 # per party: damage its units took from vend shots
    hits: int = 0
    misses: int = 0
    turns: int = 0
    destroyed: bool = False
    last: Mapping[str, Any] | None = None
    winners: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.names)

    def crate(self, colour: str) -> tuple[str, ...]:
        return self.crates[CRATES.index(colour)]

    def in_crates(self) -> tuple[str, ...]:
        return tuple(d for c in self.crates for d in c)


def start(opts: Options, config: Mapping[str, Any]) -> State:
    names = seat_names(config, opts.players)
    crates = tuple(tuple(d for d in DRINK_IDS if d.split("-")[0] == c) for c in CRATES)
    state = State(opts, names, crates, tuple(() for _ in names), hp=opts.hp, damage=(0,) * len(names))
    return state


def draft_points(state: State) -> int:
    return state.options.three_party_points if state.n == 3 else state.options.draft_points


def colour(drink: str) -> str:
    return drink.split("-", 1)[0]


def _back(crates: tuple[tuple[str, ...], ...], drinks) -> tuple[tuple[str, ...], ...]:
    """The crates with ``drinks`` put back, each into its own colour's crate."""
    drinks = set(drinks)
    return tuple(tuple(sort_drinks(set(c) | {d for d in drinks if colour(d) == k})) for k, c in zip(CRATES, crates))


def _taken(crates: tuple[tuple[str, ...], ...], drinks) -> tuple[tuple[str, ...], ...]:
    drinks = set(drinks)
    return tuple(tuple(d for d in c if d not in drinks) for c in crates)


# --- who acts ---------------------------------------------------------------------------------

def _chainer(state: State) -> list[Pending]:
    return [Pending(state.chainer)]


def _owner(state: State) -> list[Pending]:
    return [Pending(state.owner)]


def _waiting_chain(state: State) -> str:
    return f"{state.names[state.chainer]} to set out a drink of their chain"


def _waiting_act(state: State) -> str:
    return f"{state.names[state.owner]} to move the vending machine or fire it"


# --- what the table enters -----------------------------------------------------------------------

def _drafts(state: State) -> ChanceSpec:
    return uniform(Move("drafted", CHANCE, {"seat": p}) for p in range(state.n))


def _ends(state: State) -> tuple[Move, ...]:
    return tuple(Move("end", CHANCE, {"winner": p}) for p in range(state.n))


def _battle(state: State) -> ChanceSpec:
    """What happens next in Wash Machine that concerns the unit: its activation, or damage it
    takes (the table is offered each amount up to ``damage_offered``; the simulated table and
    playouts draw 1 damage as often as an activation), any other amount up to MAX_DAMAGE typed in;
    the end of Wash Machine is offered too. A
    destroyed unit (or a game past its bound) leaves only the end, with its winner."""
    if state.destroyed or (state.options.max_turns and state.turns >= state.options.max_turns):
        return uniform(_ends(state))
    damage = tuple(Move("damage", CHANCE, {"amount": k}) for k in range(1, state.options.damage_offered + 1))
    activate = Move("activate", CHANCE, {})
    return ChanceChoice(((activate, 0.5), (damage[0], 0.5)), offer=(activate,) + damage + _ends(state),
                        typed=(Typed("damage", "amount", 1, MAX_DAMAGE),))


def _drop(state: State) -> ChanceSpec:
    return awaited_drop(state.fired, state.tower)


def _shots(state: State) -> ChanceSpec:
    """The next drink out of the tower: a miss, or a hit on an enemy party with its damage (the
    buttons offer 1 to ``damage_offered``; up to MAX_DAMAGE is typed in, per enemy party)."""
    d = state.shots[0]
    hits = [Move("hit", CHANCE, {"drink": d, "seat": p, "damage": k}) for p in range(state.n) if p != state.owner
            for k in range(1, state.options.damage_offered + 1)]
    enemies = [p for p in range(state.n) if p != state.owner]
    typed = tuple(Typed("hit", "damage", 1, MAX_DAMAGE, base={"drink": d, "seat": p}) for p in enemies)
    return replace(uniform([Move("miss", CHANCE, {"drink": d}), *hits]), typed=typed)


def _drafted(state: State, move: Move) -> tuple[State, list[Event]]:
    p = seat_in(move, range(state.n))
    state = replace(state, owner=p, phase=CHAIN if state.options.chain else BATTLE)
    return state, [Event("drafted", {"seat": p, "points": UNIT["points"], "draft_points": draft_points(state)})]


def _chain_moves(state: State, seat: int) -> list[Move]:
    return [Move("chain", seat, {"drink": d}) for d in state.in_crates()]


def _chain(state: State, move: Move) -> tuple[State, list[Event]]:
    p, d = move.player, arg_drink(move)
    if d not in state.in_crates():
        raise IllegalMove(f"{d} is not in a crate; set out a drink from the crates", move)
    chains = tuple(c + (d,) if q == p else c for q, c in enumerate(state.chains))
    state = replace(state, crates=_taken(state.crates, (d,)), chains=chains)
    events = [Event("chained", {"seat": p, "drink": d})]
    if len(chains[p]) >= state.options.chain:
        if p + 1 < state.n:
            state = replace(state, chainer=p + 1)
        else:
            state = replace(state, phase=BATTLE)
    return state, events


def _activate(state: State, move: Move) -> tuple[State, list[Event]]:
    state = replace(state, phase=ACT, turns=state.turns + 1)
    return state, [Event("activated", {"seat": state.owner})]


def _damage(state: State, move: Move) -> tuple[State, list[Event]]:
    amount = arg_int(move, "amount")
    if not 1 <= amount <= MAX_DAMAGE:
        raise IllegalMove(f"'amount' is the damage the unit took: 1 to {MAX_DAMAGE}, not {amount}", move)
    hp = max(0, state.hp - amount)
    state = replace(state, hp=hp, turns=state.turns + 1)
    events = [Event("damaged", {"seat": state.owner, "amount": amount, "hp": hp})]
    if hp == 0:
        state = replace(state, destroyed=True, crates=_back(state.crates, state.ammo), ammo=())
        events.append(Event("destroyed", {"seat": state.owner}))
    return state, events


def _fires(state: State, seat: int) -> list[Move]:
    """All the ammunition at once (the picker composes any part of it)."""
    return [Move("fire", seat, {"drinks": state.ammo})] if state.ammo else []


def _collects(state: State, seat: int) -> list[Move]:
    return [Move("collect", seat, {"crate": c}) for c in CRATES if state.crate(c)]


def _collect(state: State, move: Move) -> tuple[State, list[Event]]:
    """The unit ends its move at a crate that holds drinks: it takes them all as ammunition."""
    c = arg(move, "crate")
    if c not in CRATES:
        raise IllegalMove(f"'crate' names a crate by its colour ({', '.join(CRATES)}), not {c!r}", move)
    taken = state.crate(c)
    if not taken:
        raise IllegalMove(f"the {c} crate is empty; end the move at a crate that holds drinks", move)
    state = replace(state, phase=BATTLE, ammo=tuple(sort_drinks(state.ammo + taken)),
                    crates=_taken(state.crates, taken))
    return state, [Event("collected", {"seat": move.player, "crate": c, "drinks": list(taken)})]


def _moves(state: State, seat: int) -> list[Move]:
    return [Move("move", seat, {})]


def _move(state: State, move: Move) -> tuple[State, list[Event]]:
    """The unit moves and ends its move away from the crates: nothing to take."""
    return replace(state, phase=BATTLE), [Event("unit_moved", {"seat": move.player})]


def _fire_compose(state: State, seat: int) -> list[Composite]:
    if not state.ammo:
        return []
    return [Composite("fire", {"arg": "drinks", "from": list(state.ammo), "min": 1, "max": len(state.ammo)})]


def _fire(state: State, move: Move) -> tuple[State, list[Event]]:
    drinks = arg_drinks(move, "drinks", allow_empty=False)
    missing = [d for d in drinks if d not in state.ammo]
    if missing:
        raise IllegalMove(f"{', '.join(missing)} is not the unit's ammunition; fire drinks it holds", move)
    state = replace(state, phase=DROP, fired=tuple(drinks), ammo=tuple(d for d in state.ammo if d not in drinks))
    return state, [Event("fired", {"seat": move.player, "drinks": list(drinks)})]


def _dropped(state: State, move: Move) -> tuple[State, list[Event]]:
    out = arg_drinks(move, "out")
    tower, drop = state.tower.drop(state.fired, out)
    shots = drop.out if state.options.stuck_shots == "count" else tuple(d for d in drop.out if d not in drop.freed)
    back = tuple(d for d in drop.out if d not in shots)
    state = replace(state, tower=tower, fired=(), out=tuple(shots), shots=tuple(shots),
                    crates=_back(state.crates, back),
                    phase=SHOTS, last={"drop": drop.to_json(), "shots": []})
    events = [Event("drop", drop.to_json())]
    return _shots_done(state, events) if not shots else (state, events)


def _shot(state: State, move: Move, hit: bool) -> tuple[State, dict]:
    d = arg_drink(move)
    if d != state.shots[0]:
        raise IllegalMove(f"the next shot to enter is {state.shots[0]}, not {d}", move)
    entry: dict = {"drink": d, "hit": hit}
    if hit:
        p = seat_in(move, [q for q in range(state.n) if q != state.owner])
        k = arg_int(move, "damage")
        if not 1 <= k <= MAX_DAMAGE:
            raise IllegalMove(f"'damage' is what the hit dealt: 1 to {MAX_DAMAGE}, not {k}", move)
        entry.update(seat=p, damage=k)
        state = replace(state, damage=tuple(x + k if q == p else x for q, x in enumerate(state.damage)),
                        hits=state.hits + 1)
    else:
        state = replace(state, misses=state.misses + 1)
    last = dict(state.last or {})
    last["shots"] = [*last.get("shots", []), entry]
    return replace(state, shots=state.shots[1:], last=last), entry


def _hit(state: State, move: Move) -> tuple[State, list[Event]]:
    state, entry = _shot(state, move, True)
    events = [Event("shot_hit", entry)]
    return _shots_done(state, events) if not state.shots else (state, events)


def _miss(state: State, move: Move) -> tuple[State, list[Event]]:
    state, entry = _shot(state, move, False)
    events = [Event("shot_missed", entry)]
    return _shots_done(state, events) if not state.shots else (state, events)


def _shots_done(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """The shot is over: the drinks that came out go back to their crates."""
    out = state.out
    return replace(state, crates=_back(state.crates, out), out=(), phase=BATTLE), \
        events + [Event("returned", {"drinks": list(out)})]


def _spill(state: State, move: Move) -> tuple[State, list[Event]]:
    """Stuck drinks fell out on their own (nothing fired): no shot, back to their crates."""
    out = arg_drinks(move, "out")
    state = replace(state, tower=state.tower.spill(out), crates=_back(state.crates, out))
    return state, [Event("spill", {"out": list(out)})]


def _end(state: State, move: Move) -> tuple[State, list[Event]]:
    """Wash Machine is over: the table names the winning party (without one, nobody is named apart)."""
    w = move.args.get("winner")
    if w is not None:
        w = seat_in(move, range(state.n), "winner")
    winners = (w,) if w is not None else tuple(range(state.n))
    state = replace(state, phase=OVER, winners=winners)
    return state, [Event("game_over", {"winners": list(winners)})]


# --- views ------------------------------------------------------------------------------------

def view(state: State, viewer: int | None) -> dict:
    players = [{"seat": p, "name": name, "chain": list(state.chains[p]), "damage": state.damage[p],
                "has_unit": state.owner == p, "turn": state.phase in (ACT, CHAIN) and p == (
                    state.owner if state.phase == ACT else state.chainer)} for p, name in enumerate(state.names)]
    over = state.phase == OVER
    return {
        "game": NAME, "phase": state.phase, "players": players, "to_act": to_act(GAME.pending(state)),
        "crates": [{"crate": c, "drinks": list(state.crate(c))} for c in CRATES],
        "vend_unit": {**UNIT, "drafted_seat": state.owner, "hp": state.hp, "max_hp": state.options.hp,
                      "ammo": list(state.ammo),
                 "destroyed": state.destroyed},
        "draft_points": draft_points(state), "fired": list(state.fired), "out": list(state.out),
        "shots": list(state.shots),
        "hits": state.hits, "misses": state.misses,
        "tower": {"stuck": sort_drinks(state.tower.inside)}, "last": dict(state.last) if state.last else None,
        "winners": list(state.winners), "over": over,
        "final": {"yen": [0] * state.n, "damage": list(state.damage)} if over else None,
    }


def payouts(state: State) -> dict:
    return {"yen": [0] * state.n, "final": state.phase == OVER, "winners": list(state.winners)}


# --- the declaration --------------------------------------------------------------------------

GAME = Declared(
    name=NAME, title=TITLE, players=PLAYERS, options=Options, start=start,
    phases=(
        Phase(DRAFT, "the party that drafted the vending machine", outcomes=_drafts, ends="with the unit's party"),
        Phase(CHAIN, _waiting_chain, acting=_chainer, ends="when every party has set out its chain"),
        Phase(BATTLE, "what Wash Machine brings the unit: its activation, damage, or the end", outcomes=_battle,
              ends="with the unit's activation (or its end)"),
        Phase(ACT, _waiting_act, acting=_owner, ends="with a move or a shot"),
        Phase(DROP, "the drinks that came out of the tower", outcomes=_drop, ends="with the drop"),
        Phase(SHOTS, "whether the next drink out hit an enemy unit, and its damage", outcomes=_shots,
              ends="when every drink out is entered: they go back to their crates"),
        Phase(OVER, "nothing"),
    ),
    kinds=(
        Kind("drafted", _drafted, f"{RULE}: (draft)", phases=(DRAFT,), chance=True),
        Kind("chain", _chain, f"{RULE}: KISTEN & GETRÄNKE", phases=(CHAIN,), listed=_chain_moves),
        Kind("activate", _activate, f"{RULE}: VERKAUFSAUTOMAT", phases=(BATTLE,), chance=True),
        Kind("damage", _damage, f"{RULE}: VERKAUFSAUTOMAT (6 HP)", phases=(BATTLE,), chance=True),
        Kind("end", _end, f"{RULE}: (Wash Machine's end)", phases=(BATTLE,), chance=True),
        Kind("fire", _fire, f"{RULE}: Vend-Angriff", phases=(ACT,), listed=_fires, compose=_fire_compose),
        Kind("collect", _collect, f"{RULE}: Munition aufnehmen", phases=(ACT,), listed=_collects),
        Kind("move", _move, f"{RULE}: VERKAUFSAUTOMAT (Dreiecks-Bewegung)", phases=(ACT,), listed=_moves),
        Kind("drop", _dropped, f"{RULE}: Vend-Angriff", phases=(DROP,), chance=True),
        Kind("hit", _hit, f"{RULE}: Vend-Angriff (each drink a normal shot)", phases=(SHOTS,), chance=True),
        Kind("miss", _miss, f"{RULE}: Vend-Angriff (each drink a normal shot)", phases=(SHOTS,), chance=True),
        Kind("spill", _spill, f"{RULE}: (a stuck drink falls out)", chance=True, anytime=True),
    ),
    view_of=view, payouts_of=payouts, seat_names=lambda state: list(state.names),
    board_events=frozenset({"chained", "collected", "returned"}),
)

(setup, pending, legal_moves, apply, chance, view, payouts, move_info, is_over,
 composite_moves) = GAME.surface()
