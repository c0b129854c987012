// The review page: a finished game's guesses valued against the best, with skill and luck.
"use strict";

const COLOUR_WORDS = { correct: "green, right place", present: "yellow, elsewhere", absent: "grey, not in the word" };

// Tiles that say their letters and colours in words, for screen readers and without colour.
function spokenTiles(word, colours) {
  const row = tileRow(word, colours, true);
  const said = [...word.toUpperCase()].map((letter, i) => `${letter} ${COLOUR_WORDS[colours[i]]}`).join("; ");
  row.setAttribute("role", "img");
  row.setAttribute("aria-label", `${word.toUpperCase()}: ${said}`);
  return row;
}

function show(data) {
  const box = document.getElementById("review");
  box.replaceChildren();
  for (const note of data.notes) box.append(el("p", { class: "message" }, note));
  const rows = data.steps.map((step) => el("tr", {},
    el("td", {}, step.number),
    el("td", {}, spokenTiles(step.guess, step.colours), el("span", { class: "pattern" }, ` ${step.pattern}`)),
    el("td", {}, `${step.before} → ${step.after}`),
    el("td", {}, step.played.text),
    el("td", {}, step.best_guess === step.guess ? "yours" : step.best_guess.toUpperCase(), " ", step.best.text),
    el("td", {}, (step.skill_exact ? "" : "≈") + step.skill),
    el("td", {}, step.luck)));
  box.append(el("table", { class: "review" },
    el("caption", {}, `Skill ${data.skill_exact ? "" : "≈"}${data.skill}/99, luck ${data.luck}/99` +
      (data.solved ? `: solved ${data.answer.toUpperCase()} in ${data.steps.length}/${data.max_guesses}` : "") +
      ` (answer model ${data.model_description})`),
    el("thead", {}, el("tr", {}, ["#", "guess and reply", "answers left", "your guess", "best guess", "skill", "luck"]
      .map((name) => el("th", { scope: "col" }, name)))),
    el("tbody", {}, rows)));
  box.append(el("p", { class: "legend" }, "Expected guesses to finish, that guess included, with best play after it (lower is " +
    "better). A plain value is proved; ≤ x: a tree reaching x is known; ≥ x: a proved bound only; ≈ x: the answer model's " +
    "estimate. Skill: 99 for the best guess, down to 0 for one that costs a whole guess (≈: from values not all proved). Luck: how the reply ranks among " +
    "those the guess could get (99: it left the fewest answers)."));
}

async function review(event) {
  event.preventDefault();
  const message = document.getElementById("message");
  const words = document.getElementById("words").value.trim().split(/[\s,]+/).filter(Boolean);
  const answer = document.getElementById("answer").value.trim();
  const grid = document.getElementById("grid").value.trim();
  const body = { words, answers: document.getElementById("answers").value, hard: document.getElementById("hard").checked };
  if (grid) body.grid = grid; else body.answer = answer;
  say(message, "Reviewing: up to a second a guess…");
  try {
    show(await api("/api/review", body));
    say(message, "");
  } catch (error) {
    say(message, error.message, "error");
  }
}

document.getElementById("form").addEventListener("submit", review);
