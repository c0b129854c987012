// The Watch page: one agent's game, shown a step at a time.
"use strict";

let agents = {};
let readOptions = () => ({});
let game = null;
let shown = 0;

function message(text, kind) { say(document.getElementById("message"), text, kind); }

function stepCard(step, index) {
  const figures = el("div", { class: "figures" },
    el("div", {}, "answers left: ", el("b", {}, step.remaining_before), " → ", el("b", { class: "left" }, step.remaining_after)),
    el("div", {}, "bits gained: ", el("b", {}, number(step.bits, 2)),
       " ", el("span", { class: "meter", style: `width:${Math.min(12, step.bits) * 14}px` })),
    step.value === null ? null : el("div", {}, "value: ", el("b", {}, number(step.value, 3))),
    step.nodes ? el("div", {}, "nodes searched: ", el("b", {}, step.nodes.toLocaleString()),
                    step.depth ? ` (depth ${step.depth})` : "", step.budget_reached ? " — node budget reached" : "") : null,
    el("div", { class: "meta" }, `${number(step.seconds, 3)} s`));
  const card = el("div", { class: "step", "data-step": index },
    el("div", {}, el("div", { class: "meta" }, `guess ${index}`), tileRow(step.guess, step.colours)), figures);
  if (step.alternatives.length) {
    const values = step.alternatives.map(a => a.value);
    const low = Math.min(...values), high = Math.max(...values);
    const table = el("table", {}, el("tr", {}, el("th", { class: "name" }, "alternatives weighed"), el("th", {}, "value"), el("th", { class: "name" }, "")));
    for (const alternative of step.alternatives) {
      const width = high > low ? 20 + 140 * (alternative.value - low) / (high - low) : 160;
      table.append(el("tr", { class: alternative.guess === step.guess ? "chosen" : null },
        el("td", { class: "name" }, alternative.guess === step.guess ? el("b", {}, alternative.guess + " (played)") : alternative.guess),
        el("td", {}, number(alternative.value, 3)),
        el("td", { class: "name" }, el("span", { class: "meter", style: `width:${width.toFixed(0)}px` }))));
    }
    card.append(el("div", { class: "alternatives" }, table));
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
  document.getElementById("summary").replaceChildren(el("p", { class: "message " + (end ? (game.solved ? "good" : "error") : "") },
    end ? (game.solved ? `${game.agent} solved ${game.answer.toUpperCase()} in ${game.steps.length}.`
                       : `${game.agent} did not solve ${game.answer.toUpperCase()}.`) + (game.stopped ? " " + game.stopped : "")
        : `${game.agent} playing ${game.answer.toUpperCase()} (${game.hard ? "hard" : "normal"} mode, seed ${game.seed})`));
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
    shown = 1;
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
  agents = await loadAgents(select, params.get("agent") || "expectimax");
  const options = document.getElementById("options");
  const choose = () => { readOptions = optionInputs(options, agents[select.value]); };
  select.addEventListener("change", choose);
  choose();
  if (params.get("answer")) document.getElementById("answer").value = params.get("answer");
  document.getElementById("form").addEventListener("submit", watch);
  document.getElementById("next").addEventListener("click", () => { shown = Math.min(game.steps.length, shown + 1); render(); });
  document.getElementById("previous").addEventListener("click", () => { shown = Math.max(1, shown - 1); render(); });
  document.getElementById("all").addEventListener("click", () => { shown = game.steps.length; render(); });
  document.body.dataset.ready = "1";
});
