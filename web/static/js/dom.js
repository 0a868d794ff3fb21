// Building DOM nodes from data. Server strings only ever become text nodes (textContent),
// never HTML, so a name or an engine message cannot inject markup.
"use strict";

export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style") node.setAttribute("style", value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export function fill(node, ...children) {
  return append(clear(node), children);
}

// Redraw `node` with `children`, keeping what the player set there: each <details> that
// carries a data-key stays open or shut as it was (a new one takes its own default), and the
// control with the keyboard focus, when it has a data-key found again, keeps it. A page that
// redraws at every version would otherwise shut what a player just opened. A control gone
// for one redraw (a version in between without it) gets the keyboard back when it comes
// back, unless the keyboard went elsewhere meanwhile. A list's choice not sent yet stays.
const lostChoices = new WeakMap();  // node -> {data-key: value} of lists gone for one redraw
const lostFocus = new WeakMap();  // node -> the data-key of the control it lost the focus with

export function redraw(node, ...children) {
  const shown = new Map([...node.querySelectorAll("details[data-key]")].map((d) => [d.dataset.key, d.open]));
  // a choice made in a list and not sent yet stays made, while the list still offers it
  // (also past one redraw without the list: a version in between, as for the keyboard)
  const chosen = new Map([...(lostChoices.get(node) || new Map()),
    ...[...node.querySelectorAll("select[data-key]")].map((x) => [x.dataset.key, x.value])]);
  lostChoices.delete(node);
  const active = document.activeElement;
  const inside = active && node.contains(active) && active.dataset ? active.dataset.key : undefined;
  const nowhere = !active || active === document.body;
  const focused = inside !== undefined ? inside : (nowhere ? lostFocus.get(node) : undefined);
  lostFocus.delete(node);
  fill(node, ...children);
  for (const d of node.querySelectorAll("details[data-key]")) {
    if (shown.has(d.dataset.key)) d.open = shown.get(d.dataset.key);
  }
  for (const x of node.querySelectorAll("select[data-key]")) {
    const value = chosen.get(x.dataset.key);
    chosen.delete(x.dataset.key);
    if (value !== undefined && [...x.options].some((o) => o.value === value)) x.value = value;
  }
  if (chosen.size) lostChoices.set(node, chosen);
  if (focused !== undefined) {
    const again = [...node.querySelectorAll("[data-key]")].find((n) => n.dataset.key === focused);
    if (again) again.focus({preventScroll: true});  // the page stays where it was
    else lostFocus.set(node, focused);
  }
  return node;
}

export function $(selector) {
  return document.querySelector(selector);
}

// An <input> for a value typed with a choice (a prompt option's `inputs` entry, docs/api.md):
// a number within its bounds, or a text of `minimum` to `maximum` characters; it must be
// given when it has no default.
export function typedInput(input, name, value) {
  return h("input", Object.assign({name, value, required: input.default === null},
    input.kind === "number"
      ? {type: "number", inputmode: "numeric", min: input.minimum, max: input.maximum}
      : {type: "text", autocomplete: "off", minlength: input.minimum, maxlength: input.maximum}));
}
