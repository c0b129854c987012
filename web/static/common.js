// Shared by every page: the API helper, element building, tiles, the palette and the navigation bar.
"use strict";

// The pages in the navigation bar, in order (web/app.py's PAGES serves them; the browser tests walk that list).
const PAGES = [["/", "Play"], ["/variants", "Variants"], ["/watch", "Watch"], ["/assist", "Assist"], ["/review", "Review"], ["/results", "Results"], ["/api", "API"]];

// What each tile state means, in words; the colour names follow the palette (default, or high contrast).
const MEANING = { correct: "right place", present: "in the word, elsewhere", absent: "not in the word" };
const COLOUR_NAMES = {
  default: { correct: "green", present: "yellow", absent: "grey" },
  contrast: { correct: "orange", present: "blue", absent: "grey" },
};
const CONTRAST_KEY = "wordle-arena-contrast";

function palette() { return document.documentElement.classList.contains("contrast") ? "contrast" : "default"; }

// A tile state in words: "green, right place".
function stateWords(state) { return `${COLOUR_NAMES[palette()][state]}, ${MEANING[state]}`; }

// What a screen reader says for one tile: "C: green, right place", "C: not checked yet", "empty".
function tileLabel(letter, state) {
  if (!letter) return "empty";
  return `${letter.toUpperCase()}: ${state ? stateWords(state) : "not checked yet"}`;
}

// Label every tile again (after the palette changed, the colour names did).
function relabelTiles() {
  for (const tile of document.querySelectorAll(".tile")) {
    if (tile.dataset.label !== "auto") continue;
    tile.setAttribute("aria-label", tileLabel(tile.textContent, tile.dataset.state));
  }
  document.dispatchEvent(new CustomEvent("palettechange"));
}

// The high-contrast palette (orange and blue, as the terminal's --palette contrast), remembered on this browser.
function setContrast(on) {
  document.documentElement.classList.toggle("contrast", on);
  try { localStorage.setItem(CONTRAST_KEY, on ? "1" : "0"); } catch (e) { /* private mode: not remembered */ }
  const toggle = document.getElementById("contrast");
  if (toggle) toggle.setAttribute("aria-pressed", String(on));
  relabelTiles();
}

try { if (localStorage.getItem(CONTRAST_KEY) === "1") document.documentElement.classList.add("contrast"); } catch (e) { /* none */ }

// The share grid's squares in the palette shown (the server writes the default palette's).
function paletteSquares(text) {
  return palette() === "contrast" ? text.replaceAll("\u{1F7E9}", "\u{1F7E7}").replaceAll("\u{1F7E8}", "\u{1F7E6}") : text;
}

class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

// Call the JSON API: GET without a body, POST with one; a 4xx/5xx becomes an ApiError with the server's one line,
// and a server that cannot be reached an ApiError saying so.
// A body that is a file (a Blob) is sent as it is, with its own type; any other as JSON.
async function api(path, body) {
  const options = body === undefined ? {} : body instanceof Blob ?
    { method: "POST", headers: { "Content-Type": body.type || "application/octet-stream" }, body } :
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new ApiError("Cannot reach the wordle-arena server: is 'python cli.py serve' still running? " +
                       "Reload the page once it is.", 0);
  }
  let data;
  try { data = await response.json(); } catch (e) { data = { error: `the server answered HTTP ${response.status} without a message` }; }
  if (!response.ok) throw new ApiError(data.error || `the server answered HTTP ${response.status}`, response.status);
  return data;
}

// How long a review's or an advice's first request waits for the whole answer, and each later look (seconds).
const JOB_FIRST_WAIT = 1.5, JOB_LOOK_WAIT = 4;

// A review or an advice (web/jobs.py): POST `body` to `path`; while the server is still finding values it answers
// what it knows so far ({done: false, job, ...}), handed to `onPartial`, and the page asks again until the whole
// answer comes, which is returned. `wanted()` false (the tiles changed): stop asking, return null.
async function apiJob(path, body, onPartial, wanted) {
  const separator = path.includes("?") ? "&" : "?";
  let data = body instanceof Blob ? await api(`${path}${separator}wait=${JOB_FIRST_WAIT}`, body) :
    await api(path, Object.assign({}, body, { wait: JOB_FIRST_WAIT }));
  while (data && data.done === false) {
    if (wanted && !wanted()) {  // no longer wanted: the server stops it now rather than when nobody has asked a while
      fetch(`/api/jobs/${encodeURIComponent(data.job)}`, { method: "DELETE" }).catch(() => {});
      return null;
    }
    if (onPartial && "steps" in data) onPartial(data);  // before the first report: nothing known yet
    data = await api(`/api/jobs/${encodeURIComponent(data.job)}?wait=${JOB_LOOK_WAIT}`);
  }
  return wanted && !wanted() ? null : data;
}

// Build an element: el("td", {class: "name"}, "text", child, ...).
// The on-screen keyboard's rows: "<" and ">" half-key spacers, "+" Enter, "-" Backspace.
const KEY_ROWS = ["qwertyuiop", "<asdfghjkl>", "+zxcvbnm-"];

