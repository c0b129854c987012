// The Variants page: a Dordle, Quordle, Octordle or Fibble game checked by the server, and advice on one played elsewhere.
"use strict";

let game = null;   // {game, name, boards, max_guesses}
let grids = [];    // one element a board

function variantBody(value) { return value === "fibble" ? { fibble: true } : { boards: Number(value) }; }
function message(text, kind) { say(document.getElementById("message"), text, kind); }

function buildBoards(count) {
  const box = document.getElementById("boards");
  box.replaceChildren();
  grids = [];
  for (let i = 0; i < count; i++) {
    const grid = el("div", { class: "variant-board", role: "group", "aria-label": `board ${i + 1}` });
    grids.push(grid);
    box.append(grid);
  }
}

async function newGame(event) {
  event.preventDefault();
  const body = variantBody(document.getElementById("variant").value);
  const seed = document.getElementById("seed").value;
  if (seed !== "") body.seed = Number(seed);
  try {
    game = await api("/api/variant/new", body);
  } catch (error) { message(error.message, "error"); return; }
  buildBoards(game.fibble ? 1 : game.boards);
  document.getElementById("guess-form").hidden = false;
  message(`${game.name}: ${game.max_guesses} guesses (seed ${game.seed})` +
          (game.fibble ? "; every row but a winning one holds exactly one lie" : ""), "");
  document.getElementById("guess").focus();
}

async function playGuess(event) {
  event.preventDefault();
  if (!game) return;
  const input = document.getElementById("guess");
  let reply;
  try {
    reply = await api("/api/variant/guess", { game: game.game, guess: input.value.trim().toLowerCase() });
  } catch (error) { message(error.message, "error"); return; }
  input.value = "";
  reply.replies.forEach((board, i) => {
    if (board) grids[i].append(tileRow(reply.guess, board.colours, game.boards > 4));
  });
  reply.solved.forEach((done, i) => {
    grids[i].classList.toggle("solved", done);
    grids[i].setAttribute("aria-label", `board ${i + 1}${done ? ": solved" : ""}`);
  });
  if (reply.over) {
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
document.getElementById("guess-form").addEventListener("submit", playGuess);
document.getElementById("advise-form").addEventListener("submit", advise);
ready();
