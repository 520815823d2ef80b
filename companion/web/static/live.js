/* Cupbearer: shared helpers for every page (no framework, no CDN).
   CB.live opens the page's Server-Sent Events stream: each message is a full snapshot of what this
   viewer may see, so a reconnect needs nothing but the next message. People are named by their
   label ("Anna · De Miceti") from the latest message's players, never by a seat number. */
"use strict";
const CB = {
  data(id) {
    const node = document.getElementById(id);
    return node ? CB.take(JSON.parse(node.textContent)) : null;
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
  players: [],
  /* "Anna · De Miceti" for a seat (its player's name and what the game calls it). */
  label(seat) {
    const p = CB.players[Number(seat)];
    return p ? p.label : (seat === null || seat === undefined ? "?" : "Player " + (Number(seat) + 1));
  },
  lastMessage: null,
  take(message) {
    if (message && Array.isArray(message.players)) CB.players = message.players;
    if (message && message.seq !== undefined) CB.lastMessage = message;
    return message;
  },
  drawn: null,
  /* Whether ``message`` is not older than the one last drawn (then it is the one drawn now): a
     tap's reply can arrive after the stream's newer snapshots, and must not draw the past. */
  newest(message) {
    const last = CB.drawn;
    if (last && message && message.game_id === last.game_id && message.seq < last.seq) return false;
    if (message && message.seq !== undefined) CB.drawn = {game_id: message.game_id, seq: message.seq};
    return true;
  },
  /* The step ("game:seq") whose buttons the phone's tap still waiting on its reply was made on. */
  pending: null,
  shownStep() {
    const m = CB.drawn || CB.lastMessage;
    return m ? `${m.game_id}:${m.seq}` : "";
  },
  /* Whether a phone's tap now would be a second tap on the same buttons as the one still
     waiting (a double tap is one action). Once the stream has drawn a newer step (it often
     brings the tap's own answer before the reply does), the buttons are new and so is a tap. */
  busy() { return CB.pending !== null && CB.pending === CB.shownStep(); },
  /* One tap sent to the server, the one way every page acts: ``render`` draws the reply (unless
     the stream has drawn something newer), a refusal is shown in the page's error line, a freed
     seat is asked to join again. ``once``: a phone's second tap on the same step is dropped
     while the first waits for its reply (see ``busy``). Resolves to whether the server accepted
     it. */
  async act(url, body, render, {once = false} = {}) {
    if (once && CB.busy()) return false;
    const step = CB.shownStep();
    if (once) CB.pending = step;
    CB.showError(null);
    try {
      const reply = CB.take(await CB.post(url, body));
      if (CB.newest(reply)) render(reply);
      return true;
    } catch (error) {
      if (error.data && error.data.rejoin) CB.rejoin("freed");
      else CB.showError(error);
      return false;
    } finally {
      if (once && CB.pending === step) CB.pending = null;
      document.body.dataset.answered = String(Number(document.body.dataset.answered || 0) + 1);
    }
  },
  live(url, onMessage) {
    const source = new EventSource(url);
    source.addEventListener("snapshot", (event) => {
      CB.status("live", true);
      const message = CB.take(JSON.parse(event.data));
      if (CB.newest(message)) onMessage(message);
    });
    // A seat's claim ended (a new game, or the Host freed the seat): nothing more comes.
    source.addEventListener("closed", (event) => {
      source.close();
      const reason = JSON.parse(event.data).reason;
      CB.status("seat ended", false);
      CB.rejoin(reason);
    });
    source.onopen = () => CB.status("live", true);
    source.onerror = () => CB.status("reconnecting…", false);
    return source;
  },
  /* The phone's seat has ended: replace the page with the way back in. */
  rejoin(reason) {
    if (reason === "logged_out") { location.assign("/host"); return; }  // the Host logged out
    const text = reason === "freed" ? "The Host freed your seat." : "A new game has started.";
    document.body.dataset.rejoin = reason;
    const main = document.querySelector("main");
    main.replaceChildren(CB.el("section", {class: "panel rejoin", id: "rejoin"},
      CB.el("h1", {}, text),
      CB.el("p", {}, "Scan the join code on the tablet to take a seat, or type the code."),
      CB.el("a", {class: "button big", href: "/join"}, "Type the join code")));
  },
  /* The tablet follows the table: when another game starts, load that game's page. */
  followGame(initial, message) {
    if ((initial || {}).game_id !== message.game_id) location.reload();
  },
  /* The join panel: who has taken which seat; hidden once every seat is taken. */
  joinPanel(message) {
    const panel = document.getElementById("join");
    if (!panel) return;
    panel.hidden = !message.joinable;
    CB.fill("join-seats", (message.players || []).map((p) => CB.el("li", {class: p.taken ? "taken" : "free"},
      p.taken ? `${p.label} ✓` : `${p.seat_name}: free${p.name ? " (for " + p.name + ")" : ""}`)));
  },
  /* An in-page confirmation (a tablet's native dialogs are easy to dismiss by mistake). */
  confirm(text) {
    const dialog = document.getElementById("confirm");
    document.getElementById("confirm-text").textContent = text;
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), {once: true});
      dialog.returnValue = "";
      dialog.showModal();
    });
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
