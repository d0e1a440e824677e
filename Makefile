# Tokyo Table Companion -- works from a fresh clone with only python3, make and apt.
PY ?= python3
VENV := .venv
ARGS ?=
TEST_ARGS ?=
# apt-get one at a time (flock): `make test` fetches the venv and the Debian packages side by
# side, and a second apt-get at once would fail on dpkg's lock.
APT_GET := flock /tmp/tokyo-table-companion-apt.lock env DEBIAN_FRONTEND=noninteractive apt-get

.PHONY: venv .venv chromium test run bench model clean

venv .venv: $(VENV)/.installed

# Rebuilt whenever pyproject.toml changes. Debian's python3 ships without ensurepip until
# python3-venv is installed, so install it (as root) when it is missing.
$(VENV)/.installed: pyproject.toml
	@if ! $(PY) -c 'import ensurepip' >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    $(APT_GET) update && $(APT_GET) install -y python3-venv; \
	  else \
	    echo "$(PY) cannot create virtual environments: install Debian's python3-venv (sudo apt-get install python3-venv)" >&2; \
	    exit 1; \
	  fi; \
	fi
	$(PY) -m venv $(VENV)
	$(VENV)/bin/pip install -q -e '.[test]'
	touch $@

# $(call install-missing-debs,PACKAGES,APT OPTIONS,WHO NEEDS THEM,MORE WORDS): installs those of
# PACKAGES that are missing, with apt-get as root; as another user, says what to install and fails.
define install-missing-debs
@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
if [ -z "$$missing" ]; then \
  :; \
elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
  $(APT_GET) update && $(APT_GET) install -y $(2) $$missing; \
else \
  echo "$(3) Debian packages that are missing: sudo apt-get install$(if $(2), $(2))" $$missing $(4) >&2; \
  exit 1; \
fi
endef

# The browser tests drive Debian's headless Chromium shell (not a Playwright-downloaded build:
# tests/browser_support.py says why not the full browser); the mat test renders the calibration
# mat's PDF back to an image with poppler's pdftoppm.
TEST_DEBS := chromium-headless-shell poppler-utils
.PHONY: test-debs
chromium test-debs:
	$(call install-missing-debs,$(TEST_DEBS),,the tests need,"-- then run make again")

# The sensor firmware and its simulator bridge, from Debian's packages only. arduino-mk pulls in
# Debian's Arduino IDE (Java); recommends are skipped so libsimavr-examples and friends stay out;
# gcc and libc6-dev build the simavr bridge and the host build of the protocol code.
FIRMWARE_DEBS := gcc-avr avr-libc binutils-avr arduino-core-avr arduino-mk simavr libsimavr-dev libsimavrparts1 socat gcc libc6-dev
.PHONY: firmware-deps firmware system-debs
firmware-deps:
	$(call install-missing-debs,$(FIRMWARE_DEBS),--no-install-recommends,the firmware needs,)

firmware: firmware-deps
	$(MAKE) -C firmware

# Every Debian package the tests and the firmware need, one apt step after the other.
system-debs:
	@$(MAKE) --no-print-directory test-debs
	@$(MAKE) --no-print-directory firmware-deps

# Two workers (pytest-xdist), one a core. tests/suite_plan.py orders the modules longest first
# and groups the tests that share a costly fixture (loadgroup; kept in that order, not re-sorted
# by group size); the vision tests' rendered tables are built once and shared through a cache
# of the machine's, keyed by the code that makes them (~/.cache/tokyo-table-companion/rendered,
# or TTC_RENDERED_CACHE; tests/vision_support.py), which `make clean` leaves: a fresh clone of
# code already tested on the machine builds none of them.
# The vision's numba kernels are compiled (or loaded from numba's cache) before the tests and
# the service start, so that no process meets the compiler on its first frames
# (companion/vision/warm.py).
PYTEST_WORKERS := -n 2 --dist loadgroup --no-loadscope-reorder
# The rendered tables the vision tests use are built alongside, two at a time, from the start
# (tests/prerender.py): the browser tests that run first leave the cores idle while they wait
# on pages, and the vision tests that run later find their tables built (or wait for the one
# being built). Built on first use, in a fresh clone, they held up one worker instead.
# On a fresh machine the venv (pip, then the kernels) and the Debian packages (apt) are made
# side by side: each takes some 20-30 s and neither needs the other (docs/performance.md, "The
# suite's setup"); the two apt steps run one after the other (`system-debs`).
test:
	@$(MAKE) --no-print-directory -j2 warm system-debs
	@$(MAKE) --no-print-directory firmware
	@$(VENV)/bin/python tests/prerender.py --jobs 2 & prerender=$$!; \
	trap 'kill $$prerender 2>/dev/null' INT TERM; \
	echo "$(VENV)/bin/python -m pytest $(PYTEST_WORKERS) $(TEST_ARGS)"; \
	$(VENV)/bin/python -m pytest $(PYTEST_WORKERS) $(TEST_ARGS); status=$$?; \
	wait $$prerender; exit $$status

