// The Play page: a game against a hidden answer, checked by the server.
"use strict";

const LETTERS = /^[a-z]$/;
const KEY_ROWS = ["qwertyuiop", "asdfghjkl", "+zxcvbnm-"];
let game = null;        // {game, hard, max_guesses}
let typed = "";
let rows = [];
let busy = false;
let over = false;

function board() { return document.getElementById("board"); }
function message(text, kind) { say(document.getElementById("message"), text, kind); }

function buildBoard(count) {
  board().replaceChildren();
  rows = [];
  for (let i = 0; i < count; i++) { const row = tileRow("", null); rows.push(row); board().append(row); }
}

function buildKeyboard() {
  const box = document.getElementById("keyboard");
  box.replaceChildren();
  for (const keys of KEY_ROWS) {
    const line = el("div", { class: "keys" });
    for (const key of keys) {
      if (key === "+") line.append(el("button", { class: "key wide", "data-key": "enter", onclick: () => press("enter") }, "Enter"));
      else if (key === "-") line.append(el("button", { class: "key wide", "data-key": "backspace", onclick: () => press("backspace") }, "⌫"));
      else line.append(el("button", { class: "key", "data-key": key, onclick: () => press(key) }, key));
    }
    box.append(line);
  }
}

function currentRow() { return rows[game ? usedRows() : 0]; }
function usedRows() { return rows.filter(row => row.dataset.done).length; }

function showTyped() {
  const tiles = currentRow().children;
  for (let i = 0; i < 5; i++) {
    tiles[i].textContent = typed[i] || "";
    tiles[i].classList.toggle("filled", Boolean(typed[i]));
  }
}

async function reveal(row, reply) {
  const tiles = [...row.children];
  for (let i = 0; i < 5; i++) {
    const tile = tiles[i];
    tile.classList.add("flip");
    await new Promise(done => setTimeout(done, 100));
    tile.classList.add(reply.colours[i]);
    tile.dataset.state = reply.colours[i];
    await new Promise(done => setTimeout(done, 100));
    tile.classList.remove("flip");
  }
  row.dataset.done = "1";
  row.dataset.pattern = reply.pattern;
}

function paintKeyboard(states) {
  for (const key of document.querySelectorAll(".key[data-key]")) {
    const state = states[key.dataset.key];
    key.classList.remove("correct", "present", "absent");
    if (state) key.classList.add(state);
  }
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
    const left = document.getElementById("show-left").checked ? ` (${reply.remaining} answers left, ${number(reply.bits, 2)} bits gained)` : "";
    const chose = reply.indicator ? `${reply.indicator.name} kept ${reply.indicator.kept} answers` +
      (reply.indicator.rejected.length ? `, rejecting ${reply.indicator.rejected.slice(0, 3).map(([p, n]) => `${p} (${n})`).join(", ")}` : "") : "";
    message([chose, left.trim()].filter(Boolean).join("; "), "");
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

function finish(reply) {
  over = true;
  document.getElementById("end").hidden = false;
  document.getElementById("outcome").textContent = reply.solved ?
    `Solved in ${reply.guesses_used}/${reply.max_guesses}!` : reply.answer ?
    `Not this time: the answer was ${reply.answer.toUpperCase()}.` :
    `Not this time: no answer was held; ${reply.remaining} were still possible (${(reply.still_possible || []).join(", ")}).`;
  document.getElementById("outcome").className = "message " + (reply.solved ? "good" : "error");
  document.getElementById("share").textContent = reply.share;
  document.body.dataset.answer = reply.answer;
}

function press(key) {
  if (!game || busy || over) return;
  if (key === "enter") submit();
  else if (key === "backspace") { typed = typed.slice(0, -1); showTyped(); message(""); }
  else if (LETTERS.test(key) && typed.length < 5) { typed += key; showTyped(); }
}

async function newGame() {
  const params = new URLSearchParams(location.search);
  const request = { hard: document.getElementById("hard").checked,
                    indicator: document.getElementById("indicator").value };
  if (params.get("answer")) request.answer = params.get("answer");
  if (params.get("seed")) request.seed = params.get("seed");
  try {
    game = await api("/api/play/new", request);
  } catch (error) { message(error.message, "error"); return; }
  typed = ""; over = false;
  buildBoard(game.max_guesses);
  paintKeyboard({});
  document.getElementById("end").hidden = true;
  message(game.hard ? "Hard mode: every revealed hint must be used in later guesses." : "", "");
  document.body.dataset.game = game.game;
}

document.addEventListener("DOMContentLoaded", () => {
  buildBoard(6);
  buildKeyboard();
  const params = new URLSearchParams(location.search);
  document.getElementById("hard").checked = params.get("hard") === "1" || params.get("hard") === "true";
  document.getElementById("new").addEventListener("click", event => { event.target.blur(); newGame(); });
  document.getElementById("hard").addEventListener("change", event => { event.target.blur(); newGame(); });
  document.getElementById("indicator").addEventListener("change", event => { event.target.blur(); newGame(); });
  document.getElementById("copy").addEventListener("click", async () => {
    const text = document.getElementById("share").textContent;
    try { await navigator.clipboard.writeText(text); message("Copied to the clipboard.", "good"); }
    catch (e) { message("Select the grid above and copy it.", ""); }
  });
  document.addEventListener("keydown", event => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.target.tagName === "INPUT") return;
    const key = event.key.toLowerCase();
    if (key === "enter" || key === "backspace" || LETTERS.test(key)) { event.preventDefault(); press(key); }
  });
  newGame();
});
