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
