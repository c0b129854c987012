// The Play page: a game against a hidden answer (or an Indicator), checked by the server.
"use strict";

const LETTERS = /^[a-z]$/;
let game = null;        // {game, hard, max_guesses, indicator}
let typed = "";
let rows = [];
let busy = false;
let over = false;
let lastReply = null;   // the last guess's reply, for "show answers left"
let settings = {};      // the hard/indicator settings of the game in progress

function board() { return document.getElementById("board"); }
function message(text, kind) { say(document.getElementById("message"), text, kind); }
function focusBoard() { board().focus({ preventScroll: true }); }

function buildBoard(count) {
  board().replaceChildren();
  rows = [];
  for (let i = 0; i < count; i++) {
    const row = tileRow("", null);
    row.setAttribute("aria-label", `guess ${i + 1}`);
    rows.push(row);
    board().append(row);
  }
}

function buildKeyboard() {
  buildKeys(press, key => el("button", { class: "key", type: "button", "data-key": key, "aria-label": key.toUpperCase(),
                                        onclick: () => press(key) }, key));
}

function currentRow() { return rows[game ? usedRows() : 0]; }
function usedRows() { return rows.filter(row => row.dataset.done).length; }
function midGame() { return game && !over && usedRows() > 0; }

function showTyped() {
  const tiles = currentRow().children;
  for (let i = 0; i < 5; i++) setTile(tiles[i], typed[i] || "", null);
}

async function reveal(row, reply) {
  const tiles = [...row.children];
  for (let i = 0; i < 5; i++) {
    tiles[i].classList.add("flip");
    await new Promise(done => setTimeout(done, 100));
    setTile(tiles[i], reply.guess[i], reply.colours[i]);
    tiles[i].classList.add("flip");
    await new Promise(done => setTimeout(done, 100));
    tiles[i].classList.remove("flip");
  }
  row.setAttribute("aria-label", `guess ${rows.indexOf(row) + 1}: ${reply.guess.toUpperCase()}`);
  row.dataset.done = "1";
  row.dataset.pattern = reply.pattern;
}

function paintKeyboard(states) {
  for (const key of document.querySelectorAll(".key[data-key]")) {
    const name = key.dataset.key;
    if (name.length !== 1) continue;
    const state = states[name];
    key.classList.remove("correct", "present", "absent");
    if (state) key.classList.add(state);
    key.setAttribute("aria-label", name.toUpperCase() + (state ? `: ${stateWords(state)}` : ""));
  }
}

// What the line under the controls says after a guess: the Indicator's choice and, if asked, the answers left.
function afterGuess(reply) {
  if (!reply) return "";
  const left = document.getElementById("show-left").checked ?
    `${plural(reply.remaining, "answer")} left (${number(reply.bits, 2)} bits gained)` : "";
  const chose = reply.indicator ? `${reply.indicator.name} kept ${plural(reply.indicator.kept, "answer")}` +
    (reply.indicator.rejected.length ? `, rejecting ${reply.indicator.rejected.slice(0, 3).map(([p, n]) => `${p} (${n})`).join(", ")}` : "") : "";
  return [chose, left].filter(Boolean).join("; ");
}

async function submit() {
  if (typed.length < 5) { message("Not enough letters", "error"); shake(); return; }
  busy = true;
  try {
    const reply = await api("/api/play/guess", { game: game.game, guess: typed });
    const row = currentRow();
    typed = "";
    await reveal(row, reply);
    paintKeyboard(reply.keyboard);
    lastReply = reply;
    message(afterGuess(reply), "");
    if (reply.over) finish(reply);
  } catch (error) {
    message(error.message, "error");
    shake();
  } finally {
    busy = false;
  }
}

function shake() {
  const row = currentRow();
  row.classList.remove("shake");
  void row.offsetWidth;
  row.classList.add("shake");
}

// The Review page's address for the game just played, its form filled (as `play`'s closing line offers
// `review --answer ... --answers original`: the page plays the original answers).
function reviewAddress(reply) {
  const played = rows.filter(row => row.dataset.done);
  const words = played.map(row => [...row.children].map(node => node.textContent).join("").toLowerCase());
  const query = new URLSearchParams();
  if (reply.answer) { query.set("answer", reply.answer); query.set("words", words.join(" ")); }
  else query.set("steps", words.map((word, i) => `${word}:${played[i].dataset.pattern}`).join(" "));
  if (game.hard) query.set("hard", "1");
  if (game.max_guesses !== 6) query.set("max_guesses", String(game.max_guesses));
  query.set("answers", "original");
  return "/review?" + query.toString();
}

