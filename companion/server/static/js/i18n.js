// The one message catalogue of the dashboard: every word a person reads comes from here.
// Each key holds [English, German] (German as in the rule books). t(key, params) fills {name}
// slots; ids without a key (a new game's move kinds, phases, fields) fall back to humanize().

const STORE_KEY = "ttc.lang";
export const LANGS = ["en", "de"];

const TEXT = {
  "app.title": ["Tokyo Table Companion", "Tokyo Table Companion"],
  "lang.en": ["EN", "EN"], "lang.de": ["DE", "DE"], "lang.choose": ["Language", "Sprache"],
  "conn.reconnecting": ["reconnecting…", "verbinde neu…"], "conn.offline": ["connection lost", "Verbindung verloren"],
  "toast.close": ["Dismiss", "Schließen"],
  "error.network": ["The companion could not be reached: {why}", "Der Companion ist nicht erreichbar: {why}"],
  "error.http": ["The companion answered {status}", "Der Companion antwortete {status}"],
  "error.nogame": ["This game could not be opened: {why}", "Dieses Spiel lässt sich nicht öffnen: {why}"],
  "sim.banner": ["Simulated table: a computer tower decides what comes out. No camera or real tower is used.",
    "Simulierter Tisch: Ein Computer-Automat entscheidet, was herauskommt. Keine Kamera, kein echter Automat."],
  "lobby.title": ["Start a game", "Ein Spiel beginnen"], "lobby.seat": ["Seat {n}", "Platz {n}"],
  "lobby.name": ["Name of seat {n}", "Name für Platz {n}"], "lobby.computer": ["Computer", "Computer"],
  "lobby.human": ["Person", "Mensch"],
  "lobby.simulated": ["Simulated tower (no real tower at this table)",
    "Simulierter Automat (kein echter Automat am Tisch)"],
  "lobby.start": ["Start the game", "Spiel beginnen"], "lobby.open": ["Games in progress", "Laufende Spiele"],
  "lobby.finished": ["Finished games", "Beendete Spiele"], "lobby.none": ["No games yet.", "Noch keine Spiele."],
  "lobby.resume": ["Resume", "Fortsetzen"], "lobby.show": ["Show", "Ansehen"],
  "lobby.computerShort": ["computer", "Computer"], "lobby.simShort": ["simulated", "simuliert"],
  "lobby.realShort": ["real tower", "echter Automat"], "lobby.default.0": ["Aki", "Aki"],
  "lobby.default.1": ["Ben", "Ben"], "lobby.default.2": ["Chie", "Chie"], "lobby.back": ["Lobby", "Übersicht"],
  "round": ["Round {round}/{rounds}", "Runde {round}/{rounds}"],
  "phase.start": ["Choosing the start player", "Startspieler bestimmen"],
  "phase.draw": ["Draw a secret card", "Geheime Karte ziehen"],
  "phase.secret": ["Entering the secret card", "Geheime Karte eingeben"],
  "phase.turn_up": ["Turning up the cards", "Karten aufdecken"],
  "phase.draft": ["Draft: pick drinks", "Getränke wählen"], "phase.invest": ["Invest", "Investieren"],
  "phase.declare": ["Declare a colour or shape", "Farbe oder Form ansagen"],
  "phase.drop": ["Throw into the tower", "In den Automaten werfen"], "phase.over": ["Game over", "Spielende"],
  "player.yen": ["Yen", "Yen"], "player.stake": ["Stake", "Einsatz"],
  "player.declared": ["Invested in", "Investiert in"], "player.hand": ["Drinks", "Getränke"],
  "player.secret": ["Secret card", "Geheime Karte"],
  "player.startPlayer": ["Start player (has the crate)", "Startspieler (hat die Kiste)"],
  "player.computer": ["computer", "Computer"], "player.acting": ["acts now", "ist dran"], "player.noStake": ["—", "—"],
  "act.who": ["{name}'s move", "{name} ist am Zug"],
  "act.waitBot": ["{name} (computer) is playing…", "{name} (Computer) spielt…"],
  "act.waitBotSecret": ["{name} (computer) drew a card: whoever holds it for the computer enters it with {name}'s link (Join on your phone)",
    "{name} (Computer) hat eine Karte gezogen: Wer sie für den Computer verwahrt, gibt sie über den Link von {name} ein (Mit dem Handy beitreten)"],
  "act.waitSecret": ["{name}: enter the card you drew on your phone",
    "{name}: Gib die gezogene Karte auf deinem Handy ein"],
  "act.waitTable": ["Waiting for the table", "Der Tisch ist dran"],
  "act.throw": ["{name} throws all the drinks into the tower", "{name} wirft alle Getränke in den Automaten"],
  "act.waitOther": ["Waiting for {name}", "Warte auf {name}"], "act.yourTurn": ["Your move", "Du bist am Zug"],
  "act.none": ["Nothing to do right now", "Gerade nichts zu tun"],
  "move.draw.colour": ["Colour deck", "Farbstapel"], "move.draw.shape": ["Shape deck", "Formstapel"],
  "pocari.deckLeft": ["{n} left", "noch {n}"],
  "move.invest": ["Invest {amount}", "{amount} investieren"],
  "money.cost": ["costs {yen}", "kostet {yen}"], "money.pays": ["could pay {yen}", "bringt bis zu {yen}"],
  "money.paysNothing": ["pays nothing now", "bringt derzeit nichts"], "money.upTo": ["up to {yen}", "bis {yen}"],
  "pocari.declareHint": ["Pick the colour or shape you invest in",
    "Wähle die Farbe oder Form, in die du investierst"],
  "pocari.pickHint": ["Pick a drink", "Wähle ein Getränk"],
  "throw": ["Throw into the tower", "In den Automaten werfen"],
  "throw.hint": ["These drinks go into the tower:", "Diese Getränke kommen in den Automaten:"],
  "pick.start_player": ["Who starts? (who has the crate)", "Wer beginnt? (wer hat die Kiste)"],
  "pick.turn_up": ["Turn up one colour card and one shape card", "Decke eine Farbkarte und eine Formkarte auf"],
  "pick.turnUpColour": ["Colour card", "Farbkarte"], "pick.turnUpShape": ["Shape card", "Formkarte"],
  "pick.seventh": ["Set aside:", "Beiseite gestellt:"],
  "pick.secret": ["Enter the card you drew", "Gib die gezogene Karte ein"],
  "pick.secretHint": ["Only your phone sees it.", "Nur dein Handy sieht sie."],
  "drop.title": ["What came out of the tower?", "Was kam aus dem Automaten?"],
  "drop.hint": ["Tap every drink that came out, then confirm.",
    "Tippe jedes Getränk an, das herauskam, und bestätige."],
  "drop.confirm": ["Confirm: {n} came out", "Bestätigen: {n} kamen heraus"],
  "drop.nothing": ["Confirm: nothing came out", "Bestätigen: nichts kam heraus"],
  "drop.cancel": ["Cancel", "Abbrechen"],
  "spill.open": ["Drinks fell out of the tower", "Getränke sind herausgefallen"],
  "spill.title": ["Which drinks fell out?", "Welche Getränke sind herausgefallen?"],
  "question.confirm": ["Please check: did exactly these drinks come out?",
    "Bitte prüfen: Kamen genau diese Getränke heraus?"],
  "question.contradiction": ["This does not fit the game: please correct it",
    "Das passt nicht zum Spiel: Bitte korrigieren"],
  "question.yes": ["Confirm", "Bestätigen"], "question.correct": ["Correct", "Korrigieren"],
  "undo": ["Undo", "Rückgängig"],
  "faceup.title": ["Turned-up cards", "Aufgedeckte Karten"],
  "faceup.none": ["Not turned up yet", "Noch nicht aufgedeckt"],
  "seventh.title": ["7th drink", "Siebtes Getränk"], "seventh.stuck": ["stuck in the tower", "steckt im Automaten"],
  "stuck.title": ["Stuck in the tower", "Steckt im Automaten"],
  "stuck.none": ["Nothing is stuck", "Nichts steckt fest"],
  "result.title": ["Round {round}: the tower", "Runde {round}: der Automat"],
  "result.thrown": ["Thrown in", "Eingeworfen"], "result.out": ["Came out", "Herausgekommen"],
  "result.freed": ["Freed from inside", "Von innen befreit"], "result.stuck": ["Still stuck", "Steckt noch"],
  "result.none": ["none", "keine"], "result.pay.title": ["Payouts", "Auszahlungen"],
  "result.player": ["Player", "Spieler"], "result.stake": ["Stake", "Einsatz"], "result.declared": ["On", "Auf"],
  "result.matches": ["Matches", "Treffer"], "result.bonus": ["Bonus", "Bonus"],
  "result.secret": ["Secret card", "Geheime Karte"], "result.paid": ["Paid", "Ausgezahlt"],
  "result.forfeit": ["7th drink came out: stake lost", "Siebtes Getränk kam heraus: Einsatz verloren"],
  "result.yes": ["✓", "✓"],
  "join.title": ["Join on your phone", "Mit dem Handy beitreten"],
  "join.hint": ["Scan your code: your phone shows what is yours alone and takes your moves.",
    "Scanne deinen Code: Dein Handy zeigt, was nur du sehen darfst, und nimmt deine Züge an."],
  "join.qr": ["QR code for {name}", "QR-Code für {name}"],
  "over.title": ["Game over", "Spielende"], "over.winner": ["{names} wins!", "{names} gewinnt!"],
  "over.winners": ["{names} win!", "{names} gewinnen!"], "over.final": ["Final money", "Endstand"],
  "phone.noToken": ["Open your own player link: scan your QR code on the table view.",
    "Öffne deinen eigenen Spieler-Link: Scanne deinen QR-Code am Tisch."],
  "phone.badToken": ["This player link is not valid for this game. Ask the table for your QR code again.",
    "Dieser Spieler-Link gilt nicht für dieses Spiel. Lass dir am Tisch deinen QR-Code noch einmal zeigen."],
  "phone.noCard": ["No card yet", "Noch keine Karte"],
  "phone.secretTitle": ["Your secret card", "Deine geheime Karte"], "phone.table": ["At the table", "Am Tisch"],
  "phone.myHand": ["Your drinks", "Deine Getränke"],
  "phone.lastPaid": ["Last round you got {yen}", "Letzte Runde: {yen} erhalten"],
  "bank": ["Bank", "Bank"],
  "and": [" and ", " und "],
  "colour.black": ["black", "schwarz"], "colour.white": ["white", "weiß"], "colour.mint": ["mint", "mint"],
  "colour.blue": ["blue", "blau"], "colour.red": ["red", "rot"], "colour.purple": ["purple", "lila"],
  "shape.stubby_can": ["stubby can", "Stummeldose"], "shape.short_can": ["short can", "kurze Dose"],
  "shape.tall_can": ["tall can", "hohe Dose"], "shape.square_bottle": ["square bottle", "eckige Flasche"],
  "shape.not_tallest_bottle": ["not-tallest bottle", "nicht höchste Flasche"],
  "shape.tallest_bottle": ["tallest bottle", "höchste Flasche"],
  "drink": ["{colour} {shape}", "{shape} ({colour})"],
  "card": ["{kind} card", "Bestandskarte {kind}"], "card.back": ["face-down card", "verdeckte Karte"],
  "deck.colour": ["colour deck", "Farbstapel"], "deck.shape": ["shape deck", "Formstapel"],
  "crate": ["crate", "Kiste"],
  // --- the games (names as in the rule books) ---
  "game.pocari_bet": ["POCARI BET", "POCARI BET"], "game.jasmine_tea": ["JASMINE TEA", "JASMINE TEA"],
  "game.melon_soda": ["MELON SODA", "MELON SODA"], "game.vending_poker": ["VENDING-MACHINE POKER", "Automaten-Poker"],
  "game.upside_down_tower": ["UPSIDE-DOWN TOWER", "Umgedrehter Turm"],
  "game.chocolate_milk": ["CHOCOLATE MILK", "CHOCOLATE MILK"], "game.pura": ["PURA", "PURA"],
  "game.lemon_squash": ["LEMON SQUASH", "LEMON SQUASH"], "game.metro": ["TOKYO METRO", "TOKYO METRO"],
  "game.tokyo_metro": ["TOKYO METRO", "TOKYO METRO"], "game.metro_drinks": ["METRO DRINKS", "METRO DRINKS"],
  "lobby.game": ["Game", "Spiel"], "lobby.players": ["Players", "Spieler"],
  "lobby.playersN": ["{n} players", "{n} Spieler"], "lobby.loading": ["Loading the games…", "Lade die Spiele…"],
  "lobby.default.3": ["Daiki", "Daiki"], "lobby.default.4": ["Emi", "Emi"], "lobby.default.5": ["Fumi", "Fumi"],
  "lobby.default.6": ["Goro", "Goro"], "lobby.default.7": ["Hana", "Hana"],
  "roundOnly": ["Round {round}", "Runde {round}"],
  // --- phases of the other games (unknown phases are humanised) ---
  "phase.bid": ["Sealed bid: who starts?", "Verdecktes Gebot: Wer beginnt?"],
  "phase.bid_tie": ["Tied bids: chance decides", "Gleichstand: Der Zufall entscheidet"],
  "phase.turns": ["Actions", "Aktionen"], "phase.turn": ["Turn", "Spielzug"],
  "phase.next_start": ["Who starts the next round?", "Wer beginnt die nächste Runde?"],
  "phase.deal": ["Dealing the drinks", "Getränke austeilen"],
  "phase.place": ["Place what came out", "Herausgekommenes einsortieren"],
  // --- moves by kind: {arg} slots are filled with the move's args (drinks and cards drawn) ---
  "move.declare": ["Invest in {kind}", "In {kind} investieren"], "move.pick": ["Take {drink}", "{drink} nehmen"],
  "move.draw": ["Draw: {deck}", "Ziehen: {deck}"], "move.bid": ["Bid {amount}", "{amount} bieten"],
  "move.buy_card": ["Buy {card}", "{card} kaufen"],
  "move.bet": ["Bet {amounts} on {cards}", "{amounts} auf {cards} wetten"],
  "move.buy_drinks": ["Buy {drinks}", "{drinks} kaufen"], "move.pass": ["Pass", "Passen"],
  "move.add_drink": ["Put {drink} in the pot", "{drink} in den Topf"],
  "move.add_yen": ["Put yen in the pot", "Yen in den Topf"],
  "move.take": ["Take the pot, start a new one with {add}", "Topf nehmen, neuer Topf mit {add}"],
  "move.to_crate": ["Into the crate: {drink}", "In die Kiste: {drink}"],
  "kind.bid": ["Your sealed bid", "Dein verdecktes Gebot"],
  "kind.buy_card": ["Buy a stock card", "Eine Bestandskarte kaufen"],
  "kind.bet": ["Bet on a card", "Auf eine Karte wetten"], "kind.buy_drinks": ["Buy a drink", "Ein Getränk kaufen"],
  "kind.add_drink": ["Put a drink in the pot", "Ein Getränk in den Topf"],
  "kind.take": ["Take the pot; the new pot starts with", "Topf nehmen; der neue Topf beginnt mit"],
  "kind.to_crate": ["Into the crate", "In die Kiste"],
  "moves.for": ["{name}", "{name}"],
  // --- chance outcomes a person enters (the simulated table samples them itself) ---
  "chance.start_player": ["{seat} starts", "{seat} beginnt"],
  "chance.tie_break": ["{seat} wins the tie", "{seat} gewinnt den Gleichstand"],
  "chance.deal": ["Deal {drink}", "{drink} austeilen"], "chance.secret_card": ["{card}", "{card}"],
  "chance.turn_up": ["{colour} and {shape}", "{colour} und {shape}"],
  "pick.choice": ["Enter what happened at the table", "Gib ein, was am Tisch geschah"],
  "pick.tie_break": ["Tied: who wins the coin toss?", "Gleichstand: Wer gewinnt den Münzwurf?"],
  "pick.deal": ["Which drink was dealt?", "Welches Getränk wurde ausgeteilt?"],
  "act.waitMany": ["Waiting for {names}", "Warte auf {names}"],
  "act.throwAny": ["The drinks go into the tower", "Die Getränke kommen in den Automaten"],
  "act.onPhone": ["Waiting for {names} (on their phone)", "Warte auf {names} (am eigenen Handy)"],
  // --- the generic renderer: fields of players and of the table ---
  "table.title": ["On the table", "Auf dem Tisch"],
  "last.title": ["Last result", "Letztes Ergebnis"], "last.last_round": ["Last round", "Letzte Runde"],
  "last.last_take": ["Last time the pot was taken", "Zuletzt genommener Topf"],
  "last.round": ["Round {round}", "Runde {round}"],
  "over.standings": ["Final standings", "Endstand"], "over.none": ["Nobody wins.", "Niemand gewinnt."],
  "over.details": ["The reckoning", "Abrechnung"],
  "result.seventh": ["7th drink (set aside)", "Siebtes Getränk (beiseite gestellt)"],
  "result.seventhMark": ["7th", "7."],
  "result.seventhOut": ["came out: {name} loses the stake", "kam heraus: {name} verliert den Einsatz"],
  "result.seventhIn": ["did not come out: no stake lost", "kam nicht heraus: kein Einsatz verloren"],
  "value.yen": ["yen", "Yen"],
  "field.yen": ["Yen", "Yen"], "field.stake": ["Stake", "Einsatz"], "field.stakes": ["Stakes", "Einsätze"],
  "field.declared": ["Invested in", "Investiert in"], "field.has_secret": ["Secret card", "Geheime Karte"],
  "field.secret": ["Secret card", "Geheime Karte"], "field.secrets": ["Secret cards", "Geheime Karten"],
  "field.cards": ["Stock cards", "Bestandskarten"], "field.card": ["Card", "Karte"], "field.bets": ["Bets", "Wetten"],
  "field.staked": ["Staked", "Gesetzt"], "field.bet_limit": ["Bet limit", "Wettlimit"],
  "field.actions_left": ["Actions left", "Aktionen übrig"], "field.has_bid": ["Has bid", "Hat geboten"],
  "field.bid": ["Bid", "Gebot"], "field.my_bid": ["My bid", "Mein Gebot"], "field.supply": ["Supply", "Vorrat"],
  "field.crate": ["Crate", "Kiste"], "field.beside": ["Beside the crate", "Neben der Kiste"],
  "field.crate_free": ["Free in the crate", "Frei in der Kiste"], "field.score": ["Score", "Wertung"],
  "field.scores": ["Scores", "Wertungen"], "field.bank": ["Bank", "Bank"],
  "field.middle": ["In the middle", "In der Mitte"], "field.owners": ["Owners", "Besitzer"],
  "field.bets_on_cards": ["Bets on cards", "Wetten auf Karten"], "field.bought": ["Bought", "Gekauft"],
  "field.box": ["Out of the game", "Aus dem Spiel"], "field.rethrow": ["Thrown again", "Wird erneut eingeworfen"],
  "field.thrower": ["Throws", "Wirft ein"], "field.thrown": ["Into the tower", "In den Automaten"],
  "field.bidding": ["Bidding", "Gebote"], "field.bidders": ["Bidders", "Bieter"],
  "field.rebids": ["Re-bids", "Neue Gebote"], "field.earlier": ["Earlier bids", "Frühere Gebote"],
  "field.tied": ["Tied", "Gleichstand"], "field.actions_per_player": ["Actions each", "Aktionen je Spieler"],
  "field.pot": ["Pot", "Topf"], "field.came_out": ["Came out", "Herausgekommen"],
  "field.drinks": ["Drinks", "Getränke"], "field.drink": ["Drink", "Getränk"], "field.amount": ["Amount", "Betrag"],
  "field.amounts": ["Amounts", "Beträge"], "field.out": ["Came out", "Herausgekommen"],
  "field.freed": ["Freed", "Befreit"], "field.stuck": ["Stuck", "Steckt"], "field.paid": ["Paid", "Ausgezahlt"],
  "field.stakes_to_owners": ["Stakes to card owners", "Einsätze an Kartenbesitzer"],
  "field.stakes_to_bank": ["Stakes to the bank", "Einsätze an die Bank"], "field.bonus": ["Bonus", "Bonus"],
  "field.bonus_total": ["Card bonus", "Kartenbonus"], "field.total": ["Total", "Gesamt"],
  "field.totals": ["Total", "Gesamt"], "field.reason": ["Why it ended", "Warum es endete"],
  "field.colours": ["Colours", "Farben"], "field.shapes": ["Shapes", "Formen"],
  "field.empty_slots": ["Empty slots", "Leere Plätze"], "field.outside": ["Outside the crate", "Außerhalb der Kiste"],
  "field.penalty": ["Penalty", "Abzug"], "field.matches": ["Matches", "Treffer"], "field.round": ["Round", "Runde"],
  "field.seat": ["Player", "Spieler"], "field.won": ["Won", "Gewonnen"],
  "field.stake_to": ["Stake goes to", "Einsatz geht an"], "field.start_player": ["Start player", "Startspieler"],
  "field.drop": ["The tower", "Der Automat"], "field.seventh": ["7th drink", "Siebtes Getränk"],
  "field.seventh_out": ["7th drink came out", "Siebtes Getränk kam heraus"], "field.turn": ["Turn", "Am Zug"],
  "field.hand": ["Hand", "Blatt"],
  // --- VENDING-MACHINE POKER ---
  "phase.more": ["Throw another?", "Noch eine einwerfen?"],
  "phase.call": ["Call or end the turn", "Callen oder Zug beenden"],
  "phase.discard": ["Put a can back", "Eine Dose zurücklegen"],
  "move.vending_poker.buy": ["Buy {drinks} (coins: {coins})", "{drinks} kaufen (Münzen: {coins})"],
  "move.throw": ["Throw {drink} into the tower", "{drink} in den Automaten werfen"],
  "move.stop": ["Stop throwing", "Nicht mehr einwerfen"], "move.discard": ["Put back {drink}", "{drink} zurücklegen"],
  "move.call": ["Call", "Callen"], "move.end_turn": ["End the turn", "Zug beenden"],
  "kind.buy": ["Buy", "Kaufen"], "kind.throw": ["Throw into the tower", "In den Automaten werfen"],
  "kind.discard": ["Put back", "Zurücklegen"], "kind.sell": ["Sell", "Verkaufen"],
  "value.high_card": ["high card", "höchste Dose"], "value.pair": ["pair", "Paar"],
  "value.two_pair": ["two pairs", "zwei Paare"], "value.three_of_a_kind": ["three of a kind", "Drilling"],
  "value.straight": ["straight", "Straße"], "value.flush": ["flush", "Flush"],
  "value.full_house": ["full house", "Full House"], "value.four_of_a_kind": ["four of a kind", "Vierling"],
  "value.five_of_a_kind": ["five of a kind", "Fünf Gleiche"], "value.nothing": ["nothing yet", "noch nichts"],
  "value.last_standing": ["last one standing", "als Letzter übrig"],
  "last.last_showdown": ["Last showdown", "Letzter Showdown"],
  "field.coins": ["Coins", "Münzen"], "field.hand_cans": ["Best hand", "Bestes Blatt"],
  "field.caller": ["Called", "Gecallt"], "field.final_turn_due": ["One more turn", "Noch ein Zug"],
  "field.thrown_this_turn": ["Thrown this turn", "Diesen Zug eingeworfen"], "field.heap": ["Heap", "Haufen"],
  "field.throwing": ["Throwing", "Wirft ein"], "field.queue": ["Still to throw", "Noch einzuwerfen"],
  "field.prices": ["Prices", "Preise"], "field.can": ["Can", "Dose"], "field.bottle": ["Bottle", "Flasche"],
  "field.hands": ["Hands", "Blätter"], "field.rank": ["Hand", "Blatt"], "field.cans": ["Cans", "Dosen"],
  "field.shares": ["Shares", "Anteile"], "field.pot_left": ["Left in the pot", "Rest im Topf"],
  "field.kept": ["Kept", "Behalten"], "field.end": ["How it ended", "Wie es endete"], "field.turns": ["Turns", "Züge"],
  "field.max_turns": ["Turn limit", "Zuglimit"], "field.leading": ["Leading", "Vorne"],
  // --- the upside-down tower ---
  "phase.buy": ["Buy stocks", "Anteile kaufen"], "phase.bet": ["Bets", "Wetten"],
  "phase.throw": ["Throw", "Einwerfen"], "phase.land": ["Where did they land?", "Wo sind sie gelandet?"],
  "phase.sell": ["Sell stocks", "Anteile verkaufen"],
  "move.upside_down_tower.bet": ["Bet {coins} × 100 {space}", "{coins} × 100 setzen: {space}"],
  "move.upside_down_tower.throw": ["Throw {drinks} into the tower", "{drinks} in den Automaten werfen"],
  "move.buy_stock": ["Buy {drink} as a stock", "{drink} als Anteil kaufen"],
  "move.sell": ["Sell {drink}", "{drink} verkaufen"], "move.done": ["Done", "Fertig"],
  "kind.buy_stock": ["Buy a stock", "Einen Anteil kaufen"],
  "chance.draw": ["{drink}", "{drink}"], "chance.land": ["{drink} lands {spot}", "{drink} landet {spot}"],
  "pick.draw": ["Which drink was drawn?", "Welches Getränk wurde gezogen?"],
  "pick.land": ["Where did the drink land?", "Wo ist das Getränk gelandet?"],
  "value.slot": ["in a slot", "in einem Fach"], "value.crate": ["in the crate", "in der Kiste"],
  "value.outside": ["outside", "außerhalb"], "value.stuck": ["stuck", "steckt fest"],
  "field.stocks": ["Stocks", "Anteile"], "field.bid_winner": ["Won the bid", "Gebot gewonnen"],
  "field.bought_colours": ["Colours bought", "Gekaufte Farben"], "field.colour_cards": ["Colour cards", "Farbkarten"],
  "field.colour": ["Colour", "Farbe"], "field.price": ["Price", "Preis"], "field.spaces": ["Bet spaces", "Wettfelder"],
  "field.space": ["Space", "Feld"], "field.rate": ["Pays", "Zahlt"], "field.markers": ["Markers", "Marker"],
  "field.front": ["Front crates", "Vordere Kisten"], "field.front_slots": ["Front slots", "Vordere Fächer"],
  "field.landed": ["Landed", "Gelandet"], "field.lid": ["Drawn", "Gezogen"], "field.spot": ["Where", "Wo"],
  "field.counts": ["Counts", "Anzahl"], "field.lost_to_bank": ["Lost to the bank", "An die Bank verloren"],
  "field.won_coins": ["Coins won", "Gewonnene Münzen"],
  "field.to_front": ["To the front crates", "In die vorderen Kisten"],
  "field.back_to_cards": ["Back to the cards", "Zurück auf die Karten"],
  "field.final_sale": ["Final sale", "Schlussverkauf"], "field.sold": ["Sold", "Verkauft"],
  "field.got": ["Got", "Erhalten"], "field.worth": ["Worth", "Wert"],
  // --- CHOCOLATE MILK ---
  "phase.fill": ["Setting out the drinks", "Getränke auslegen"],
  "phase.refill": ["Refill the plot", "Grundstück nachfüllen"],
  "move.chocolate_milk.buy": ["Go to plot {to}, buy {drink} for crate {crate}", "Zu Grundstück {to}, {drink} für Kiste {crate}"],
  "move.chocolate_milk.sell": ["Sell {drinks} at {card}", "{drinks} zu {card} verkaufen"],
  "move.buy_crate": ["Buy a crate", "Eine Kiste kaufen"],
  "chance.place": ["{drink} on plot {cell}", "{drink} auf Grundstück {cell}"], "chance.refill": ["{drink}", "{drink}"],
  "chance.fill": ["{drink}", "{drink}"],
  "pick.refill": ["Which drink refills the plot?", "Welches Getränk kommt nach?"],
  "field.pos": ["On plot", "Auf Grundstück"], "field.crates": ["Crates", "Kisten"],
  "field.crate_scores": ["Crate scores", "Kistenwertung"], "field.by": ["By", "Nach"],
  "field.count": ["Count", "Anzahl"], "field.grid": ["Market", "Markt"], "field.cell": ["Plot", "Grundstück"],
  "field.crates_for_sale": ["Crates for sale", "Kisten zu kaufen"],
  "field.use_tower": ["With the tower", "Mit Automat"], "field.flying": ["In the air", "Unterwegs"],
  "field.refill_cell": ["Plot to refill", "Nachzufüllen"], "field.to_supply": ["To the supply", "In den Vorrat"],
  "last.last": ["Last turn", "Letzter Zug"],
  // --- why a game ended ---
  "value.crate_of_a_kind": ["a crate holds six alike", "eine Kiste hält sechs Gleiche"],
  "value.rich": ["someone reached the money goal", "jemand hat das Geldziel erreicht"],
  "value.nobody_can_act": ["nobody can act", "niemand kann handeln"], "value.turn_limit": ["turn limit", "Zuglimit"],
  "value.max_turns": ["turn limit", "Zuglimit"], "value.crates_full": ["the crates are full", "die Kisten sind voll"],
  "value.broke": ["someone has nothing left", "jemand hat nichts mehr"],
  "value.supplies_empty": ["the supplies are empty", "die Vorräte sind leer"],
  "value.front_crates_full": ["the front crates are full", "die vorderen Kisten sind voll"],
  "value.two_cards_empty": ["two colour cards are empty", "zwei Farbkarten sind leer"],
  "field.crate_yen": ["Crate value", "Kistenwert"],
  // --- LEMON SQUASH ---
  "phase.order": ["Who plays first?", "Wer spielt zuerst?"],
  "phase.shuffle": ["Shuffle the shape cards", "Formkarten mischen"],
  "move.flick/result": ["Flick: {result}", "Schnippen: {result}"],
  "move.flick/drink,result": ["Flick: {result} {drink}", "Schnippen: {result} {drink}"],
  "value.miss": ["missed", "daneben"], "value.hit": ["hit", "getroffen"], "value.foul": ["foul", "Foul"],
  "field.unit": ["Team", "Team"], "field.units": ["Teams", "Teams"], "field.collected": ["Taken", "Genommen"],
  "field.progress": ["Taken in order", "Der Reihe nach genommen"],
  "field.knock_order": ["Order to knock over", "Umwerf-Reihenfolge"], "field.arena": ["Arena", "Arena"],
  "field.start_order": ["Playing order", "Spielreihenfolge"], "field.max_rounds": ["Round limit", "Rundenlimit"],
  "field.turn_unit": ["Team at turn", "Team am Zug"], "field.flicker": ["Flicker", "Schnipper"],
  "field.place": ["Place", "Platz"], "field.seats": ["Players", "Spieler"], "field.names": ["Names", "Namen"],
  // --- TOKYO METRO (its moves by kind: the args stay as the engine names them) ---
  "phase.tokyo_metro.deal": ["Turning up the action cards", "Aktionskarten aufdecken"],
  "phase.tokyo_metro.bid": ["Bids for the turn order", "Gebote um die Zugreihenfolge"], "phase.tie": ["Tie", "Gleichstand"],
  "phase.movement": ["Movement", "Bewegung"], "phase.actions": ["Actions", "Aktionen"],
  "phase.trains": ["The trains run", "Die Züge fahren"],
  "phase.upside_down_tower.draw": ["Drawing the stocks", "Anteile ziehen"],
  "kind.move": ["Move", "Bewegen"], "kind.walk": ["Walk", "Gehen"], "kind.station": ["Build a station", "Station bauen"],
  "kind.station_swap": ["Build a station for a token", "Station für einen Marker bauen"],
  "kind.invest": ["Invest in a line", "In eine Linie investieren"], "kind.start": ["Start a train", "Zug einsetzen"],
  "kind.tempo": ["Tempo tokens", "Tempomarker"], "kind.bicycle": ["Bicycle", "Fahrrad"], "kind.discount": ["Discount", "Rabatt"],
  "kind.bid_bonus": ["Bid bonus", "Gebotsbonus"], "kind.loan": ["Loan", "Kredit"], "kind.repay": ["Repay", "Tilgen"],
  "kind.speculate": ["Speculate", "Spekulieren"], "kind.action_disc": ["Another action disc", "Weitere Aktionsscheibe"],
  "kind.card": ["Take a card", "Karte nehmen"], "kind.assign_tempo": ["Tempo token on a line", "Tempomarker auf eine Linie"],
  "kind.alight": ["Get off the train", "Aus dem Zug steigen"], "kind.ride_on": ["Ride on", "Weiterfahren"],
  "kind.pass": ["Pass", "Passen"],
  // --- PURA (solo) ---
  "phase.fix": ["Fix the crates", "Kisten korrigieren"], "phase.pura.play": ["Sorting", "Sortieren"],
  "phase.play": ["Play", "Spiel"],
  "move.pura.throw": ["Throw crate {crate} into the tower", "Kiste {crate} in den Automaten werfen"],
  "move.clear": ["Clear {card} from crate {crate}", "{card} aus Kiste {crate} räumen"],
  "move.swap": ["Swap slots {a_slots} of crate {a} with slots {b_slots} of crate {b}",
    "Fächer {a_slots} von Kiste {a} mit Fächern {b_slots} von Kiste {b} tauschen"],
  "move.fix": ["Swap slot {a_slot} of crate {a} with slot {b_slot} of crate {b}",
    "Fach {a_slot} von Kiste {a} mit Fach {b_slot} von Kiste {b} tauschen"],
  "kind.clear": ["Clear a card's drinks from a crate", "Passende Getränke aus einer Kiste räumen"],
  "kind.swap": ["Swap across crates", "Zwischen Kisten tauschen"],
  "kind.fix": ["Fix the crates", "Kisten korrigieren"],
  "value.lost": ["lost", "verloren"], "value.won": ["won", "gewonnen"], "value.throw": ["throw", "einwerfen"],
  "value.clear": ["clear", "räumen"], "value.swap": ["swap", "tauschen"],
  "field.sorted": ["Sorted", "Sortiert"], "field.spent": ["Spent", "Ausgegeben"],
  "field.start_rule_excess": ["Too many alike", "Zu viele Gleiche"],
  "field.offending": ["Breaking the rule", "Regelwidrig"], "field.fixes": ["Fixes", "Korrekturen"],
  "field.actions": ["Actions", "Aktionen"], "field.result": ["Result", "Ergebnis"], "field.why": ["Why", "Warum"],
  "field.action": ["Action", "Aktion"],
};

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

export function has(key) { return Object.hasOwn(TEXT, key); }

// The raw text of a key in the current language (null when the catalogue lacks it).
export function template(key) {
  const pair = TEXT[key];
  return pair ? (pair[LANGS.indexOf(lang)] ?? pair[0]) : null;
}

export function t(key, params = {}) {
  const text = template(key) ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
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
  return (game ? template(`${prefix}.${game}.${id}`) : null) ?? template(`${prefix}.${id}`);
}

export function gameName(id) { return tOr(`game.${id}`, id); }
export function phaseName(id, game) { return lookup("phase", id, game) ?? humanize(id); }
export function fieldLabel(id) { return tOr(`field.${id}`, id); }

export function yen(n) {
  return new Intl.NumberFormat(lang === "de" ? "de-DE" : "en-US",
    { style: "currency", currency: "JPY", maximumFractionDigits: 0 }).format(n);
}

export function num(n) {
  return new Intl.NumberFormat(lang === "de" ? "de-DE" : "en-US").format(n);
}

export function cardName(id) {
  return template(`colour.${id}`) ?? template(`shape.${id}`) ?? id;
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
