// The Variants page: a Dordle, Quordle, Octordle or Fibble game checked by the server, and advice on one played elsewhere.
"use strict";

let game = null;   // {game, name, boards, max_guesses}
let grids = [];    // one element a board
let best = [];     // for each board, the best state each letter has shown on it: {a: "present", ...}
let over = false;

const RANK = { absent: 0, present: 1, correct: 2 };
const LETTERS = /^[a-z]$/;

function variantBody(value) { return value === "fibble" ? { fibble: true } : { boards: Number(value) }; }
function message(text, kind) { say(document.getElementById("message"), text, kind); }
function guessInput() { return document.getElementById("guess"); }

// How many boards a line may hold: Dordle's two, Quordle's four or two (2 x 2), Octordle's eight, four or two.
function acrossChoices(count) {
  return count <= 2 ? [count] : count === 4 ? [4, 2] : [8, 4, 2];
}

//: The smallest tile drawn: below it a letter is no longer legible, and the page scrolls instead.
const SMALLEST_TILE = 16;

function buildBoards(count, rows) {
  const box = document.getElementById("boards");
  box.replaceChildren();
  grids = [];
  for (let i = 0; i < count; i++) {
    const grid = el("div", { class: "variant-board", role: "group", "aria-label": `board ${i + 1}` });
    for (let r = 0; r < rows; r++) {
      const row = tileRow("", null);
      row.setAttribute("aria-label", `board ${i + 1}, guess ${r + 1}`);
      grid.append(row);
    }
    grids.push(grid);
    box.append(grid);
  }
}

// The boards' arrangement and their tiles' size: the line of boards that gives the largest tiles while every board
// and the keyboard share one screen (Quordle 2 x 2 on a phone, 4 in a row on a wide screen), never wider than the page.
function fitBoards() {
  if (!game) return;
  const box = document.getElementById("boards");
  const width = box.clientWidth;
  const keyboard = document.getElementById("keyboard").offsetHeight;
  const above = document.getElementById("guess-form").offsetHeight + document.getElementById("message").offsetHeight;
  let chosen = null;
  for (const across of acrossChoices(grids.length)) {
    const down = Math.ceil(grids.length / across);
    const byWidth = Math.floor((width - across * 14) / across / 5) - 3;
    const byHeight = Math.floor((innerHeight - keyboard - above - 48 - down * 12) / (down * game.max_guesses)) - 3;
    const size = Math.min(52, byWidth, Math.max(byHeight, SMALLEST_TILE));
    if (byWidth >= SMALLEST_TILE && (!chosen || size > chosen.size)) chosen = { across, size };
  }
  chosen = chosen || { across: Math.min(2, grids.length), size: SMALLEST_TILE };
  box.style.setProperty("--vtile", `${chosen.size}px`);
  box.style.setProperty("--across", String(chosen.across));
  document.getElementById("keyboard").style.setProperty("--cells", String(chosen.across));  // the keys' cells as the boards lie
}

// The game in view: the guess, the boards and the keyboard from the top of the screen, if they are not all in it.
function showGame() {
  const area = document.getElementById("game");
  const box = area.getBoundingClientRect();
  if (box.top < 0 || box.bottom > innerHeight) area.scrollIntoView({ block: "start" });
}

function buildKeyboard(count) {
  buildKeys(press, key => {
    const cells = el("span", { class: "cells", "aria-hidden": "true" },
                     Array.from({ length: count }, (_, i) => el("span", { class: "cell", "data-board": i + 1 })));
    return el("button", { class: "key split", type: "button", "data-key": key, onclick: () => press(key) },
              el("span", { class: "letter" }, key), cells);
  });
  paintKeyboard([]);
}

// Each key's cells in each board's colour for its letter (a solved board's cell fades), said in words to a screen reader.
function paintKeyboard(solved) {
  for (const key of document.querySelectorAll("#keyboard .key.split")) {
    const letter = key.dataset.key;
    const said = [];
    key.querySelectorAll(".cell").forEach((cell, i) => {
      const state = (best[i] || {})[letter];
      cell.className = "cell" + (state ? " " + state : "") + (solved[i] ? " done" : "");
      cell.dataset.state = state || "";
      said.push(`board ${i + 1} ` + (solved[i] ? "solved" : state ? stateWords(state) : "not guessed"));
    });
    key.setAttribute("aria-label", `${letter.toUpperCase()}: ${said.join("; ")}`);
  }
}

function press(key) {
  if (!game || over) return;
  const input = guessInput();
  if (key === "enter") document.getElementById("guess-form").requestSubmit();
  else if (key === "backspace") input.value = input.value.slice(0, -1);
  else if (LETTERS.test(key) && input.value.length < 5) input.value += key;
}

