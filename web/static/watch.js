// The Watch page: one agent's game, shown a step at a time.
"use strict";

let agents = {};
let readOptions = () => ({});
let game = null;
let shown = 0;

function message(text, kind) { say(document.getElementById("message"), text, kind); }

function stepCard(step, index) {
  const own = `${game.agent}'s own value`;
  const figures = el("div", { class: "figures" },
    el("div", {}, "answers left: ", el("b", {}, step.remaining_before), " → ", el("b", { class: "left" }, step.remaining_after)),
    el("div", {}, "bits gained: ", el("b", {}, number(step.bits, 2))),
    el("div", {}, "expected guesses to finish: ", el("b", { class: "expected" }, step.guess_value.text),
       el("span", { class: "meta" }, " (this one included, best play after it; lower is better)")),
    step.value === null ? null : el("div", {}, `${own}: `, el("b", {}, number(step.value, 3)), el("span", { class: "meta" }, " (its own scale)")),
    step.nodes ? el("div", {}, "nodes searched: ", el("b", {}, step.nodes.toLocaleString()),
                    step.depth ? ` (depth ${step.depth})` : "", step.budget_reached ? " — node budget reached" : "") : null,
    el("div", { class: "meta" }, `${number(step.seconds, 3)} s`));
  const card = el("div", { class: "step", "data-step": index },
    el("div", {}, el("div", { class: "meta" }, `guess ${index}`), tileRow(step.guess, step.colours)), figures);
  if (step.alternatives.length) {
    const scored = step.alternatives.some(a => a.value !== null);
    const table = el("table", {}, el("tr", {}, el("th", { class: "name", scope: "col" }, "alternatives weighed"),
      el("th", { scope: "col" }, "guesses ", el("small", {}, "(lower is better)")),
      scored ? el("th", { scope: "col", title: `${game.agent}'s own value, on its own scale (not comparable between agents)` }, own) : null));
    for (const alternative of step.alternatives) {
      const played = alternative.guess === step.guess;
      table.append(el("tr", { class: played ? "chosen" : null },
        el("td", { class: "name" }, played ? alternative.guess + " (played)" : alternative.guess),
        el("td", {}, alternative.guess_value ? alternative.guess_value.text : "—"),
        scored ? el("td", {}, number(alternative.value, 3)) : null));
    }
    card.append(el("div", { class: "alternatives" }, scrollBox(`alternatives weighed for guess ${index}`, table)));
  }
  if (step.answers_left && step.remaining_after > 1)
    card.append(el("div", { class: "alternatives answers" }, "left: " + step.answers_left.join(" ")));
  return card;
}


function render() {
  const box = document.getElementById("steps");
  box.replaceChildren(...game.steps.slice(0, shown).map((step, i) => stepCard(step, i + 1)));
  document.getElementById("position").textContent = `step ${shown} of ${game.steps.length}`;
  document.getElementById("previous").disabled = shown <= 1;
  document.getElementById("next").disabled = shown >= game.steps.length;
  const end = shown >= game.steps.length;
  const name = game.agent, answer = game.answer.toUpperCase();
  const outcome = game.stopped ? `The page stopped ${name}'s game on ${answer} ${game.stopped.replace(/^stopped /, "")}` :
    game.solved ? `${name} solved ${answer} in ${game.steps.length}.` :
    `${name} did not solve ${answer} in ${game.max_guesses} guesses.`;
  document.getElementById("summary").replaceChildren(el("p", { class: "message " + (end ? (game.solved ? "good" : "error") : "") },
    end ? outcome : `${name} playing ${answer} (${game.hard ? "hard" : "normal"} mode, seed ${game.seed})`));
  document.body.dataset.shown = shown;
}

async function watch(event) {
  if (event) event.preventDefault();
  const request = { agent: document.getElementById("agent").value, answer: document.getElementById("answer").value.trim().toLowerCase(),
                    hard: document.getElementById("hard").checked, seed: Number(document.getElementById("seed").value || 0),
                    options: readOptions() };
  message(`${request.agent} is thinking…`, "");
  document.getElementById("go").disabled = true;
  try {
    game = await api("/api/watch", request);
    message("", "");
    shown = Math.min(1, game.steps.length);
    document.getElementById("stepper").hidden = false;
    render();
  } catch (error) {
    message(error.message, "error");
  } finally {
    document.getElementById("go").disabled = false;
  }
}

document.addEventListener("DOMContentLoaded", async () => {
  const select = document.getElementById("agent");
  const params = new URLSearchParams(location.search);
  try { agents = await loadAgents(select, params.get("agent")); } catch (error) { message(error.message, "error"); return; }
  const options = document.getElementById("options");
  const choose = () => { readOptions = optionInputs(options, agents[select.value]); };
  select.addEventListener("change", choose);
  choose();
  if (params.get("answer")) document.getElementById("answer").value = params.get("answer");
  document.getElementById("form").addEventListener("submit", watch);
  document.getElementById("next").addEventListener("click", () => { shown = Math.min(game.steps.length, shown + 1); render(); });
  document.getElementById("previous").addEventListener("click", () => { shown = Math.max(1, shown - 1); render(); });
  document.getElementById("all").addEventListener("click", () => { shown = game.steps.length; render(); });
  ready();
});
