"""The JIDOHANBAIKI games over random legal playouts: invariants after every move.

Hypothesis draws a seed; ``random.Random(seed)`` plays a whole game through the engine's
surface: one of the seats ``pending`` names moves (a random legal move; now and then a
random composition of what the game's ``composite_moves`` describes, which must be
accepted; or a compound move made up here, such as buying three drinks at once), chance
picks among its listed outcomes, a drop lets a random subset of the candidates come out,
and now and then drinks stuck in the tower spill out on their own.

After every move: yen are conserved between the bank, the players and whatever is staked
or lies on the table; every drink is in exactly one place; no view shows another player's
secret; views and payouts are JSON. Every playout ends (the option defaults bound every
game), and replaying its move list (also through JSON) gives the same state.
"""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.drinks import DRINK_IDS
from companion.rules import engine
from companion.rules.engine import CHANCE, ChanceChoice, ChanceDrop, IllegalMove, Move
from companion.rules.games import GAMES

MAX_MOVES = 5000
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- per game: configurations, money, drink places, secrets, compound moves -----------------

def _jasmine():
    from companion.rules.games import jasmine_tea as g

    # No "rules": version 1, a bet limit per bet action; "rules": 2, per round (docs/rules-notes.md).
    configs = [{"names": ["A", "B"]}, {"names": ["A", "B", "C"], "rules": 2}, {"names": list("ABCD")},
               {"names": list("ABCDEF")}, {"names": ["A", "B", "C"], "options": {"start_by": "random"}},
               {"names": ["A", "B", "C"], "options": {"bet_limit_per": "round", "poorest_tie": "turn_order",
                                                      "start_yen": 600}}]

    def money(s):
        return s.bank + sum(x.yen for x in s.seats) + sum(b.amount for b in s.bets)

    def places(s):
        where = {d: [] for d in DRINK_IDS}
        for d in s.supply:
            where[d].append("supply")
        for p, d in s.bought:
            where[d].append(f"bought {p}")
        for d in s.rethrow:
            where[d].append("rethrow")
        for d in s.tower.inside:
            where[d].append("tower")
        for d in s.box:
            where[d].append("box")
        return where

    def secrets(s):
        return {p: s.bidding.amount(p) for p in range(len(s.seats))} if s.bidding else {}

    def extra(s, p, rng):
        if s.phase != g.TURNS:
            return None
        if rng.random() < 0.5 and len(s.supply) >= 3:
            return Move("buy_drinks", p, {"drinks": tuple(rng.sample(sorted(s.supply), rng.randint(2, 3)))})
        cards = rng.sample(g.CARD_IDS, rng.randint(2, 4))
        return Move("bet", p, {"cards": tuple(cards), "amounts": tuple(100 for _ in cards)})

    def check(s):
        assert len({c for x in s.seats for c in x.cards} | set(s.middle)) == 12
        assert 1 <= s.round <= s.options.total_rounds

    return g, configs, money, places, secrets, extra, check


def _melon():
    from companion.rules.games import melon_soda as g

    configs = [{"names": ["A", "B"]}, {"names": ["A", "B", "C"]}, {"names": list("ABCDEF")},
               {"names": list("ABCD"), "options": {"deal": "random"}},
               {"names": ["A", "B", "C"], "options": {"refill_with_yen": True, "spill_to": "box", "start_yen": 300}}]

    def money(s):
        return s.bank + sum(x.yen for x in s.seats) + s.pot_yen

    def places(s):
        where = {d: [] for d in DRINK_IDS}
        for p, x in enumerate(s.seats):
            for part in ("supply", "crate", "beside"):
                for d in getattr(x, part):
                    where[d].append(f"{part} {p}")
        for part in ("pot", "thrown", "came_out"):
            for d in getattr(s, part):
                where[d].append(part)
        for d in s.tower.inside:
            where[d].append("tower")
        for d in s.box:
            where[d].append("box")
        return where

    def check(s):
        assert all(len(x.crate) <= g.CRATE for x in s.seats)
        assert all(x.yen >= 0 for x in s.seats)

    return g, configs, money, places, lambda s: {}, None, check


def _poker():
    from companion.rules.games import vending_poker as g

    configs = [{"names": ["A", "B"], "options": {"max_turns": 60}},
               {"names": ["A", "B", "C"], "options": {"max_turns": 60}},
               {"names": list("ABCDEF"), "options": {"max_turns": 80}},
               {"names": ["A", "B", "C"], "options": {"coins_500": 0, "notes_1000": 0, "max_turns": 80}},
               {"names": ["A", "B", "C"], "options": {"spill_to": "thrower", "auto_call_at": 0, "max_turns": 60}},
               {"names": ["A", "B"], "start_player": 1},
               {"names": ["A", "B", "C"], "rules": 2, "options": {"max_turns": 60}}]

    def money(s):
        return sum(x.yen for x in s.seats) + g.coin_value(s.pot)

    def places(s):
        where = {d: [] for d in DRINK_IDS}
        for d in s.heap:
            where[d].append("heap")
        for p, x in enumerate(s.seats):
            for d in x.crate:
                where[d].append(f"crate {p}")
        for d in s.tower.inside:
            where[d].append("tower")
        for d in s.queue:
            where[d].append("queue")
        if s.flying:
            where[s.flying].append("flying")
        return where

    def extra(s, p, rng):
        if s.phase in (g.DROP, g.MORE) and rng.random() < 0.05:
            return Move("foul", CHANCE, {"seat": s.player})
        if s.phase != g.TURN:
            return None
        free = g.CRATE - len(s.seats[p].crate)
        if free < 2 or len(s.heap) < 2:
            return None
        cans = rng.sample(sorted(s.heap), rng.randint(2, min(free, 3)))
        if rng.random() < 0.25:  # all the player's coins: mostly a coin to spare (refused under rules version 1)
            coins = tuple(c for c, n in zip(g.DENOMS, s.seats[p].coins) for _ in range(n))
            return Move("buy", p, {"drinks": tuple(cans), "coins": coins})
        cost = sum(g.price(s, d) for d in cans)
        ways = g.payments(s.seats[p].coins, cost)
        if not ways:
            return None
        way = rng.choice(ways)
        coins = tuple(c for c, n in zip(g.DENOMS, way) for _ in range(n))
        return Move("buy", p, {"drinks": tuple(cans), "coins": coins})

    def check(s):
        assert all(min(x.coins) >= 0 for x in s.seats) and min(s.pot) >= 0
        assert all(len(x.crate) <= g.CRATE for x in s.seats) or s.phase in (g.DISCARD, g.DROP, g.MORE)
        assert all(not x.crate for x in s.seats if x.out)

    return g, configs, money, places, lambda s: {}, extra, check


