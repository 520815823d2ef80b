/* A Raise Your Goblets replay (replay.js plays it): the drawn table of goblets.js after each step,
   the places the step changed marked with a word and a shape (a pour, a rotate, a swap), what each
   Goblet held ("how the poison travelled", folded from the replay's actions, which the server
   has already redacted), each Toast as a moment to jump to with its Course's verdicts and VP, and
   at the last step the game's end (summary.js). Nothing here rules: the verdicts, the VP and the
   winners are the view's. */
"use strict";
window.ReplayGames = window.ReplayGames || {};
ReplayGames.goblets = (() => {
  const UNSEEN = "unseen";  // a token the replay may not show (the game goes on): counted, not named

  function seats(view) {
    return (view.places || []).flatMap((p) => p.seats).sort((a, b) => a - b);
  }

  /* What the rulebook calls ``seat`` at this step: its House, or the House's Winetaster. */
  function seatName(view, seat) {
    const place = (view.places || []).find((p) => p.seats.includes(seat));
    if (!place) return `Player ${seat + 1}`;
    const house = Goblets.house(place.house).name;
    return place.winetaster === seat ? `${house}'s Winetaster` : house;
  }

  /* What each Goblet (by its Coaster ring) held after every step: the initial pour puts one token
     in each; a pour adds to the Goblet standing at its place; a ring carries its contents along. */
  function prepare(frames) {
    let current = {};
    return frames.map((frame) => {
      const a = frame.action, places = (frame.view && frame.view.places) || [];
      if (a.type === "initial_pour") {
        current = {};
        places.forEach((place, p) => {
          const kind = Array.isArray(a.tokens) ? a.tokens[p] : UNSEEN;
          if (place.ring && kind) current[place.ring] = {[kind]: 1};
        });
      } else if (a.type === "pour" && places[a.place] && places[a.place].ring) {
        const ring = places[a.place].ring, box = Object.assign({}, current[ring] || {});
        const kind = a.token || UNSEEN;
        box[kind] = (box[kind] || 0) + 1;
        current = Object.assign({}, current, {[ring]: box});
      }
      return {held: current};
    });
  }

  const LETTER = {wine: "W", poison: "P", antidote: "A", [UNSEEN]: "?"};
  const TOKEN = {wine: "Wine", poison: "Poison", antidote: "an Antidote", [UNSEEN]: "a token"};

  /* The step in words: who did what, as the table would say it. */
  function describe(frame) {
    const a = frame.action, view = frame.view || {};
    const who = a.seat !== undefined ? CB.label(a.seat) : null;
    switch (a.type) {
      case "initial_pour": return Array.isArray(a.tokens)
        ? `The initial pour: ${a.tokens.map((t, p) => `${t} into ${Goblets.placeName(view, p)}`).join(", ")}`
        : "The initial pour: one token into each Goblet";
      case "pour": return `${who || "Someone"} poured ${TOKEN[a.token || UNSEEN] || a.token} into the Goblet at ${Goblets.placeName(view, a.place)}`;
      case "toast": return `${who} called the Toast!`;
      case "pass": return `${who} passed`;
      case "reveal": return `${who} revealed: the Goblets are turned over`;
      default: {
        const words = (frame.events || []).filter((e) => !["revealed", "scored"].includes(e.event))
          .map((e) => Goblets.eventText(e, view));
        return words.length ? words.join("; ") : Goblets.actionLabel(a, view) + (who ? ` — ${who}` : "");
      }
    }
  }

  /* The places this step changed, each with its word: the Goblet poured into, the rings moved. */
  function changes(frame, prev) {
    const a = frame.action, places = (frame.view || {}).places || [];
    const before = ((prev || {}).view || {}).places || [];
    const out = new Map();
    // Only a move carries a Goblet to another place (a reveal's new Course sets them out anew).
    if (["rotate", "swap", "ability"].includes(a.type)) {
      places.forEach((place, p) => {
        if (before[p] && before[p].ring !== place.ring) out.set(p, a.type === "swap" ? "⇄ swapped" : "↻ moved");
      });
    }
    if (a.type === "pour" && a.place !== undefined) out.set(a.place, "+ poured");
    if (a.type === "peek" && a.place !== undefined) out.set(a.place, "◉ peeked");
    return out;
  }


  /* A Goblet's contents in letters for the drawing ("3W 2P"), where the Goblets stand close;
     the list under the drawing says them in words. */
  function letters(box) {
    const parts = Object.entries(box || {}).filter(([, v]) => v).map(([k, v]) => `${v}${LETTER[k] || k}`);
    return parts.length ? parts.join(" ") : "empty";
  }

  function heldList(view, held) {
    const rows = (view.places || []).filter((p) => p.ring).map((place, p) => {
      const ring = Goblets.house(place.ring);
      return CB.el("li", {"data-place": place.place === undefined ? p : place.place},
        CB.el("strong", {}, `${Goblets.house(place.house).name}'s place`),
        ` (the ${ring.colourName} ${ring.pattern} Goblet): ${Goblets.contents((held || {})[place.ring]).replaceAll(UNSEEN, "unseen")}`);
    });
    return rows.length ? CB.el("ul", {class: "held", "aria-label": "What each Goblet holds"}, rows) : null;
  }

  function draw(node, frame, prev, extra) {
    Goblets.draw(node, {view: frame.view, readers: {}});
    for (const g of node.querySelectorAll(".place")) {
      const place = frame.view.places[Number(g.dataset.place)];
      const spot = g.querySelector(".ring circle");
      if (!place.ring || !spot) continue;
      // Drawn in the Goblet's own spot (goblets.js moves a spot as a whole: its circle is at 0 0).
      (spot.closest(".spot") || g).append(CB.svg("text", {class: "contents-label", x: spot.getAttribute("cx"), y: Number(spot.getAttribute("cy")) + 46,
        "text-anchor": "middle", text: letters((extra.held || {})[place.ring])}));
    }
    const list = heldList(frame.view || {}, extra.held);
    if (list) node.append(CB.el("p", {class: "held-key small"}, "In the drawing: W Wine, P Poison, A Antidote."), list);
    const marks = changes(frame, prev);
    for (const [p, word] of marks) {
      const g = node.querySelector(`.place[data-place="${p}"]`);
      if (!g) continue;
      g.classList.add("changed");
      const spot = g.querySelector(".ring circle, .no-goblet");
      const x = Number(spot.getAttribute("cx")), y = Number(spot.getAttribute("cy"));
      (spot.closest(".spot") || g).append(CB.svg("text", {class: "change-mark", x, y: y - 34, "text-anchor": "middle", text: word}));
    }
    return [...marks].map(([p, word]) => `${word.split(" ").slice(1).join(" ")}: ${Goblets.placeName(frame.view, p)}`);
  }

  function revealed(frame) {
    return (frame.events || []).find((e) => e.event === "revealed") || null;
  }

  /* A moment to jump to: each Toast's reveal. */
  function moment(frame) {
    const e = revealed(frame);
    return e ? `Toast · Course ${e.course}` : null;
  }

  /* A Course's verdicts, Goblet by Goblet, and its VP (hidden VP honoured). */
  function course(view, result) {
    const rows = result.places.map((p) => CB.el("li", {class: "reveal-row " + (p.poisoned ? "poisoned" : "survived"), "data-place": p.place},
      CB.el("span", {class: "shape", "aria-hidden": "true"}, p.poisoned ? "☠" : "✓"),
      CB.el("strong", {}, Goblets.house(p.house).name), ` (${p.seats.map(CB.label).join(" & ")}): ${Goblets.contents(p.contents)} — `,
      CB.el("strong", {class: "verdict"}, p.poisoned ? "POISONED" : "SURVIVED")));
    const vp = result.vp ? CB.el("p", {class: "vp"}, result.places.flatMap((p) => p.seats).map((s) => `${CB.label(s)} +${result.vp[s]} VP`).join(" · "))
      : CB.el("p", {class: "vp"}, "This Course's VP stay hidden until the end.");
    return [CB.el("h2", {}, `The Toast, Course ${result.course}: called by ${CB.label(result.toast_caller)}`),
      CB.el("ol", {class: "reveal"}, rows), vp];
  }

  /* What the step ended in: a Toast's verdicts; at the last step of a finished game, its end. */
  function outcome(frame, last) {
    const view = frame.view || {};
    const e = revealed(frame);
    const result = e && (view.results || []).find((r) => r.course === e.course);
    const out = result && result.places ? course(view, result) : [];
    if (last && view.phase === "over") out.unshift(...Summary.goblets(view, CB.label));
    return out.length ? out : null;
  }

  return {title: "how the poison travelled", seats, seatName, prepare, describe, draw, moment, outcome};
})();
