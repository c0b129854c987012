// Shared by every page: the API helper, element building, tiles and the navigation bar.
"use strict";

class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

// Call the JSON API: GET without a body, POST with one; a 4xx/5xx becomes an ApiError with the server's one line.
async function api(path, body) {
  const options = body === undefined ? {} :
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, options);
  let data;
  try { data = await response.json(); } catch (e) { data = { error: `HTTP ${response.status}` }; }
  if (!response.ok) throw new ApiError(data.error || `HTTP ${response.status}`, response.status);
  return data;
}

// Build an element: el("td", {class: "name"}, "text", child, ...).
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

// A row of five tiles showing `word`, coloured by `colours` ("correct", "present", "absent") when given.
function tileRow(word, colours, small) {
  const row = el("div", { class: "row" + (small ? " small" : "") });
  for (let i = 0; i < 5; i++) {
    const letter = (word || "")[i] || "";
    const state = colours ? colours[i] : null;
    row.append(el("div", { class: "tile" + (letter ? " filled" : "") + (state ? " " + state : ""), "data-state": state || "" }, letter));
  }
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

// The navigation bar, with the current page marked.
function navigation() {
  const pages = [["/", "Play"], ["/watch", "Watch"], ["/assist", "Assist"], ["/review", "Review"], ["/results", "Results"], ["/api", "API"]];
  const here = location.pathname;
  const header = el("header", {}, el("h1", {}, "wordle-arena"),
    el("nav", {}, pages.map(([path, name]) => el("a", { href: path, class: path === here ? "here" : null }, name))));
  document.body.prepend(header);
}

// Fill a <select> with the agents from /api/agents; returns their descriptions by name.
async function loadAgents(select, chosen) {
  const data = await api("/api/agents");
  const byName = {};
  for (const agent of data.agents) {
    byName[agent.name] = agent;
    select.append(el("option", { value: agent.name, selected: agent.name === chosen, title: agent.summary }, agent.name));
  }
  return byName;
}

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