def _upside():
    from companion.rules.games import upside_down_tower as g

    configs = [{"names": ["A", "B"]}, {"names": ["A", "B", "C"]}, {"names": list("ABCDEF")},
               {"names": ["A", "B", "C"], "options": {"marker_colours": ["red", "mint"], "start_yen": 300,
                                                      "max_rebids": 0, "hide_yen_while_bidding": False}},
               {"names": ["A", "B", "C", "D"], "options": {"max_rounds": 3}}]

    def money(s):
        return s.bank + sum(x.yen for x in s.seats) + sum(b.coins * s.options.coin for b in s.bets) + \
            sum(y for _, y in s.prices)

    def places(s):
        where = {d: [] for d in DRINK_IDS}
        for d in s.lid:
            where[d].append("lid")
        for d in s.markers:
            where[d].append("marker")
        for c, ds in s.cards:
            for d in ds:
                assert g.colour_of(d) == c
                where[d].append(f"card {c}")
        for p, x in enumerate(s.seats):
            for d in x.stocks:
                where[d].append(f"stocks {p}")
        for d in s.front:
            where[d].append("front")
        for d in s.thrown:
            where[d].append("thrown")
        return where

    def secrets(s):
        return {p: s.bidding.amount(p) for p in range(len(s.seats))} if s.bidding else {}

    def check(s):
        assert len(s.front) <= g.FRONT_SLOTS
        assert all(x.yen >= 0 for x in s.seats)
        if s.phase == g.BID and s.options.hide_yen_while_bidding:
            for viewer in range(len(s.seats)):
                v = g.view(s, viewer)
                assert all(q["yen"] is None for i, q in enumerate(v["players"]) if i != viewer)

    return g, configs, money, places, secrets, None, check


def _chocolate():
    from companion.rules.games import chocolate_milk as g

    configs = [{"names": ["A", "B"]}, {"names": ["A", "B", "C"]}, {"names": list("ABCDEF")},
               {"names": ["A", "B", "C"], "options": {"use_tower": False, "rise_when": "out"}},
               {"names": ["A", "B", "C", "D"], "options": {"spill_to": "thrower", "start_yen": 100,
                                                           "crates_for_sale": 0}},
               {"names": ["A", "B"], "start_player": 1, "options": {"max_turns": 40, "refill": "dice"}},
               {"names": ["A", "B", "C"], "rules": 2}]

    def money(s):
        return s.bank + sum(x.yen for x in s.seats) + sum(y for _, y in s.prices)

    def places(s):
        where = {d: [] for d in DRINK_IDS}
        for d in s.supply:
            where[d].append("supply")
        for i, cell in enumerate(s.grid):
            for d in cell:
                where[d].append(f"cell {i}")
        for p, x in enumerate(s.seats):
            for k, c in enumerate(x.crates):
                for d in c:
                    where[d].append(f"crate {p}.{k}")
        for d in s.tower.inside:
            where[d].append("tower")
        if s.flying and s.flying not in s.tower.inside:
            where[s.flying].append("flying")
        return where

    def extra(s, p, rng):
        if s.phase != g.TURN:
            return None
        mine = [d for c in s.seats[p].crates for d in c]
        if len(mine) < 2:
            return None
        card = rng.choice(g.CARD_IDS)
        fits = [d for d in mine if g.matches(d, card)]
        if len(fits) < 2:
            return None
        return Move("sell", p, {"card": card, "drinks": tuple(rng.sample(fits, rng.randint(1, len(fits))))})

    def check(s):
        assert all(len(c) <= g.CRATE for x in s.seats for c in x.crates)
        assert all(x.yen >= 0 for x in s.seats)
        assert s.phase == g.FILL or sum(len(c) for c in s.grid) >= 9 or not s.supply

    return g, configs, money, places, lambda s: {}, extra, check


def _pura():
    from companion.rules.games import pura as g

    configs = [{}, {"options": {"hard": True}}, {"layout": list(DRINK_IDS)},
               {"options": {"out_to": "shape", "hundreds": 30, "five_hundreds": 6}},
               {"options": {"fix_limit": 0}},
               {"rules": 2, "options": {"max_share": 4}}, {"rules": 2, "options": {"max_share": 2, "fix_limit": 8}}]

    def money(s):
        return (s.hundreds + s.spent_hundreds) * 100 + (s.fives + s.spent_fives) * 500

    def places(s):
        where = {d: [] for d in DRINK_IDS}
        for i, c in enumerate(s.crates):
            for d in c:
                if d:
                    where[d].append(f"crate {i}")
        for card, ds in s.cards:
            for d in ds:
                assert g.matches(d, card)
                where[d].append(f"card {card}")
        for d in s.tower.inside:
            where[d].append("tower")
        for d in s.thrown:
            where[d].append("thrown")
        if s.phase == g.FILL:  # drinks not drawn yet are in the box lid
            for d, w in where.items():
                if not w:
                    w.append("lid")
        return where

    def check(s):
        assert s.fixes <= s.options.fix_limit
        if s.phase == g.PLAY and s.actions == 0 and s.fixes < s.options.fix_limit:
            assert g.excess(s.crates, s.options.counted_share) == 0
        if s.phase == g.OVER:
            assert s.result in ("won", "lost")
            assert (s.result == "won") == (g.sorted_count(s) == 36)

    return g, configs, money, places, lambda s: {}, None, check


