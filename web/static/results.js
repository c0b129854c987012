// The Results page: the published tournament's charts and tables.
"use strict";

function message(text, kind) { say(document.getElementById("message"), text, kind); }

async function inlineChart(box, name) {
  const response = await fetch(`/api/charts/${name}`);
  if (!response.ok) { box.hidden = true; return; }
  box.innerHTML = await response.text();
  box.dataset.chart = name;
}

function table(headers, rows, left) {
  const node = el("table", {}, el("tr", {}, headers.map((h, i) => el("th", { class: left.includes(i) ? "name" : null, scope: "col" }, h))));
  for (const row of rows) node.append(el("tr", {}, row.map((cell, i) => el("td", { class: left.includes(i) ? "name" : null }, cell))));
  return node;
}

function plusMinus(mean, low, high, signed) {
  const text = (signed && mean >= 0 ? "+" : "") + mean.toFixed(3);
  return low === null || high === null ? text : `${text} ± ${((high - low) / 2).toFixed(3)}`;
}

document.addEventListener("DOMContentLoaded", async () => {
  let document_;
  try { document_ = await api("/api/results"); } catch (error) { message(error.message, "error"); ready(); return; }
  const summary = document_.summary;
  const commits = document_.provenance.map(p => p.commit.slice(0, 10)).join(", ");
  document.getElementById("provenance").textContent =
    `${document_.folder}: ${document_.command} — commit ${commits}, written ${document_.written}`;
  await Promise.all([inlineChart(document.getElementById("histograms"), "histograms.svg"),
                     inlineChart(document.getElementById("difference"), "hard-vs-normal.svg")]);
  const max = summary.max_guesses;
  const headers = ["agent", "mode", "solved %", "mean guesses ± 95%", "worst", ...Array.from({ length: max }, (_, i) => String(i + 1)), "X", "s/game", "nodes/game"];
  const rows = summary.results.map(r => [r.agent, r.mode, (Math.floor(r.solved_pct * 10 + 1e-9) / 10).toFixed(1), plusMinus(r.mean, r.ci_low, r.ci_high),
    r.worst > max ? "X" : r.worst, ...r.histogram, r.failures,
    r.seconds_per_game === null ? "n/a" : r.seconds_per_game.toFixed(4), r.nodes_per_game === null ? "-" : Math.round(r.nodes_per_game).toLocaleString()]);
  document.getElementById("results-table").replaceChildren(scrollBox("results by agent and mode", table(headers, rows, [0, 1])));
  const comparisons = summary.comparisons.map(c => [c.agent, c.normal_mean.toFixed(3), c.hard_mean.toFixed(3),
    plusMinus(c.mean_difference, c.ci_low, c.ci_high, true), c.harder, c.easier, c.equal, c.same_games, Number(c.p_value).toPrecision(2), c.finding]);
  document.getElementById("comparison-table").replaceChildren(scrollBox("hard mode against normal mode", table(
    ["agent", "normal", "hard", "hard − normal ± 95%", "harder", "easier", "equal", "same games", "p", "finding"], comparisons, [0, 9])));
  ready();
});
