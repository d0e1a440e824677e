// The dashboard's words. Every word a person reads comes from a catalogue: one JSON file per
// language and part, static/i18n/<lang>/common.json (the shell, the lobby, the devices, what
// every game shares) and static/i18n/<lang>/<game>.json (what only that game says). A key holds
// a text with {name} slots, or, where the words follow a count, its plural forms
// {"one": ..., "other": ...} as Intl.PluralRules names them for the language (t() picks one by
// params.count). A page loads its language's common catalogue before anything is drawn (this
// module waits for it) and a game's catalogue with useGame(); each file is fetched once per page
// (and revalidated by the browser's cache). A catalogue that cannot be fetched falls back to the
// English one, and a key no loaded catalogue holds to the key itself (or, where the callers ask,
// the humanised id). Every language holds the same keys: tests/test_i18n_catalogues.py.
// A key goes in common.json unless one game alone shows it (that test plays every game to tell).
// A new language: its folder, its code in LANGS and LOCALES, its plural forms in the test's
// PLURAL_FORMS (tools/i18n_missing.py lists the keys a language still lacks).

const STORE_KEY = "ttc.lang";
export const LANGS = ["en", "de", "ja"];
// How each language writes numbers, yen and dates (Intl locales): English numbers as in the US,
// its dates day-first as in Britain; Japanese yen as ￥1,000.
const LOCALES = {
  en: { number: "en-US", date: "en-GB" },
  de: { number: "de-DE", date: "de-DE" },
  ja: { number: "ja-JP", date: "ja-JP" },
};
const FALLBACK = "en";
const CATALOGUES = new URL("../i18n/", import.meta.url); // static/i18n/, beside static/js/

const files = new Map();   // "de/pocari_bet" -> Promise of its catalogue: one fetch each
const text = {};           // lang -> every key of its catalogues loaded so far
const loaded = new Set();  // "de/pocari_bet" once merged into text.de
const games = new Set();   // the games whose catalogues this page uses (loaded again for a new language)
const pluralRules = new Map();

function fetchCatalogue(lang, name) {
  const id = `${lang}/${name}`;
  if (!files.has(id)) {
    const url = new URL(`${encodeURIComponent(lang)}/${encodeURIComponent(name)}.json`, CATALOGUES);
    files.set(id, fetch(url).then((res) => {
      if (!res.ok) throw new Error(`${res.status}`);
      return res.json();
    }).catch((err) => {
      if (lang !== FALLBACK) return fetchCatalogue(FALLBACK, name);
      console.warn(`catalogue ${id} could not be loaded (${err.message}): its keys are shown as ids`);
      return {};
    }));
  }
  return files.get(id);
}

function load(lang, name) {
  const id = `${lang}/${name}`;
  if (loaded.has(id)) return Promise.resolve();
  return fetchCatalogue(lang, name).then((cat) => {
    text[lang] = Object.assign(text[lang] || Object.create(null), cat);
    loaded.add(id);
  });
}

const names = () => ["common", ...games];
const complete = (l) => names().every((name) => loaded.has(`${l}/${name}`));

function initialLang() {
  try {
    const saved = localStorage.getItem(STORE_KEY);
    if (LANGS.includes(saved)) return saved;
  } catch (_) { /* storage may be off */ }
  // The browser's languages in its order of preference: the first one the dashboard speaks.
  const prefs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const pref of prefs) {
    const base = String(pref).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return FALLBACK;
}

let lang = initialLang();
let wanted = lang;         // the language last chosen (its catalogues may still be on the way)
const listeners = [];
await load(lang, "common");

export function getLang() { return lang; }

// The page changes language once the new language's catalogues are here (at once when they are).
export function setLang(next) {
  if (!LANGS.includes(next) || next === wanted) return Promise.resolve();
  wanted = next;
  try { localStorage.setItem(STORE_KEY, next); } catch (_) { /* ignore */ }
  return switchTo(next);
}

function switchTo(next) {
  if (wanted !== next) return Promise.resolve(); // a later choice won
  if (!complete(next)) return Promise.all(names().map((name) => load(next, name))).then(() => switchTo(next));
  if (lang !== next) {
    lang = next;
    document.documentElement.lang = lang;
    for (const fn of listeners) fn(lang);
  }
  return Promise.resolve();
}

// Games of one engine share a catalogue and its game-specific keys (`kind.tokyo_metro.x`): the
// server's game declarations say so too (Declared.catalogue; a test holds the two the same).
const SHARED_WORDS = { osaka_metro: "tokyo_metro", metro_drinks: "tokyo_metro" };

// The catalogue, and the key part, of a game's own words.
export function wordsOf(game) { return SHARED_WORDS[game] ?? game; }

