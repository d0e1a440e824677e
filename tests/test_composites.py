"""Composite moves: the list-taking moves a seat could compose now (``composite_moves``).

Engine: in states reached by random play of every game that has them, every composition a
composite describes (``min`` to ``max`` items, from one ``within`` group, amounts and coins as
described) is accepted by ``apply``, and one item beyond ``max`` is refused. Session and API:
the view carries them for the seats the viewer may act for, and a composed move posted through
the API is played (JASMINE TEA: three drinks for 900 yen).
"""
from __future__ import annotations

import random
from itertools import combinations, product
import pytest
from api_support import start_game, view_of

from companion.rules.engine import CHANCE, ChanceChoice, ChanceDrop, IllegalMove, Move
from companion.rules.games import GAMES

COMPOSING = sorted(name for name, g in GAMES.items() if any(k.compose for k in g.kinds))
MAX_TRIED = 40  # compositions applied per composite (a random sample when there are more)


# --- composing what a composite describes -----------------------------------------------------

def key(item):
    return tuple(item) if isinstance(item, list) else item


def cost(c: dict, items, amounts=()) -> int:
    price = c.get("price", {}).get(str(len(items)), 0)
    return price + sum(c.get("each", {}).get(str(key(i)), 0) for i in items) + sum(amounts)


def payment(have: dict, due: int) -> list[int] | None:
    """The coins that pay ``due`` with the least to spare and no coin to spare (None: too little)."""
    denoms = sorted((int(d) for d in have), reverse=True)
    best = None
    for counts in product(*(range(have[str(d)] + 1) for d in denoms)):
        coins = [d for d, n in zip(denoms, counts) for _ in range(n)]
        value = sum(coins)
        if coins and value >= due and value - min(coins) < due and (best is None or value < sum(best)):
            best = coins
    return best


def compose(c: dict, items, amounts=None, coins=None) -> Move:
    args = dict(c.get("base", {}))
    arg = c["pick"]["arg"]
    if isinstance(arg, list):
        for i, name in enumerate(arg):
            args[name] = tuple(item[i] for item in items)
    else:
        args[arg] = tuple(items)
    if "amounts" in c:
        amounts = list(amounts) if amounts is not None else [c["amounts"]["min"]] * len(items)
        args[c["amounts"]["arg"]] = tuple(amounts)
    if "coins" in c:
        args[c["coins"]["arg"]] = tuple(coins if coins is not None
                                        else payment(c["coins"]["have"], cost(c, items, amounts or ())) or ())
    return Move(c["kind"], c["player"], args)


def item_sets(c: dict, rng: random.Random):
    """Item sets of every allowed size (all of them, or a sample when there are too many)."""
    pick = c["pick"]
    groups = pick.get("within") or [pick["from"]]
    found, seen = [], set()
    for group in groups:
        for k in range(pick["min"], min(pick["max"], len(group)) + 1):
            for combo in combinations(group, k):
                sig = frozenset(map(key, combo))
                if sig not in seen:
                    seen.add(sig)
                    found.append(list(combo))
                if len(found) > 50 * MAX_TRIED:
                    break
    sizes = {len(s) for s in found}
    assert sizes == set(range(pick["min"], pick["max"] + 1)), f"{c['kind']}: no composition of some size"
    if len(found) > MAX_TRIED:  # keep the largest and smallest, sample the rest
        found = [min(found, key=len), max(found, key=len)] + rng.sample(found, MAX_TRIED - 2)
    return found


def affordable(c: dict, items) -> bool:
    if "coins" not in c:
        return True
    return cost(c, items) <= sum(int(d) * n for d, n in c["coins"]["have"].items())


