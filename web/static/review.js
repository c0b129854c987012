// The Review page: a finished game's guesses valued against the best, with skill and luck (review --json's data).
// Opened as /review?answer=cigar&words=salet+crony+cigar (or ?steps=salet:-y---+...&hard=1&answers=original), as
// Play's end-of-game link does, it fills the form and reviews at once.
"use strict";

function field(id) { return document.getElementById(id); }
function message(text, kind) { say(field("message"), text, kind); }

// A guess's tiles, labelled as Play's ("S: grey, not in the word"), the row named by its guess.
function guessTiles(step) {
  const row = tileRow(step.guess, step.colours, true);
  row.setAttribute("aria-label", `guess ${step.number}: ${step.guess.toUpperCase()}`);
  return row;
}

function show(data) {
  const box = field("review");
  box.replaceChildren();
  const partial = data.done === false;  // a review under way: the guesses valued so far, each final, then the rest
  const pending = partial ? data.pending : [];
  box.dataset.done = String(!partial);
  for (const note of data.notes) box.append(el("p", { class: "message note" }, note));
  const used = data.steps.length + pending.length;
  // the terminal's words once done (solved, not solved, or unfinished); while under way, the game as played
  const ending = !partial ? data.ending : data.solved ? `solved ${data.answer.toUpperCase()} in ${used}/${data.max_guesses}` :
    `not solved after ${used} guesses` + (data.answer ? ` (the answer: ${data.answer.toUpperCase()})` : "");
  box.append(partial ?
    el("p", { id: "verdict", class: "verdict" }, el("b", {}, `Valuing guess ${data.steps.length + 1} of ${used}…`),
      ` ${ending}${data.hard ? ", hard mode" : ""}. ` + (data.steps.length ? `So far: skill ${data.skill_text}/99 over the ` +
      `first ${data.steps.length === 1 ? "guess" : `${data.steps.length} guesses`}; their values below are final.` : "")) :
    el("p", { id: "verdict", class: "verdict" },
      el("b", {}, `Skill ${data.skill_text}/99, luck ${data.luck}/99`),
      `: ${ending}${data.hard ? ", hard mode" : ""}; ${data.lost_text}.`));
  // On a phone each row is a card: every cell says what it is (data-label), so nothing hides off to the side.
  const cell = (label, attributes, ...content) => el("td", Object.assign({ "data-label": label }, attributes), ...content);
  const rows = data.steps.map((step) => el("tr", { "data-guess": step.guess },
    cell("#", { class: "number" }, step.number),
    cell("guess", { class: "name guess" }, guessTiles(step)),
    cell("reply", { class: "name pattern" }, step.pattern),
    cell("left", { class: "left" }, `${step.before} → ${step.after}`),
    cell("yours", { class: "value" }, step.played.text),
    cell("best", { class: "name best" }, (step.best_guess === step.guess ? "same" : step.best_guess) +
      (step.best_known ? "†" : "") + " " + step.best.text),
    cell("skill", { class: "skill" }, step.skill_text),
    cell("luck", { class: "luck" }, step.luck)));
  for (const step of pending) {  // not valued yet: the reply and the answers left are known, the values are coming
    rows.push(el("tr", { "data-guess": step.guess, "data-pending": "" },
      cell("#", { class: "number" }, step.number),
      cell("guess", { class: "name guess" }, guessTiles(step)),
      cell("reply", { class: "name pattern" }, step.pattern),
      cell("left", { class: "left" }, `${step.before} → ${step.after}`),
      cell("yours", { class: "value" }, step.number === data.steps.length + 1 ? "valuing…" : "to value"),
      cell("best", { class: "name best" }, "—"), cell("skill", { class: "skill" }, "—"), cell("luck", { class: "luck" }, "—")));
  }
  const table = el("table", { id: "review-table", class: "review cards" },
    el("caption", { class: "visually-hidden" }, "each guess: its reply, the answers left, its value, the best guess, skill and luck"),
    el("thead", {}, el("tr", {}, ["#", "guess", "reply", "left", "yours", "best", "skill", "luck"]
      .map((name) => el("th", { scope: "col", class: ["guess", "reply", "best"].includes(name) ? "name" : null }, name)))),
    el("tbody", {}, rows));
  box.append(scrollBox("the review, guess by guess", table));
  if (partial) return;
  for (const step of data.steps.filter((s) => s.best_known))
    box.append(el("p", { class: "meta" }, step.best_known_note));  // the terminal's line, from the server
  if (data.share)  // a game not over has none (a grid scoring it X would say it was lost)
    box.append(el("pre", { id: "review-share", class: "share", "aria-label": "share grid" }, paletteSquares(data.share)));
  box.append(el("p", { class: "meta" }, `Answer model ${data.model_description}; ${data.proved_share === 1 ? "every value proved" :
    `${Math.round(100 * data.proved_share)}% of values proved`} (${number(data.seconds, 1)} s).`));
  box.append(el("p", { class: "meta legend" }, "yours, best: expected guesses to finish, that guess included, with best play " +
    `after it (lower is better). ${VALUE_MARKS} Skill: 99 for the best guess, down to 0 for one that costs 1.75 ` +
    "guesses (NYT WordleBot's scale, fitted to its published reviews; '≈': a value it compares is not proved; '—': the guess has no tree, only a proved bound, so it is " +
    "not scored); the game's skill is the mean of its scored guesses'. Luck: how the reply ranks among those the guess could get (99: it left " +
    "the fewest answers)."));
}

