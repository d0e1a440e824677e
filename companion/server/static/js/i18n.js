// The one message catalogue of the dashboard: every word a person reads comes from here.
// English and German (the language of the rule books). t(key, params) fills {name} slots.

const STORE_KEY = "ttc.lang";
export const LANGS = ["en", "de"];

const EN = {
  "app.title": "Tokyo Table Companion",
  "app.game.pocari_bet": "POCARI BET",
  "lang.en": "EN", "lang.de": "DE", "lang.choose": "Language",
  "conn.reconnecting": "reconnecting…",
  "conn.offline": "connection lost",
  "toast.close": "Dismiss",
  "error.network": "The companion could not be reached: {why}",
  "error.http": "The companion answered {status}",
  "error.nogame": "This game could not be opened: {why}",
  "sim.banner": "Simulated table: a computer tower decides what comes out. No camera or real tower is used.",
  "lobby.title": "Start a game of POCARI BET",
  "lobby.seat": "Seat {n}",
  "lobby.name": "Name of seat {n}",
  "lobby.computer": "Computer",
  "lobby.human": "Person",
  "lobby.simulated": "Simulated tower (no real tower at this table)",
  "lobby.start": "Start the game",
  "lobby.open": "Games in progress",
  "lobby.finished": "Finished games",
  "lobby.none": "No games yet.",
  "lobby.resume": "Resume",
  "lobby.show": "Show",
  "lobby.computerShort": "computer",
  "lobby.simShort": "simulated",
  "lobby.realShort": "real tower",
  "lobby.default.0": "Aki", "lobby.default.1": "Ben", "lobby.default.2": "Chie",
  "lobby.back": "Lobby",
  "round": "Round {round}/{rounds}",
  "phase.start": "Choosing the start player",
  "phase.draw": "Draw a secret card",
  "phase.secret": "Entering the secret card",
  "phase.turn_up": "Turning up the cards",
  "phase.draft": "Draft: pick drinks",
  "phase.invest": "Invest",
  "phase.declare": "Declare a colour or shape",
  "phase.drop": "Throw into the tower",
  "phase.over": "Game over",
  "player.yen": "Yen",
  "player.stake": "Stake",
  "player.declared": "Invested in",
  "player.hand": "Drinks",
  "player.secret": "Secret card",
  "player.startPlayer": "Start player (has the crate)",
  "player.computer": "computer",
  "player.acting": "acts now",
  "player.noStake": "—",
  "act.who": "{name}'s move",
  "act.waitBot": "{name} (computer) is playing…",
  "act.waitBotSecret": "{name} (computer) drew a card: whoever holds it for the computer enters it with {name}'s link (Join on your phone)",
  "act.waitSecret": "{name}: enter the card you drew on your phone",
  "act.waitTable": "Waiting for the table",
  "act.throw": "{name} throws all the drinks into the tower",
  "act.waitOther": "Waiting for {name}",
  "act.yourTurn": "Your move",
  "act.none": "Nothing to do right now",
  "move.draw.colour": "Colour deck",
  "move.draw.shape": "Shape deck",
  "move.deckLeft": "{n} left",
  "move.invest": "Invest {yen}",
  "move.cost": "costs {yen}",
  "move.pays": "could pay {yen}",
  "move.paysNothing": "pays nothing now",
  "move.upTo": "up to {yen}",
  "move.declareHint": "Pick the colour or shape you invest in",
  "move.pickHint": "Pick a drink",
  "throw": "Throw into the tower",
  "throw.hint": "The start player throws these in:",
  "chance.start": "Who starts? (who has the crate)",
  "chance.startSeat": "{name} starts",
  "chance.turnUp": "Turn up one colour card and one shape card",
  "chance.turnUpColour": "Colour card",
  "chance.turnUpShape": "Shape card",
  "chance.seventh": "Set aside:",
  "chance.secret": "Enter the card you drew",
  "chance.secretHint": "Only your phone sees it.",
  "drop.title": "What came out of the tower?",
  "drop.hint": "Tap every drink that came out, then confirm.",
  "drop.confirm": "Confirm: {n} came out",
  "drop.nothing": "Confirm: nothing came out",
  "drop.cancel": "Cancel",
  "spill.open": "Drinks fell out of the tower",
  "spill.title": "Which drinks fell out?",
  "question.confirm": "Please check: did exactly these drinks come out?",
  "question.contradiction": "This does not fit the game: please correct it",
  "question.yes": "Confirm",
  "question.correct": "Correct",
  "undo": "Undo",
  "faceup.title": "Turned-up cards",
  "faceup.none": "Not turned up yet",
  "seventh.title": "7th drink",
  "seventh.stuck": "stuck in the tower",
  "stuck.title": "Stuck in the tower",
  "stuck.none": "Nothing is stuck",
  "result.title": "Round {round}: the tower",
  "result.thrown": "Thrown in",
  "result.out": "Came out",
  "result.freed": "Freed from inside",
  "result.stuck": "Still stuck",
  "result.none": "none",
  "result.pay.title": "Payouts",
  "result.player": "Player",
  "result.stake": "Stake",
  "result.declared": "On",
  "result.matches": "Matches",
  "result.bonus": "Bonus",
  "result.secret": "Secret card",
  "result.paid": "Paid",
  "result.forfeit": "7th drink came out: stake lost",
  "result.yes": "✓",
  "join.title": "Join on your phone",
  "join.hint": "Scan your code: your secret card shows only on your phone.",
  "join.qr": "QR code for {name}",
  "over.title": "Game over",
  "over.winner": "{names} wins!",
  "over.winners": "{names} win!",
  "over.final": "Final money",
  "phone.noToken": "Open your own player link: scan your QR code on the table view.",
  "phone.badToken": "This player link is not valid for this game. Ask the table for your QR code again.",
  "phone.noCard": "No card yet",
  "phone.secretTitle": "Your secret card",
  "phone.table": "At the table",
  "phone.myHand": "Your drinks",
  "phone.lastPaid": "Last round you got {yen}",
  "bank": "Bank",
  "and": " and ",
  "colour.black": "black", "colour.white": "white", "colour.mint": "mint",
  "colour.blue": "blue", "colour.red": "red", "colour.purple": "purple",
  "shape.stubby_can": "stubby can", "shape.short_can": "short can", "shape.tall_can": "tall can",
  "shape.square_bottle": "square bottle", "shape.not_tallest_bottle": "not-tallest bottle",
  "shape.tallest_bottle": "tallest bottle",
  "drink": "{colour} {shape}",
  "card": "{kind} card",
  "card.back": "face-down card",
  "deck.colour": "colour deck", "deck.shape": "shape deck",
  "crate": "crate",
};