def _lemon():
    from companion.rules.games import lemon_squash as g

    configs = [{"names": ["A", "B"]}, {"names": list("ABCDEF")}, {"names": list("ABCDEFG")},
               {"names": list("ABCDEFGHIJKL")},
               {"names": list("ABCD"), "options": {"teams": [[0, 2], [1, 3]], "colours": ["red", "blue"],
                                                   "start_yen": 200, "max_rounds": 10}}]

    def money(s):
        return s.bank + sum(u.yen for u in s.units)

    def places(s):
        where = {d: [] for d in DRINK_IDS}
        used = {u.colour for u in s.units}
        for d in s.arena:
            where[d].append("arena")
        for i, u in enumerate(s.units):
            for d in u.collected:
                where[d].append(f"unit {i}")
            where[f"{u.colour}-short_can"].append(f"flicker {i}")
        for d, w in where.items():
            if d.split("-")[0] not in used:
                w.append("box")
        return where

    def check(s):
        for u in s.units:
            assert list(u.collected) == [f"{d.split('-')[0]}-{sh}" for d, sh in zip(u.collected, s.cards)]
            assert u.yen >= 0

    return g, configs, money, places, lambda s: {}, None, check


def _izakaya():
    from companion.rules.games import izakaya as g

    configs = [{"names": ["A", "B"]}, {"names": list("ABC"), "options": {"two_lots": [0, 8]}},
               {"names": list("ABCD"), "options": {"end_pot": 600, "pieces": 8}},
               {"names": list("ABCDE"), "options": {"end_pot": 800, "build_on": "own"}}]

    def money(s):
        return s.pot + sum(x.yen for x in s.seats)

    def places(s):
        where = {d: [] for d in DRINK_IDS}
        for d in s.crates:
            where[d].append("crate")
        for k, d in s.drinks:
            where[d].append(f"corner {k}")
        return where

    def secrets(s):
        return dict(s.bidding.sealed) if s.bidding is not None else {}

    def check(s):
        o = s.options
        # every pyramid, claim disc, action disc and building piece in exactly one place
        plots = [c for x in s.seats for c in x.plots]
        edges = [e for x in s.seats for e in x.claims]
        assert len(plots) == len(set(plots)) and set(plots) <= set(s.grid.plots)
        assert len(edges) == len(set(edges)) and set(edges) <= set(s.grid.edges)
        for p, x in enumerate(s.seats):
            assert len(x.plots) <= o.pyramids and len(x.claims) <= o.claim_discs and x.yen >= 0
            assert s.laid(p) <= o.action_discs
        assert s.pieces + sum(b[3] for b in s.buildings) == o.pieces
        assert all(1 <= b[2] <= o.max_storeys and b[1] < s.lots[b[0]] for b in s.buildings)
        assert sum(s.coins) == sum(o.start_coins) and min(s.coins) >= 0
        assert not set(k for k, _ in s.drinks) - set(s.grid.corners)

    return g, configs, money, places, secrets, None, check


def _exploding():
    from companion.rules.games import exploding_cans as g

    configs = [{"names": ["A", "B"], "options": {"max_turns": 20}},
               {"names": list("ABCDEF"), "options": {"max_turns": 24, "chain": "short_and_tall"}},
               {"names": list("ABC"), "options": {"max_turns": 15, "colours": ["red", "blue", "white"],
                                                  "first_seat": 2}}]

    def places(s):
        where = {d: [] for d in DRINK_IDS}
        for p, supply in enumerate(s.supply):
            for d in supply:
                where[d].append(f"supply {p}")
        for sq, d in enumerate(s.grid):
            if d:
                where[d].append(f"square {sq}")
        for d in s.out:
            where[d].append("out")
        for d, w in where.items():
            if d.split("-")[0] not in s.colours:
                w.append("box")
        return where

    def check(s):
        assert all(d.split("-")[0] in s.colours for d in s.grid if d)
        in_crates = [(k, slot, d) for k, c in enumerate(g.crates(s.grid)) for slot, d in enumerate(c) if d]
        assert sorted(in_crates) == sorted((*g.crate_of(sq), d) for sq, d in enumerate(s.grid) if d)
        if s.phase == g.OVER:
            assert s.end == "turn_limit" or any(not x for x in s.supply)

    def extra(s, p, rng):  # a move or an explosion now and then (placing is most of what is listed)
        other = [m for m in g.legal_moves(s, p) if m.kind != "place"]
        return rng.choice(other) if other else None

    return g, configs, lambda s: 0, places, lambda s: {}, extra, check
def _bottle_square():
    from companion.rules.games import bottle_square as g

    configs = [{"names": ["A", "B"]}, {"names": list("ABC"), "options": {"majority_by": "player"}},
               {"names": list("ABCD"), "options": {"slide": "columns", "first_player": 2}},
               {"names": list("ABCDE"), "options": {"take_own": True}}, {"names": list("ABCDEF")},
               {"names": ["A", "B"], "layout": list(DRINK_IDS), "options": {"majority_by": "player"}}]

    def places(s):
        where = {d: [] for d in DRINK_IDS}
        for row in s.grid:
            for d in row:
                if d:
                    where[d].append("square")
        for p, t in enumerate(s.taken):
            for d in t:
                where[d].append(f"seat {p}")
        if s.phase == g.FILL:  # drinks not drawn yet are in the box
            for d, w in where.items():
                if not w:
                    w.append("box")
        return where

    def check(s):
        n = len(s.grid)
        if s.phase != g.FILL:  # no gaps: every drink stands on the crate's edge or on a drink
            for r in range(n - 1):
                for c in range(n):
                    assert not s.grid[r][c] or s.grid[r + 1][c]
                    if s.options.slide == "rows":  # and at the left edge or beside a drink
                        assert not s.grid[r][c] or c == 0 or s.grid[r][c - 1]
        assert all(len(t) % 2 == 0 for t in s.taken) and sum(map(len, s.taken)) == 2 * s.turns
        if s.phase == g.OVER:
            assert not any(g.can_take(s, p) for p in range(s.n))

    return g, configs, lambda s: 0, places, lambda s: {}, None, check


