// The Assist page: a real game's guesses and colours in, answers left and ranked suggestions out.
// Every answer is shown only if it is about the tiles as they are now: each request has a number, and an
// answer to any but the latest is dropped (answers can arrive out of order).
"use strict";

const CYCLE = { absent: "present", present: "correct", correct: "absent" };
const LETTER = { absent: "-", present: "y", correct: "g" };
// Keys (and pattern characters) that set a tile's colour: g/2 green, y/1 yellow, b/x/-/./0 grey.
const KEY_STATE = { g: "correct", "2": "correct", y: "present", "1": "present", b: "absent", x: "absent", "-": "absent", ".": "absent", "0": "absent" };
let steps = [];          // [{word, colours: [5 states]}]
let timer = null;
let sequence = 0;        // the number of the latest request; only its answer is shown

function message(text, kind) { say(document.getElementById("message"), text, kind); }
function stepText(step) { return `${step.word}:${step.colours.map(c => LETTER[c]).join("")}`; }

function tileName(number, position, letter, state) {
  return `step ${number}, letter ${position + 1}: ${letter.toUpperCase()}, ${stateWords(state)}; ` +
         "press G, Y or B to set green, yellow or grey, or Space to cycle";
}

function paintTile(node, step, number, position) {
  setTile(node, step.word[position], step.colours[position]);
  node.setAttribute("aria-label", tileName(number, position, step.word[position], step.colours[position]));
}

function setColour(number, position, state) {
  const step = steps[number - 1];
  if (step.colours[position] === state) return;
  step.colours[position] = state;
  const row = document.querySelector(`#board .step-row[data-step="${number}"]`);
  paintTile(row.querySelectorAll(".tile")[position], step, number, position);
  row.querySelector(".pattern").textContent = stepText(step).split(":")[1];
  ask();
}

// Arrow keys move between tiles (and rows); letters set the colour; Space/Enter cycle it (the button's click).
function tileKey(event, number, position) {
  const key = event.key.toLowerCase();
  const moves = { arrowleft: -1, arrowright: 1, arrowup: -5, arrowdown: 5, home: -position, end: 4 - position };
  if (key in moves) {
    const tiles = [...document.querySelectorAll("#board button.tile")];
    const next = tiles[(number - 1) * 5 + position + moves[key]];
    if (next) next.focus();
    event.preventDefault();
  } else if (key in KEY_STATE && !event.ctrlKey && !event.metaKey && !event.altKey) {
    setColour(number, position, KEY_STATE[key]);
    event.preventDefault();
  }
}

function drawBoard(bad) {
  const board = document.getElementById("board");
  board.replaceChildren();
  steps.forEach((step, index) => {
    const number = index + 1;
    const row = el("div", { class: "row clickable" + (bad === number ? " bad" : ""), role: "group", "aria-label": `step ${number}: ${step.word.toUpperCase()}` });
    for (let position = 0; position < 5; position++) {
      const node = tile(step.word[position], step.colours[position], "button");
      node.type = "button";
      node.dataset.label = "step";
      paintTile(node, step, number, position);
      node.addEventListener("click", () => setColour(number, position, CYCLE[step.colours[position]]));
      node.addEventListener("keydown", event => tileKey(event, number, position));
      row.append(node);
    }
    board.append(el("div", { class: "step-row" + (bad === number ? " bad" : ""), "data-step": number }, row,
      el("span", { class: "pattern", "aria-hidden": "true" }, stepText(step).split(":")[1])));
  });
}

function ask() {
  clearTimeout(timer);
  document.body.dataset.pending = "1";
  timer = setTimeout(advise, 120);
}

async function advise() {
  const mine = ++sequence;
  const exclude = document.getElementById("exclude").value.trim().toLowerCase().split(/[\s,]+/).filter(Boolean);
  const request = { steps: steps.map(stepText), agent: document.getElementById("agent").value,
                    answers: document.getElementById("answers").value, exclude,
                    only_answers: document.getElementById("only-answers").checked,
                    words: document.getElementById("all-words").checked ? "all" : "known",
                    hard: document.getElementById("hard").checked, ultra: document.getElementById("ultra").checked,
                    top: Number(document.getElementById("top").value || 10) };
  const solver = request.agent === (await loadInfo()).advisor;
  const box = document.getElementById("advice");
  document.body.dataset.pending = "1";
  box.setAttribute("aria-busy", "true");
  const slow = setTimeout(() => {
    if (mine === sequence) message(solver ? `${request.agent}: valuing guesses…` :
                                   `${request.agent} is thinking… (its first move is searched once, then kept on disk)`, "");
  }, 800);
  // while the values are found, the answers left (exact already) are shown, the suggestions marked as coming
  const partial = (known) => {
    if (mine !== sequence) return;
    clearTimeout(slow);
    markBad(null);
    showAdvice(box, known);
    box.dataset.steps = request.steps.join(" ");
    message(`${request.agent}: valuing guesses (${number(known.seconds, 0)} s so far; a busy machine takes longer)…`, "");
  };
  let advice = null, failure = null;
  try {
    advice = await apiJob("/api/advise", request, partial, () => mine === sequence);
  } catch (error) {
    failure = error;
  } finally {
    clearTimeout(slow);
  }
  if (mine !== sequence) return;  // the tiles changed since this was asked: a later answer is coming
  if (failure) {
    const step = /^step (\d+)/.exec(failure.message);
    message(step ? `${failure.message.replace(/\.?$/, ".")} Change step ${step[1]}'s colours, or remove it.` : failure.message, "error");
    markBad(step ? Number(step[1]) : null);
    box.replaceChildren();
    delete box.dataset.steps;
  } else {
    message("", "");
    markBad(null);
    showAdvice(box, advice);
    box.dataset.steps = request.steps.join(" ");
  }
  box.removeAttribute("aria-busy");
  delete document.body.dataset.pending;
  document.body.dataset.asked = String(Number(document.body.dataset.asked || 0) + 1);
  ready();
}

