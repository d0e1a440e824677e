// Small DOM helpers shared by every page: element builder, toasts, the language toggle.
import { LANGS, getLang, setLang, onLangChange, t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// h("div", {class: "x", testid: "y", onclick: fn}, child, "text", [more])
// Whether the person asked their device for less motion (prefers-reduced-motion): then nothing
// glides or scrolls smoothly; things change in place at once.
export function lessMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, v);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "testid") el.dataset.testid = v;
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

// --- toasts: API errors are shown until dismissed (or 12 s), never lost ------------------

export function toast(message, kind = "error") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", { id: "toasts", class: "toasts", role: "status", "aria-live": "assertive" });
    document.body.append(box);
  }
  const item = h("div", { class: `toast toast-${kind}`, testid: "toast" },
    h("span", { class: "toast-text" }, message),
    h("button", { class: "toast-close", "aria-label": t("toast.close"), onclick: () => item.remove() }, "×"));
  box.append(item);
  setTimeout(() => item.remove(), 12000);
}

// --- the language toggle: one button per language (EN, DE, 日本語), each in its own language --

export function langToggle() {
  const box = h("div", { class: "lang", role: "group" });
  const draw = () => {
    box.setAttribute("aria-label", t("lang.choose"));
    replace(box, LANGS.map((l) => h("button", {
      class: `lang-btn${l === getLang() ? " on" : ""}`, testid: `lang-${l}`, lang: l,
      "aria-pressed": l === getLang() ? "true" : "false", onclick: () => setLang(l),
    }, t(`lang.${l}`))));
  };
  draw();
  onLangChange(draw);
  return box;
}

// --- the "reconnecting" badge ----------------------------------------------------------------

export function connBadge() {
  const el = h("span", { class: "conn", testid: "conn", hidden: true });
  el.show = (state) => {
    el.hidden = state === "open";
    el.dataset.state = state;
    el.textContent = state === "open" ? "" : t(state === "closed" ? "conn.offline" : "conn.reconnecting");
  };
  onLangChange(() => { if (el.dataset.state) el.show(el.dataset.state); });
  return el;
}