# The rules and unit tests alone, for the edit-test loop: no browser, rendered photos or devices.
.PHONY: test-fast
test-fast: $(VENV)/.installed
	$(VENV)/bin/python -m pytest -n 2 -m "not browser and not vision and not device" $(TEST_ARGS)

# The vision's numba kernels compiled, or loaded from numba's cache (companion/vision/warm.py).
.PHONY: warm
warm: $(VENV)/.installed
	$(VENV)/bin/python -m companion.vision.warm

run: warm
	$(VENV)/bin/companion serve --port 8000 $(ARGS)

bench: $(VENV)/.installed
	$(VENV)/bin/python benchmarks/engine.py

# The learned drink scorer (companion/vision/learned.py, issue 26): renders and calibrates the
# training tables, two at a time (kept in build/learn_drinks/ for the next run), trains with
# numpy alone, writes companion/vision/models/drink_scorer.json and measures it against the
# rules on held-out development tables. Fixed seeds: the same file again. About 30 minutes on 2
# cores from nothing rendered (ARGS=--no-measure: the model only).
#
# Then the pixel scorer (companion/vision/pixel_scorer.py, issue 26), which takes the learned
# scorer's reading: its tables' crops (build/learn_drinks/*-px.pickle, the same tables as far as
# they are shared) and each training table's calibration photos read as pieces, with the
# project's venv, a table per process, two at a time; then PyTorch (TRAIN_PY, a training tool
# only, never a run-time dependency) trains the `features` variant and writes
# companion/vision/models/drink_pixels.npz (--variant both also trains the network over the
# pixels alone and keeps the better). About 10 more minutes on 2 cores (~810 CPU-seconds of
# rendering and reading, ~3 minutes of training on one thread: docs/performance.md).
#
# Then the same network over the pixels alone (no feature scorer's view, so nothing of the
# rules' reading), companion/vision/models/drink_pixels_alone.npz, on the same cached tables: the
# second opinion of the default scorer, "checked-pixels" (vision/checked.py);
# tools/choose_pixel_check.py chooses on held-out training-family tables how it checks the rules
# and writes that into the file. About 5 more minutes, no more rendering (docs/performance.md,
# "Vision: the rules checked by the pixels alone").
#
# Then the same network with the set's calibrated sizes among its side numbers,
# companion/vision/models/drink_pixels_set.npz ("checked-set", the default: vision/checked.py),
# trained on 144 more training-family looks too (--more-looks: the data step renders them, ~20
# minutes on 2 cores), and its check with the guard against phantoms, chosen on the held-out and
# the training family's temperature tables, among checks that read each crop once. Its layers are
# twice as wide as the other networks' (24/48/64, hidden 128: 47th session, fewer sure mistakes on
# fresh evaluation tables for ~2-4 ms more a frame). It compares each piece with the table's own
# drinks (tools/drink_protos.py: a prototype head over each drink's calibration piece, which the
# profile keeps; trained on the tables' calibration pieces too, which the data step renders for
# MORE_LOOKS as well, ~14 minutes on 2 cores). About 38 minutes of training on one core
# (docs/performance.md, "Vision: phantoms and heights checked", "The set network on more looks",
# "A wider set network", "The set network compares a piece with the table's own drinks").
#
# Then the learned sureness over that network's and the rules' signals ("checked-sure":
# vision/sure.py, companion/vision/models/drink_sure.json), a logistic regression in numpy fitted
# and its bar chosen by score by tools/choose_sureness.py on the same held-out tables and 48
# training-family tables of its own (rendered here, ~8 minutes on 2 cores; docs/performance.md,
# "Vision: a learned sureness").
#
# Last, whether and from which bar the set network names what checked-set leaves unsure, and from
# which lower bar one of the rules' two drinks (checked.Naming: tools/choose_network_names.py, on the
# same training-family tables, a minute; written into drink_pixels_set.npz; docs/performance.md,
# "The network names what the rules doubt", "One of the rules' two named from a lower bar").
#
# PyTorch lives in a venv of its own, .train-venv (the project with its `train` extra: torch
# 2.13.0, the CPU build where one lies on the machine); TRAIN_PY=... takes another.
TRAIN_VENV := .train-venv
TRAIN_PY ?= $(TRAIN_VENV)/bin/python
$(TRAIN_VENV)/.installed: pyproject.toml
	$(PY) -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/pip install -q -e '.[train]'
	touch $@

