// TOKYO METRO: the board camera on the dashboard (docs/board-camera.md). What the camera over the
// board is doing, or why it cannot read the board, in words; the move it saw, for the host and the
// seat whose move it is to confirm or dismiss with one tap (everyone else sees it, without
// buttons), or a question when the board could mean several moves; the host's switch for the
// auto mode; the "board vs game" list, each difference in words with its place lit on the map
// while it is hovered, focused or tapped; after a move made on the dashboard, what is left to do
// on the board, ticked off as the board catches up; and, for the host, the camera's picture.
// Nothing of this shows without a board camera (`present` false).
//
// The view carries `board_camera`; what the camera sees adds no game record, so its news comes as
// a view with the same seq and a higher `rev` (api.js `newer`). A view without `rev` (a server
// that does not push that news) makes the panel ask GET /api/games/{id}/board once a second. One
// panel per page, made once and redrawn in place when what it says changes (a redraw under a
// finger would swallow a tap; the picture would flicker).
import { h, replace, on } from "../dom.js";
import { t, yen, onLangChange, cardName, drinkName } from "../i18n.js";
import { api } from "../api.js";
import { boardIndex, colRow, fieldPlace, seatDot, seatName, stationName, lineBadge } from "./common.js";
import { tileContent } from "./moves.js";
import { showTarget } from "./coords.js";

export const BOARD_COLOURS = ["red", "blue", "yellow", "green", "purple"]; // seat 0..4 (board_pieces.py)
const POLL_MS = 1000;
const FRAME_MS = 1000;   // the board changes slowly: a picture a second is plenty
const PICTURE_KEY = "ttc.board.picture";
// Kinds whose tile words name only where the move goes: the kind's own words come first.
const NAMED_KINDS = new Set(["place", "walk", "move", "alight", "station", "station_swap", "invest", "start",
  "assign_tempo", "speculate", "card"]);

const cap = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);

// The view's board camera (the table side puts it beside the state; either place is read).
export function cameraOf(view) {
  return (view && (view.board_camera || (view.state && view.state.board_camera))) || null;
}

// --- words ---------------------------------------------------------------------------------------

const colourWord = (colour) => t(`metro.board.colour.${colour}`);
// METRO DRINKS: a drink at a station, by its id ("red-tall_can") or, as the camera reads it, its
// colour alone ("red")
const drinkWord = (drink) => (drink === null || drink === undefined ? ""
  : String(drink).includes("-") ? drinkName(String(drink)) : t("metro.board.drinkColour", { colour: cardName(String(drink)) }));
const seatOfColour = (colour) => BOARD_COLOURS.indexOf(colour);

// "field:130" -> "10·5 (Otemachi)"; "ride:G" -> "riding train G".
export function placeWords(ix, place) {
  const m = /^(field|ride):(.+)$/.exec(String(place || ""));
  if (!m) return String(place);
  if (m[1] === "ride") return t("metro.board.riding", { line: m[2] });
  const [c, r] = colRow(ix, Number(m[2]));
  const where = fieldPlace(ix, c, r);
  return where ? t("metro.board.fieldAt", { field: `${c}·${r}`, place: where }) : `${c}·${r}`;
}

// A train's stop index (0 = stop 1) as the board labels it: "G7".
export function stopLabel(ix, letter, k) {
  const line = ix.lines.get(letter);
  const stop = line && line.stops[k];
  return stop ? stop.label : `${letter}${Number(k) + 1}`;
}

// One difference in words: as "board vs game" (what differs) or, after a move made on the
// dashboard, as what to do on the board (`todo`).
export function differenceWords(ix, d, { todo = false } = {}) {
  const { piece, game, board } = d;
  const one = game === null || game === undefined ? "Extra" : board === null || board === undefined ? "Missing" : "";
  const pre = todo ? "metro.board.todo" : "metro.board.diff";
  // todo: "Extra" (on the board only) is taken off, "Missing" (in the game only) is put on
  const variant = todo ? ({ Extra: "Take", Missing: "Put", "": "" })[one] : one;
  const key = `${pre}.${piece}${variant}`;
  let params;
  if (piece === "pyramid") {
    params = { station: stationName(ix, d.key), colour: colourWord(game ?? board),
      game: colourWord(game), board: colourWord(board) };
  } else if (piece === "meeple") {
    params = { colour: colourWord(d.key), place: placeWords(ix, game ?? board),
      game: placeWords(ix, game), board: placeWords(ix, board) };
  } else if (piece === "drink") {
    params = { station: stationName(ix, d.key), drink: drinkWord(game ?? board),
      game: drinkWord(game), board: drinkWord(board) };
  } else if (piece === "train") {
    params = { line: d.key, stop: stopLabel(ix, d.key, game ?? board),
      game: game === null || game === undefined ? "" : stopLabel(ix, d.key, game),
      board: board === null || board === undefined ? "" : stopLabel(ix, d.key, board) };
  } else {
    params = { line: d.key, game: game === null || game === undefined ? "" : yen(game),
      board: board === null || board === undefined ? "" : yen(board) };
  }
  return cap(t(key, params));
}

