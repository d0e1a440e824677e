"""The landing reader's plastic colours taken from the view itself, an option
(``landing_crops.ADAPT``, off: measured and not kept, docs/performance.md "Plastic colours from
the table"): a set's plastics and lamps wander off the makers' nominal colours
(``landing_colours.PLASTIC_SRGB``), and each top view shows its own drinks' plastics.

>>> import numpy as np
>>> feats = tuple(np.zeros((4, 4) + s, np.float32) for s in ((2,), (), (2,), ()))
>>> adapted_references(feats, np.zeros((4, 4), bool)) == REFERENCES
True
"""
from __future__ import annotations

import numpy as np

from .landing_colours import CLASSES, PLASTIC_SRGB, REFERENCES, cost_stack, costs_of, reference_cost

ADAPT_ROUNDS = 3             # EM rounds of the plastics' own colours (``adapted_references``)
ADAPT_STEP = 3               # on every 3rd pixel each way (a drink keeps dozens: the same, 9 times cheaper)
ADAPT_OTHER = 9.0            # the cost of "no class" in that mixture: 3 sigmas off every class
ADAPT_LEAST_SHARE = 1e-3     # about one drink's share of the top view
ADAPT_MOST_SHARE = 0.01      # no plastic adapted to cover more of it (a far standing bottle ~0.3 %)
ADAPTED = ("mint", "blue", "red", "purple")   # black and white are told by brightness: their chromaticity stays
ADAPT_PRIOR_PX = 25.0        # the nominal colour weighs as much as this many of those pixels (100 mm² at
                             # 1.5 px/mm: a drink's 300-600 mm² outweighs it, a stray speck does not)


def adapted_references(feats: tuple[np.ndarray, ...], where: np.ndarray, rounds: int = ADAPT_ROUNDS,
                       prior: float = ADAPT_PRIOR_PX, step: int = ADAPT_STEP, keep_yellow: bool = True) -> dict:
    """The plastics' chromaticities as this view shows them: the classes taken as a mixture
    (each pixel's cost a squared distance, its likelihood exp(-cost / 2)) whose plastic means are
    re-estimated from the view's own pixels (``where``, every ``step``-th each way) by a few
    rounds of EM, each mean held towards the nominal one as if ``prior`` pixels of it had been
    seen (a maximum a posteriori estimate: a plastic not on the table stays nominal, a drink's
    few hundred pixels move it). The crates' yellow is estimated alongside, so that its pixels
    pull no plastic, but returned nominal unless ``keep_yellow`` is False (the crates are found
    and the network reads them as trained); the brightness (already loose) and the table (its
    own local colour) stay."""
    sub = tuple(f[::step, ::step][where[::step, ::step]] for f in feats)
    refs = dict(REFERENCES)
    if not len(sub[0]):
        return refs
    chroma = sub[0]
    share = np.full(len(CLASSES) + 1, 1.0 / (len(CLASSES) + 1))
    # the crates' yellow moves too (crates differ far more than the plastics: a greenish or
    # orange one's pixels would otherwise pull the mint or the red), but is read as before
    moved = [k for k, name in enumerate(CLASSES) if name in ADAPTED or name == "yellow"]
    # a pixel no class explains (an edge, a card, a glint) is "other": it moves no plastic
    nominal = np.concatenate([cost_stack(costs_of(sub, refs)), np.full((1, len(chroma)), ADAPT_OTHER, np.float32)])
    before = _covers(nominal[:-1])
    costs = nominal.copy()
    for _ in range(rounds):
        for k in moved:                 # only the moving plastics' costs change
            costs[k] = reference_cost(sub, CLASSES[k], refs[CLASSES[k]])
        stack = costs.copy()
        # each class weighed by its share of the view (the mixture's weights): the table, most
        # of the view, keeps its own textured pixels from a plastic drawn near its colour
        stack -= 2 * np.log(share)[:, None].astype(np.float32)
        r = np.exp(-0.5 * (stack - stack.min(0)))
        r /= r.sum(0)
        # (a plastic's weight no less than one drink's, and "other" held there: the outliers a
        # view has many of must not outweigh a drink's own pixels far off its nominal colour)
        share = np.maximum(r.mean(1), ADAPT_LEAST_SHARE)
        share[-1] = ADAPT_LEAST_SHARE
        for k in moved:
            nominal_c, nominal_b = REFERENCES[CLASSES[k]]
            mean = (prior * nominal_c + r[k] @ chroma) / (prior + r[k].sum())
            refs[CLASSES[k]] = mean.astype(np.float32), nominal_b
    # a drink covers well under 1 % of the view and the asked drinks differ in colour: a plastic
    # that would now be more of the view than that (and than it was) has taken the table or the
    # crates, not a drink (a mint on a pale green table): it keeps its nominal colour
    for k in moved:
        costs[k] = reference_cost(sub, CLASSES[k], refs[CLASSES[k]])
    after = _covers(costs[:-1])
    for k in moved:
        if CLASSES[k] in PLASTIC_SRGB and after[k] > max(ADAPT_MOST_SHARE, before[k]):
            refs[CLASSES[k]] = REFERENCES[CLASSES[k]]
    if keep_yellow:         # (read with the estimated yellow too: more sure mistakes on dev)
        refs["yellow"] = REFERENCES["yellow"]
    return refs


def _covers(stack: np.ndarray) -> np.ndarray:
    """Each class's share of the pixels it is the likeliest class of."""
    return np.bincount(np.argmin(stack, axis=0), minlength=len(stack)) / max(stack.shape[1], 1)