.PHONY: model
model: $(VENV)/.installed $(if $(filter $(TRAIN_VENV)/%,$(TRAIN_PY)),$(TRAIN_VENV)/.installed)
	$(VENV)/bin/python tools/learn_drinks.py --jobs 2 $(ARGS)
	$(VENV)/bin/python tools/learn_drink_pixels.py --data --jobs 2
	PYTHONPATH=. $(TRAIN_PY) tools/learn_drink_pixels.py --variant features
	PYTHONPATH=. $(TRAIN_PY) tools/learn_drink_pixels.py --variant pixels --epochs 30 --out companion/vision/models/drink_pixels_alone.npz
	$(VENV)/bin/python tools/choose_pixel_check.py --plain
	PYTHONPATH=. $(TRAIN_PY) tools/drink_protos.py --variant proto --more-looks --drop --epochs 30 --out build/protos/proto30.pt --export companion/vision/models/drink_pixels_set.npz
	$(VENV)/bin/python tools/choose_pixel_check.py --model companion/vision/models/drink_pixels_set.npz --single-read
	$(VENV)/bin/python tools/choose_sureness.py --jobs 2
	$(VENV)/bin/python tools/choose_network_names.py

# The crate reader's field network (companion/vision/crate_net.py, issue 31): renders the training
# looks (varied 0-433 and dev 0-127, 4 frames each; a look whose calibration photo is refused is
# calibrated from the renderer's truth, for training only) into build/learn_crates/, then trains
# with PyTorch (TRAIN_PY, one thread, 12 epochs, no label smoothing) and writes models/crate_net.npz
# and crate_model.json; the bars are set on the last quarter of both families' looks, held out (one
# sure mistake a kind per 3,000 held-out fields), for the frame's fields weighed together (each
# drink once, crates.ONE_OF_EACH: the renders keep each patch's frame; older renders, without, are
# refused). The patches depend on the reader's camera (the frames' grids). The calibrations are
# made as the reader's are, with the later guesses of the plastic's colour (--guess-plastic).
# Fixed seeds. About 40 min of rendering and 15 of training on one core: a target of its own, as
# the landing network's. The committed model is this recipe's (36th session, docs/performance.md,
# "Without label smoothing"), trained on the renders of the 29th and 33rd sessions (varied 0-233,
# 234-333, 334-433 rendered apart with these commands and joined in seed order: a look's patches
# are its seed's, whatever the range). One training run of one seed: a rebuild gives another model,
# to be measured before it is committed.
CRATES := build/learn_crates
.PHONY: crate-model
crate-model: $(VENV)/.installed $(if $(filter $(TRAIN_VENV)/%,$(TRAIN_PY)),$(TRAIN_VENV)/.installed)
	mkdir -p $(CRATES)
	test -f $(CRATES)/varied434.npz || $(VENV)/bin/python tools/learn_crates.py render --guess-plastic --family varied --seeds 0:434 --frames 4 --out $(CRATES)/varied434.npz
	test -f $(CRATES)/dev.npz || $(VENV)/bin/python tools/learn_crates.py render --guess-plastic --family dev --seeds 0:128 --frames 4 --out $(CRATES)/dev.npz
	PYTHONPATH=. $(TRAIN_PY) tools/learn_crates.py train $(CRATES)/varied434.npz $(CRATES)/dev.npz --tune-on dev varied --epochs 12

