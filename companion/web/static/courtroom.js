/* The courtroom (The Gods Will Have Blood): the bag of cubes on the tablet and the Judge's phone.

   "After choosing a verdict, you will draw two cubes (one at a time) from the judgment pool": the
   Judge taps the drawn bag for each cube and the cube comes out of it in its real colour. The
   cube is chance drawn by the server at the tap and journaled; this page draws what the view
   says and decides nothing (whether a second cube is due is the server's "draw" action, the
   odds are the view's, shown only before the draw). The vine is drawn with its spaces labelled,
   the blue cube on W while it waits there, the losing bottom space marked; the sentence is the
   card's printed lines; the log is the view's sentences. */
"use strict";
(() => {
  const court = document.getElementById("court");
  const isHost = court.dataset.host === "yes";
  const isSeat = court.dataset.seat === "yes";
  const actUrl = isSeat ? "/api/seat/act" : "/api/host/act";
  const VERDICT = {guilty: "Guilty", not_guilty: "Not Guilty"};
  const ORDINAL = ["first", "second"];
  let shownDraw = {key: null, game: null, hearing: null, cubes: 0};

  const pct = (p) => (100 * p).toFixed(1) + "%";
  const cube = (colour, attrs = {}) => CB.el("span", {class: `cube cube-${colour}`, role: "img", "aria-label": `${colour} cube`, ...attrs});

  async function act(action) {
    const body = isSeat ? {action} : {action, mode: "enforcing"};
    if (CB.act) return CB.act(actUrl, body, render, {once: isSeat});
    CB.showError(null);
    try { render(CB.take(await CB.post(actUrl, body))); } catch (error) { CB.showError(error); }
    return undefined;
  }

  const button = (action, text, extra = {}) => CB.el("button", {class: "big action" + (extra.cls ? " " + extra.cls : ""),
    "data-type": action.type, "aria-label": extra.label, onclick: () => act(action)}, text);

  /* The bag, drawn: a sack tied at the neck. ``tap``: the Judge's draw (a button). */
  function bag(view, tap) {
    const pool = view.pool;
    const next = (view.drawn || []).length;
    const sack = CB.svg("svg", {viewBox: "0 0 120 130", class: "sack", "aria-hidden": "true"},
      CB.svg("path", {class: "sack-body", d: "M38 30 C8 52 4 120 60 124 C116 120 112 52 82 30 Z"}),
      CB.svg("path", {class: "sack-neck", d: "M40 30 L30 12 Q60 2 90 12 L80 30 Z"}),
      CB.svg("rect", {class: "sack-tie", x: 34, y: 27, width: 52, height: 8, rx: 4}));
    const words = `${pool.red + pool.white + pool.blue} cubes in the bag`;
    if (!tap) return CB.el("div", {class: "bag", id: "bag"}, sack, CB.el("span", {class: "bag-words"}, words));
    return CB.el("button", {class: "big action bag", id: "bag", "data-type": "draw", onclick: () => act(tap)},
      sack, CB.el("span", {class: "bag-words"}, `Tap the bag: draw the ${ORDINAL[next] || "next"} cube`));
  }

  /* The cubes drawn for this judgment, in order; the one just drawn comes out of the bag. Redrawn
     only when the cubes change: the tap's reply and the stream's snapshot of one draw would
     otherwise restart (or cut short) the cube's way out of the bag. */
  function tray(view, message) {
    const drawn = view.drawn || [];
    const key = `${message.game_id}/${view.hearing}/${drawn.join(",")}`;
    if (key === shownDraw.key) return;
    const same = shownDraw.game === message.game_id && shownDraw.hearing === view.hearing;
    const seen = same ? shownDraw.cubes : 0;
    shownDraw = {key, game: message.game_id, hearing: view.hearing, cubes: drawn.length};
    CB.fill("drawn", drawn.map((colour, i) =>
      CB.el("li", {class: "drawn" + (i >= seen ? " fresh" : ""), "data-colour": colour},
        cube(colour, {class: `cube big-cube cube-${colour}`}),
        CB.el("span", {class: "cube-word"}, `${ORDINAL[i] || ""} cube: ${colour}`))));
  }

  function poolRow(view) {
    const pool = view.pool;
    return CB.el("div", {class: "pool-row"},
      CB.el("p", {class: "pool"}, `${pool.red} red · ${pool.white} white · ${pool.blue} blue`),
      CB.el("div", {class: "cubes"}, [...Array(pool.red)].map(() => cube("red")),
        [...Array(pool.white)].map(() => cube("white")), pool.blue ? cube("blue") : null));
  }

  /* The odds as the view gives them: both verdicts before the draw, the next cube between. */
  function odds(view) {
    const o = view.odds || {};
    const lines = [];
    if (o.guilty) {
      for (const v of ["guilty", "not_guilty"]) {
        lines.push(CB.el("p", {class: "odds-line", "data-verdict": v}, `${VERDICT[v]} passes: `,
          CB.el("strong", {}, pct(o[v].p_pass)), ` (${o[v].exact})`));
      }
    }
    if (o.second_cube_matches) {
      lines.push(CB.el("p", {class: "odds-line", "data-next": "yes"}, `The next cube matches ${VERDICT[view.verdict]}: `,
        CB.el("strong", {}, pct(o.second_cube_matches.p)), ` (${o.second_cube_matches.exact})`));
    }
    return lines;
  }

  /* The vine, top space first: each space numbered and labelled, the markers and the blue cube
     on it, the bottom space marked as the loss it is. */
  function vine(view) {
    const v = view.vine;
    const rows = (view.spaces || []).map((s) => CB.el("li", {class: "space" + (s.bottom ? " bottom" : "") + (s.label ? " labelled" : ""),
      "data-index": s.index, "data-label": s.label || (s.bottom ? "bottom" : "")},
      CB.el("span", {class: "space-no"}, String(s.number)),
      CB.el("span", {class: "space-label"}, s.bottom ? "✖" : s.label === "*" ? "★" : s.label || "·"),
      s.meaning ? CB.el("span", {class: "space-meaning"}, s.meaning) : null,
      CB.el("span", {class: "space-things"},
        s.index === v.legitimacy ? CB.el("span", {class: "marker legitimacy"}, "■ Legitimacy") : null,
        s.index === v.reputation ? CB.el("span", {class: "marker reputation"}, "● Reputation") : null,
        view.blue_cube === "W" && s.label === "W" ? CB.el("span", {class: "on-vine"}, cube("blue", {id: "vine-blue"}), "blue cube") : null)));
    return CB.el("ol", {class: "vine"}, rows.reverse());
  }

  const line = (view, e) => (view.effect_lines || {})[`${e.effect} ${e.n}`] || `${e.effect} ${e.n}`;

  /* The case(s) heard, and once judged, the sentence as the card prints it. */
  function cases(view) {
    const out = [];
    for (const c of view.cases || []) {
      const state = c.sentenced ? "sentence done" : c.card === view.sentence.card ? "being sentenced" : "";
      out.push(CB.el("p", {class: "case-title", "data-card": c.card}, CB.el("strong", {}, c.title.charAt(0).toUpperCase() + c.title.slice(1)), state ? ` — ${state}` : ""));
    }
    if (view.judgment) {
      const icon = view.judgment === "guilty" ? "under the guillotine" : "under the not-guilty icon";
      out.push(CB.el("p", {class: "judgment"}, `Judgment: ${VERDICT[view.judgment]} — `,
        view.judgment === view.verdict ? "your verdict passes." : "the drawn verdict stands."));
      if (view.phase === "sentence") {
        out.push(CB.el("p", {class: "sentence-head"}, `Turn the card over: the effects ${icon}, in order.`));
        const done = view.sentence.done || [];
        const pending = view.pending.effects;
        const printed = CB.el("ol", {class: "printed", id: "printed"},
          done.map((e) => CB.el("li", {class: "done"}, "✓ ", line(view, e))),
          (pending || []).map((e, i) => CB.el("li", {class: i === 0 ? "next" : "later"}, i === 0 ? "▶ " : "", line(view, e))));
        if (done.length || (pending && pending.length)) out.push(printed);
        if (view.lost_pending_confirmation) out.push(CB.el("p", {class: "doom"}, `✖ Lost: ${view.lost_pending_confirmation}.`));
      }
    }
    return out;
  }

  /* The Judge's buttons, as the card and the rulebook word them. */
  function actions(view, legal) {
    const out = [];
    const effects = legal.filter((a) => a.type === "effect");
    for (const a of legal) {
      if (a.type === "draw") out.push(bag(view, a));
      else if (a.type === "hear") out.push(button(a, view.hearing ? "Hear the next case" : "Hear the first case"));
      else if (a.type === "verdict") out.push(button(a, VERDICT[a.verdict], {cls: "verdict-" + a.verdict}));
      else if (a.type === "sentence") {
        const c = (view.cases || []).find((x) => x.card === a.card);
        out.push(button(a, `Sentence first: ${c ? c.title : a.card}`));
      }
    }
    if (view.stored_deck && effects.length) {
      out.push(button(effects[0], `Carry out: ${line(view, effects[0])}`));
    } else if (effects.length) {
      // Anonymous cards: the player reads the card turned over and taps its lines one by one.
      out.push(CB.el("p", {class: "tap-hint"}, "Tap each line printed on the card, in order:"));
      const kinds = view.effect_kinds || {};
      for (const kind of [...new Set(effects.map((a) => a.effect))]) {  // the rulebook's order
        const mine = effects.filter((a) => a.effect === kind);
        out.push(CB.el("div", {class: "effect-row", "data-effect": kind}, ...(mine.length === 1
          ? [button(mine[0], line(view, mine[0]))]
          : [CB.el("span", {class: "effect-kind"}, kinds[kind] || kind),
            ...mine.map((a) => button(a, String(a.n), {label: line(view, a), cls: "amount"}))])));
      }
    }
    const naming = legal.filter((a) => a.type === "name_card");
    if (naming.length) out.push(nameCard(naming));
    for (const a of legal) {
      if (a.type === "end_sentence") out.push(button(a, view.lost_pending_confirmation ? "End the game (lost)" : "The sentence is done"));
      if (a.type === "undo") {
        const done = view.sentence.done || [];
        out.push(button(a, done.length ? `Undo: ${line(view, done[done.length - 1])}` : "Undo", {cls: "undo"}));
      }
    }
    return out;
  }

  /* A stored deck: the physical card turned up is another one (picked by name). */
  function nameCard(naming) {
    const select = CB.el("select", {id: "name-card", "aria-label": "The card turned up"},
      naming.map((a, i) => CB.el("option", {value: String(i)}, `${naming.length > 1 && a.case ? "Case 2: " : ""}${a.card}`)));
    return CB.el("div", {class: "effect-row"}, CB.el("span", {class: "effect-kind"}, "The card turned up is"), select,
      CB.el("button", {class: "action", "data-type": "name_card", onclick: () => act(naming[Number(select.value)])}, "That card"));
  }

  function headline(view) {
    if (view.result) return view.result.won ? "Won: the Republic is saved." : `Lost: ${view.result.reason || "the court has fallen"}.`;
    const n = view.hearing;
    const drawn = (view.drawn || []).length;
    switch (view.phase) {
      case "shuffle": return "Shuffling the Accused Deck…";
      case "hear": return n ? `Hearing ${n} is over: hear the next case` : "Hear the first case";
      case "verdict": return `Hearing ${n}: read the charges and choose your verdict`;
      case "draw": return `Hearing ${n}: ${VERDICT[view.verdict]} — draw the ${ORDINAL[drawn] || "next"} cube from the bag`;
      case "choose": return `Hearing ${n}: ${VERDICT[view.judgment]} — choose which sentence to carry out first`;
      case "sentence": return `Hearing ${n}: ${VERDICT[view.judgment]} — carry out the sentence`;
      default: return `Hearing ${n}`;
    }
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
    document.body.dataset.phase = view.phase;
    CB.fill("court-status", headline(view));
    CB.fill("case", cases(view));
    // The Judge's buttons: a seat gets its legal actions (a draw included), the Host the same.
    const drawing = message.draw || (message.legal || []).find((a) => a.type === "draw");
    const legal = isSeat ? (message.legal || []) : (drawing ? [drawing] : isHost ? view.legal_actions || [] : []);
    const mine = isSeat || isHost;
    const tapping = mine && legal.some((a) => a.type === "draw");
    document.body.dataset.myturn = mine && legal.length && !message.over ? "yes" : "no";
    CB.fill("actions", mine ? (legal.length ? actions(view, legal) : [CB.el("p", {class: "muted"}, message.over ? "The trial is over." : "…")])
      : [CB.el("p", {class: "muted"}, message.play === "demo" ? "The demo judges by itself." : "The Judge decides on their phone.")]);
    // Everyone sees the cubes come out of the bag; the Judge's bag is the button in the actions.
    CB.fill("bag-spot", tapping ? null : bag(view, null));
    tray(view, message);
    CB.fill("pool", poolRow(view));
    CB.fill("odds", odds(view));
    CB.fill("vine", vine(view));
    CB.fill("box", CB.el("p", {}, `Momentum Box: ${view.momentum_box} of ${view.momentum_box_size} red cubes`),
      CB.el("div", {class: "cubes"}, [...Array(view.momentum_box)].map(() => cube("red"))));
    CB.fill("cards", CB.el("ul", {class: "piles"},
      CB.el("li", {}, `Accused Deck: ${view.deck.count} ${view.deck.count === 1 ? "card" : "cards"}${view.deck.stacks.length > 1 ? " (stacks of " + view.deck.stacks.join(" and ") + ")" : ""}`),
      CB.el("li", {}, `Set aside: ${view.set_aside.count} (${view.set_aside.acquitted.length} acquitted)`),
      CB.el("li", {}, `Discarded (condemned): ${view.discarded.count}`)));
    CB.fill("log", (view.log_lines || []).slice(-25).reverse().map((text) => CB.el("li", {}, text)));
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