// The keyboard in #keyboard: Enter, Backspace and the spacers as every page has them, each letter's button made by
// `letterKey(key)`; every key calls `press` with its name.
function buildKeys(press, letterKey) {
  const box = document.getElementById("keyboard");
  box.replaceChildren();
  for (const keys of KEY_ROWS) {
    const line = el("div", { class: "keys" });
    for (const key of keys) {
      if (key === "<" || key === ">") line.append(el("span", { class: "half", "aria-hidden": "true" }));
      else if (key === "+") line.append(el("button", { class: "key wide", type: "button", "data-key": "enter", onclick: () => press("enter") }, "Enter"));
      else if (key === "-") line.append(el("button", { class: "key wide", type: "button", "data-key": "backspace", "aria-label": "backspace",
                                                      onclick: () => press("backspace") }, "\u232B"));
      else line.append(letterKey(key));
    }
    box.append(line);
  }
}

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// One tile: its letter, its state as a class and in words, and a mark that is not a colour.
function tile(letter, state, tag) {
  const node = el(tag || "div", { class: "tile" + (letter ? " filled" : "") + (state ? " " + state : ""),
                                  "data-state": state || "", "data-label": "auto" }, letter || "");
  if (!tag) node.setAttribute("role", "img");
  node.setAttribute("aria-label", tileLabel(letter, state));
  return node;
}

// Show `letter` in `state` on an existing tile (state null: typed, not yet checked).
function setTile(node, letter, state) {
  node.textContent = letter || "";
  node.classList.toggle("filled", Boolean(letter));
  node.classList.remove("correct", "present", "absent");
  if (state) node.classList.add(state);
  node.dataset.state = state || "";
  node.setAttribute("aria-label", tileLabel(letter, state));
}

// A row of five tiles showing `word`, coloured by `colours` ("correct", "present", "absent") when given.
function tileRow(word, colours, small) {
  const row = el("div", { class: "row" + (small ? " small" : ""), role: "group",
                          "aria-label": word && colours ? word.toUpperCase() : "guess" });
  for (let i = 0; i < 5; i++) row.append(tile((word || "")[i] || "", colours ? colours[i] : null));
  return row;
}

// Show a one-line message (kind: "error", "good" or "").
function say(node, text, kind) {
  node.textContent = text || "";
  node.className = "message" + (kind ? " " + kind : "");
}

function number(value, digits) {
  return value === null || value === undefined ? "" : Number(value).toFixed(digits);
}

// "1 answer", "2 answers".
function plural(count, noun) { return `${count.toLocaleString()} ${noun}${count === 1 ? "" : "s"}`; }

// A wide table in a box of its own that scrolls sideways on a narrow screen (reachable by keyboard too).
function scrollBox(label, ...children) {
  return el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": label }, ...children);
}

// Mark the page ready (the tests wait for it).
function ready() { document.body.dataset.ready = "1"; }

// The navigation bar with the current page marked, and the palette switch.
function navigation() {
  const here = location.pathname;
  const toggle = el("button", { id: "contrast", class: "secondary", type: "button", "aria-pressed": String(palette() === "contrast"),
                                title: "orange and blue tiles instead of green and yellow (remembered on this browser)",
                                onclick: () => setContrast(palette() !== "contrast") }, "High contrast");
  const header = el("header", {}, el("h1", {}, "wordle-arena"),
    el("nav", { "aria-label": "pages" }, PAGES.map(([path, name]) =>
      el("a", { href: path, class: path === here ? "here" : null, "aria-current": path === here ? "page" : null }, name))),
    toggle);
  document.body.prepend(header);
  // the skip link: the first Tab goes past the navigation to the page's own content
  const main = document.querySelector("main");
  if (main) {
    main.id = main.id || "content";
    main.setAttribute("tabindex", "-1");
    document.body.prepend(el("a", { class: "skip", href: `#${main.id}` }, "Skip to content"));
  }
  if (document.body.hasAttribute("data-static")) ready();
}

// /api/agents, asked once a page: the agents, the default advisor and the answer models.
let agentsInfo = null;
function loadInfo() { return agentsInfo || (agentsInfo = api("/api/agents")); }

// Fill a <select> with the agents from /api/agents, `chosen` selected (null: the default advisor of `assist`);
// returns their descriptions by name.
async function loadAgents(select, chosen) {
  const data = await loadInfo();
  chosen = chosen || data.advisor;
  const byName = {};
  for (const agent of data.agents) {
    byName[agent.name] = agent;
    select.append(el("option", { value: agent.name, selected: agent.name === chosen, title: agent.summary }, agent.name));
  }
  return byName;
}

// Fill a <select> with the answer models (likely, original, ...), `chosen` selected (null: `assist`'s default).
async function loadAnswerModels(select, chosen) {
  const data = await loadInfo();
  chosen = chosen || data.answer_model;
  for (const model of data.answer_models)
    select.append(el("option", { value: model.name, selected: model.name === chosen, title: model.summary },
                     model.name + (model.name === data.answer_model ? " (default)" : "")));
}

// What a value's marks mean, as the terminal says it (agents/model_value.py, wordle/valuation.py's Value.text).
const VALUE_MARKS = "A plain value is proved; '≤ x' has a tree reaching x; '≥ x' is a proved bound only; " +
  "'loses x%': the chance the tree found loses.";

// Inputs for the options an agent takes, inside `box`; returns a function reading them as an object.
function optionInputs(box, agent) {
  box.replaceChildren();
  const inputs = {};
  for (const option of agent.options) {
    const input = el("input", { type: "text", size: 8, placeholder: option.metavar, title: option.help, "data-option": option.name });
    inputs[option.name] = input;
    box.append(el("label", { title: option.help }, option.flag + " ", input));
  }
  return () => {
    const values = {};
    for (const [name, input] of Object.entries(inputs)) if (input.value.trim()) values[name] = input.value.trim();
    return values;
  };
}

document.addEventListener("DOMContentLoaded", navigation);