# The crate grid's aligner (companion/vision/crate_align.py, issue 31): renders training looks
# (varied 2100-2559, dev 200-329, three frames each; never the evaluation family) and cuts round
# every field a patch on the true grid moved a few tenths of a pitch, with where the true middle
# lies; then PyTorch (TRAIN_PY, one thread) trains the small network and writes
# models/crate_align.npz and crate_align.json. About 8 minutes of rendering on two cores and 10 of
# training on one (docs/performance.md, "The grid set right by a network").
ALIGN_DATA := build/learn_crate_align
.PHONY: crate-align-model
crate-align-model: $(VENV)/.installed $(if $(filter $(TRAIN_VENV)/%,$(TRAIN_PY)),$(TRAIN_VENV)/.installed)
	mkdir -p $(ALIGN_DATA)
	test -f $(ALIGN_DATA)/varied-a.npz || $(VENV)/bin/python tools/learn_crate_align.py render --family varied --seeds 2100:2420 --out $(ALIGN_DATA)/varied-a.npz & a=$$!; \
	{ test -f $(ALIGN_DATA)/dev.npz || $(VENV)/bin/python tools/learn_crate_align.py render --family dev --seeds 200:330 --out $(ALIGN_DATA)/dev.npz; } && \
	{ test -f $(ALIGN_DATA)/varied-b.npz || $(VENV)/bin/python tools/learn_crate_align.py render --family varied --seeds 2420:2560 --out $(ALIGN_DATA)/varied-b.npz; } & b=$$!; \
	wait $$a && wait $$b
	PYTHONPATH=. $(TRAIN_PY) tools/learn_crate_align.py train $(ALIGN_DATA)/varied-a.npz $(ALIGN_DATA)/varied-b.npz $(ALIGN_DATA)/dev.npz --epochs 12

# The calibration cans' tops network (companion/vision/crate_tops.py, issue 31): renders one
# calibration photo a look (varied 0-2399, dev 0-599; never the evaluation family), cuts three
# squares of each at random scales with the six tops' places, then PyTorch (TRAIN_PY, two threads)
# trains the small map network and writes models/crate_tops.npz and crate_tops.json. About 5
# minutes of rendering on two cores and 9 of training (docs/performance.md, "The cans' tops marked
# by a network").
TOPS_DATA := build/learn_crate_tops
.PHONY: crate-tops-model
crate-tops-model: $(VENV)/.installed $(if $(filter $(TRAIN_VENV)/%,$(TRAIN_PY)),$(TRAIN_VENV)/.installed)
	mkdir -p $(TOPS_DATA)
	{ test -f $(TOPS_DATA)/v0.npz || $(VENV)/bin/python tools/learn_crate_tops.py render --family varied --seeds 0:1200 --out $(TOPS_DATA)/v0.npz; } && \
	{ test -f $(TOPS_DATA)/d0.npz || $(VENV)/bin/python tools/learn_crate_tops.py render --family dev --seeds 0:300 --out $(TOPS_DATA)/d0.npz; } & a=$$!; \
	{ test -f $(TOPS_DATA)/v1.npz || $(VENV)/bin/python tools/learn_crate_tops.py render --family varied --seeds 1200:2400 --out $(TOPS_DATA)/v1.npz; } && \
	{ test -f $(TOPS_DATA)/d1.npz || $(VENV)/bin/python tools/learn_crate_tops.py render --family dev --seeds 300:600 --out $(TOPS_DATA)/d1.npz; } & b=$$!; \
	wait $$a && wait $$b
	PYTHONPATH=. $(TRAIN_PY) tools/learn_crate_tops.py train $(TOPS_DATA)/v0.npz $(TOPS_DATA)/v1.npz $(TOPS_DATA)/d0.npz $(TOPS_DATA)/d1.npz --epochs 12

# The landing reader's pixel classes (companion/vision/landing_pixels.py, issue 32 item 9): renders
# varied looks 0-399 (3 scenes each, in two halves side by side) with each top-view pixel's truth
# (the renderer's label picture) into build/landing_pixels/, trains the small network with PyTorch
# (TRAIN_PY, one thread, about a minute) and writes models/landing_pixels.npz and .json. About 3 min
# of rendering on two cores. The landing network's crops are cut with these classes (landing-model).
PIXELS := build/landing_pixels
.PHONY: landing-pixels
landing-pixels: $(VENV)/.installed $(if $(filter $(TRAIN_VENV)/%,$(TRAIN_PY)),$(TRAIN_VENV)/.installed)
	mkdir -p $(PIXELS)
	test -f $(PIXELS)/varied-a.npz || $(VENV)/bin/python tools/learn_landing_pixels.py render --family varied --seeds 0:200 --scenes 3 --out $(PIXELS)/varied-a.npz & a=$$!; \
	test -f $(PIXELS)/varied-b.npz || $(VENV)/bin/python tools/learn_landing_pixels.py render --family varied --seeds 200:400 --scenes 3 --out $(PIXELS)/varied-b.npz & b=$$!; \
	wait $$a && wait $$b
	PYTHONPATH=. $(TRAIN_PY) tools/learn_landing_pixels.py train $(PIXELS)/varied-a.npz $(PIXELS)/varied-b.npz \
	    --epochs 6 --batch 2048 --hidden 64,32 --seed 0 --table-bias 0.3