// Where a difference is on the map: the station, the field(s) or the line.
export function differenceTarget(ix, d) {
  if (d.piece === "pyramid" || d.piece === "drink") return { station: d.key };
  if (d.piece === "meeple") {
    const fields = [d.board, d.game].filter((p) => /^field:\d+$/.test(String(p)))
      .map((p) => colRow(ix, Number(p.split(":")[1])));
    if (fields.length) return { field: fields[0], also: fields[1] || null };
    const ride = [d.board, d.game].find((p) => /^ride:/.test(String(p)));
    return ride ? { line: ride.split(":")[1] } : null;
  }
  return { line: d.key };
}

// A proposed move in the words the move buttons use: the seat, what kind, where.
export function moveWords(view, ix, move, { seat = null } = {}) {
  const st = view.state;
  const content = tileContent(view, ix, { move });
  return h("span", { class: "bc-move", dataset: { kind: move.kind } },
    Number.isInteger(move.player) && move.player >= 0 && move.player !== seat ? seatDot(st, move.player, { cls: "sm" }) : null,
    // the card it is played with tells candidates apart (the same station built with either card)
    move.args && typeof move.args.card === "string" && move.kind !== "card"
      ? h("span", { class: "m-card-chip", testid: "board-move-card" }, move.args.card) : null,
    NAMED_KINDS.has(move.kind) ? h("span", { class: "bc-kind" }, t(`metro.kind.${move.kind}`)) : null,
    h("span", { class: "bc-where" }, content));
}

// --- the panel -----------------------------------------------------------------------------------

let panel = null;

// The board camera's panel for this view (the same element on every render), or null when the
// game has no board camera.
export function boardPanel(view) {
  const bc = cameraOf(view);
  if (!bc || !bc.present) {
    if (panel) panel.view = view;
    return null;
  }
  if (!panel || panel.gameId !== view.game_id) panel = makePanel(view.game_id);
  panel.fromView(view, bc);
  return panel.el;
}

function remembered(key, fallback) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : v === "1";
  } catch (_) { return fallback; }
}

