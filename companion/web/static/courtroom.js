/* The courtroom (The Gods Will Have Blood): the tablet is the bag of cubes. Shows the pool, the
   exact odds before each draw, the two cubes drawn (animated), the vine, the Momentum Box, the
   deck / set-aside / discarded counts, the effect buttons and the log. Acting needs the Host. */
"use strict";
(() => {
  const isHost = document.getElementById("court").dataset.host === "yes";
  let lastDrawn = 0;

  const pct = (p) => (100 * p).toFixed(1) + "%";
  const cube = (colour, fresh) => CB.el("span", {class: `cube cube-${colour}${fresh ? " drop" : ""}`, title: colour}, colour[0].toUpperCase());

  async function act(action) {
    CB.showError(null);
    try { render(await CB.post("/api/host/act", {action, mode: "enforcing"})); }
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
      odds.second_cube_matches !== undefined ? CB.el("p", {}, `Second cube matches: ${pct(odds.second_cube_matches)}`) : null);
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
    const legal = view.legal_actions || [];
    CB.fill("actions", isHost ? legal.map((a) => CB.el("button", {class: "big action", onclick: () => act(a)}, label(a)))
      : [CB.el("p", {class: "muted"}, "Log in as the Host to judge.")]);
    const logLine = (e) => [String(e.event || "").replaceAll("_", " "),
      ...Object.entries(e).filter(([k]) => k !== "event").map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`)].join(" · ");
    CB.fill("log", (view.log || []).slice(-25).reverse().map((e) => CB.el("li", {}, logLine(e))));
  }

  document.getElementById("start").addEventListener("click", async () => {
    CB.showError(null);
    try { render(await CB.post("/api/host/game", {game: "tribunal", options: {}})); } catch (error) { CB.showError(error); }
  });
  render(CB.data("initial"));
  CB.live(isHost ? "/api/stream?viewer=host" : "/api/stream?viewer=public", render);
})();