# The landing reader's network (companion/vision/landing_net.py, issue 32 item 9): renders the
# training looks (varied 0-1839, 5 scenes each, in four quarters, two side by side) and the held-out dev
# looks the bars are set on (dev 10000-10033), each candidate cut with the committed learned pixel
# classes (landing-pixels), into build/learn_landings_px/, then trains with PyTorch (TRAIN_PY: a
# training venv of its own, never a run-time dependency; one thread) and writes
# models/landing_net.npz and landing_model.json. Fixed seeds: the committed model is this recipe's
# (batch-normalised, 30 epochs, seed 0, its bars given; 55th session: docs/performance.md, "Learned
# pixel classes"; on twice the looks since the 59th: "The landing network on twice the looks"; its
# second way to be sure, --second-bars, given since the 62nd: "Sure of the spot, less of the drink"). The
# renders of another machine or library may differ in a pixel (docs/performance.md, 42nd session):
# compare before committing. About 28 min of rendering on two cores and 45 of training on one core
# (this machine, 2026-12-07). One run's spread is large: train several seeds and compare
# them with tools/landing_ensemble.py compare.
LANDINGS := build/learn_landings_px
.PHONY: landing-model
landing-model: $(VENV)/.installed $(if $(filter $(TRAIN_VENV)/%,$(TRAIN_PY)),$(TRAIN_VENV)/.installed)
	mkdir -p $(LANDINGS)
	test -f $(LANDINGS)/varied_a.npz || $(VENV)/bin/python tools/learn_landings.py render --family varied --seeds 0:460 --scenes 5 --pixels learned --out $(LANDINGS)/varied_a.npz & a=$$!; \
	test -f $(LANDINGS)/varied_b.npz || $(VENV)/bin/python tools/learn_landings.py render --family varied --seeds 460:920 --scenes 5 --pixels learned --out $(LANDINGS)/varied_b.npz & b=$$!; \
	wait $$a && wait $$b
	test -f $(LANDINGS)/varied_c.npz || $(VENV)/bin/python tools/learn_landings.py render --family varied --seeds 920:1380 --scenes 5 --pixels learned --out $(LANDINGS)/varied_c.npz & c=$$!; \
	test -f $(LANDINGS)/varied_d.npz || $(VENV)/bin/python tools/learn_landings.py render --family varied --seeds 1380:1840 --scenes 5 --pixels learned --out $(LANDINGS)/varied_d.npz & d=$$!; \
	wait $$c && wait $$d
	test -f $(LANDINGS)/dev.npz || $(VENV)/bin/python tools/learn_landings.py render --family dev --seeds 10000:10034 --scenes 5 --pixels learned --out $(LANDINGS)/dev.npz
	PYTHONPATH=. $(TRAIN_PY) tools/learn_landings.py train $(LANDINGS)/varied_a.npz $(LANDINGS)/varied_b.npz \
	    $(LANDINGS)/varied_c.npz $(LANDINGS)/varied_d.npz --tune-on $(LANDINGS)/dev.npz \
	    --epochs 30 --seed 0 --norm batch --widths 24,48,96,128 --hidden 256 --bars 0.9,7,0.9 \
	    --second-bars 0.7,0.98