function makePanel(gameId) {
  const body = h("div", { class: "bc-body" });
  const title = h("h2", {});
  const tags = h("span", { class: "bc-tags" });
  // The host's picture: its own fold (open on a wide screen), kept across redraws.
  const img = h("img", { class: "bc-frame", testid: "board-image", width: 640, height: 360, hidden: true });
  const none = h("div", { class: "bc-frame-none", testid: "board-image-none" });
  const picTitle = h("span", {});
  const picture = h("details", { class: "bc-picture", testid: "board-picture",
    open: remembered(PICTURE_KEY, window.matchMedia("(min-width: 700px)").matches) },
  h("summary", {}, picTitle), img, none);
  on(picture, "toggle", () => {
    try { localStorage.setItem(PICTURE_KEY, picture.open ? "1" : "0"); } catch (_) { /* storage may be off */ }
  });
  const el = h("section", { class: "panel board-cam", testid: "board-camera" },
    h("div", { class: "bc-head" }, title, tags), body, picture);

  const me = { el, gameId, view: null, bc: null, drawn: null, todo: null };

  // --- what the page holds: the newest view, the newest board camera state ---
  // The board camera's own `rev` orders its states; a view of a new game position always wins.
  const take = (bc, seqChanged = false) => {
    const older = me.bc && !seqChanged && typeof bc.rev === "number" && typeof me.bc.rev === "number"
      && bc.rev < me.bc.rev;
    if (!older) me.bc = bc;
  };
  me.fromView = (view, bc) => {
    const seqChanged = !me.view || me.view.seq !== view.seq;
    me.view = view;
    take(bc, seqChanged);
    draw();
  };

  // (A server that pushes the board camera's news in the view, with its `rev`, needs no asking.)
  const ask = async () => {
    try {
      const bc = await api.board(gameId, { quiet: true });
      if (bc && typeof bc === "object") { take(bc); draw(); }
    } catch (_) { /* the connection badge says so; the view keeps the last state */ }
  };
  const poll = async () => {
    const pushed = me.view && typeof me.view.rev === "number";
    if (!pushed && el.isConnected && document.visibilityState === "visible") await ask();
    setTimeout(poll, POLL_MS);
  };
  setTimeout(poll, POLL_MS);
  me.refresh = ask;

  // --- the picture (the host's) ---
  let loading = false;
  let retryAt = 0;
  const showFrame = (ok) => { img.hidden = !ok; none.hidden = ok; img.dataset.state = ok ? "ok" : "none"; };
  on(img, "load", () => { loading = false; showFrame(true); });
  on(img, "error", () => { loading = false; retryAt = Date.now() + 2 * FRAME_MS; showFrame(false); });
  showFrame(false);
  setInterval(() => {
    if (loading || Date.now() < retryAt || !el.isConnected || picture.hidden || !picture.open
      || document.visibilityState !== "visible" || !hasPicture(me.bc)) return;
    loading = true;
    img.src = api.boardCameraUrl(gameId, Date.now());
  }, FRAME_MS);

  function draw(force = false) {
    const view = me.view;
    const bc = me.bc;
    if (!view || !bc) return;
    const host = view.role === "host";
    rememberTodo(me, view, bc);
    const key = JSON.stringify([bc, view.seq, view.role, view.viewer, me.todo]);
    if (!force && key === me.drawn) return;
    me.drawn = key;
    const st = view.state;
    const ix = st.board && st.board.grid ? boardIndex(st.board) : null;
    el.dataset.state = bc.state;
    el.dataset.matches = String(bc.matches);
    el.dataset.cause = String(bc.cause);
    el.dataset.auto = String(Boolean(bc.auto));
    title.textContent = t("metro.board.title");
    replace(tags,
      h("span", { class: `bc-state-chip bc-${bc.state}`, testid: "board-state", dataset: { state: bc.state } },
        t(`metro.board.state.${bc.state}`)),
      bc.simulated ? h("span", { class: "tag", testid: "board-simulated" }, t("dev.simulated")) : null);
    picTitle.textContent = t("metro.board.picture");
    img.alt = t("metro.board.pictureAlt");
    none.textContent = t("metro.board.pictureNone");
    picture.hidden = !host;
    replace(body,
      problemPart(bc, host),
      bc.state === "off" || bc.state === "problem" ? null : h("p", { class: "bc-sub muted", testid: "board-markers",
        dataset: { markers: String(bc.markers), pose: String(bc.pose) } },
      t("metro.board.markers", { n: bc.markers ?? 0, pose: t(`metro.board.pose.${bc.pose || "lost"}`) })),
      ix ? proposalPart(me, view, ix, bc, host) : null,
      ix ? differencesPart(me, st, ix, bc) : null,
      ix ? unsurePart(ix, bc) : null,
      host ? autoPart(me, bc) : null);
    // A spot lit from the list stays lit on a redrawn map; with the list gone, it goes out.
    if (!body.querySelector(".bc-item")) showTarget(null, { pin: true });
  }
  me.draw = draw;
  onLangChange(() => draw(true));
  return me;
}

// Whether the camera has a picture to show (a camera that cannot be opened, or rests, has none).
const hasPicture = (bc) => Boolean(bc) && (bc.state === "reading" || bc.state === "problem")
  && !(bc.problem && bc.problem.code === "camera_error");

// --- the parts -----------------------------------------------------------------------------------

function problemPart(bc, host) {
  const p = bc.problem;
  if (!p) return bc.state === "resting" ? h("p", { class: "bc-sub muted", testid: "board-resting" },
    t("metro.board.resting")) : null;
  const params = p.params || {};
  const known = ["no_markers", "hands", "pose_lost", "camera_error", "calibrate", "unknown_colour", "wrong_board"];
  let words;
  if (!known.includes(p.code)) words = t("metro.board.problem.other", { code: p.code });
  else if (p.code === "camera_error" && (params.detail || params.message)) {
    words = t("metro.board.problem.camera_errorWhy", { why: params.detail || params.message });
  }
  else words = t(`metro.board.problem.${p.code}`, { n: params.markers ?? bc.markers ?? 0 });
  const tone = p.code === "hands" ? "warn" : "bad";
  return h("div", { class: `bc-problem ${tone}`, testid: "board-problem", dataset: { code: p.code }, role: "status" },
    h("p", {}, words),
    p.code === "calibrate" && host ? h("a", { class: "big bc-link", href: "/calibrate-board", testid: "board-calibrate-link" },
      t("metro.board.calibrateLink")) : null,
    p.code === "hands" ? null : h("p", { class: "bc-sub" }, t("metro.board.byHand")));
}