def check_composite(g, state, c: dict, rng: random.Random) -> None:
    pick = c["pick"]
    assert 1 <= pick["min"] <= pick["max"]
    assert len({key(i) for i in pick["from"]}) == len(pick["from"]), "an item is offered twice"
    for group in pick.get("within") or ():
        assert all(i in pick["from"] for i in group)
    assert len(pick.get("shows", pick["from"])) == len(pick["from"])
    for items in item_sets(c, rng):
        if not affordable(c, items):
            continue
        move = compose(c, items)
        try:
            g.apply(state, move)
        except IllegalMove as exc:
            pytest.fail(f"{g.name}: a described composition was refused: {move} ({exc.reason})")
        if "amounts" in c:  # the whole allowance on the first item is fine, one step more is not
            a = c["amounts"]
            top = [a["max_total"] - a["min"] * (len(items) - 1)] + [a["min"]] * (len(items) - 1)
            g.apply(state, compose(c, items, top))
            with pytest.raises(IllegalMove):
                g.apply(state, compose(c, items, [top[0] + a["step"]] + top[1:]))
    if len(pick["from"]) > pick["max"]:
        more = rng.sample(pick["from"], pick["max"] + 1)
        with pytest.raises(IllegalMove):
            g.apply(state, compose(c, more))


# --- random play that stops to check the composites -------------------------------------------

CONFIGS = {
    "jasmine_tea": [{"names": ["A", "B"], "start_player": 0},
                    {"names": ["A", "B", "C"], "start_player": 1, "options": {"start_yen": 700}}],
    "vending_poker": [{"names": ["A", "B"], "start_player": 0, "options": {"max_turns": 40}},
                      {"names": ["A", "B", "C"], "start_player": 2, "options": {"max_turns": 40}}],
    "chocolate_milk": [{"names": ["A", "B"], "start_player": 0},
                       {"names": ["A", "B", "C"], "start_player": 0, "options": {"use_tower": False}}],
    "pura": [{}, {"options": {"hard": True}}],
    "colour_sort": [{"options": {"fix_limit": 0, "thousands": 20}}],
    "vend_machine": [{"names": ["A", "B"], "options": {"chain": 0, "hp": 60, "max_turns": 200}}],
}


def random_step(g, state, rng: random.Random) -> Move:
    who = rng.choice(g.pending(state)).actor
    if who == CHANCE:
        spec = g.chance(state)
        if isinstance(spec, ChanceChoice):
            return rng.choice([m for m, _ in spec.outcomes])
        assert isinstance(spec, ChanceDrop)
        return Move(spec.move_kind, CHANCE, {"out": tuple(d for d in spec.candidates if rng.random() < 0.7)})
    moves = g.legal_moves(state, who)
    composites = list(getattr(g, "composite_moves", lambda state, seat: [])(state, who))
    if composites and rng.random() < 0.3:  # now and then a composed move (it must be accepted)
        c = {**rng.choice(composites), "player": who}
        items = rng.choice(item_sets(c, rng))
        if affordable(c, items):
            return compose(c, items)
    return rng.choice(moves)


@pytest.mark.parametrize("name", COMPOSING)
def test_every_described_composition_is_accepted_and_one_more_is_refused(name):
    g = GAMES[name]
    checked = 0
    for i, config in enumerate(CONFIGS[name]):
        rng = random.Random(f"{name}:{i}")
        state = g.setup(config)
        for _ in range(400):
            if g.is_over(state):
                break
            for w in g.pending(state):
                if w.actor != CHANCE:
                    found = g.composite_moves(state, w.actor)
                    assert found == [c for c in found if isinstance(c, dict)]
                    for c in found:
                        if rng.random() < 0.5:
                            check_composite(g, state, {**c, "player": w.actor}, rng)
                            checked += 1
            state, _ = g.apply(state, random_step(g, state, rng))
    assert checked >= 5, f"{name}: too few composites came up to check"


# The games with list-taking moves (a move that takes any number of items: bets on several cards,
# several drinks bought or sold at once, several pairs swapped); no other game has one.
LIST_TAKING = {"jasmine_tea", "vending_poker", "chocolate_milk", "pura", "colour_sort", "vend_machine"}