// A game's own words: resolves once its catalogue is loaded in the page's language (then
// gameReady is true). A page that shows a game draws it after this.
export function useGame(id) {
  if (!/^[a-z0-9_]+$/.test(String(id))) return Promise.resolve();
  games.add(wordsOf(id));
  return load(lang, wordsOf(id));
}

export function gameReady(id) {
  return !/^[a-z0-9_]+$/.test(String(id)) || loaded.has(`${lang}/${wordsOf(id)}`);
}

export function onLangChange(fn) { listeners.push(fn); }

export function has(key) { return Object.hasOwn(text[lang] || {}, key); }

// The plural form of the language for a count: "one", "other" (and in other languages "few", ...).
export function pluralForm(count) {
  if (!pluralRules.has(lang)) pluralRules.set(lang, new Intl.PluralRules(lang));
  return pluralRules.get(lang).select(count);
}

// The raw text of a key in the current language (null when no catalogue loaded holds it); a key
// with plural forms gives the one for `count` ("other" without a count).
export function template(key, count) {
  const entry = has(key) ? text[lang][key] : null;
  if (entry === null || typeof entry === "string") return entry;
  const form = typeof count === "number" && Number.isFinite(count) ? pluralForm(count) : "other";
  return entry[form] ?? entry.other ?? null;
}

// The text of a key with its {slots} filled from params. The count that chooses a plural form
// is params.count, else params.n when that is a number (a formatted "1,000" is not).
export function t(key, params = {}) {
  const count = params.count ?? (typeof params.n === "number" ? params.n : undefined);
  const raw = template(key, count) ?? key;
  return raw.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

// A common text as a game words it where its catalogue says otherwise (`<key>.<game>`: Mr. Sudsy
// throws detergent bottles, not drinks), else the common text.
export function tFor(game, key, params = {}) {
  return game && has(`${key}.${game}`) ? t(`${key}.${game}`, params) : t(key, params);
}

// An id the catalogue does not know, made readable: "buy_card" -> "Buy card".
export function humanize(id) {
  const words = String(id).replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_\-.]+/g, " ").trim().toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : "";
}

// A key of the catalogue if it exists, else the humanised id.
export function tOr(key, id, params = {}) {
  return has(key) ? t(key, params) : humanize(id);
}

// The text of `${prefix}.${game}.${id}` (a game's own word) or else `${prefix}.${id}`; null if neither.
export function lookup(prefix, id, game) {
  return (game ? template(`${prefix}.${wordsOf(game)}.${id}`) : null) ?? template(`${prefix}.${id}`);
}

export function gameName(id) { return tOr(`game.${id}`, id); }
export function phaseName(id, game) { return lookup("phase", id, game) ?? humanize(id); }
export function fieldLabel(id) { return tOr(`field.${id}`, id); }

const locales = () => LOCALES[lang] || LOCALES[FALLBACK];

// Number formats made once a language and kind: a page draws hundreds of amounts a move, and
// making an Intl.NumberFormat is far dearer than using one (a profile of a game's play-through).
const numberFormats = new Map();
const NUMBER_STYLES = {
  yen: { style: "currency", currency: "JPY", maximumFractionDigits: 0 },
  num: {},
  percent: { style: "percent" },
};

function numberFormat(kind) {
  const locale = locales().number, key = `${kind} ${locale}`;
  if (!numberFormats.has(key)) numberFormats.set(key, new Intl.NumberFormat(locale, NUMBER_STYLES[kind]));
  return numberFormats.get(key);
}

export function yen(n) { return numberFormat("yen").format(n); }

export function num(n) { return numberFormat("num").format(n); }

// A share (0..1) as the language writes a percentage ("75%", "75 %").
export function percent(r) { return numberFormat("percent").format(r); }

// A moment (a Date, or what Date takes: an ISO text, milliseconds) as the language writes it;
// by default its date and time of day ("2 Dec 2026, 15:39", "2026/12/02 15:39").
export function dateTime(when, style = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(locales().date, style).format(when instanceof Date ? when : new Date(when));
}

export function cardName(id) {
  return template(`colour.${id}`) ?? template(`shape.${id}`) ?? id;
}

export function drinkName(id) {
  if (/^detergent-\d+$/.test(id)) return t("item.detergent", { n: id.split("-")[1] });
  const [colour, shape] = id.split("-");
  return t("drink", { colour: cardName(colour), shape: cardName(shape) });
}

export function joinNames(names) {
  if (names.length <= 1) return names.join("");
  return names.slice(0, -1).join(t("and.comma")) + t("and") + names[names.length - 1];
}

// Static text in the HTML: elements carry data-i18n="key" (and data-i18n-attr="title" etc.).
export function applyStatic(root = document) {
  document.documentElement.lang = lang;
  for (const el of root.querySelectorAll("[data-i18n]")) {
    const attr = el.dataset.i18nAttr;
    if (attr) el.setAttribute(attr, t(el.dataset.i18n));
    else el.textContent = t(el.dataset.i18n);
  }
}