def _colour_sort():
    from companion.rules.games import colour_sort as g

    configs = [{}, {"layout": list(g.LAYOUT_EXAMPLE)}, {"options": {"colours": 4, "same_position": True}},
               {"options": {"win": "any", "fix_limit": 0, "thousands": 6, "hundreds": 2}},
               {"options": {"colours": 5, "refund_first": "500", "card_value": 1000}}]

    def money(s):
        o = s.options
        spent_100s = o.time_coins - s.hundreds      # the time track's coins gone at the rounds' ends
        return (s.hundreds + spent_100s) * 100 + (s.fives + s.spent_fives) * 500 \
            + (s.thousands + s.spent_thousands) * 1000

    def places(s):
        where = {d: [] for d in DRINK_IDS}
        for i, c in enumerate(s.crates):
            for d in c:
                if d:
                    where[d].append(f"crate {i}")
        for d, w in where.items():
            if not w:     # colours not in play and drinks not drawn yet: in the box
                assert s.phase in (g.LEAVE, g.FILL) or d.split("-")[0] not in s.colours
                w.append("box")
        return where

    def check(s):
        o = s.options
        assert len(s.crates) == o.crates and all(len(c) == 6 for c in s.crates)
        assert (s.fives + s.spent_fives, s.thousands + s.spent_thousands) == (o.fives, o.thousands)
        assert 0 <= s.hundreds <= o.time_coins and s.round == o.time_coins - s.hundreds + 1
        assert len(s.deck) + len(s.aside) + (s.card is not None) <= len(s.cards)
        assert (s.phase == g.MOVE) == (s.card is not None)
        if s.phase == g.OVER:
            assert (s.result == "won") == g.is_won(s)
            assert s.result == "won" or s.hundreds == 0

    return g, configs, money, places, lambda s: {}, None, check


def _crate_duel():
    from companion.rules.games import crate_duel as g

    configs = [{"names": ["A", "B"]}, {"names": ["A", "B"], "options": {"drinks_per_card": 1, "crate_size": 2}},
               {"names": ["A", "B"], "options": {"first": "shape", "crate_yen": True, "coins": 8}}]

    def money(s):
        return s.bank + sum(s.yen(p) for p in (0, 1))

    def places(s):
        where = {d: [] for d in DRINK_IDS}
        for p in (0, 1):
            for d in s.supply[p]:
                where[d].append(f"supply {p}")
            for k, ds in enumerate(s.placed[p]):
                for d in ds:
                    where[d].append(f"card {p}/{k}")
        for k, ds in enumerate(s.contents):
            for d in ds:
                where[d].append(f"crate {k}")
        for d in (s.keeping[1] if s.keeping else ()):
            where[d].append("keeping")
        for name, ds in (("tower", s.tower.inside), ("thrown", s.thrown), ("discarded", s.discarded), ("box", s.box)):
            for d in ds:
                where[d].append(name)
        return where

    def check(s):
        assert min(s.coins) >= 0 and s.bank >= 0
        assert all(len(c) <= s.options.crate_size for c in s.contents)
        for k in range(s.scored):  # a scored crate: its cards are empty, its drinks with the winner or gone
            assert not s.placed[0][k] and not s.placed[1][k]
            assert s.won_by[k] is not None or not s.contents[k]
        for k in range(s.scored, 6):  # the six crates: each still upturned in the row, or scored once
            assert s.won_by[k] is None and not s.contents[k] and s.points[k] is None
        if s.phase == g.OVER:
            assert s.scored == 6 and len(s.card_pays) == 12 and all(s.passed)

    return g, configs, money, places, lambda s: {}, None, check


def _grape():
    from companion.rules.games import grape_soda as g
    from companion.rules.games.grape_soda_grid import connected, size

    # Short games: a few rounds, few drinks to take (docs/rules-notes.md, GRAPE SODA).
    configs = [{"names": ["A", "B"], "options": {"max_rounds": 5, "win_counts": [2]}},
               {"names": list("ABC"), "options": {"players": 3, "max_rounds": 3, "first_player": 1}},
               {"names": list("ABCDEF"), "options": {"players": 6, "max_rounds": 2, "colours": [0, 1, 2, 3, 4, 5]}}]

    def places(s):
        where = {d: [] for d in DRINK_IDS}
        used = {x.colour for x in s.seats}
        for c, crate in enumerate(s.slots):
            for k, d in enumerate(crate):
                if d:
                    where[d].append(f"crate {c} slot {k}")
        for p, x in enumerate(s.seats):
            for d in x.supply:
                where[d].append(f"supply {p}")
            for d in x.taken:
                assert g.colour_of(d) != x.colour
                where[d].append(f"taken {p}")
        for d, w in where.items():
            if g.colour_of(d) not in used:
                w.append("box")
        return where

    def check(s):
        # the six crates: one group, none overlapping, within the bounds every layout keeps
        assert len(s.layout) == 6 and connected(s.layout) and min(min(p) for p in s.layout) == 0
        w, h = size(s.layout)
        assert w <= 12 and h <= 18 and len(s.slots) == 6 and all(len(c) == 6 for c in s.slots)
        need = s.options.to_win(len(s.seats))
        assert all(len(x.taken) < need for x in s.seats) or s.end == "taken"
        assert s.round <= s.options.max_rounds

    return g, configs, lambda s: 0, places, lambda s: {}, None, check


def _yuzu():
    from companion.rules.games import yuzu as g
    from companion.rules.games import yuzu_crates as crates

    configs = [{"names": ["A", "B"], "options": {"max_turns": 6}},
               {"names": ["A"], "options": {"players": 1, "max_turns": 5}},
               {"names": list("ABC"), "options": {"players": 3, "touching": "along", "max_turns": 5, "win_count": 4}},
               {"names": list("ABCDE"), "options": {"players": 5, "blind": True, "max_turns": 6, "win_count": 3}}]

    def places(s):
        where = {d: [] for d in DRINK_IDS}
        for i, c in enumerate(s.crates):
            for d in c:
                where[d].append(f"crate {i}")
        return where

    def secrets(s):  # the blind variant's colours: no view shows another seat's
        return {p: cs for p, cs in enumerate(s.colours) if cs} if s.options.blind and s.phase != g.OVER else {}

    def check(s):
        cells = [c for p in s.places for c in crates.cells(p)]
        assert len(cells) == len(set(cells)) == 36, "crates overlap"
        assert crates.connected(s.places), "the crates split into two groups"
        assert min(x for x, _ in cells) == 0 and min(y for _, y in cells) == 0
        colours = [c for cs in s.colours for c in cs]
        assert len(colours) == len(set(colours))
        viewer = s.turns % s.n  # one viewer a move keeps the playout fast
        for p, shown in enumerate(x["colours"] for x in g.view(s, viewer)["players"]):
            assert shown == (list(s.colours[p]) if viewer == p or not s.options.blind or s.phase == g.OVER else None)
        if s.phase == g.OVER and s.result == "won" and s.n > 1:
            assert any(g.best_in_a_crate(s, c) >= s.options.win_count for p in s.winners for c in s.colours[p])

    return g, configs, lambda s: 0, places, secrets, None, check