def test_games_without_list_taking_moves_describe_none():
    assert sorted(LIST_TAKING - set(COMPOSING)) == [], "a game with list-taking moves describes none"
    assert set(CONFIGS) == LIST_TAKING
    for name in sorted(set(GAMES) - LIST_TAKING):
        g = GAMES[name]
        describe = getattr(g, "composite_moves", lambda state, seat: [])
        seats = min(g.players, key=lambda n: (abs(n - 3), n))
        rng = random.Random(name)
        state = g.setup({"names": [f"P{p + 1}" for p in range(seats)]})
        for _ in range(150):
            if g.is_over(state):
                break
            for w in g.pending(state):
                if w.actor != CHANCE:
                    assert describe(state, w.actor) == [], f"{name} describes composites in {state.phase}"
            state, _ = g.apply(state, random_step(g, state, rng))


# --- the session and the API ------------------------------------------------------------------

new_game = start_game
get_view = view_of


def test_buy_three_drinks_through_the_api_with_a_composed_move(client):
    gid, tokens = new_game(client, game="jasmine_tea", names=["Aki", "Ben"], seed=11,
                           options={"start_by": "random"})
    v = get_view(client, gid)
    assert v["state"]["phase"] == "turns"  # the simulated table drew the start player
    seat = v["state"]["turn"]
    buy = next(c for c in v["composites"] if c["kind"] == "buy_drinks")
    assert buy["player"] == seat and buy["pick"]["max"] == 3
    assert buy["price"] == {"1": 100, "2": 400, "3": 900}
    assert {c["kind"] for c in v["composites"]} == {"bet", "buy_drinks"}
    # only single drinks are listed as moves
    assert all(len(m["move"]["args"]["drinks"]) == 1 for m in v["moves"] if m["move"]["kind"] == "buy_drinks")

    drinks = buy["pick"]["from"][:3]
    move = {"kind": "buy_drinks", "player": seat, "args": {**buy["base"], "drinks": drinks}}
    r = client.post(f"/api/games/{gid}/moves", json={"move": move})
    assert r.status_code == 200, r.text
    after = r.json()["view"]["state"]
    assert after["players"][seat]["yen"] == 2000 - 900
    assert after["bank"] == v["state"]["bank"] + 900
    assert [b["drink"] for b in after["bought"]] == drinks

    # one beyond the limit: the engine's reason, 409, nothing changes
    nxt, seq = after["turn"], r.json()["view"]["seq"]
    four = {"kind": "buy_drinks", "player": nxt, "args": {"drinks": buy["pick"]["from"][3:7]}}
    r = client.post(f"/api/games/{gid}/moves", json={"move": four})
    assert r.status_code == 409 and "1 to 3 drinks" in r.json()["detail"]
    assert get_view(client, gid)["seq"] == seq

    # a phone sees its own seat's composites only, the other phone none
    assert {c["player"] for c in get_view(client, gid, tokens[nxt])["composites"]} == {nxt}
    assert get_view(client, gid, tokens[1 - nxt])["composites"] == []


def test_composites_follow_who_may_act(client):
    # a computer's composites are not offered; a game without composite_moves has none
    gid, _ = new_game(client, game="jasmine_tea", names=["Aki", "Ben"], bots=[0, 1], seed=2,
                      options={"start_by": "random"})
    assert get_view(client, gid)["composites"] == []
    gid, _ = new_game(client, game="melon_soda", names=["Aki", "Ben"], seed=2)
    assert get_view(client, gid)["composites"] == []
    gid, _ = new_game(client, game="pura", names=["Solo"], seed=4, options={"fix_limit": 0})
    v = get_view(client, gid)
    swaps = [c for c in v["composites"] if c["kind"] == "swap"]
    assert len(swaps) == 15 and all(c["player"] == 0 for c in swaps)
    assert not [m for m in v["moves"] if m["move"]["kind"] == "swap"]
    c = swaps[0]
    pair = c["pick"]["within"][0][:2]
    move = {"kind": "swap", "player": 0,
            "args": {**c["base"], "a_slots": [p[0] for p in pair], "b_slots": [p[1] for p in pair]}}
    r = client.post(f"/api/games/{gid}/moves", json={"move": move})
    assert r.status_code == 200, r.text
    assert r.json()["view"]["state"]["coins"]["100"] == 9