const DE = {
  "app.title": "Tokyo Table Companion",
  "app.game.pocari_bet": "POCARI BET",
  "lang.en": "EN", "lang.de": "DE", "lang.choose": "Sprache",
  "conn.reconnecting": "verbinde neu…",
  "conn.offline": "Verbindung verloren",
  "toast.close": "Schließen",
  "error.network": "Der Companion ist nicht erreichbar: {why}",
  "error.http": "Der Companion antwortete {status}",
  "error.nogame": "Dieses Spiel lässt sich nicht öffnen: {why}",
  "sim.banner": "Simulierter Tisch: Ein Computer-Automat entscheidet, was herauskommt. Keine Kamera, kein echter Automat.",
  "lobby.title": "Eine Partie POCARI BET beginnen",
  "lobby.seat": "Platz {n}",
  "lobby.name": "Name für Platz {n}",
  "lobby.computer": "Computer",
  "lobby.human": "Mensch",
  "lobby.simulated": "Simulierter Automat (kein echter Automat am Tisch)",
  "lobby.start": "Spiel beginnen",
  "lobby.open": "Laufende Spiele",
  "lobby.finished": "Beendete Spiele",
  "lobby.none": "Noch keine Spiele.",
  "lobby.resume": "Fortsetzen",
  "lobby.show": "Ansehen",
  "lobby.computerShort": "Computer",
  "lobby.simShort": "simuliert",
  "lobby.realShort": "echter Automat",
  "lobby.default.0": "Aki", "lobby.default.1": "Ben", "lobby.default.2": "Chie",
  "lobby.back": "Übersicht",
  "round": "Runde {round}/{rounds}",
  "phase.start": "Startspieler bestimmen",
  "phase.draw": "Geheime Karte ziehen",
  "phase.secret": "Geheime Karte eingeben",
  "phase.turn_up": "Karten aufdecken",
  "phase.draft": "Getränke wählen",
  "phase.invest": "Investieren",
  "phase.declare": "Farbe oder Form ansagen",
  "phase.drop": "In den Automaten werfen",
  "phase.over": "Spielende",
  "player.yen": "Yen",
  "player.stake": "Einsatz",
  "player.declared": "Investiert in",
  "player.hand": "Getränke",
  "player.secret": "Geheime Karte",
  "player.startPlayer": "Startspieler (hat die Kiste)",
  "player.computer": "Computer",
  "player.acting": "ist dran",
  "player.noStake": "—",
  "act.who": "{name} ist am Zug",
  "act.waitBot": "{name} (Computer) spielt…",
  "act.waitBotSecret": "{name} (Computer) hat eine Karte gezogen: Wer sie für den Computer verwahrt, gibt sie über den Link von {name} ein (Mit dem Handy beitreten)",
  "act.waitSecret": "{name}: Gib die gezogene Karte auf deinem Handy ein",
  "act.waitTable": "Der Tisch ist dran",
  "act.throw": "{name} wirft alle Getränke in den Automaten",
  "act.waitOther": "Warte auf {name}",
  "act.yourTurn": "Du bist am Zug",
  "act.none": "Gerade nichts zu tun",
  "move.draw.colour": "Farbstapel",
  "move.draw.shape": "Formstapel",
  "move.deckLeft": "noch {n}",
  "move.invest": "{yen} investieren",
  "move.cost": "kostet {yen}",
  "move.pays": "bringt bis zu {yen}",
  "move.paysNothing": "bringt derzeit nichts",
  "move.upTo": "bis {yen}",
  "move.declareHint": "Wähle die Farbe oder Form, in die du investierst",
  "move.pickHint": "Wähle ein Getränk",
  "throw": "In den Automaten werfen",
  "throw.hint": "Der Startspieler wirft ein:",
  "chance.start": "Wer beginnt? (wer hat die Kiste)",
  "chance.startSeat": "{name} beginnt",
  "chance.turnUp": "Decke eine Farbkarte und eine Formkarte auf",
  "chance.turnUpColour": "Farbkarte",
  "chance.turnUpShape": "Formkarte",
  "chance.seventh": "Beiseite gestellt:",
  "chance.secret": "Gib die gezogene Karte ein",
  "chance.secretHint": "Nur dein Handy sieht sie.",
  "drop.title": "Was kam aus dem Automaten?",
  "drop.hint": "Tippe jedes Getränk an, das herauskam, und bestätige.",
  "drop.confirm": "Bestätigen: {n} kamen heraus",
  "drop.nothing": "Bestätigen: nichts kam heraus",
  "drop.cancel": "Abbrechen",
  "spill.open": "Getränke sind herausgefallen",
  "spill.title": "Welche Getränke sind herausgefallen?",
  "question.confirm": "Bitte prüfen: Kamen genau diese Getränke heraus?",
  "question.contradiction": "Das passt nicht zum Spiel: Bitte korrigieren",
  "question.yes": "Bestätigen",
  "question.correct": "Korrigieren",
  "undo": "Rückgängig",
  "faceup.title": "Aufgedeckte Karten",
  "faceup.none": "Noch nicht aufgedeckt",
  "seventh.title": "Siebtes Getränk",
  "seventh.stuck": "steckt im Automaten",
  "stuck.title": "Steckt im Automaten",
  "stuck.none": "Nichts steckt fest",
  "result.title": "Runde {round}: der Automat",
  "result.thrown": "Eingeworfen",
  "result.out": "Herausgekommen",
  "result.freed": "Von innen befreit",
  "result.stuck": "Steckt noch",
  "result.none": "keine",
  "result.pay.title": "Auszahlungen",
  "result.player": "Spieler",
  "result.stake": "Einsatz",
  "result.declared": "Auf",
  "result.matches": "Treffer",
  "result.bonus": "Bonus",
  "result.secret": "Geheime Karte",
  "result.paid": "Ausgezahlt",
  "result.forfeit": "Siebtes Getränk kam heraus: Einsatz verloren",
  "result.yes": "✓",
  "join.title": "Mit dem Handy beitreten",
  "join.hint": "Scanne deinen Code: Deine geheime Karte siehst nur du auf deinem Handy.",
  "join.qr": "QR-Code für {name}",
  "over.title": "Spielende",
  "over.winner": "{names} gewinnt!",
  "over.winners": "{names} gewinnen!",
  "over.final": "Endstand",
  "phone.noToken": "Öffne deinen eigenen Spieler-Link: Scanne deinen QR-Code am Tisch.",
  "phone.badToken": "Dieser Spieler-Link gilt nicht für dieses Spiel. Lass dir am Tisch deinen QR-Code noch einmal zeigen.",
  "phone.noCard": "Noch keine Karte",
  "phone.secretTitle": "Deine geheime Karte",
  "phone.table": "Am Tisch",
  "phone.myHand": "Deine Getränke",
  "phone.lastPaid": "Letzte Runde: {yen} erhalten",
  "bank": "Bank",
  "and": " und ",
  "colour.black": "schwarz", "colour.white": "weiß", "colour.mint": "mint",
  "colour.blue": "blau", "colour.red": "rot", "colour.purple": "lila",
  "shape.stubby_can": "Stummeldose", "shape.short_can": "kurze Dose", "shape.tall_can": "hohe Dose",
  "shape.square_bottle": "eckige Flasche", "shape.not_tallest_bottle": "nicht höchste Flasche",
  "shape.tallest_bottle": "höchste Flasche",
  "drink": "{shape} ({colour})",
  "card": "Bestandskarte {kind}",
  "card.back": "verdeckte Karte",
  "deck.colour": "Farbstapel", "deck.shape": "Formstapel",
  "crate": "Kiste",
};

