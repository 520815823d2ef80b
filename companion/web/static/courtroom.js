/* The courtroom (The Gods Will Have Blood): the bag of cubes. Shows the pool, the exact odds
   before each draw, the cubes drawn (animated), the vine, the Momentum Box, the deck / set-aside /
   discarded counts, the effect buttons and the log. The Judge acts from the phone that claimed
   the seat (or the Host from the tablet) and draws each cube by tapping the bag. */
"use strict";
(() => {
  const court = document.getElementById("court");
  const isHost = court.dataset.host === "yes";
  const isSeat = court.dataset.seat === "yes";
  const actUrl = isSeat ? "/api/seat/act" : "/api/host/act";
  let lastDrawn = 0;

  const pct = (p) => (100 * p).toFixed(1) + "%";
  const cube = (colour, fresh) => CB.el("span", {class: `cube cube-${colour}${fresh ? " drop" : ""}`, title: colour}, colour[0].toUpperCase());

  async function act(action) {
    CB.showError(null);
    try { render(CB.take(await CB.post(actUrl, isSeat ? {action} : {action, mode: "enforcing"}))); }
    catch (error) { CB.showError(error); }
  }

  function label(action) {
    switch (action.type) {
      case "verdict": return action.verdict === "guilty" ? "Guilty" : "Not guilty";
      case "effect": return `${action.effect.replaceAll("_", " ")} ${action.n > 0 ? "+" : ""}${action.n}`;
      case "sentence": return `Carry out: ${action.card}`;
      case "end_sentence": return "Sentence done";
      case "hear": return "Hear the next case";
      case "undo": return "Undo the last effect";
      case "name_card": return `Case ${action.case + 1} is ${action.card}`;
      case "draw": return "Draw a cube from the bag";
      default: return action.type;
    }
  }

  function vine(view) {
    const v = view.vine;
    return CB.el("ol", {class: "vine"}, v.spaces.map((space, i) => CB.el("li", {class: "space"},
      CB.el("span", {class: "label"}, space),
      i === v.legitimacy ? CB.el("span", {class: "marker legitimacy"}, "Legitimacy") : null,
      i === v.reputation ? CB.el("span", {class: "marker reputation"}, "Reputation") : null,
      view.blue_cube === "vine" && space === "W" ? cube("blue") : null)).reverse());
  }

  function render(message) {
    const view = message.view || {};
    if (court.dataset.page === "table") CB.followGame(initial, message);
    CB.joinPanel(message);
    const demo = document.getElementById("demo-banner");
    if (demo) demo.hidden = message.play !== "demo";
    if (isSeat) document.getElementById("you-title").textContent = `You are ${(message.you || {}).label || "?"}`;
    document.body.dataset.game = message.game_id;
    document.body.dataset.seq = message.seq;
    document.body.dataset.over = message.over ? "yes" : "no";
    if (message.game !== "tribunal") {
      CB.fill("court-status", `No trial in progress (the table is playing ${message.game || "nothing"}).`);
      CB.fill("actions", []);
      return;
    }
    const status = view.result ? (view.result.won ? "You won: the Republic is saved." : `Lost: ${view.result.reason || "the court has fallen"}`)
      : `Hearing ${view.hearing} · ${String(view.phase).replaceAll("_", " ")}${view.two_case_mode ? " · two cases at a time" : ""}`;
    CB.fill("court-status", status);
    const pool = view.pool;
    CB.fill("pool", CB.el("p", {class: "pool"}, `${pool.red} red · ${pool.white} white · ${pool.blue} blue`),
      CB.el("div", {class: "cubes"}, [...Array(pool.red)].map(() => cube("red")), [...Array(pool.white)].map(() => cube("white")), pool.blue ? cube("blue") : null));
    const odds = view.odds || {};
    CB.fill("odds", CB.el("p", {}, `Chance the verdict passes: Guilty ${pct(odds.guilty.p_pass)} (${odds.guilty.exact}), Not guilty ${pct(odds.not_guilty.p_pass)} (${odds.not_guilty.exact})`),
      odds.second_cube_matches ? CB.el("p", {}, `The next cube matches your verdict: ${pct(odds.second_cube_matches.p)} (${odds.second_cube_matches.exact})`) : null);
    const drawn = view.drawn || [];
    CB.fill("draw", drawn.length ? CB.el("p", {}, "Drawn: ", drawn.map((c, i) => cube(c, i >= lastDrawn))) : null,
      view.judgment ? CB.el("p", {class: "judgment"}, `Judgment: ${view.judgment.replace("_", " ")}${view.verdict ? (view.judgment === view.verdict ? " (your verdict passed)" : " (the drawn verdict stands)") : ""}`) : null);
    lastDrawn = drawn.length;
    CB.fill("vine", vine(view));
    CB.fill("box", CB.el("p", {}, `Momentum Box: ${view.momentum_box} of ${view.momentum_box_size} red cubes`));
    CB.fill("cards", CB.el("ul", {},
      CB.el("li", {}, `Accused Deck: ${view.deck.count}${view.deck.stacks.length > 1 ? " (stacks " + view.deck.stacks.join(" + ") + ")" : ""}`),
      CB.el("li", {}, `Set aside: ${view.set_aside.count}`),
      CB.el("li", {}, `Discarded: ${view.discarded.count}`),
      (view.cases || []).map((c) => CB.el("li", {}, `Case: ${c.card} (${c.colour})${c.sentenced ? " — sentenced" : ""}`))));
    // The Judge's buttons: a seat gets its legal actions (a draw included), the Host the same.
    const drawing = message.draw || (message.legal || []).find((a) => a.type === "draw");
    const legal = isSeat ? (message.legal || []) : (drawing ? [drawing] : view.legal_actions || []);
    const mine = isSeat || isHost;
    document.body.dataset.myturn = mine && legal.length && !message.over ? "yes" : "no";
    CB.fill("actions", mine ? (legal.length ? legal.map((a) => CB.el("button", {class: "big action" + (a.type === "draw" ? " bag" : ""),
      "data-type": a.type, onclick: () => act(a)}, label(a))) : [CB.el("p", {class: "muted"}, message.over ? "The trial is over." : "…")])
      : [CB.el("p", {class: "muted"}, message.play === "demo" ? "The demo judges by itself." : "The Judge decides on their phone.")]);
    const logLine = (e) => [String(e.event || "").replaceAll("_", " "),
      ...Object.entries(e).filter(([k]) => k !== "event").map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`)].join(" · ");
    CB.fill("log", (view.log || []).slice(-25).reverse().map((e) => CB.el("li", {}, logLine(e))));
  }

  const start = document.getElementById("start");
  if (start) start.addEventListener("click", async () => {
    CB.showError(null);
    const current = CB.lastMessage || {};
    const body = {game: "tribunal", options: {}, play: "phones"};
    if (current.game_id && !current.over && current.play !== "demo") {
      if (!await CB.confirm(`Abandon game ${current.game_id} and start a new trial?`)) return;
      body.abandon = current.game_id;
    }
    try { render(CB.take(await CB.post("/api/host/game", body))); } catch (error) { CB.showError(error); }
  });
  const initial = CB.data("initial");
  render(initial);
  CB.live(isSeat ? "/api/stream?viewer=seat" : isHost ? "/api/stream?viewer=host" : "/api/stream?viewer=public", render);
})();