def _genmaicha():
    from companion.rules.games import genmaicha as g
    from companion.rules.games.genmaicha_recipes import GAPS, LINES

    configs = [{"names": ["A", "B"], "options": {"rounds": 2}},
               {"names": list("ABCD"), "options": {"matcha": True, "market": True, "rounds": 2}},
               {"names": list("ABCDEF"), "options": {"bids_paid": "none", "market": True, "brand_paid_by": "brewer",
                                                     "brand_left": "bank", "max_rebids": 0, "rounds": 2}},
               {"names": list("ABC"), "options": {"ceremony": True, "rounds": 2}}]

    def money(s):
        return s.bank + sum(x.yen for x in s.seats) + sum(s.lines) + sum(s.pots) + sum(b.amount for b in s.brands)

    def places(s):
        where = {d: [] for d in DRINK_IDS}
        for d in s.bag:
            where[d].append("bag")
        for k, c in enumerate(s.crates):
            for d in c:
                where[d].append(f"crate {k}")
        for p, x in enumerate(s.seats):
            for d in x.drinks:
                where[d].append(f"seat {p}")
        return where

    def secrets(s):
        return {p: s.bidding.amount(p) for p in range(len(s.seats))} if s.bidding else {}

    def extra(s, p, rng):
        # A four-card recipe now and then; several recipes at once (with a matcha gap now and then), from a random handful of drinks.
        if s.phase != g.BREW or not s.seats[p].drinks:
            return None
        held = list(s.seats[p].drinks)
        args = {"lines": tuple(rng.sample(LINES, rng.randint(1, 2))),
                "drinks": tuple(rng.sample(held, rng.randint(1, min(6, len(held)))))}
        if s.options.matcha and rng.random() < 0.5:
            args["matcha"] = (rng.choice(GAPS),)
        if s.options.ceremony and rng.random() < 0.5:
            c = rng.randrange(3)
            args["ceremony"], args["lines"] = c, (f"col{c}",)
        return Move("brew", p, args)

    def check(s):
        assert len(set(s.grid)) == len(s.grid) <= 9
        assert all(0 <= v for v in s.lines) and all(0 <= v for v in s.pots)
        assert s.phase == g.OVER or all(x.yen >= 0 for x in s.seats)
        assert 1 <= s.round <= s.options.total_rounds
        if s.options.ceremony:   # a hidden card shows only to those who looked, or to all once face up
            for viewer in (None, *range(len(s.seats))):
                for c, h in enumerate(g.view(s, viewer)["hidden_cards"]):
                    assert h["card"] is None or c in s.revealed or (viewer, c) in s.seen

    return g, configs, money, places, secrets, extra, check


def _hidden_cards():
    from companion.rules.games import hidden_cards as g

    configs = [{"names": ["A", "B"]}, {"names": ["A", "B"], "options": {"first_player": 1}}]

    def places(s):
        where = {d: ["middle"] for d in s.middle}
        for p, x in enumerate(s.seats):
            for d in x.won:
                where.setdefault(d, []).append(f"card {p}")
        return where

    def check(s):
        # every card in one place: a hand, a laid card, or (the two left) the hidden pair
        dealt = [c for x in s.seats for c in x.cards]
        assert len(dealt) == len(set(dealt)) and all(len(x.cards) <= g.HAND for x in s.seats)
        assert all(x.laid is None or x.laid in x.cards for x in s.seats)
        assert all(len(x.won) <= g.FULL for x in s.seats)
        for viewer in (None, 0, 1):   # another seat's cards never show before the end
            v = g.view(s, viewer)
            for p, seen in enumerate(v["players"]):
                if p != viewer and s.phase != g.OVER:
                    assert seen["hand"] is None and seen["laid"] is None
            assert v["hidden"] is None or s.phase == g.OVER
        if s.phase == g.OVER:
            hidden = s.hidden()
            seat, colour, shape = s.guessed
            assert s.winners == ((seat,) if (colour, shape) == hidden else (1 - seat,))

    return g, configs, lambda s: 0, places, lambda s: {}, None, check


def _bottle_giving():
    from companion.rules.games import bottle_giving as g

    configs = [{"names": list("ABC")}, {"names": list("ABCD"), "start_player": 2},
               {"names": list("ABCDE"), "options": {"price": 200}},
               {"names": list("ABCDEF"), "options": {"max_turns": 30}},
               {"names": list("ABC"), "options": {"gifts_at_three": 1}}]

    def money(s):
        return s.bank + sum(x.yen for x in s.seats)

    def places(s):
        where = {d: ["box"] for d in s.box()}
        for p, x in enumerate(s.seats):
            for d in x.drinks:
                where.setdefault(d, []).append(f"seat {p}")
        return where

    def check(s):
        # the handed-out drinks never change in number, and each card is held, discarded or in the deck once
        if s.phase not in (g.START, g.HAND_OUT):
            assert sum(len(x.drinks) for x in s.seats) == sum(g.DRINKS_BY_PLAYERS[s.n])
        held = [x.card for x in s.seats if x.card]
        assert len(held) == len(set(held)) and not set(held) & set(s.discard)
        assert all(x.yen >= 0 for x in s.seats)
        for viewer in (None, *range(s.n)):   # another seat's card never shows
            for p, seen in enumerate(g.view(s, viewer)["players"]):
                assert seen["secret"] is None or p == viewer
        if s.phase == g.OVER:
            assert any(x.yen == 0 for x in s.seats) or s.turns >= s.options.max_turns

    return g, configs, money, places, lambda s: {}, None, check