// The move the board shows (one, or several to choose from), and who may confirm it.
function proposalPart(me, view, ix, bc, host) {
  const prop = bc.proposal;
  const cands = Array.isArray(bc.candidates) && bc.candidates.length ? bc.candidates : null;
  if (!prop && !cands) return null;
  const st = view.state;
  const seat = prop ? prop.seat : cands[0].moves[0] && cands[0].moves[0].player;
  const mayAnswer = Boolean(prop) && (host || (Number.isInteger(view.viewer) && view.viewer === seat));
  const name = Number.isInteger(seat) ? seatName(st, seat) : "";
  const lead = Number.isInteger(seat) ? [seatDot(st, seat, { cls: "sm" }), " "] : null;
  const confirm = (candidate) => (e) => act(e.currentTarget, async () => {
    await api.boardConfirm(me.gameId, prop.id, candidate);
  }, me);
  const dismiss = prop && mayAnswer ? h("button", { class: "big subtle", testid: "board-dismiss",
    onclick: (e) => act(e.currentTarget, () => api.boardDismiss(me.gameId, prop.id), me) }, t("metro.board.dismiss")) : null;
  if (cands && cands.length > 1) {
    return h("div", { class: "bc-proposal question", testid: "board-question", dataset: { proposal: prop ? prop.id : "" } },
      h("p", { class: "bc-lead" }, lead, t("metro.board.question", { name })),
      h("ol", { class: "bc-cands" }, cands.map((c, i) => h("li", { testid: `board-candidate-${i}` },
        h("span", { class: "bc-moves" }, c.moves.map((m) => moveWords(view, ix, m, { seat }))),
        mayAnswer ? h("button", { class: "big primary", testid: `board-pick-${i}`, onclick: confirm(i) },
          t("metro.board.pick")) : null))),
      mayAnswer ? h("div", { class: "move-row" }, dismiss) : h("p", { class: "bc-sub muted" }, t("metro.board.waitFor", { name })));
  }
  const moves = prop ? prop.moves : cands[0].moves;
  return h("div", { class: "bc-proposal", testid: "board-proposal", dataset: { proposal: prop ? prop.id : "", seat: String(seat) } },
    h("p", { class: "bc-lead" }, lead, t("metro.board.proposal", { name })),
    h("div", { class: "bc-moves" }, moves.map((m) => moveWords(view, ix, m, { seat }))),
    mayAnswer ? h("div", { class: "move-row bc-buttons" },
      h("button", { class: "big primary", testid: "board-confirm", onclick: confirm(cands ? 0 : null) }, "✓ ",
        t("metro.board.confirm")), dismiss)
      : h("p", { class: "bc-sub muted", testid: "board-wait" }, t("metro.board.waitFor", { name })));
}

async function act(button, fn, me) {
  button.disabled = true;
  try { await fn(); } catch (_) { /* the toast says why */ }
  button.disabled = false;
  await me.refresh();
}

// After a move made on the dashboard the differences are the to-do list: kept while the board
// catches up, so that each item is ticked off as it is done (and the list stays, all ticked,
// until the game moves on).
function rememberTodo(me, view, bc) {
  const diffs = Array.isArray(bc.differences) ? bc.differences : [];
  if (bc.cause === "dashboard") {
    if (!me.todo || me.todo.seq !== view.seq) me.todo = { seq: view.seq, items: [] };
    for (const d of diffs) {
      if (!me.todo.items.some((x) => x.piece === d.piece && x.key === d.key)) me.todo.items.push(d);
    }
  } else if (me.todo && (me.todo.seq !== view.seq || bc.cause === "board")) {
    me.todo = null;
  }
}

