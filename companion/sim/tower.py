"""A seeded model of the vending-machine tower: which drinks come out of a drop.

Each drink thrown in comes out with probability ``p_out`` or sticks; each drink
already stuck inside is pushed out by the drop with probability ``p_push``. Rare
spills (a stuck drink falling out on its own) happen with ``p_spill`` per check.

>>> tower = SimTower(seed=7)
>>> obs = tower.drop(thrown=["red-tall_can", "blue-short_can"], inside=[])
>>> obs.source, set(obs.appeared) <= {"red-tall_can", "blue-short_can"}
('sim', True)
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..observation import Observation


@dataclass
class SimTower:
    seed: int = 0
    p_out: float = 0.8
    p_push: float = 0.5
    p_spill: float = 0.0
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def drop(self, thrown: list[str], inside: list[str]) -> Observation:
        out = [d for d in thrown if self.rng.random() < self.p_out]
        out += [d for d in inside if self.rng.random() < self.p_push]
        return Observation(source="sim", appeared=sorted(out))

    def maybe_spill(self, inside: list[str]) -> Observation | None:
        if not inside or self.rng.random() >= self.p_spill:
            return None
        return Observation(source="sim", appeared=[self.rng.choice(sorted(inside))])