def _toriatama():
    from companion.rules.games import toriatama as g

    configs = [{"names": ["A", "B"]}, {"names": list("ABC"), "options": {"first_player": 2}},
               {"names": list("ABCDEF"), "options": {"show_fists": True}}, {"names": list("ABCD")}]

    def places(s):
        where = {d: ["middle"] for d in s.middle}
        for p, x in enumerate(s.seats):
            for d in (x.right, x.left, *x.crate):
                if d:
                    where.setdefault(d, []).append(f"seat {p}")
        return where

    def check(s):
        assert all(len(x.crate) <= g.CRATE for x in s.seats)
        assert s.phase != g.OVER or all(x.right is None and x.left is None for x in s.seats)
        if not s.options.show_fists and s.phase != g.OVER:   # no screen shows what a closed fist holds
            for viewer in (None, *range(s.n)):
                for seen in g.view(s, viewer)["players"]:
                    assert seen["right_fist"] in (None, "held") and seen["left_fist"] in (None, "held")

    return g, configs, lambda s: 0, places, lambda s: {}, None, check


def _crate_draft():
    from companion.rules.games import crate_draft as g

    configs = [{"names": ["A", "B"]}, {"names": list("ABC"), "options": {"first_player": 2}},
               {"names": list("ABCD"), "options": {"crates": 5}}]

    def money(s):   # no yen move before the end; then the bank pays what the cards earned
        return sum(x.yen for x in s.seats) - sum(g.earned(s, x)[0] for x in s.seats) if s.phase == g.OVER else \
            sum(x.yen for x in s.seats)

    def places(s):
        where = {d: ["middle"] for d in s.middle}
        for k, c in enumerate(s.crates):
            for d in c:
                where.setdefault(d, []).append(f"crate {k}")
        return where

    def check(s):
        cards = [c for x in s.seats for c in (*x.packet, *x.hand, *x.laid)]
        assert len(cards) == len(set(cards)) and all(len(c) <= g.FULL for c in s.crates)
        assert len(s.full) <= g.ENDS_AT and all(len(s.crates[k]) == g.FULL for k in s.full)
        for viewer in (None, *range(s.n)):   # another seat's cards never show before the end
            for p, seen in enumerate(g.view(s, viewer)["players"]):
                if p != viewer and s.phase != g.OVER:
                    assert seen["hand"] is None and seen["laid"] is None and seen["packet"] is None
        if s.phase == g.OVER:
            assert all(len(x.laid) == 2 for x in s.seats)

    return g, configs, money, places, lambda s: {}, None, check


def _golden_runner():
    from companion.rules.games import golden_runner as g

    configs = [{"names": ["A", "B"]}, {"names": list("ABC"), "options": {"races": 3, "runner": 2}},
               {"names": list("ABCDE"), "options": {"races": 2}},
               {"names": list("ABCDEFG"), "options": {"teams": [[1, 2, 3], [4, 5, 6]], "races": 4}}]

    def check(s):
        assert sum(1 for r in s.races if r.side == "runner") + sum(1 for r in s.races if r.side == "crates") == s.race
        for r in s.races:
            assert (r.winners == (r.runner,)) == (r.side == "runner")
        if s.phase == g.OVER:
            assert s.race == s.options.races and s.winners == g.top(g.points(s))

    def extra(s, p, rng):   # a stamped done, now and then with a crate listed
        if s.phase != g.RACE:
            return None
        args = {"at_ms": rng.randrange(0, 10**12)}
        if p != s.runner and rng.random() < 0.5:
            args["drinks"] = tuple(rng.sample(g.DRINK_IDS, 6))
        return Move("done", p, args)

    return g, configs, lambda s: 0, lambda s: {}, lambda s: {}, extra, check


def _bottle_bonus():
    from companion.rules.games import bottle_bonus as g

    configs = [{"names": ["A", "B"], "options": {"max_rounds": 6}}, {"names": list("ABC"), "options": {"max_rounds": 9}},
               {"names": list("ABCD"), "options": {"blue_bonus": 300, "max_rounds": 12}}]

    def places(s):
        where = {d: ["box"] for d in s.box()}
        for p, x in enumerate(s.seats):
            for d in (*x.held, *x.kept, *((x.bet,) if x.bet else ())):
                where.setdefault(d, []).append(f"seat {p}")
        for d in (*s.drawn, *s.out, *s.tower.inside, *s.rethrow):
            where.setdefault(d, []).append("tower or tray")
        return where

    def check(s):
        assert all(g.colour(d) == "blue" for x in s.seats for d in x.kept)
        assert all(x.bet is None or g.colour(x.bet) == "blue" for x in s.seats)
        if s.phase == g.OVER:
            assert g.payouts(s)["yen"] == [s.options.blue_bonus * len(x.kept) + (x.score or 0) for x in s.seats]

    def extra(s, p, rng):   # the end with TOKYO JUTAKU's scores, now and then
        if s.phase == g.BUILD and rng.random() < 0.2:
            return Move("end", CHANCE, {"scores": [rng.randrange(0, 5000, 100) for _ in s.seats]})
        return None

    return g, configs, lambda s: 0, places, lambda s: {}, extra, check


def _mr_sudsy():
    from companion.drinks import DETERGENT_IDS
    from companion.rules.games import mr_sudsy as g

    configs = [{"names": ["A"], "options": {"max_visits": 8}}, {"names": list("ABC"), "options": {"bottles": 2}},
               {"names": list("ABCD"), "options": {"bottles": 12, "pushed_out_to": "buyer", "price": 100}},
               {"names": list("ABCDEF"), "options": {"start_yen": 400, "max_visits": 20}}]

    def money(s):
        return s.bank + sum(x.yen for x in s.seats)

    def places(s):
        where = {b: ["beside"] for b in s.beside}
        for p, x in enumerate(s.seats):
            for b in x.held:
                where.setdefault(b, []).append(f"seat {p}")
        for b in (*s.tower.inside, *((s.flying,) if s.flying else ())):
            where.setdefault(b, []).append("tower")
        for b in DETERGENT_IDS[:s.options.bottles]:
            where.setdefault(b, [])   # a bottle in no place shows as missing
        return where

    def check(s):
        assert set(s.tower.inside) == {b for b, _ in s.paid_for}, "every stuck bottle has its buyer"
        assert s.bank == s.options.price * sum(x.bought for x in s.seats)
        assert all(x.yen >= 0 for x in s.seats)

    def extra(s, p, rng):   # the laundromat game's end with its scores, now and then
        if s.phase == g.VISIT and rng.random() < 0.1:
            return Move("end", CHANCE, {"scores": [rng.randrange(0, 50) for _ in s.seats]})
        return None

    return g, configs, money, places, lambda s: {}, extra, check