const CATALOGUE = { en: EN, de: DE };

function initialLang() {
  try {
    const saved = localStorage.getItem(STORE_KEY);
    if (LANGS.includes(saved)) return saved;
  } catch (_) { /* storage may be off */ }
  return (navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en";
}

let lang = initialLang();
const listeners = [];

export function getLang() { return lang; }

export function setLang(next) {
  if (!LANGS.includes(next) || next === lang) return;
  lang = next;
  try { localStorage.setItem(STORE_KEY, next); } catch (_) { /* ignore */ }
  document.documentElement.lang = lang;
  for (const fn of listeners) fn(lang);
}

export function onLangChange(fn) { listeners.push(fn); }

export function t(key, params = {}) {
  const text = CATALOGUE[lang][key] ?? EN[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

export function yen(n) {
  return new Intl.NumberFormat(lang === "de" ? "de-DE" : "en-US",
    { style: "currency", currency: "JPY", maximumFractionDigits: 0 }).format(n);
}

export function cardName(id) {
  return CATALOGUE[lang][`colour.${id}`] ?? CATALOGUE[lang][`shape.${id}`] ?? id;
}

export function drinkName(id) {
  const [colour, shape] = id.split("-");
  return t("drink", { colour: cardName(colour), shape: cardName(shape) });
}

export function joinNames(names) {
  if (names.length <= 1) return names.join("");
  return names.slice(0, -1).join(", ") + t("and") + names[names.length - 1];
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
