/* Drawing and wording for Raise Your Goblets (and a plain fallback for other games).
   Ring colours are also NAMED and PATTERNED, so colour-blind players can tell the goblets apart. */
"use strict";
const Goblets = (() => {
  // The Houses' names, ring colours and patterns: the server's one table (core/games/goblets/
  // houses.py, embedded in every page by base.html), so the page holds no copy of it.
  const HOUSES = Object.fromEntries(JSON.parse(document.getElementById("houses").textContent)
    .map((h) => [h.id, {name: h.name, colour: h.colour, colourName: h.colour_name, pattern: h.pattern}]));
  const house = (id) => HOUSES[id] || {name: String(id), colour: "#777", colourName: "grey", pattern: "none"};
  const seatName = (s) => CB.label(s);
  const placeName = (view, p) => {
    const place = view.places && view.places[p];
    return place ? house(place.house).name + "'s place" : "Goblet " + (Number(p) + 1);
  };

  function patterns() {
    const defs = CB.svg("defs");
    const add = (id, ...shapes) => defs.append(CB.svg("pattern", {id: "pat-" + id, width: 8, height: 8, patternUnits: "userSpaceOnUse"}, ...shapes));
    const line = (d) => CB.svg("path", {d, stroke: "#fff", "stroke-width": 1.6, fill: "none", opacity: 0.85});
    add("stripes", line("M0 8 L8 0"));
    add("dots", CB.svg("circle", {cx: 4, cy: 4, r: 1.6, fill: "#fff", opacity: 0.85}));
    add("cross", line("M0 0 L8 8 M8 0 L0 8"));
    add("zigzag", line("M0 6 L2 2 L4 6 L6 2 L8 6"));
    add("waves", line("M0 4 Q2 1 4 4 T8 4"));
    add("grid", line("M4 0 V8 M0 4 H8"));
    return defs;
  }

  function ring(cx, cy, r, houseId) {
    const h = house(houseId);
    const g = CB.svg("g", {class: "ring"});
    g.append(CB.svg("circle", {cx, cy, r, fill: h.colour}));
    if (h.pattern !== "none") g.append(CB.svg("circle", {cx, cy, r, fill: `url(#pat-${h.pattern})`}));
    g.append(CB.svg("circle", {cx, cy, r: r * 0.62, fill: "#f5efe2", stroke: "#333", "stroke-width": 1.5}));
    return g;
  }

  const W = 660, H = 540;  // the drawing's own units: about one unit a pixel on the tablet
  const PHONE_W = 340;     // a phone's drawing: about one unit a pixel on a 390 px phone
  const READER_SHAPES = {  // colour never alone: each reader state has its own shape too
    online: (x, y) => CB.svg("circle", {cx: x, cy: y, r: 9}),
    virtual: (x, y) => CB.svg("circle", {cx: x, cy: y, r: 9}),
    offline: (x, y) => CB.svg("path", {d: `M${x} ${y - 11} L${x + 11} ${y + 9} L${x - 11} ${y + 9} Z`}),
    broken: (x, y) => CB.svg("path", {d: `M${x - 9} ${y - 9} L${x + 9} ${y + 9} M${x + 9} ${y - 9} L${x - 9} ${y + 9}`, "stroke-width": 5}),
  };

  /* The drawn table: one place per House around an oval table, the goblet standing there with its
     Coaster ring (colour, pattern and, on the place's card, its name), whose turn (a card drawn
     thick and dashed with "TO ACT" on it: never by colour alone), and each seat's reader health.
     ``options.phone``: drawn for a phone's narrow screen (phoneLayout), its words as large. */
  function draw(container, message, options = {}) {
    if (!container) return;
    const view = message.view || {};
    const phone = Boolean(options.phone);
    if (view.variant === "russian_goblette") { container.replaceChildren(row(message, phone)); return; }
    if (!view.places) { container.replaceChildren(fallback(message)); return; }
    const cx = W / 2, cy = H / 2, n = view.places.length;
    const svg = CB.svg("svg", {viewBox: `0 0 ${W} ${H}`, role: "img", class: "table-svg" + (phone ? " phone-svg" : ""),
      "aria-label": "The table: seats, Houses and the coaster ring at each place"});
    svg.append(patterns());
    const tableTop = CB.svg("ellipse", {cx, cy, rx: 180, ry: 170, class: "table-top"});
    svg.append(tableTop);
    const mover = view.step ? view.step.place : null;
    const readers = message.readers || {};
    const move = lastMove(message);
    const cards = [];
    view.places.forEach((place, i) => {
      const angle = -Math.PI / 2 + (2 * Math.PI * i) / n;
      const gx = cx + Math.cos(angle) * 75, gy = cy + Math.sin(angle) * 90;
      const sx = cx + Math.cos(angle) * 250, sy = cy + Math.sin(angle) * 205;
      const h = house(place.house);
      const mine = options.mine === i, moving = i === mover;
      const g = CB.svg("g", {class: "place" + (moving ? " moving" : "") + (mine ? " mine" : ""), "data-place": i});
      // The Goblet's spot, moved as a whole by the layout (its ring's pulse is its own transform).
      const spot = CB.svg("g", {class: "spot", transform: `translate(${gx} ${gy})`});
      if (place.ring) {
        const moved = move && move.places.includes(i);
        const goblet = ring(0, 0, phone ? 15 : 26, place.ring);
        if (moved) goblet.classList.add("moved-" + move.kind);
        if (moved && move.fresh) goblet.classList.add("just-moved");
        spot.append(goblet);
      } else {
        spot.append(CB.svg("circle", {cx: 0, cy: 0, r: phone ? 11 : 18, class: "no-goblet"}));
      }
      if (options.contents && place.ring && options.contents[place.ring]) {
        spot.append(CB.svg("text", {x: 0, y: 46, "text-anchor": "middle", class: "contents-label",
          text: contents(options.contents[place.ring])}));
      }
      const names = place.seats.map((s) => (CB.players[s] || {}).name || "").filter((x) => x).join(" + ");
      const lines = [];
      if (moving) lines.push(["to-act", "▶ TO ACT"]);
      lines.push(["seat-label", h.name]);
      if (mine || names) lines.push(["seat-sub", mine ? `YOU${names ? " · " + names : ""}` : names]);
      if (place.ring) lines.push(["ring-label", `${house(place.ring).colourName} ${house(place.ring).pattern}`]);
      const card = CB.svg("g", {class: "seat-card"});
      if (!phone) g.append(spot);
      const box = CB.svg("rect", {rx: 12, class: "card-box", stroke: h.colour});
      card.append(box);
      const texts = lines.map(([cls, text]) => CB.svg("text", {"text-anchor": "middle", class: cls, text}));
      card.append(...texts);
      const status = place.seats.map((s) => readers[String(s)]).find((x) => x) || null;
      let dot = null;
      if (status) {
        dot = CB.svg("g", {class: "reader reader-" + status},
          (READER_SHAPES[status] || READER_SHAPES.offline)(0, 0), CB.svg("title", {text: `reader ${status}`}));
        card.append(dot);
      }
      g.append(card);
      if (phone) g.append(spot);  // on the phone the Goblet stands on its card
      g.append(CB.svg("title", {text: `${h.name} (${h.colourName}) — goblet with ${place.ring ? house(place.ring).name + "'s ring" : "no ring"}${moving ? " — to act" : ""}`}));
      svg.append(g);
      cards.push({angle, sx, sy, box, texts, dot, spot});
    });
    const notes = [];
    if (move) {
      // The last move by a shape at the table's centre (the tablet's) and in words in the
      // drawing's free top-left corner: not by motion alone.
      if (!phone) {
        svg.append(CB.svg("text", {x: cx, y: cy + 14, "text-anchor": "middle", class: "last-move-mark",
          "aria-hidden": "true", text: move.mark}));
      }
      notes.push(CB.svg("text", {x: 8, y: 22, "text-anchor": "start", class: "last-move-head",
        text: "Last move"}));
      notes.push(CB.svg("text", {x: 8, y: 50, "text-anchor": "start", class: "last-move",
        "data-kind": move.kind, text: move.words}));
      svg.append(...notes);
    }
    container.replaceChildren(svg);
    if (phone) phoneLayout(svg, tableTop, cards, notes);
    else {
      for (const c of cards) layoutCard(c);
      keepToTheCorner(notes, cards);
    }
    if (options.legend) legend(options.legend, view);
  }

  /* The last move's words keep to the tablet drawing's top-left corner: where a wide card at the
     top reaches into the corner, the words wrap onto more lines, each as wide as the corner is. */
  function keepToTheCorner(notes, cards) {
    const words = notes.find((t) => t.classList.contains("last-move"));
    if (!words) return;
    const x0 = Number(words.getAttribute("x")), y0 = Number(words.getAttribute("y"));
    const size = parseFloat(getComputedStyle(words).fontSize) || 22;
    const bottom = y0 + 3 * size * 1.2;  // the corner: up to three lines
    let room = W - x0;  // up to the nearest card beside the corner's lines
    for (const {box} of cards) {
      const x = Number(box.getAttribute("x")), y = Number(box.getAttribute("y"));
      if (x > x0 && y < bottom && y + Number(box.getAttribute("height")) > y0 - size) room = Math.min(room, x - x0 - 10);
    }
    if (words.getComputedTextLength() <= room) return;
    // Each line keeps its trailing space: the text still reads as the words (a screen reader,
    // textContent) whatever the wrapping.
    const lines = [];
    for (const part of words.textContent.split(" ")) {
      const last = lines.length - 1;
      words.textContent = last < 0 ? part : `${lines[last]} ${part}`;
      if (last < 0 || words.getComputedTextLength() > room) lines.push(part);
      else lines[last] = words.textContent;
    }
    words.replaceChildren(...lines.map((text, i) => CB.svg("tspan",
      {x: x0, dy: i ? `${size * 1.15}` : "0", text: i < lines.length - 1 ? text + " " : text})));
  }

  /* The last rotate or swap, if it is the table's newest event: its kind, the places whose
     Goblets moved (every place for a rotate) and its words. Drawn until the next event, its
     Goblets animated once when the drawing first shows it (the CSS's just-moved). */
  let animated = null;  // the last move already animated (the drawing is redrawn per message)
  function lastMove(message) {
    const view = message.view || {};
    const events = message.events || [];
    const e = events.length ? events[events.length - 1] : null;
    if (!e || !view.places) return null;
    let move = null;
    if (e.event === "rotate") {
      const arrow = e.direction === "widdershins" ? "↺" : "↻";
      move = {kind: "rotate", places: view.places.map((_, i) => i), mark: arrow,
        words: `${arrow} rotated ${e.direction || ""}`.trim()};
    } else if (e.event === "swap" && Array.isArray(e.places)) {
      move = {kind: "swap", places: e.places, mark: "⇄", words: "⇄ swapped"};
    }
    if (!move) return null;
    const key = `${message.game_id}:${e.seq}`;
    move.fresh = key !== animated;
    animated = key;
    return move;
  }

  /* Size a place's card to its words and keep it wholly inside the drawing (names never clipped). */
  function layoutCard({sx, sy, box, texts, dot}) {
    const sizes = texts.map((t) => parseFloat(getComputedStyle(t).fontSize) || 20);
    const widths = texts.map((t) => { try { return t.getComputedTextLength(); } catch (e) { return 120; } });
    const width = Math.max(...widths) + 28, height = sizes.reduce((a, b) => a + b * 1.18, 0) + 14;
    const x = Math.min(Math.max(sx - width / 2, 6), W - width - 6);  // 6: half the thickest stroke
    const y = Math.min(Math.max(sy - height / 2, 6), H - height - 6);
    box.setAttribute("x", x); box.setAttribute("y", y);
    box.setAttribute("width", width); box.setAttribute("height", height);
    let baseline = y + 7;
    texts.forEach((t, i) => {
      baseline += sizes[i] * 1.18;
      t.setAttribute("x", x + width / 2); t.setAttribute("y", baseline - sizes[i] * 0.25);
    });
    if (dot) dot.setAttribute("transform", `translate(${x + width - 4} ${y + 4})`);
  }

  /* A phone's drawing, PHONE_W units wide and as tall as it needs: each place's card holds its
     Goblet on the side facing the table, in a left, a right or a middle column by the place's
     angle around the table, the cards from the top of the table to its bottom in that order,
     each below every earlier card it would overlap (so none ever does, however long its
     words); the last move's words in a band above. */
  function phoneLayout(svg, tableTop, cards, notes) {
    const R = 15, PAD = 9, GAP = 12, EDGE = 6;
    const band = notes.length ? 60 : 0;
    notes.forEach((t, i) => { t.setAttribute("x", EDGE); t.setAttribute("y", 22 + i * 26); });
    for (const c of cards) {
      c.sizes = c.texts.map((t) => parseFloat(getComputedStyle(t).fontSize) || 17);
      const text = Math.max(...c.texts.map((t) => { try { return t.getComputedTextLength(); } catch (e) { return 120; } }));
      c.w = Math.min(text + 2 * R + 3 * PAD, PHONE_W - 2 * EDGE);
      c.h = Math.max(c.sizes.reduce((a, b) => a + b * 1.18, 0) + 12, 2 * R + 2 * PAD);
      const cos = Math.cos(c.angle);
      c.side = Math.abs(cos) < 0.35 ? 0 : Math.sign(cos);
      c.x = c.side < 0 ? EDGE : c.side > 0 ? PHONE_W - EDGE - c.w : (PHONE_W - c.w) / 2;
    }
    const height = (c) => Math.round(Math.sin(c.angle) * 1000);  // level places level; the right first
    const order = cards.slice().sort((a, b) => height(a) - height(b) || b.side - a.side);
    const placed = [];
    for (const c of order) {
      c.y = band + EDGE;
      for (const p of placed) {
        if (c.x < p.x + p.w + GAP && p.x < c.x + c.w + GAP) c.y = Math.max(c.y, p.y + p.h + GAP);
      }
      placed.push(c);
    }
    for (const c of cards) {
      c.box.setAttribute("x", c.x); c.box.setAttribute("y", c.y);
      c.box.setAttribute("width", c.w); c.box.setAttribute("height", c.h);
      const inward = c.side < 0;  // a left card's Goblet at its right, towards the table
      c.spot.setAttribute("transform", `translate(${inward ? c.x + c.w - PAD - R : c.x + PAD + R} ${c.y + c.h / 2})`);
      const middle = inward ? c.x + (c.w - 2 * R - PAD) / 2 : c.x + 2 * R + PAD + (c.w - 2 * R - PAD) / 2;
      let baseline = c.y + 6;
      c.texts.forEach((t, i) => {
        baseline += c.sizes[i] * 1.18;
        t.setAttribute("x", middle); t.setAttribute("y", baseline - c.sizes[i] * 0.25);
      });
      if (c.dot) c.dot.setAttribute("transform", `translate(${c.x + c.w - 4} ${c.y + 4})`);
    }
    const bottom = Math.max(...cards.map((c) => c.y + c.h)) + EDGE;
    const middleY = (band + bottom) / 2;
    tableTop.setAttribute("cx", PHONE_W / 2); tableTop.setAttribute("cy", middleY);
    tableTop.setAttribute("rx", PHONE_W / 2 - 50); tableTop.setAttribute("ry", Math.max((bottom - band) / 2 - 30, 30));
    svg.setAttribute("viewBox", `0 0 ${PHONE_W} ${bottom}`);
  }

  function legend(node, view) {
    node.replaceChildren(...(view.places || []).map((place) => {
      const h = house(place.house), r = place.ring ? house(place.ring) : null;
      return CB.el("li", {}, CB.el("span", {class: "swatch sw-" + (place.house || "x")}),
        `${h.name} (${h.colourName}, ${h.pattern}) — ${place.seats.map(seatName).join(" & ")}` +
        (r ? ` · goblet ring here: ${r.name} (${r.colourName})` : "") +
        (place.target ? ` · Target: ${house(place.target).name}` : ""));
    }));
  }

  /* Russian Goblette: six Goblets in a row, no rings, no places ("no player has Their Goblet");
     on a phone in rows of three, who drank each on its own line under it. */
  function row(message, phone = false) {
    const view = message.view || {};
    const goblets = view.goblets || [];
    const across = phone ? 3 : Math.max(goblets.length, 1), rows = Math.ceil(goblets.length / across) || 1;
    const width = phone ? PHONE_W : 460, step = width / across, tall = phone ? 150 : 110;
    const svg = CB.svg("svg", {viewBox: `0 0 ${width} ${tall * rows + 40}`, role: "img",
      class: "table-svg row-svg" + (phone ? " phone-svg" : ""), "aria-label": "Six Goblets in a row"});
    svg.append(CB.svg("rect", {x: 0, y: 20, width, height: tall * rows, rx: 16, fill: "#5b3a1e"}));
    goblets.forEach((g, i) => {
      const x = step * (i % across + 0.5), y = 62 + tall * Math.floor(i / across);
      const drunk = g.drunk_by !== null && g.drunk_by !== undefined;
      const node = CB.svg("g", {class: "goblet" + (drunk ? " drunk" : ""), "data-goblet": i});
      node.append(CB.svg("circle", {cx: x, cy: y, r: 24, fill: drunk ? (g.poisoned ? "#b00020" : "#2e7d32") : "#f5efe2", stroke: "#333", "stroke-width": 2}));
      node.append(CB.svg("text", {x, y: y + 7, "text-anchor": "middle", class: "seat-label", text: String(i + 1)}));
      const verdict = drunk ? (g.poisoned ? "☠ poisoned" : "✓ survived") : "";
      const who = drunk ? (phone ? (CB.players[g.drunk_by] || {}).name || seatName(g.drunk_by) : seatName(g.drunk_by)) : "";
      const lines = phone ? [who, verdict] : [drunk ? `${who} · ${verdict}` : ""];
      lines.forEach((text, k) => node.append(CB.svg("text", {x, y: y + 50 + k * 22, "text-anchor": "middle",
        class: "contents-label", text})));
      svg.append(node);
    });
    return svg;
  }

  function fallback(message) {
    return CB.el("pre", {class: "json"}, JSON.stringify(message.view || {}, null, 1));
  }

  function turn(message) {
    if (!message.game) return "No game yet: the Host starts one.";
    const view = message.view || {};
    if (message.over) return "Game over" + winners(message);
    if (message.to_move === "chance") {
      return view.phase === "initial_pour" && message.sensed ? "The hands pour the initial tokens…" : "Dealing…";
    }
    const step = view.step;
    const what = step && step.kind ? ` (${step.kind.replaceAll("_", " ")}, ${step.taken || 0}/${step.limit || "-"})` : "";
    const stage = view.stage ? ` · ${String(view.stage).replaceAll("_", " ")}` : "";
    return `${seatName(message.to_move)} to act${what}${stage}`;
  }

  const STEP_WORDS = {
    turn: (s) => `their turn, action ${(s.taken || 0) + 1} of ${s.limit}`,
    final: (s) => `their last action after the Toast, ${(s.taken || 0) + 1} of ${s.limit}`,
    reveal: () => "to reveal every Goblet",
    toast_option: () => "may call the Toast first",
    ability: () => "may use their Character's ability",
  };

  /* Which Course it is, in words ("Course 1 of 3", "Game over"). */
  function course(message) {
    const view = message.view || {};
    if (!view.places) return "";
    return view.phase === "over" ? "Game over" : `Course ${view.course || "-"} of ${view.courses || 3}`;
  }

  /* The tablet's headline in words: "Anna (De Miceti) — their turn, action 1 of 2". */
  function headline(message) {
    const view = message.view || {};
    const step = view.step;
    if (!message.game || message.over || message.to_move === "chance" || !step) return turn(message);
    const p = CB.players[Number(message.to_move)] || {};
    const who = p.name ? `${p.name} (${p.seat_name})` : (p.seat_name || seatName(message.to_move));
    const words = STEP_WORDS[step.kind] ? STEP_WORDS[step.kind](step) : String(step.kind).replaceAll("_", " ");
    const toast = view.stage === "toast" || view.stage === "before_drinking" ? "The Toast is called! " : "";
    return `${toast}${who} — ${words}`;
  }

  function winners(message) {
    const view = message.view || {}, outcome = message.outcome || {};
    const list = view.winners || outcome.winners;
    return list && list.length ? ": " + list.map(seatName).join(", ") + " won" : "";
  }

  function actionLabel(action, view) {
    const a = Object.assign({}, action);
    switch (a.type) {
      case "pour": return `Pour ${a.token} into ${a.place !== undefined ? placeName(view, a.place) : "cup " + (a.cup + 1)}`;
      case "rotate": return a.direction ? `Rotate ${a.direction}` : "Rotate";
      case "swap": return Array.isArray(a.places) ? `Swap Goblets ${a.places[0] + 1} and ${a.places[1] + 1}` : `Swap with ${placeName(view, a.with)}`;
      case "drink": return `Drink Goblet ${a.place + 1}`;
      case "peek": return a.place !== undefined && !view.places ? `Peek into Goblet ${a.place + 1}` : "Peek into your goblet";
      case "toast": return "Call the Toast!";
      case "reveal": return "Reveal every Goblet";
      case "defer": return "Let your Winetaster act first";
      case "shootout_choose": return `Choose the Goblet of ${house(a.goblet).name}`;
      case "pass": return "Pass";
      default: {
        const rest = Object.entries(a).filter(([k]) => k !== "type" && k !== "seat")
          .map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
        return `${String(a.type).replaceAll("_", " ")}${rest ? " (" + rest + ")" : ""}`;
      }
    }
  }

  function eventText(event, view) {
    const e = event;
    switch (e.event) {
      case "pour": return (e.seat !== undefined ? seatName(e.seat) + " poured" : "A token was poured") + ` into the goblet at ${placeName(view, e.place)}`;
      case "poured": return `You poured ${e.token} into the goblet at ${placeName(view, e.place)}`;
      case "rotate": return `${seatName(e.seat)} rotated the goblets ${e.direction || ""}`;
      case "swap": return `${seatName(e.seat)} swapped goblets (${(e.places || []).map((p) => placeName(view, p)).join(" ⇄ ")})`;
      case "peek": return `${seatName(e.seat)} peeked`;
      case "peeked": return `You peeked: ${Object.entries(e.contents || {}).map(([k, v]) => v + " " + k).join(", ") || "empty"}`;
      case "toast_called": return `${seatName(e.seat)} called the Toast!`;
      case "revealed": return `Course ${e.course}: the reveal`;
      case "scored": return Array.isArray(e.vp) ? `Scored: ${e.vp.join(" / ")} VP` : `You scored ${e.vp} VP`;
      case "game_over": return "Game over";
      case "rule_warning": return `Rule warning: ${e.message}`;
      default: return String(e.event || "event").replaceAll("_", " ") + (e.seat !== undefined ? " · " + seatName(e.seat) : "");
    }
  }

  function feed(node, message) {
    if (!node) return;
    const view = message.view || {};
    const events = (message.events || []).slice().reverse();
    node.replaceChildren(...events.map((e) => CB.el("li", {class: "ev-" + e.event}, eventText(e, view))));
    if (!events.length && view.log) {
      node.replaceChildren(...view.log.slice(-30).reverse().map((e) => CB.el("li", {}, eventText(e, view))));
    }
  }

  function contents(c) {
    const parts = Object.entries(c || {}).filter(([, v]) => v).map(([k, v]) => `${v} ${k.replaceAll("_", " ")}`);
    return parts.length ? parts.join(", ") : "empty";
  }

  return {HOUSES, house, seatName, placeName, draw, legend, turn, headline, course, actionLabel, eventText, feed, contents};
})();
