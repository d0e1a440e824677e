"""The runnable examples in the docstrings of the vision and simulated-table modules."""
from __future__ import annotations

import doctest

import pytest

from companion.sim import blur, camera, crate_camera, landing_looks, landing_render, crate_layouts, crate_looks, crate_render, crate_scene, crate_solids, lit_scene, looks, render, tower
from companion.vision import board_align, board_net, calibration_crate, cli, crate_align, landing_calibrate, landing_colour_adapt, landing_colours, landing_crops, landing_geometry, landing_net, landing_reading, light_field, model_files, photo, crate_calibrate, crate_focal, crate_grid, crate_guard, crate_net, crate_once, crate_outline, crate_patches, crate_pinhole, crate_plastic, crates, checked, radial_lens, faint, features, piece_colour, repeats, segment, selection, sources, splitting, taught, warp


@pytest.mark.parametrize("module", [board_align, board_net, photo, calibration_crate, crate_align, crate_calibrate, crate_pinhole, crate_focal, crate_grid, crate_guard, crate_net, crate_once, crate_outline, crate_patches, crate_plastic, crates, checked, radial_lens, crate_layouts, light_field, splitting, faint, features, piece_colour, repeats, segment, selection, cli, sources, taught, warp, camera, looks, render, blur, tower,
                                    crate_looks, crate_solids, crate_scene, crate_render, crate_camera, lit_scene,
                                    landing_looks, landing_render, landing_calibrate, landing_colour_adapt, landing_colours, landing_geometry,
                                    landing_crops, landing_net, landing_reading, model_files], ids=lambda m: m.__name__)
def test_module_doctests_pass(module):
    result = doctest.testmod(module, verbose=False, report=True)
    assert result.failed == 0
    assert result.attempted > 0, f"{module.__name__} has no doctests"