function markBad(number) {
  for (const row of document.querySelectorAll("#board .step-row")) {
    const bad = Number(row.dataset.step) === number;
    row.classList.toggle("bad", bad);
    row.querySelector(".row").classList.toggle("bad", bad);
  }
}

// A chance as the terminal writes it (commands/render.py's chance_text): whole percent from 10%, else two digits.
function chanceText(chance) {
  return chance >= 0.1 || chance === 0 ? `${Math.round(100 * chance)}%` : `${Number((100 * chance).toPrecision(2))}%`;
}

// The possible answers, likeliest first, each with its chance under the answer model (ties in the list's order),
// at most ANSWERS_SHOWN of them.
const ANSWERS_SHOWN = 30;
function answerList(advice) {
  const chances = advice.answer_chances && advice.answer_chances.length ? advice.answer_chances :
    advice.answers.map(() => 1 / advice.answers.length);
  const order = advice.answers.map((word, i) => i).sort((a, b) => chances[b] - chances[a] || a - b);
  const shown = order.slice(0, ANSWERS_SHOWN);
  const more = advice.answers.length - shown.length;
  return el("div", { id: "possible" },
    el("p", { class: "meta" }, more ? `The ${shown.length} likeliest answers, of ${advice.answers.length}:` :
      "The possible answers, likeliest first:"),
    el("ol", { class: "answers", "aria-label": "possible answers with their chances" },
      shown.map((i) => el("li", { "data-answer": advice.answers[i] }, el("span", { class: "word" }, advice.answers[i]), " ",
        el("span", { class: "chance" }, chanceText(chances[i]))))));
}

