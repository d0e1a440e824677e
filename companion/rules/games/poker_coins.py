"""Coins of the vending-machine poker game: each player holds coins, not a sum, and pays with
them into the pot, which never gives change; a pot shared by tied winners is split in coins.

>>> payments((1, 2, 3), 200)
((0, 0, 2), (0, 1, 0), (1, 0, 0))
>>> spare((0, 1, 1), 100), spare((0, 1, 0), 100)
(True, False)
>>> split_pot((1, 0, 10), 2)
([(0, 0, 10), (1, 0, 0)], (0, 0, 0))
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Sequence

from ..engine import IllegalMove

DENOMS = (1000, 500, 100)

Coins = tuple[int, int, int]  # how many 1000s, 500s, 100s


def coin_value(coins: Coins) -> int:
    return sum(n * d for n, d in zip(coins, DENOMS))


def coins_json(coins: Coins) -> dict:
    return {str(d): n for d, n in zip(DENOMS, coins)}


def add_coins(a: Coins, b: Coins, sign: int = 1) -> Coins:
    return tuple(x + sign * y for x, y in zip(a, b))  # type: ignore[return-value]


def count_coins(payment: Sequence[int]) -> Coins:
    return tuple(sum(1 for c in payment if c == d) for d in DENOMS)  # type: ignore[return-value]


@lru_cache(maxsize=1024)
def payments(have: Coins, price: int) -> tuple[Coins, ...]:
    """Every way to pay ``price`` from ``have`` with no coin to spare: leaving out any one coin
    would fall short. The pot gives no change, so these are the payments worth offering; one
    with a coin to spare (``spare``) is accepted where the game's options allow it."""
    found = []
    for counts in product(*(range(n + 1) for n in have)):
        value = coin_value(counts)
        if value < price or not any(counts):
            continue
        if not spare(counts, price):
            found.append(counts)
    return tuple(found)


def spare(paid: Coins, price: int) -> bool:
    """Whether a payment of at least ``price`` holds a coin it could do without."""
    return any(paid) and coin_value(paid) - min(d for d, n in zip(DENOMS, paid) if n) >= price


def describe_coins(coins: Coins) -> str:
    return ", ".join(f"{n} x {d}" for d, n in zip(DENOMS, coins) if n) or "no coins"


def handed_over(have: Coins, coins: Sequence, cost: int, overpay: bool) -> Coins:
    """The coins a buyer pays ``cost`` with (a list of denominations, from ``have``): IllegalMove
    when they are not coins, not the buyer's, too few, or hold a coin to spare without ``overpay``."""
    if not coins or any(c not in DENOMS or isinstance(c, bool) for c in coins):
        raise IllegalMove(f"'coins' must list the coins you pay with: {', '.join(map(str, DENOMS))}")
    paid = count_coins([int(c) for c in coins])
    if any(x > y for x, y in zip(paid, have)):
        raise IllegalMove(f"you do not have those coins; you have {describe_coins(have)}")
    if coin_value(paid) < cost:
        raise IllegalMove(f"the cans cost {cost} yen; those coins make only {coin_value(paid)}")
    if not overpay and spare(paid, cost):
        raise IllegalMove(f"pay {cost} yen without a coin to spare: the pot gives no change, so "
                          "leave out any coin you do not need")
    return paid


def split_pot(pot: Coins, k: int) -> tuple[list[Coins], Coins]:
    """Share the pot's coins equally among ``k`` winners as far as possible without change.

    The largest equal share each winner can be handed; what cannot be shared stays in the pot.
    """
    units = (10, 5, 1)
    total = sum(n * u for n, u in zip(pot, units))
    for share in range(total // k, 0, -1):
        comps = [c for c in product(*(range(n + 1) for n in pot))
                 if sum(x * u for x, u in zip(c, units)) == share]
        groups = _find_groups(pot, comps, k, 0)
        if groups is not None:
            left = pot
            for g in groups:
                left = add_coins(left, g, -1)
            return groups, left
    return [(0, 0, 0)] * k, pot


def _find_groups(left: Coins, comps: list, k: int, start: int) -> list | None:
    if k == 0:
        return []
    for i in range(start, len(comps)):
        c = comps[i]
        if all(x <= y for x, y in zip(c, left)):
            rest = _find_groups(add_coins(left, c, -1), comps, k - 1, i)
            if rest is not None:
                return [c] + rest
    return None
