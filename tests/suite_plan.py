"""How the suite is laid out over the two workers, and which tests are the quick ones.

- Kinds. Every test module is of one kind, by its name: ``browser`` (the dashboard in
  Chromium), ``vision`` (rendered photos), ``device`` (ptys, simavr, server processes) or a rules
  and unit test. ``make test-fast`` runs only the last kind: the edit-test loop.
- Order. The modules with the longest tests start first, so that no worker is left with one
  long test at the end while the other idles; a module's tests stay together and in file order
  (a module fixture is built once per worker, not again each time its module comes back). A
  test's length is what it took in the last run on this checkout (kept in pytest's cache); a
  module never timed yet counts by its typical longest test below.
- Groups. Tests that share an expensive module fixture run on one worker (``xdist_group``),
  so that it is built once (``make test`` runs ``--dist loadgroup``; the scope is told by
  ``pytest_xdist_make_scheduler`` below, xdist's own reading of the marks being broken).
"""
from __future__ import annotations

import os

import pytest

KINDS = {  # module name prefix -> kind
    "test_dashboard_": "browser",
    "test_vision_": "vision",
    "test_doctests_vision": "vision",
    "test_sim_": "vision",
    "test_board_device": "vision",      # the simulated board camera read by the board reader
    "test_frame_gate": "vision",        # the simulated board camera, noisy anew each frame, read by the board reader
    "test_crate_device": "vision",      # the simulated crate camera's frames through the crate camera's thread
    "test_landing_reader": "vision",    # rendered landing frames read by the landing reader
    "test_landing_net": "vision",       # rendered landing frames read by the landing network; its data step
    "test_firmware_simavr": "device",
    "test_sensors_link": "device",
    "test_sensor_restarts": "device",
    "test_broken_games": "device",
    "test_estimates_load": "device",
    "test_input_limits": "device",
    "test_crash_campaign": "device",
    "test_devices": "device",
    "test_cli": "device",
    "test_slow_clients": "device",
    "test_api_schema": "device",
    "test_board_calibrate": "vision",
    "test_crate_reader": "vision",      # rendered crates read by the crate reader
    "test_learn_crates": "vision",      # the crate network's training data cut from rendered crates
    "test_crate_outline": "vision",     # a rendered calibration crate found by its outline
    "test_crate_patches": "vision",     # a rendered frame's drinks' tops on their heights' patch rows
    "test_crate_focal": "vision",       # a rendered look's camera told by three frames' grids
    "test_crate_align": "vision",       # rendered frames' grids set right by the aligner network
    "test_crate_tops": "vision",        # rendered calibration photos' cans' tops marked by the network
    "test_landings_api": "device",      # the simulated landing camera's thread, rendering frames
    "test_metro_osaka_data": "device",  # runs build_osaka.py in a subprocess
}

# Seconds the module's longest test typically takes alone on 2 cores (docs/performance.md), for
# modules with no time of their own in the cache yet (a fresh clone). Only the order matters;
# unknown modules count 0.1 s, so every module with a test of a few seconds is listed: one left
# out would start last and leave a worker to run it alone at the end. A vision test's includes
# building its table when it is the first to need it.
TYPICAL_SECONDS = {
    "test_dashboard_metro": 50.0, "test_dashboard_board": 30.0, "test_dashboard_games": 12.0, "test_dashboard_devices": 15.0,
    "test_dashboard_crates": 25.0, "test_crate_device": 6.0, "test_dashboard_landings": 22.0, "test_landings_api": 5.0,
    "test_dashboard_browser": 6.0, "test_dashboard_compose": 5.0, "test_dashboard_trust": 6.0,
    "test_dashboard_drop": 6.0, "test_dashboard_broken": 3.0, "test_dashboard_learning": 10.0,
    "test_dashboard_i18n": 6.0, "test_dashboard_izakaya": 7.0, "test_dashboard_race": 5.0, "test_dashboard_shopping_mall": 10.0, "test_i18n_catalogues": 3.0, "test_error_messages": 3.0,
    "test_vision_split": 6.0, "test_vision_fit": 6.0, "test_vision_identify": 6.0,
    "test_vision_calibrate": 7.0, "test_vision_view": 6.0, "test_vision_mat": 3.0,
    "test_vision_segment": 6.0, "test_vision_tray": 5.0, "test_sim_scenes": 1.5, "test_sim_families": 0.5,
    "test_sim_board": 5.0,
    "test_sim_crates": 2.5,
    "test_vision_learned": 1.0, "test_vision_checked": 4.0, "test_vision_pixel_scorer": 10.0, "test_vision_piece_profile": 1.5, "test_vision_taught": 2.0,
    "test_vision_board": 9.0, "test_vision_board_drinks": 3.0, "test_vision_board_values": 7.0, "test_vision_board_refine": 4.0,
    "test_vision_board_align": 3.0,
    "test_firmware_simavr": 7.0, "test_sensors_link": 7.0, "test_metro_estimate": 6.0,
    "test_cli": 3.0, "test_devices": 6.0, "test_sensor_restarts": 2.0, "test_resume": 6.0,
    "test_metro_properties": 13.0, "test_metro_osaka": 6.0, "test_metro_session": 4.0, "test_pocari_properties": 3.0,
    "test_metro_drinks": 3.0, "test_games_properties": 3.0, "test_api": 3.0,
    "test_broken_games": 3.0, "test_estimates_load": 6.0, "test_input_limits": 4.0,
    "test_crash_campaign": 20.0, "test_slow_clients": 1.5, "test_api_schema": 13.0,
    "test_devices_learning": 3.0, "test_corrections": 1.0, "test_feed": 3.0,
    "test_dashboard_history": 7.0, "test_history": 1.5,
    "test_board_calibrate": 1.0, "test_dashboard_calibrate_board": 3.0,
    "test_board_device": 7.0, "test_frame_gate": 7.0, "test_board_watch": 1.0, "test_metro_osaka_data": 2.5,
    "test_dashboard_table_cards": 4.0, "test_table_cards": 1.0,
    "test_dashboard_metro_variants": 18.0,
    "test_dashboard_addons": 4.0, "test_dashboard_entries": 4.0,
    "test_crate_reader": 8.0, "test_learn_crates": 6.0, "test_crate_outline": 2.0, "test_crate_patches": 1.5, "test_crate_focal": 3.0, "test_crate_align": 2.0,
    "test_landing_reader": 1.5, "test_landing_net": 4.0,
}