function showAdvice(box, advice) {
  // a game that left the model's list: one line each, then the advice under the wider model
  const parts = advice.notes.map(note => el("p", { class: "message note" }, note));
  if (advice.solved) {
    box.replaceChildren(...parts, el("p", { class: "message good" }, `Solved in ${advice.steps.length}.`));
    return;
  }
  const last = advice.last_bits === null ? "" : `; your last guess gained ${number(advice.last_bits, 2)} bits`;
  parts.push(el("p", { id: "remaining", "data-remaining": advice.remaining },
    el("b", {}, `${plural(advice.remaining, "possible answer")}`), ` (${number(advice.bits_left, 2)} bits)${last}` +
    (advice.model_description ? `; answer model ${advice.model_description}` : "")));
  parts.push(answerList(advice));
  if (advice.done === false) {  // a job under way: the values are being found
    parts.push(el("p", { id: "valuing", class: "message note" }, `${advice.agent} is valuing the guesses; the suggestions ` +
      "appear here when they are ranked by their values."));
    box.replaceChildren(...parts);
    return;
  }
  if (!advice.suggestions.length) {
    parts.push(el("p", { class: "message error" }, advice.guesses_left > 0 ?
      `${advice.agent} ranks none of the possible answers among its best guesses: untick "only words that can be the answer", ` +
      "or ask the default advisor." : `No guesses left: the game allows ${advice.guesses_left + advice.steps.length}.`));
    box.replaceChildren(...parts);
    return;
  }
  const bySolver = advice.proved !== null;  // the default advisor: the optimal solver's values under the model
  const own = advice.suggestions.some(s => s.score !== null);
  // On a phone each suggestion is a card: every figure says what it is (data-label), so none hides off to the side.
  const cell = (label, attributes, ...content) => el("td", Object.assign({ "data-label": label }, attributes), ...content);
  const header = el("tr", {},
    el("th", { scope: "col" }, "#"), el("th", { class: "name", scope: "col" }, "guess"),
    el("th", { scope: "col", title: "expected guesses to finish, this one included" + (bySolver ?
      " (the optimal solver's, under the answer model)" : " (cost-to-go model, one scale for every agent)") },
       "guesses ", el("small", {}, "(lower is better)")),
    el("th", { scope: "col", title: "the most answers one reply can leave" }, "worst case"),
    el("th", { scope: "col", title: "answers left on average (0 if it is the answer)" }, "left"),
    el("th", { scope: "col", title: "chance that this guess is the answer" }, "chance"),
    el("th", { scope: "col", title: "expected information of the reply" }, "bits"),
    own ? el("th", { scope: "col", title: `${advice.agent}'s own value of the guess, on its own scale (not comparable between agents)` },
             `${advice.agent}'s own value`) : null);
  const body = el("tbody", {});
  const table = el("table", { id: "suggestions", class: "cards suggestions" },
    el("caption", { class: "visually-hidden" }, "suggested guesses, best first, with their figures"),
    el("thead", {}, header), body);
  advice.suggestions.forEach((s, i) => {
    const use = el("button", { type: "button", class: "link", title: `put ${s.guess.toUpperCase()} in the guess box`,
      onclick: () => { const input = document.getElementById("word"); input.value = s.guess; input.focus(); } }, s.guess);
    body.append(el("tr", { "data-guess": s.guess },
      cell("#", { class: "rank" }, i + 1), cell("guess", { class: "name" }, use),
      cell("guesses (lower is better)", { class: "value" }, el("b", {}, s.value ? s.value.text : number(s.expected_guesses, 3)),
         s.maybe_better ? el("small", {}, " (maybe better, no tree yet)") : null),
      cell("worst case", {}, s.worst), cell("left", {}, number(s.expected_left, 2)),
      cell("chance", {}, (100 * s.chance).toFixed(1) + "%"), cell("bits", {}, number(s.information, 2)),
      own ? cell(`${advice.agent}'s own value`, {}, s.score === null ? "" : number(s.score, 3)) : null));
  });
  const columns = "worst case: the most answers one reply can leave; left: answers left on average (0 if it is the answer); " +
    "chance: that it is the answer; bits: expected information of the reply.";
  parts.push(el("h2", {}, `Suggestions (${advice.agent}${advice.hard ? ", hard mode" : ""}), ` +
                (bySolver ? "by expected guesses" : `in ${advice.agent}'s order`)),
             scrollBox("suggestions", table),
             el("p", { class: "meta" }, bySolver ?
                "guesses: expected guesses to finish, this one included, with best play after it, by the optimal solver " +
                `under the answer model (lower is better). ${VALUE_MARKS} ${columns}` :
                "guesses: expected guesses to finish, this one included, by the cost-to-go model the terminal shows (the " +
                `same for every agent; lower is better). ${columns}` +
                (own ? ` ${advice.agent}'s own value is on its own scale and only orders its suggestions.` : "")));
  if (advice.value_notes.length)  // the terminal's notes: a value not proved within the node budget, the time cap
    parts.push(el("p", { id: "unsettled", class: "message note" }, advice.value_notes.join(" ")));
  if (advice.fallback)
    parts.push(el("p", { class: "message" }, `${advice.agent}'s full search needs more nodes here than its budget allows, so these ` +
                  "are the suggestions of its shallower search (2 guesses deep, no endgame search)."));
  box.replaceChildren(...parts);
}

// A typed guess ("crane": all grey) or step ("crane:--yg-", "crane --yg-"; g/2 green, y/1 yellow, -/b/x/0 grey).
function parseEntry(text) {
  const match = /^([a-z]{5})(?:[:\s]+([gy2b10x.\-]{5}))?$/.exec(text.trim().toLowerCase());
  if (!match) return null;
  return { word: match[1], colours: match[2] ? [...match[2]].map(c => KEY_STATE[c]) : Array(5).fill("absent") };
}

function addEntry(event) {
  event.preventDefault();
  const input = document.getElementById("word");
  const step = parseEntry(input.value);
  if (!step) {
    message(`'${input.value.trim()}' is not a guess or a step: type a five-letter word, or a step such as 'crane:--yg-'`, "error");
    return;
  }
  steps.push(step);
  input.value = "";
  drawBoard();
  ask();
}

document.addEventListener("DOMContentLoaded", async () => {
  try {
    await loadAgents(document.getElementById("agent"), null);  // null: the terminal's default advisor
    await loadAnswerModels(document.getElementById("answers"), null);  // and its default answer model
  } catch (error) { message(error.message, "error"); return; }
  document.getElementById("entry").addEventListener("submit", addEntry);
  document.getElementById("undo").addEventListener("click", () => { steps.pop(); drawBoard(); ask(); });
  for (const id of ["agent", "answers", "only-answers", "all-words", "exclude", "hard", "ultra", "top"]) document.getElementById(id).addEventListener("change", ask);
  // ultra-hard mode's rule contains hard mode's: one or the other
  for (const [id, other] of [["hard", "ultra"], ["ultra", "hard"]]) {
    document.getElementById(id).addEventListener("change", () => {
      if (document.getElementById(id).checked) document.getElementById(other).checked = false;
    });
  }
  document.addEventListener("palettechange", () => steps.forEach((step, index) => {
    const row = document.querySelector(`#board .step-row[data-step="${index + 1}"]`);
    if (row) row.querySelectorAll(".tile").forEach((node, position) => paintTile(node, step, index + 1, position));
  }));
  drawBoard();
  advise();
});