// The player's statistics, kept in this browser (localStorage) as the Times' game keeps them: games played and won,
// the current and longest winning streaks, and how many guesses each win took. Only games against a hidden answer
// count (not the Indicators').
const STATS_KEY = "wordle-arena-stats";

function loadStats() {
  const empty = { played: 0, won: 0, streak: 0, best: 0, guesses: {} };
  try {
    const stored = JSON.parse(localStorage.getItem(STATS_KEY) || "null");
    return stored && typeof stored.played === "number" ? Object.assign(empty, stored) : empty;
  } catch (e) { return empty; }
}

function recordGame(reply) {
  const stats = loadStats();
  stats.played += 1;
  if (reply.solved) {
    stats.won += 1;
    stats.streak += 1;
    stats.best = Math.max(stats.best, stats.streak);
    stats.guesses[reply.guesses_used] = (stats.guesses[reply.guesses_used] || 0) + 1;
  } else stats.streak = 0;
  try { localStorage.setItem(STATS_KEY, JSON.stringify(stats)); } catch (e) { /* private mode: not kept */ }
  return stats;
}

// The statistics: four figures, then the guess distribution (after a game, with its bar marked) in `box`.
function showStats(stats, reply, box) {
  const figure = (value, label) => el("div", {}, el("b", {}, value), el("span", {}, label));
  box = box || document.getElementById("stats");
  const most = Math.max(1, ...Object.values(stats.guesses));
  const rows = Math.max(reply ? reply.max_guesses : 6, ...Object.keys(stats.guesses).map(Number));
  const bars = [];
  for (let n = 1; n <= rows; n++) {
    const count = stats.guesses[n] || 0;
    bars.push(el("span", {}, n), el("span", { class: "bar" + (reply && reply.solved && n === reply.guesses_used ? " this" : ""),
      style: `width: ${Math.max(8, Math.round(100 * count / most))}%` }, count));
  }
  box.replaceChildren(
    el("div", { class: "stats", role: "group", "aria-label": "your statistics on this browser" },
      figure(stats.played, "played"), figure(stats.played ? Math.round(100 * stats.won / stats.played) : 0, "win %"),
      figure(stats.streak, "current streak"), figure(stats.best, "max streak")),
    el("div", { class: "distribution", role: "img", "aria-label": "guess distribution: " + Object.entries(stats.guesses)
      .map(([n, count]) => `${count} won in ${n}`).join(", ") || "no game won yet" }, bars));
  box.hidden = false;
}

// The Statistics button: the player's figures at any time (none yet: zeros), shown or hidden in place.
function toggleStats() {
  const button = document.getElementById("show-stats");
  const panel = document.getElementById("stats-panel");
  const open = button.getAttribute("aria-expanded") !== "true";
  button.setAttribute("aria-expanded", String(open));
  if (open) {
    const stats = loadStats();
    showStats(stats, null, panel);
    panel.prepend(el("h2", {}, "Your statistics"), el("p", { class: "meta" }, stats.played ?
      "Games against a hidden answer on this browser." : "No game finished on this browser yet: these fill in as you play."));
  } else panel.hidden = true;
}

// The game is over: the result and its share grid take the keyboard's place, in view.
function finish(reply) {
  over = true;
  const end = document.getElementById("end");
  const outcome = document.getElementById("outcome");
  outcome.textContent = reply.solved ?
    `Solved in ${reply.guesses_used}/${reply.max_guesses}!` : reply.answer ?
    `Not this time: the answer was ${reply.answer.toUpperCase()}.` :
    `Not this time: no answer was held; ${plural(reply.remaining, "answer")} ${reply.remaining === 1 ? "was" : "were"} still possible (${(reply.still_possible || []).join(", ")}).`;
  outcome.className = "message " + (reply.solved ? "good" : "error");
  const share = document.getElementById("share");
  share.dataset.text = reply.share;
  share.textContent = paletteSquares(reply.share);
  document.getElementById("review-link").href = reviewAddress(reply);
  if (settings.indicator === "honest") {
    showStats(recordGame(reply), reply);
    if (document.getElementById("show-stats").getAttribute("aria-expanded") === "true") {  // the open panel, refreshed
      toggleStats();
      toggleStats();
    }
  }
  else document.getElementById("stats").hidden = true;
  document.getElementById("keyboard").hidden = true;
  end.hidden = false;
  document.body.dataset.answer = reply.answer;
  end.scrollIntoView({ block: "nearest" });
  outcome.focus({ preventScroll: true });
}