# Modules whose tests share a module fixture that is costly to build: one worker runs them all.
# A module of a few tests whose fixture (a server and its pages, a rendered look calibrated, the
# firmware's tool) takes a second or more is grouped too: split over the workers, both built it.
GROUPED = ("test_vision_calibrate", "test_vision_mat", "test_dashboard_metro",
           # a server of the module's (conftest.base_url or the module's own)
           "test_dashboard_metro_variants", "test_dashboard_compose", "test_dashboard_entries",
           "test_dashboard_i18n", "test_dashboard_trust", "test_dashboard_browser", "test_dashboard_devices",
           "test_dashboard_drop",
           # a rendered look, calibrated (and read), or a photo's placement (test_crate_outline)
           "test_crate_outline", "test_crate_focal", "test_crate_reader", "test_crate_patches",
           "test_vision_board_still", "test_vision_identify",
           # the host build of the firmware's protocol tool
           "test_firmware_codec")

CACHE_KEY = "suite_plan/seconds"


def examples(suite: int, longer: int) -> int:
    """Hypothesis examples of a costly property: ``suite`` in `make test`, ``longer`` with
    TTC_LONGER_PROPERTIES=1 (a nightly or pre-release run, docs/testing.md)."""
    return longer if os.environ.get("TTC_LONGER_PROPERTIES") else suite


def module_of(item: pytest.Item) -> str:
    return item.path.stem


def kind_of(module: str) -> str:
    return next((kind for prefix, kind in KINDS.items() if module.startswith(prefix)), "unit")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    cache = getattr(config, "cache", None)     # None with -p no:cacheprovider
    seconds = cache.get(CACHE_KEY, {}) if cache else {}
    longest: dict[str, float] = {}
    for item in items:
        module = module_of(item)
        kind = kind_of(module)
        if kind != "unit":
            item.add_marker(getattr(pytest.mark, kind))
        if module in GROUPED and config.pluginmanager.hasplugin("xdist"):
            item.add_marker(pytest.mark.xdist_group(module))
        if item.nodeid in seconds:
            longest[module] = max(longest.get(module, 0.0), seconds[item.nodeid])
    for module in {module_of(item) for item in items} - set(longest):
        longest[module] = TYPICAL_SECONDS.get(module, 0.1)
    items.sort(key=lambda item: -longest[module_of(item)])   # stable: file order within a module


@pytest.hookimpl(optionalhook=True)   # (an xdist hook: none without xdist, -p no:xdist)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """``--dist loadgroup`` with the GROUPED modules each one scope, given to one worker.

    xdist's own loadgroup reads the ``xdist_group`` marks by renaming each marked test's node id
    ("...@group") on the worker, which pytest 9's node ids no longer take (pytest-xdist issue
    1386): the marks were ignored and a grouped module's tests went to both workers, each of them
    building the module's costly fixture. The scope is told here from the node id alone, on the
    controller, which needs neither."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class ModuleGroups(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            if os.path.splitext(os.path.basename(path))[0] in GROUPED:
                return path
            return super()._split_scope(nodeid)

    return ModuleGroups(config, log)


_timed: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when in ("setup", "call"):    # setup: the fixtures a test had to build
        _timed[report.nodeid] = round(_timed.get(report.nodeid, 0.0) + report.duration, 2)


def pytest_sessionfinish(session: pytest.Session) -> None:
    # Under xdist the controller receives every worker's reports, so it alone writes the times.
    if hasattr(session.config, "workerinput") or not _timed or not getattr(session.config, "cache", None):
        return
    seconds = session.config.cache.get(CACHE_KEY, {})
    seconds.update(_timed)
    session.config.cache.set(CACHE_KEY, seconds)
