"""A seeded model of the vending-machine tower: which drinks (and an add-on's items) come out of a drop.

Each drink thrown in comes out with probability ``p_out`` or sticks; each drink
already stuck inside is pushed out by the drop with probability ``p_push``. Rare
spills (a stuck drink falling out on its own) happen with ``p_spill`` per check.

Other items have odds of their own (``KIND_ODDS``, per kind, see docs/rules-notes.md): a
detergent bottle of Mr. Sudsy's laundromat is bigger and heavier than a drink, so it catches on the
tower's ramps more often (``p_out`` 0.6) but, once another bottle lands on it, is nearly always
pushed through (``p_push`` 0.9). What may be pushed out at all is the rules' word: a caller passes
only the stuck items the throw can free (rules/tower.py ``Tower.freeable_by``). A drop of drinks
alone draws the same random numbers as it always did, so a seeded game replays as before.

>>> tower = SimTower(seed=7)
>>> obs = tower.drop(thrown=["red-tall_can", "blue-short_can"], inside=[])
>>> obs.source, set(obs.appeared) <= {"red-tall_can", "blue-short_can"}
('sim', True)
>>> SimTower(seed=1).odds("detergent-2")
(0.6, 0.9)
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..drinks import DETERGENT, DRINK, item_kind
from ..observation import Observation

# (p_out, p_push) of the items that are not drinks; drinks take the tower's own p_out and p_push.
KIND_ODDS: dict[str, tuple[float, float]] = {DETERGENT: (0.6, 0.9)}


@dataclass
class SimTower:
    seed: int = 0
    p_out: float = 0.8
    p_push: float = 0.5
    p_spill: float = 0.0
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def odds(self, item: str) -> tuple[float, float]:
        """(chance to come out when thrown, chance to be pushed out when stuck) of one item."""
        kind = item_kind(item)
        return (self.p_out, self.p_push) if kind == DRINK else KIND_ODDS[kind]

    def drop(self, thrown: list[str], inside: list[str]) -> Observation:
        out = [d for d in thrown if self.rng.random() < self.odds(d)[0]]
        out += [d for d in inside if self.rng.random() < self.odds(d)[1]]
        return Observation(source="sim", appeared=sorted(out))

    def maybe_spill(self, inside: list[str]) -> Observation | None:
        if not inside or self.rng.random() >= self.p_spill:
            return None
        return Observation(source="sim", appeared=[self.rng.choice(sorted(inside))])