function press(key) {
  if (!game || busy || over) return;
  if (key === "enter") submit();
  else if (key === "backspace") { typed = typed.slice(0, -1); showTyped(); message(""); }
  else if (LETTERS.test(key) && typed.length < 5) { typed += key; showTyped(); }
}

function chosenSettings() {
  return { hard: document.getElementById("hard").checked, indicator: document.getElementById("indicator").value };
}

async function newGame(first) {
  first = first === true;
  const params = new URLSearchParams(location.search);
  const request = chosenSettings();
  if (params.get("answer")) request.answer = params.get("answer");
  if (params.get("seed")) request.seed = params.get("seed");
  try {
    game = await api("/api/play/new", request);
  } catch (error) { message(error.message, "error"); return; }
  settings = request;
  typed = ""; over = false; lastReply = null;
  buildBoard(game.max_guesses);
  paintKeyboard({});
  document.getElementById("end").hidden = true;
  document.getElementById("keyboard").hidden = false;
  message(game.hard ? "Hard mode: every revealed hint must be used in later guesses." : "", "");
  document.body.dataset.game = game.game;
  ready();
  // typing plays wherever the focus is; the board takes it only when asked for a new game, so the first Tab of a
  // page just opened reaches the skip link
  if (!first) focusBoard();
}

// A setting changed: a new game at once, or, in the middle of one, after asking.
function settingChanged() {
  if (!midGame()) { newGame(); return; }
  const wanted = chosenSettings();
  const what = wanted.hard !== settings.hard ? (wanted.hard ? "hard mode" : "normal mode") :
    `playing against ${document.getElementById("indicator").selectedOptions[0].textContent}`;
  document.getElementById("confirm-text").textContent =
    `Switch to ${what}? That starts a new game and this one (${plural(usedRows(), "guess")} in) is lost.`;
  document.getElementById("confirm").hidden = false;
  document.getElementById("confirm-yes").focus();
}

function answerConfirm(yes) {
  document.getElementById("confirm").hidden = true;
  if (yes) { newGame(); return; }
  document.getElementById("hard").checked = settings.hard;
  document.getElementById("indicator").value = settings.indicator;
  focusBoard();
}

document.addEventListener("DOMContentLoaded", () => {
  // a short screen (a 320 x 568 phone) folds the settings away, so the board and the keyboard fit one screen
  if (innerHeight < 700) document.getElementById("settings-box").open = false;
  buildBoard(6);
  buildKeyboard();
  const params = new URLSearchParams(location.search);
  document.getElementById("hard").checked = params.get("hard") === "1" || params.get("hard") === "true";
  document.getElementById("new").addEventListener("click", () => newGame());
  document.getElementById("again").addEventListener("click", () => newGame());
  document.getElementById("show-stats").addEventListener("click", toggleStats);
  document.getElementById("hard").addEventListener("change", settingChanged);
  document.getElementById("indicator").addEventListener("change", settingChanged);
  document.getElementById("confirm-yes").addEventListener("click", () => answerConfirm(true));
  document.getElementById("confirm-no").addEventListener("click", () => answerConfirm(false));
  document.getElementById("show-left").addEventListener("change", () => {
    if (!over) message(afterGuess(lastReply), "");
    focusBoard();
  });
  document.getElementById("copy").addEventListener("click", async () => {
    const text = document.getElementById("share").textContent;
    try { await navigator.clipboard.writeText(text); message("Copied to the clipboard.", "good"); }
    catch (e) { message("Select the grid above and copy it.", ""); }
  });
  document.addEventListener("palettechange", () => {
    const share = document.getElementById("share");
    if (share.dataset.text) share.textContent = paletteSquares(share.dataset.text);
    paintKeyboard(lastReply ? lastReply.keyboard : {});
    if (!over) focusBoard();
  });
  document.addEventListener("keydown", event => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target.matches("input[type=text], input[type=number], select, textarea")) return;
    const key = event.key.toLowerCase();
    const control = target.matches("button:not(.key), a, summary");  // Enter and Space work those controls
    if (control && (key === "enter" || key === " ")) return;
    if (!document.getElementById("confirm").hidden) return;
    if (key === "enter" || key === "backspace" || LETTERS.test(key)) { event.preventDefault(); press(key); }
  });
  newGame(true);
});
