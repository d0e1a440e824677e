// The frame of a camera's panel that watches one game (the crate camera, the landing camera): the
// head with its title and state chip, the body the camera's own module fills, the picture the host
// can open (a frame a second while it is open), and the bookkeeping both share: the camera's JSON
// taken from each view unless an older news (`rev`) would replace a newer one, fetched again after
// a tap, and drawn only when what it says changed (a redraw under a finger would swallow a tap).
import { h, replace, on } from "./dom.js";
import { t, onLangChange } from "./i18n.js";

const FRAME_MS = 1000;   // a picture a second is plenty

// prefix: the words' and test ids' prefix ("crates"); cls and testid: the section's; news(): the
// camera's JSON fetched anew; pictureUrl(): a fresh picture's address; mark(el, cam): the camera's
// facts on the section's dataset; body(me, view, cam, host): the body's parts.
export function cameraPanel(gameId, { prefix, cls, testid, news, pictureUrl, mark, body }) {
  const title = h("h2", {});
  const chip = h("span", { class: "bc-tags" });
  const bodyEl = h("div", { class: "bc-body" });
  const img = h("img", { class: "bc-frame", testid: `${prefix}-image`, width: 640, height: 360, hidden: true });
  const picTitle = h("summary", {});
  const picture = h("details", { class: "bc-picture", testid: `${prefix}-picture` }, picTitle, img);
  const el = h("section", { class: `panel board-cam ${cls}`, testid }, h("div", { class: "bc-head" }, title, chip),
    bodyEl, picture);
  const me = { el, gameId, view: null, cam: null, drawn: null };

  me.fromView = (view, cam) => {
    const seqChanged = !me.view || me.view.seq !== view.seq;
    const older = me.cam && !seqChanged && typeof cam.rev === "number" && cam.rev < me.cam.rev;
    me.view = view;
    if (!older) me.cam = cam;
    draw();
  };
  me.refresh = async () => {
    try {
      const cam = await news();
      if (cam && typeof cam === "object") { me.cam = cam; draw(); }
    } catch (_) { /* the connection badge says so; the view keeps the last state */ }
  };

  let loading = false;
  on(img, "load", () => { loading = false; img.hidden = false; });
  on(img, "error", () => { loading = false; img.hidden = true; });
  setInterval(() => {
    if (loading || !el.isConnected || picture.hidden || !picture.open || document.visibilityState !== "visible") return;
    loading = true;
    img.src = pictureUrl();
  }, FRAME_MS);

  function draw(force = false) {
    const { view, cam } = me;
    if (!view || !cam) return;
    const key = JSON.stringify([cam, view.seq, view.role, view.viewer]);
    if (!force && key === me.drawn) return;
    me.drawn = key;
    const host = view.role === "host";
    el.dataset.state = cam.state;
    mark(el, cam);
    title.textContent = t(`${prefix}.title`);
    replace(chip, h("span", { class: `bc-state-chip bc-${cam.state}`, testid: `${prefix}-state`, dataset: { state: cam.state } },
      t(`${prefix}.state.${cam.state}`)),
    cam.simulated ? h("span", { class: "tag", testid: `${prefix}-simulated` }, t("dev.simulated")) : null);
    picTitle.textContent = t(`${prefix}.picture`);
    img.alt = t(`${prefix}.pictureAlt`);
    picture.hidden = !host;
    replace(bodyEl, body(me, view, cam, host));
  }
  onLangChange(() => draw(true));
  return me;
}
