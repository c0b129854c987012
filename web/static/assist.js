// The Assist page: a real game's guesses and colours in, answers left and ranked suggestions out.
"use strict";

const CYCLE = { absent: "present", present: "correct", correct: "absent" };
const LETTER = { absent: "-", present: "y", correct: "g" };
let steps = [];          // [{word, colours: [5 states]}]
let pending = null;

function message(text, kind) { say(document.getElementById("message"), text, kind); }

function drawBoard(bad) {
  const board = document.getElementById("board");
  board.replaceChildren();
  steps.forEach((step, number) => {
    const row = tileRow(step.word, step.colours);
    row.classList.add("clickable");
    if (bad === number + 1) row.classList.add("bad");
    row.dataset.step = number + 1;
    [...row.children].forEach((tile, position) => {
      tile.title = "click to change the colour";
      tile.addEventListener("click", () => {
        step.colours[position] = CYCLE[step.colours[position]];
        drawBoard();
        ask();
      });
    });
    board.append(row);
  });
}

function stepText(step) { return `${step.word}:${step.colours.map(c => LETTER[c]).join("")}`; }

function ask() {
  clearTimeout(pending);
  pending = setTimeout(advise, 120);
}

async function advise() {
  const request = { steps: steps.map(stepText), agent: document.getElementById("agent").value,
                    hard: document.getElementById("hard").checked, top: Number(document.getElementById("top").value || 10) };
  const box = document.getElementById("advice");
  document.body.dataset.pending = "1";
  try {
    const advice = await api("/api/advise", request);
    message("", "");
    drawBoard();
    showAdvice(box, advice);
  } catch (error) {
    message(error.message, "error");
    const step = /^step (\d+)/.exec(error.message);
    drawBoard(step ? Number(step[1]) : null);
    box.replaceChildren();
  } finally {
    delete document.body.dataset.pending;
    document.body.dataset.asked = String(Number(document.body.dataset.asked || 0) + 1);
  }
}

function showAdvice(box, advice) {
  const parts = [];
  if (advice.solved) {
    parts.push(el("p", { class: "message good" }, `Solved in ${advice.steps.length}.`));
    box.replaceChildren(...parts);
    return;
  }
  const last = advice.last_bits === null ? "" : `; your last guess gained ${number(advice.last_bits, 2)} bits`;
  parts.push(el("p", { id: "remaining", "data-remaining": advice.remaining },
    el("b", {}, `${advice.remaining} possible answer${advice.remaining === 1 ? "" : "s"}`), ` (${number(advice.bits_left, 2)} bits)${last}`));
  if (advice.remaining <= 30) parts.push(el("p", { class: "answers" }, advice.answers.join(" ")));
  if (!advice.suggestions.length) {
    parts.push(el("p", { class: "message error" }, `No guesses left: the game allows ${advice.guesses_left + advice.steps.length}.`));
    box.replaceChildren(...parts);
    return;
  }
  const most = Math.max(...advice.suggestions.map(s => s.information), 0.001);
  const table = el("table", { id: "suggestions" }, el("tr", {},
    el("th", {}, "#"), el("th", { class: "name" }, "guess"), el("th", { class: "name", title: "expected information of the reply, in bits" }, "expected bits"),
    el("th", { title: "the most answers one reply can leave" }, "worst case"),
    el("th", { title: "chance that this guess is the answer" }, "chance"), el("th", {}, `${advice.agent} score`)));
  advice.suggestions.forEach((s, i) => {
    table.append(el("tr", { "data-guess": s.guess },
      el("td", {}, i + 1),
      el("td", { class: "name" }, el("a", { href: "#", title: "use this guess", onclick: e => { e.preventDefault(); document.getElementById("word").value = s.guess; document.getElementById("word").focus(); } }, s.guess)),
      el("td", { class: "name" }, el("span", { class: "meter", style: `width:${(90 * s.information / most).toFixed(0)}px` }), " ", number(s.information, 3)),
      el("td", {}, s.worst), el("td", {}, (100 * s.chance).toFixed(1) + "%"), el("td", {}, number(s.score, 3))));
  });
  parts.push(el("h2", {}, `Suggestions (${advice.agent}${advice.hard ? ", hard mode" : ""})`), table);
  box.replaceChildren(...parts);
}

function addWord() {
  const input = document.getElementById("word");
  const word = input.value.trim().toLowerCase();
  if (!/^[a-z]{5}$/.test(word)) { message("Type a five-letter word first.", "error"); return; }
  steps.push({ word, colours: ["absent", "absent", "absent", "absent", "absent"] });
  input.value = "";
  drawBoard();
  ask();
}

document.addEventListener("DOMContentLoaded", async () => {
  await loadAgents(document.getElementById("agent"), "entropy");
  document.getElementById("add").addEventListener("click", addWord);
  document.getElementById("word").addEventListener("keydown", event => { if (event.key === "Enter") addWord(); });
  document.getElementById("undo").addEventListener("click", () => { steps.pop(); drawBoard(); ask(); });
  for (const id of ["agent", "hard", "top"]) document.getElementById(id).addEventListener("change", ask);
  drawBoard();
  advise();
});
