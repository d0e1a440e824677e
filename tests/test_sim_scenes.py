"""The simulated table's scenes: skipping a photo of a sequence leaves the generator exactly where
rendering it would, so a test can reach the n-th photo of a benchmark sequence without rendering
the ones before it."""
import numpy as np
import pytest

from companion.sim.looks import Look
from companion.sim.render import Renderer
from companion.sim.scenes import DIFFICULTIES, render_sample, skip_sample


@pytest.mark.parametrize("difficulty", sorted(DIFFICULTIES))
def test_skipping_a_photo_moves_the_generator_as_rendering_it_does(difficulty):
    renderer = Renderer(Look.from_seed(12000))
    rendered, skipped = np.random.default_rng([12000, 31337]), np.random.default_rng([12000, 31337])
    render_sample(renderer, rendered, difficulty)
    skip_sample(renderer, skipped, difficulty)
    assert skipped.bit_generator.state == rendered.bit_generator.state
    # and so the photo after it is the same photo
    assert np.array_equal(render_sample(renderer, rendered, difficulty)[0],
                          render_sample(renderer, skipped, difficulty)[0])


@pytest.mark.parametrize("family, seed", [("dev", 12000), ("eval", 930000)])
def test_shadows_worked_out_only_where_they_reach_give_the_same_photo(family, seed, monkeypatch):
    """The renderer works a frame's shadows out only in the part of the tray that some drink's
    shadow reaches (`render._Reach`); the photo must be the one the whole tray worked out gives,
    to the bit, drinks at the tray's edge included."""
    import companion.sim.render as render

    renderer = Renderer(Look.from_seed(seed, family=family))
    shortcut = [render_sample(renderer, np.random.default_rng([seed, k]), "touching", 6, 8)[0] for k in range(3)]
    monkeypatch.setattr(render._Reach, "part", lambda self: (slice(None), slice(None)))
    whole = [render_sample(renderer, np.random.default_rng([seed, k]), "touching", 6, 8)[0] for k in range(3)]
    for a, b in zip(shortcut, whole):
        assert np.array_equal(a, b)