function differencesPart(me, st, ix, bc) {
  const diffs = Array.isArray(bc.differences) ? bc.differences : [];
  const todo = me.todo && me.todo.items.length ? me.todo : null;
  const open = (d) => diffs.some((x) => x.piece === d.piece && x.key === d.key);
  const matches = bc.matches === true
    ? h("p", { class: "bc-matches", testid: "board-matches" }, "✓ ", t("metro.board.matches")) : null;
  if (todo) {
    const items = [...todo.items, ...diffs.filter((d) => !todo.items.some((x) => x.piece === d.piece && x.key === d.key))];
    return [h("div", { class: "bc-diffs todo", testid: "board-todo" },
      h("h3", {}, t("metro.board.todo")),
      h("p", { class: "bc-sub muted" }, t("metro.board.todoHint")),
      h("ul", { class: "bc-list" }, items.map((d) => diffItem(st, ix, d, { todo: true, done: !open(d) })))), matches];
  }
  // A move the board shows (a proposal, a question) says all its differences already.
  if (!diffs.length || bc.proposal || (bc.candidates && bc.candidates.length)) {
    if (matches) return matches;
    if (diffs.length) return null;
    return bc.state === "reading" && bc.matches === null
      ? h("p", { class: "bc-sub muted", testid: "board-unsettled" }, t("metro.board.unsettled")) : null;
  }
  return h("div", { class: "bc-diffs", testid: "board-diffs", dataset: { cause: String(bc.cause) } },
    h("h3", {}, t("metro.board.diffs")),
    h("p", { class: "bc-sub muted" }, t(bc.cause === "board" ? "metro.board.causeBoard" : "metro.board.diffsHint")),
    h("ul", { class: "bc-list" }, diffs.map((d) => diffItem(st, ix, d, { todo: false, done: false }))));
}

// A place the camera read with doubt ("station:ueno", "field:130", "stop:G:3", "ride:G:0",
// "value:G", "drink:ueno") in words: it is left out of "board vs game", so a piece put there is not seen.
export function unsureWords(ix, spot) {
  const [kind, a, b] = String(spot).split(":");
  if (kind === "station") return stationName(ix, a);
  if (kind === "field") return placeWords(ix, `field:${a}`);
  if (kind === "stop") return t("metro.board.unsure.stop", { stop: stopLabel(ix, a, Number(b)) });
  if (kind === "ride") return t("metro.board.riding", { line: a });
  if (kind === "value") return t("metro.board.unsure.value", { line: a });
  if (kind === "drink") return t("metro.board.unsure.drink", { station: stationName(ix, a) });
  return String(spot);
}

function unsurePart(ix, bc) {
  const spots = Array.isArray(bc.unsure) ? bc.unsure : [];
  if (!spots.length || bc.state !== "reading") return null;
  return h("p", { class: "bc-sub bc-unsure", testid: "board-unsure", dataset: { n: String(spots.length) } },
    t("metro.board.unsure", { places: spots.map((s) => unsureWords(ix, s)).join(" · ") }));
}

function diffItem(st, ix, d, { todo, done }) {
  const target = differenceTarget(ix, d);
  const colour = d.piece === "meeple" ? d.key : d.piece === "pyramid" ? d.game ?? d.board : null;
  const seat = colour ? seatOfColour(colour) : -1;
  // a drink (METRO DRINKS): its colour, which is no seat's
  const drink = d.piece === "drink" ? String(d.game ?? d.board ?? "").split("-")[0] : null;
  const lit = (on) => () => showTarget(on ? target : null, { pin: true });
  // Whose piece: the seat's dot (its colour, its initial); a line's badge for a train or a value.
  const badge = d.piece === "train" || d.piece === "value" ? lineBadge(st, d.key, { cls: "sm" })
    : drink ? h("span", { class: `bc-colour bc-drink c-drink-${drink}`, "aria-hidden": "true" })
    : seat >= 0 && seat < st.players.length ? seatDot(st, seat, { cls: "sm" })
      : h("span", { class: `bc-colour c-${colour}`, "aria-hidden": "true" });
  const button = h("button", { class: `bc-item${done ? " done" : ""}`, type: "button",
    testid: `board-${todo ? "todo" : "diff"}-${d.piece}-${d.key}`, dataset: { done: String(done), piece: d.piece, key: d.key },
    "aria-label": done ? `${differenceWords(ix, d, { todo })} (${t("metro.board.todoDone")})` : null,
    onpointerenter: lit(true), onpointerleave: lit(false), onfocus: lit(true), onblur: lit(false), onclick: lit(true) },
  h("span", { class: "bc-check", "aria-hidden": "true" }, done ? "✓" : ""),
  badge, h("span", { class: "bc-text" }, differenceWords(ix, d, { todo })));
  return h("li", {}, button);
}

function autoPart(me, bc) {
  const on = Boolean(bc.auto);
  const b = h("button", { class: "bc-auto", type: "button", role: "switch", testid: "board-auto",
    "aria-checked": on ? "true" : "false",
    onclick: () => act(b, () => api.boardAuto(me.gameId, !on), me) },
  h("span", { class: "bc-switch", "aria-hidden": "true" }), h("span", {}, t("metro.board.auto")));
  return h("div", { class: "bc-auto-row" }, b, h("p", { class: "bc-sub muted" }, t("metro.board.autoHint")));
}