// The request for the form as filled: a share grid, else the answer, else steps typed as word:pattern.
function request() {
  const entries = field("words").value.trim().toLowerCase().split(/[\s,]+/).filter(Boolean);
  const answer = field("answer").value.trim().toLowerCase();
  const grid = field("grid").value.trim();
  const body = { answers: field("answers").value, hard: field("hard").checked };
  const max = new URLSearchParams(location.search).get("max_guesses");
  if (max) body.max_guesses = max;
  if (grid) return Object.assign(body, { grid, words: entries, answer: answer || undefined });
  if (!answer && entries.length && entries.every((entry) => entry.includes(":"))) return Object.assign(body, { steps: entries });
  return Object.assign(body, { answer, words: entries });
}

async function review(event) {
  if (event) event.preventDefault();
  const body = request();
  if (!body.steps && !body.grid && !body.answer) {
    message("Give the answer and your guesses, your guesses as steps (crane:--yg-), or the share grid with your guesses.", "error");
    return;
  }
  message("Reviewing: the solver values each guess in turn…");
  field("review").setAttribute("aria-busy", "true");
  try {
    show(await apiJob("/api/review", body, (known) => {
      show(known);
      message(`Reviewing: ${known.steps.length} of ${known.steps.length + known.pending.length} guesses valued ` +
              `(${number(known.seconds, 0)} s so far; a busy machine takes longer)…`);
    }));
    message("");
  } catch (error) {
    message(error.message, "error");
    field("review").replaceChildren();
  } finally {
    field("review").removeAttribute("aria-busy");
    document.body.dataset.reviewed = String(Number(document.body.dataset.reviewed || 0) + 1);
  }
}

// The most a screenshot may weigh (the server's MAX_UPLOAD): a larger one is refused here, before it is sent.
const MOST_UPLOAD_BYTES = 10 * 1024 * 1024;

// What was read from a screenshot, one line, for the player to check: "Read from the screenshot (dark theme): ...".
function readLine(board) {
  const theme = `${board.theme} theme${board.contrast ? ", high contrast" : ""}`;
  return `Read from the screenshot (${theme}): ` + board.rows.map((row) => `${row.word.toUpperCase()} ${row.pattern}`).join(", ") +
    ". If a word was misread, correct it under your guesses and review again.";
}

// The phone's path: a screenshot of the board, read and reviewed by the server (review --screenshot).
async function reviewScreenshot() {
  const file = field("screenshot").files[0];
  if (!file) return;
  if (file.size > MOST_UPLOAD_BYTES) {
    message(`That picture is ${number(file.size / 1024 / 1024, 1)} MB; a screenshot of the board is at most 10 MB.`, "error");
    return;
  }
  const query = new URLSearchParams({ answers: field("answers").value, hard: field("hard").checked ? "1" : "0" });
  const max = new URLSearchParams(location.search).get("max_guesses");
  if (max) query.set("max_guesses", max);
  message("Reading the board and reviewing: the solver values each guess in turn…");
  field("review").setAttribute("aria-busy", "true");
  try {
    const data = await apiJob(`/api/review/screenshot?${query}`, file, (known) => {
      show(known);
      message(`Reviewing: ${known.steps.length} of ${known.steps.length + known.pending.length} guesses valued ` +
              `(${number(known.seconds, 0)} s so far)…`);
    });
    show(data);
    field("review").prepend(el("p", { id: "screenshot-read", class: "message note" }, readLine(data.screenshot)));
    field("answer").value = "";
    field("grid").value = "";
    field("words").value = data.screenshot.steps.join(" ");  // what was read, to correct and review again
    message("");
  } catch (error) {
    message(error.message, "error");
    field("review").replaceChildren();
  } finally {
    field("review").removeAttribute("aria-busy");
    field("screenshot").value = "";  // the same picture chosen again is read again
    document.body.dataset.reviewed = String(Number(document.body.dataset.reviewed || 0) + 1);
  }
}

document.addEventListener("DOMContentLoaded", async () => {
  const given = new URLSearchParams(location.search);
  try {
    await loadAnswerModels(field("answers"), given.get("answers"));
  } catch (error) { message(error.message, "error"); ready(); return; }
  field("form").addEventListener("submit", review);
  field("screenshot").addEventListener("change", reviewScreenshot);
  field("answer").value = given.get("answer") || "";
  field("words").value = given.get("steps") || given.get("words") || "";
  field("hard").checked = ["1", "true"].includes(given.get("hard"));
  ready();
  if (given.get("words") || given.get("steps")) await review(null);
});