def _shopping_mall():
    from companion.rules.games import shopping_mall as g

    configs = [{"names": ["A", "B"], "options": {"shelves": "sorted"}},
               {"names": list("ABC"), "options": {"skill": True, "start_yen": 1000}},
               {"names": list("ABCDEF"), "options": {"shelves": "sorted", "trips": 1, "max_rounds": 30}}]

    def money(s):   # the bank, the shoppers, and the yen lying on the market's price piles
        return s.bank + sum(x.yen for x in s.seats) + sum(s.prices.values())

    def places(s):
        return s.goods_where()

    def check(s):
        plan = s.plan
        assert len(places(s)) == 36 + sum(len(c.goods) for c in plan.cards) + len(plan.bag)
        assert all(x.at == "outside" or x.at in plan.faces for x in s.seats)
        assert all(v >= 0 for v in s.prices.values()) and s.barrels >= 0
        if s.phase == g.OVER:
            assert sum(s.done(p) for p in range(s.n)) >= s.n - 1 or s.round > s.options.max_rounds
            best = max(x.yen for x in s.seats)
            assert all(s.seats[p].yen == best for p in s.winners)

    def extra(s, p, rng):   # a good falls out of any crate now and then (the skill variant)
        full = [q for q, x in enumerate(s.seats) if x.crate]
        if s.options.skill and full and rng.random() < 0.3:
            q = rng.choice(full)
            return Move("lose", q, {"good": rng.choice(s.seats[q].crate)})
        return None

    return g, configs, money, places, lambda s: {}, extra, check


def _vend_machine():
    from companion.rules.games import vend_machine as g

    configs = [{"names": ["A", "B"]}, {"names": list("ABC"), "options": {"chain": 1, "stuck_shots": "back"}},
               {"names": list("ABCD"), "options": {"hp": 20, "max_turns": 60, "damage_offered": 5}}]

    def places(s):
        where = {}
        for c in g.CRATES:
            for d in s.crate(c):
                where.setdefault(d, []).append(f"crate {c}")
                assert g.colour(d) == c, f"{d} stands in the {c} crate"
        for p, chain in enumerate(s.chains):
            for d in chain:
                where.setdefault(d, []).append(f"chain {p}")
        for d in (*s.ammo, *s.fired, *s.out, *s.tower.inside):   # (the shots to enter are among those out)
            where.setdefault(d, []).append("unit, tower or shot")
        for d in DRINK_IDS:
            where.setdefault(d, [])
        return where

    def check(s):
        assert 0 <= s.hp <= s.options.hp and s.destroyed == (s.hp == 0)
        assert not s.destroyed or not s.ammo
        assert all(len(c) <= s.options.chain for c in s.chains)
        assert set(s.shots) <= set(s.out)
        if s.phase == g.BATTLE:
            assert not s.fired and not s.out
        if s.owner is not None:
            assert s.damage[s.owner] == 0, "the unit never hits its own party"

    def extra(s, p, rng):   # a shot of part of the ammunition; heavier damage than chance draws
        if s.phase == g.BATTLE and not s.destroyed and rng.random() < 0.3:
            return Move("damage", CHANCE, {"amount": rng.randint(1, g.MAX_DAMAGE)})
        if s.phase == g.ACT and len(s.ammo) > 1:
            return Move("fire", p, {"drinks": tuple(rng.sample(s.ammo, rng.randint(1, len(s.ammo))))})
        return None

    return g, configs, lambda s: 0, places, lambda s: {}, extra, check


GAME_SPECS = {
    "jasmine_tea": _jasmine, "melon_soda": _melon, "vending_poker": _poker, "upside_down_tower": _upside,
    "chocolate_milk": _chocolate, "pura": _pura, "lemon_squash": _lemon, "izakaya": _izakaya,
    "exploding_cans": _exploding, "bottle_square": _bottle_square, "colour_sort": _colour_sort,
    "crate_duel": _crate_duel, "grape_soda": _grape, "yuzu": _yuzu, "genmaicha": _genmaicha,
    "hidden_cards": _hidden_cards, "bottle_giving": _bottle_giving,
    "toriatama": _toriatama, "crate_draft": _crate_draft,
    "golden_runner": _golden_runner, "bottle_bonus": _bottle_bonus,
    "mr_sudsy": _mr_sudsy, "vend_machine": _vend_machine,
    "shopping_mall": _shopping_mall}


# --- the playout ---------------------------------------------------------------------------