async function newGame(event) {
  event.preventDefault();
  const body = variantBody(document.getElementById("variant").value);
  const seed = document.getElementById("seed").value;
  if (seed !== "") body.seed = Number(seed);
  try {
    game = await api("/api/variant/new", body);
  } catch (error) { message(error.message, "error"); return; }
  const count = game.fibble ? 1 : game.boards;
  over = false;
  best = Array.from({ length: count }, () => ({}));
  buildBoards(count, game.max_guesses);
  buildKeyboard(count);
  document.getElementById("guess-form").hidden = false;
  document.getElementById("keyboard").hidden = false;
  guessInput().value = "";
  message(`${game.name}: ${game.max_guesses} guesses (seed ${game.seed})` +
          (game.fibble ? "; every row but a winning one holds exactly one lie" : ""), "");
  fitBoards();
  showGame();
  document.body.dataset.game = game.game;
  // a phone's own keyboard would cover the boards: there the on-screen one types
  if (!matchMedia("(pointer: coarse)").matches) guessInput().focus({ preventScroll: true });
}

async function playGuess(event) {
  event.preventDefault();
  if (!game || over) return;
  const input = guessInput();
  let reply;
  try {
    reply = await api("/api/variant/guess", { game: game.game, guess: input.value.trim().toLowerCase() });
  } catch (error) { message(error.message, "error"); return; }
  input.value = "";
  const row = reply.guesses_used - 1;
  reply.replies.forEach((board, i) => {
    if (!board) return;
    const tiles = grids[i].children[row].children;
    for (let t = 0; t < 5; t++) setTile(tiles[t], reply.guess[t], board.colours[t]);
    grids[i].children[row].setAttribute("aria-label", `board ${i + 1}, guess ${row + 1}: ${reply.guess.toUpperCase()}`);
    board.colours.forEach((state, t) => {
      const letter = reply.guess[t];
      if (!best[i][letter] || RANK[state] > RANK[best[i][letter]]) best[i][letter] = state;
    });
  });
  reply.solved.forEach((done, i) => {
    grids[i].classList.toggle("solved", done);
    grids[i].setAttribute("aria-label", `board ${i + 1}${done ? ": solved" : ""}`);
  });
  paintKeyboard(reply.solved);
  document.body.dataset.guesses = String(reply.guesses_used);
  if (reply.over) {
    over = true;
    document.getElementById("guess-form").hidden = true;
    message((reply.won ? `Won in ${reply.guesses_used}/${reply.max_guesses}. ` : "Out of guesses. ") +
            `The answers: ${reply.answers.map(a => a.toUpperCase()).join(", ")} (seed ${reply.seed}).`,
            reply.won ? "good" : "error");
  } else {
    message(`guess ${reply.guesses_used} of ${reply.max_guesses}; boards solved: ` +
            `${reply.solved.filter(Boolean).length} of ${reply.solved.length}`, "");
  }
}

async function advise(event) {
  event.preventDefault();
  const body = variantBody(document.getElementById("advise-variant").value);
  body.steps = document.getElementById("steps").value.split("\n").map(s => s.trim()).filter(Boolean);
  const out = document.getElementById("advice");
  const note = document.getElementById("advise-message");
  let advice;
  try {
    say(note, "weighing the guesses…", "");
    advice = await api("/api/variant/advise", body);
  } catch (error) { say(note, error.message, "error"); out.replaceChildren(); return; }
  say(note, "", "");
  const boards = el("ul", {}, advice.boards.map((b, i) => el("li", {},
    `board ${i + 1}: ` + (b.solved ? `solved (${b.answers[0].toUpperCase()})`
                                  : `${plural(b.possible, "possible answer")}: ${b.answers.join(", ")}` +
                                    (b.possible > b.answers.length ? " …" : "")))));
  if (advice.over) {
    out.replaceChildren(boards, el("p", {}, advice.won ? `Solved in ${advice.guesses_used}.` : "No guesses left."));
    return;
  }
  const head = el("tr", {}, ["#", "guess", "bits", "boards it can solve", "chance it solves one"].map(h => el("th", { scope: "col" }, h)));
  const rows = advice.suggestions.map((s, i) => el("tr", {}, el("td", {}, i + 1), el("td", {}, s.guess),
    el("td", {}, number(s.bits, 3)), el("td", {}, s.boards_it_can_solve), el("td", {}, `${number(100 * s.chance, 1)}%`)));
  out.replaceChildren(boards, el("p", {}, `guess ${advice.guesses_used + 1} of ${advice.guesses_used + advice.guesses_left}: ` +
                                          `suggestions of ${advice.agent} (bits: expected information, higher is better)`),
                      scrollBox("suggestions", el("table", {}, el("thead", {}, head), el("tbody", {}, rows))));
}

document.getElementById("new-form").addEventListener("submit", newGame);
addEventListener("resize", fitBoards);
// typing anywhere but in a field plays on the boards, as the on-screen keys do
document.addEventListener("keydown", event => {
  if (event.ctrlKey || event.metaKey || event.altKey || !game || over) return;
  const target = event.target;
  if (target.matches("input, select, textarea")) return;
  const key = event.key.toLowerCase();
  if (target.matches("button:not(.key), a, summary") && (key === "enter" || key === " ")) return;  // those work the control
  if (key === "enter" || key === "backspace" || LETTERS.test(key)) { event.preventDefault(); press(key); }
});
document.getElementById("guess-form").addEventListener("submit", playGuess);
document.getElementById("advise-form").addEventListener("submit", advise);
ready();
