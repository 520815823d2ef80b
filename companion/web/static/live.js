/* Cupbearer: shared helpers for every page (no framework, no CDN).
   CB.live opens the page's Server-Sent Events stream: each message is a full snapshot of what this
   viewer may see, so a reconnect needs nothing but the next message. */
"use strict";
const CB = {
  data(id) {
    const node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  },
  csrf() { return document.querySelector("meta[name=csrf]").content; },
  async post(url, body) {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": CB.csrf()},
      body: JSON.stringify(body || {}),
    });
    const data = await response.json().catch(() => ({error: response.statusText}));
    if (!response.ok) {
      const error = new Error(data.error || response.statusText);
      error.data = data;
      error.status = response.status;
      throw error;
    }
    return data;
  },
  status(text, ok) {
    const node = document.getElementById("live-status");
    if (node) { node.textContent = text; node.className = "status " + (ok ? "ok" : "warn"); }
  },
  live(url, onMessage) {
    const source = new EventSource(url);
    source.addEventListener("snapshot", (event) => {
      CB.status("live", true);
      onMessage(JSON.parse(event.data));
    });
    source.onopen = () => CB.status("live", true);
    source.onerror = () => CB.status("reconnecting…", false);
    return source;
  },
  el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    for (const child of children.flat()) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  },
  svg(tag, attrs, ...children) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "text") node.textContent = value; else node.setAttribute(key, value);
    }
    for (const child of children.flat()) if (child) node.append(child);
    return node;
  },
  fill(id, ...children) {
    const node = document.getElementById(id);
    if (node) node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined));
    return node;
  },
  showError(error) {
    const node = document.getElementById("error");
    if (!node) return;
    if (!error) { node.textContent = ""; return; }
    const rule = error.data && error.data.rule ? " — rule: " + error.data.rule : "";
    node.textContent = error.message + rule;
  },
};