# The board reader's place network (companion/vision/board_net.py, issue 29): renders the
# training looks (varied 300000-300199 and dev 200000-200039, 6 boards each, METRO DRINKS'
# drinks beside some pyramids; a frame held by two markers aligned to the print as the reader's),
# the tempering looks (varied 300200-300239, dev 210000-210009) and the held-out report looks
# (dev 220000-220009, varied 320000-320007) into build/learn_board/ (two processes; a look cached
# is not rendered again), then trains with PyTorch (TRAIN_PY; one thread) and writes
# models/board_net.npz and board_spots.json: 12 epochs on the 200 varied and 40 dev looks
# (384,616 places), each square cut up to 2 mm off its middle at random, then the temperature,
# the bars and the palette, and the report: the held-out places, the pieces apart, the model
# before on the same places, every station x player colour on three dev looks (the simulated
# table's first; benchmarks/board_stations.py, ~5 min). Fixed seeds. On 600 varied training
# looks (TRAIN and the first 400 of TRAIN_MORE): about 15 min of rendering (two workers) and 15 of
# training (two threads; the squares mapped from a file, ~9 GB), a target of its own; 900 looks were
# measured and not kept (docs/performance.md, "Sixteenth session"). The committed network is this
# recipe's output (2026-12-07; docs/performance.md, "Fifteenth session"); on 400, 200 and 100
# looks it had left more pieces unsure.
.PHONY: board-model
board-model: $(VENV)/.installed $(if $(filter $(TRAIN_VENV)/%,$(TRAIN_PY)),$(TRAIN_VENV)/.installed)
	PYTHONPATH=. $(TRAIN_PY) tools/learn_board.py --looks 600 --epochs 12 --workers 2 --threads 2

# The board reader's value-marker network (companion/vision/board_value_net.py, issue 29): renders
# the lanes of the training looks (varied 370000-370199 and dev 250000-250039, 8 boards each),
# the tempering looks (varied 370300-370323, dev 260000-260011) and the held-out report looks
# (dev 270000-270007, varied 380000-380007 and 380400-380423) into build/learn_board_values/ (one process), then
# trains with PyTorch (TRAIN_PY; one thread) and writes models/board_values.npz and
# board_values.json: 8 epochs on the first 120 varied looks and the dev looks, then 4 more on all,
# then the temperature and the bar. Fixed seeds. About 15 min of rendering and 15 of training on
# one quiet core (40 and 20 on the shared machine): a target of its own, as the landing network's
# is, so that `make model` (the drink reader's models) keeps to its 30 minutes.
.PHONY: board-values-model
board-values-model: $(VENV)/.installed $(if $(filter $(TRAIN_VENV)/%,$(TRAIN_PY)),$(TRAIN_VENV)/.installed)
	$(VENV)/bin/python tools/board_value_data.py --family varied --seeds 370000 370200
	$(VENV)/bin/python tools/board_value_data.py --family dev --seeds 250000 250040
	$(VENV)/bin/python tools/board_value_data.py --family varied --seeds 370300 370324
	$(VENV)/bin/python tools/board_value_data.py --family dev --seeds 260000 260012
	$(VENV)/bin/python tools/board_value_data.py --family dev --seeds 270000 270008
	$(VENV)/bin/python tools/board_value_data.py --family varied --seeds 380000 380008
	$(VENV)/bin/python tools/board_value_data.py --family varied --seeds 380400 380424
	PYTHONPATH=. $(TRAIN_PY) tools/learn_board_values.py --looks 120 --epochs 8
	PYTHONPATH=. $(TRAIN_PY) tools/learn_board_values.py --init build/learn_board_values/last_weights.npz --epochs 4

# The board reader's drink classifier (companion/vision/board_drinks.py, METRO DRINKS): renders
# its looks (dev 230000-230039, varied 350000-350119, the bars' dev 240000-240011 and varied
# 360000-360011, the report's dev 250000-250011 and varied 370000-370011: four boards each) into
# build/learn_board_drinks/ (two processes; 2-8 s a look), then trains the network over the drink
# places' squares (TRAIN_PY, one thread, 40 epochs of ~12 s; the tool's NET_CHANNELS 24-48-64,
# hidden 128, seed 2031: the 48th session's, docs/performance.md "Thirteenth session"; a rerun
# does not give the same network bit for bit, nor as few sure mistakes: judge it by that
# section's rule before committing it) and writes models/board_drinks.npz. Fixed seeds.
# About 20 minutes on 2 cores.
.PHONY: board-drinks-model
board-drinks-model: $(VENV)/.installed $(if $(filter $(TRAIN_VENV)/%,$(TRAIN_PY)),$(TRAIN_VENV)/.installed)
	PYTHONPATH=. $(TRAIN_PY) tools/learn_board_drinks.py --net --workers 2

clean:
	rm -rf $(VENV) $(TRAIN_VENV) .pytest_cache .hypothesis build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