def composed(g, state, seat, rng):
    """A random composition of one of the seat's composites (see engine.Game), or None."""
    found = g.composite_moves(state, seat) if hasattr(g, "composite_moves") else []
    if not found:
        return None
    c = rng.choice(found)
    pick = c["pick"]
    group = rng.choice(pick.get("within") or [pick["from"]])
    items = rng.sample(group, rng.randint(pick["min"], min(pick["max"], len(group))))
    args = dict(c.get("base", {}))
    names = pick["arg"] if isinstance(pick["arg"], list) else [pick["arg"]]
    for i, name in enumerate(names):
        args[name] = tuple(item[i] if isinstance(pick["arg"], list) else item for item in items)
    due = c.get("price", {}).get(str(len(items)), 0) + sum(c.get("each", {}).get(str(i), 0) for i in items)
    if "amounts" in c:
        a = c["amounts"]
        amounts = [a["min"]] * len(items)
        for _ in range(rng.randint(0, (a["max_total"] - sum(amounts)) // a["step"])):
            amounts[rng.randrange(len(amounts))] += a["step"]
        args[a["arg"]] = tuple(amounts)
        due += sum(amounts)
    if "coins" in c:
        coins = [int(d) for d, n in c["coins"]["have"].items() for _ in range(n)]
        if sum(coins) < due:
            return None
        while True:  # leave out coins at random until none is to spare
            spare = [x for x in coins if sum(coins) - x >= due]
            if not spare:
                break
            coins.remove(rng.choice(spare))
        args[c["coins"]["arg"]] = tuple(coins)
    return Move(c["kind"], seat, args)


def next_move(g, state, rng, extra, spill_rate=0.03):
    tower = getattr(state, "tower", None)
    loose = getattr(tower, "loose", None)   # what can fall out on its own (a stuck detergent bottle cannot)
    inside = sorted(loose if loose is not None else getattr(tower, "inside", ()) or ())
    if inside and rng.random() < spill_rate:
        return Move("spill", CHANCE, {"out": tuple(rng.sample(inside, rng.randint(1, len(inside))))}), False
    who = rng.choice(g.pending(state))
    if who.actor == CHANCE:
        spec = g.chance(state)
        if isinstance(spec, ChanceChoice):
            assert spec.outcomes, f"chance is pending in {state.phase} with no outcomes"
            assert abs(sum(p for _, p in spec.outcomes) - 1) < 1e-9
            return rng.choice([m for m, _ in spec.outcomes]), False
        assert isinstance(spec, ChanceDrop)
        rate = rng.choice((0.2, 0.6, 0.9))
        return Move(spec.move_kind, CHANCE, {"out": tuple(d for d in spec.candidates if rng.random() < rate)}), False
    if rng.random() < 0.15:
        move = composed(g, state, who.actor, rng)
        if move is not None:
            return move, False  # described by the game: must be accepted
    if extra is not None and rng.random() < 0.15:
        move = extra(state, who.actor, rng)
        if move is not None:
            return move, True
    moves = g.legal_moves(state, who.actor)
    assert moves, f"seat {who.actor} is pending in {state.phase} but has no legal move"
    return rng.choice(moves), False


def check_invariants(g, state, start_money, money, places, secrets, check):
    assert money(state) == start_money, "yen were created or lost"
    wrong = {d: w for d, w in places(state).items() if len(w) != 1}
    assert not wrong, f"drinks not in exactly one place: {wrong}"
    table = g.view(state, None)
    json.dumps(table)
    json.dumps(g.payouts(state))
    hidden = {p: v for p, v in secrets(state).items() if v is not None}
    n = len(table["players"])
    for viewer in [None, *range(n)]:
        v = table if viewer is None else g.view(state, viewer)
        for p, secret in hidden.items():
            if p != viewer:
                assert v["players"][p].get("bid") is None, f"seat {p}'s secret shows in the view of {viewer}"
                if v.get("bidding"):
                    assert v["bidding"]["my_bid"] in (None, hidden.get(viewer))
    if check:
        check(state)
    if g.is_over(state):
        pay = g.payouts(state)
        assert pay["final"] is True and (pay["winners"] or pay.get("result") == "lost")
        assert g.pending(state) == []


def playout(name, config, seed):
    g, _, money, places, secrets, extra, check = GAME_SPECS[name]()
    rng = random.Random(seed)
    state = g.setup(config)
    start_money = money(state)
    moves = []
    check_invariants(g, state, start_money, money, places, secrets, check)
    while not g.is_over(state) and len(moves) < MAX_MOVES:
        move, made_up = next_move(g, state, rng, extra)
        try:
            state2, events = g.apply(state, move)
        except IllegalMove as exc:
            # Only a compound move the random agent made up may be refused (states are
            # immutable values, so a refusal cannot have changed anything).
            assert made_up, f"a listed or described move was refused: {move} ({exc.reason})"
            continue
        state = state2
        moves.append(move)
        for e in events:
            json.dumps(e.to_json())
        check_invariants(g, state, start_money, money, places, secrets, check)
    assert g.is_over(state), f"{name} did not end within {MAX_MOVES} moves"
    return g, state, moves


def _cases():
    return [(name, i) for name, spec in GAME_SPECS.items() for i in range(len(spec()[1]))]


@pytest.mark.parametrize("name", sorted(GAME_SPECS))
@SETTINGS
@given(data=st.data())
def test_random_playouts_keep_the_invariants_and_replay(name, data):
    configs = GAME_SPECS[name]()[1]
    config = data.draw(st.sampled_from(configs), label="config")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    g, state, moves = playout(name, config, seed)
    replayed, _ = engine.replay(g, config, moves)
    assert replayed == state
    from_log = [Move.from_json(line) for line in json.loads(json.dumps([m.to_json() for m in moves]))]
    assert from_log == moves
    again, _ = engine.replay(g, config, from_log)
    assert again == state
    assert g.view(again, None) == g.view(state, None)


@pytest.mark.parametrize("name", sorted(GAME_SPECS))
def test_every_config_plays_to_the_end(name):
    configs = GAME_SPECS[name]()[1]
    for i, config in enumerate(configs):
        g, state, _ = playout(name, config, 1000 + i)
        assert g.is_over(state)


# Registered games whose random playouts live in a test file of their own: the file, and the name
# under which it imports the game module it plays.
PLAYED_ELSEWHERE = {"pocari_bet": ("test_pocari_properties", "pb"),
                    "tokyo_metro": ("test_metro_properties", "metro"),
                    "osaka_metro": ("test_metro_osaka", "OSAKA"),
                    "metro_drinks": ("test_metro_drinks", "game")}


def test_every_registered_game_has_random_playouts_and_every_configuration_a_game():
    import importlib

    assert not set(GAME_SPECS) & set(PLAYED_ELSEWHERE), "a game is configured twice"
    configured = set(GAME_SPECS) | set(PLAYED_ELSEWHERE)
    unplayed = sorted(set(GAMES) - configured)
    assert not unplayed, f"registered in GAMES but never played out at random: {', '.join(unplayed)}"
    unknown = sorted(configured - set(GAMES))
    assert not unknown, f"configured for random playouts but not registered in GAMES: {', '.join(unknown)}"
    for name in sorted(GAME_SPECS):
        g, configs = GAME_SPECS[name]()[:2]
        game = GAMES[name]
        assert g.GAME is game and game.name == name, f"{name}: the configuration plays another module"
        assert configs, f"{name}: no configuration to play"
        for config in configs:
            assert len(config.get("names", [None] * game.players[0])) in game.players, f"{name}: {config}"
    for name, (module, attr) in sorted(PLAYED_ELSEWHERE.items()):
        tests = importlib.import_module(module)
        played = getattr(tests, attr)
        assert getattr(played, "GAME", played) is GAMES[name], f"{name}: {module} plays another module"
        assert callable(getattr(tests, "test_random_playouts_keep_the_invariants", None)), \
            f"{name}: {module} has no test_random_playouts_keep_the_invariants"


def test_common_helpers_doctests():
    import doctest

    from companion.rules.games import common

    result = doctest.testmod(common)
    assert result.failed == 0 and result.attempted > 0
