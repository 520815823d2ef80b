/* A courtroom replay (The Gods Will Have Blood; replay.js plays it): after each step the case
   heard, the verdict and the cubes drawn, the Judgment Pool as cubes, the vine top first with its
   markers (the one the step moved marked by a word and an arrow), the Momentum Box; each step in
   the view's own sentences (log_lines), each judgment a moment to jump to, and the trial's end.
   Everything is the public view's: this page rules nothing. */
"use strict";
window.ReplayGames = window.ReplayGames || {};
ReplayGames.tribunal = (() => {
  const VERDICT = {guilty: "Guilty", not_guilty: "Not Guilty"};
  const MARKERS = {legitimacy: "■ Legitimacy", reputation: "● Reputation"};
  const cube = (colour, extra = "") => CB.el("span", {class: `cube cube-${colour} ${extra}`, role: "img", "aria-label": `${colour} cube`});

  /* The view's sentences this step added (the log's new lines). */
  function lines(frame, prev) {
    const now = (frame.view || {}).log_lines || [];
    const before = ((prev || {}).view || {}).log_lines || [];
    const log = (frame.view || {}).log || [], earlier = ((prev || {}).view || {}).log || [];
    // log_lines may be a window on the log: count the new entries from the log itself.
    const added = Math.max(0, log.length - earlier.length) || Math.max(0, now.length - before.length);
    return now.slice(Math.max(0, now.length - added));
  }

  function describe(frame, prev) {
    const said = lines(frame, prev);
    return said.length ? said.join(" ") : String(frame.action.type).replaceAll("_", " ");
  }

  /* What moved this step: a marker on the vine, the Momentum Box, the cubes drawn. */
  function moved(view, before) {
    const out = {};
    if (!before.vine) return out;
    for (const marker of ["legitimacy", "reputation"]) {
      const from = before.vine[marker], to = view.vine[marker];
      if (from !== to) out[marker] = {from, to, word: to > from ? "▲ up" : "▼ down"};
    }
    if (before.momentum_box !== view.momentum_box) out.box = {from: before.momentum_box, to: view.momentum_box};
    return out;
  }

  function vine(view, changes) {
    const v = view.vine;
    const rows = (view.spaces || []).map((s) => CB.el("li", {class: "space" + (s.bottom ? " bottom" : "") + (s.label ? " labelled" : ""), "data-index": s.index},
      CB.el("span", {class: "space-no"}, String(s.number)),
      CB.el("span", {class: "space-label"}, s.bottom ? "✖" : s.label === "*" ? "★" : s.label || "·"),
      s.meaning ? CB.el("span", {class: "space-meaning"}, s.meaning) : null,
      CB.el("span", {class: "space-things"}, ["legitimacy", "reputation"].filter((m) => v[m] === s.index).map((m) =>
        CB.el("span", {class: `marker ${m}` + (changes[m] ? " changed" : ""), "data-marker": m}, MARKERS[m],
          changes[m] ? CB.el("span", {class: "change-word"}, ` ${changes[m].word}`) : null)),
      view.blue_cube === "W" && s.label === "W" ? CB.el("span", {class: "on-vine"}, cube("blue"), "blue cube") : null)));
    return CB.el("ol", {class: "vine"}, rows.reverse());
  }

  function draw(node, frame, prev) {
    const view = frame.view || {}, before = (prev || {}).view || {};
    const changes = moved(view, before);
    const pool = view.pool || {red: 0, white: 0, blue: 0};
    const drawn = view.drawn || [];
    const heard = (view.cases || []).map((c) => c.title.charAt(0).toUpperCase() + c.title.slice(1)).join(" and ");
    const hearing = CB.el("section", {class: "court-replay-case"},
      CB.el("h2", {}, view.hearing ? `Hearing ${view.hearing}${heard ? ": " + heard : ""}` : "Before the first hearing"),
      view.verdict ? CB.el("p", {}, `Your verdict: ${VERDICT[view.verdict]}`) : null,
      view.judgment ? CB.el("p", {class: "judgment"}, `Judgment: ${VERDICT[view.judgment]}`) : null,
      drawn.length ? CB.el("p", {class: "drawn-cubes"}, "Drawn: ", drawn.flatMap((c, i) => [cube(c), ` ${["first", "second"][i] || "next"} cube: ${c} `])) : null);
    const bag = CB.el("section", {},
      CB.el("h2", {}, "Judgment Pool"),
      CB.el("p", {class: "pool"}, `${pool.red} red · ${pool.white} white · ${pool.blue} blue`),
      CB.el("div", {class: "cubes"}, [...Array(pool.red)].map(() => cube("red")), [...Array(pool.white)].map(() => cube("white")),
        pool.blue ? cube("blue") : null),
      CB.el("p", {class: "box" + (changes.box ? " changed" : "")}, `Momentum Box: ${view.momentum_box} of ${view.momentum_box_size} red cubes`,
        changes.box ? CB.el("span", {class: "change-word"}, ` (${changes.box.to > changes.box.from ? "▲" : "▼"} was ${changes.box.from})`) : null));
    node.replaceChildren(CB.el("div", {class: "court-replay"}, hearing, bag, CB.el("section", {}, CB.el("h2", {}, "The vine"), vine(view, changes))));
    const words = [];
    for (const m of ["legitimacy", "reputation"]) {
      if (changes[m]) words.push(`${m.charAt(0).toUpperCase() + m.slice(1)} ${changes[m].word.split(" ")[1]}, space ${changes[m].from + 1} to ${changes[m].to + 1}`);
    }
    if (changes.box) words.push(`Momentum Box ${changes.box.from} to ${changes.box.to}`);
    if (drawn.length > (before.drawn || []).length) words.push(`a ${drawn[drawn.length - 1]} cube drawn`);
    return words;
  }

  const judged = (frame) => (frame.events || []).find((e) => e.event === "judgment") || null;

  /* A moment to jump to: each hearing's judgment. */
  function moment(frame) {
    const e = judged(frame);
    return e ? `Hearing ${frame.view.hearing}: ${VERDICT[e.verdict]}` : null;
  }

  function outcome(frame, last) {
    const view = frame.view || {};
    const out = [];
    const e = judged(frame);
    if (e) {
      out.push(CB.el("h2", {}, `Hearing ${view.hearing}: ${VERDICT[e.verdict]}`),
        CB.el("p", {}, e.passed ? "Your verdict passes." : "The drawn verdict stands."));
    }
    if (last && view.result) {
      out.unshift(CB.el("h2", {class: "summary-winner"}, view.result.won ? "✓ Won: the Republic is saved." : `✖ Lost: ${view.result.reason || "the court has fallen"}.`),
        CB.el("p", {}, `${Summary.plural(view.hearing || 0, "hearing")} heard · Legitimacy on space ${view.vine.legitimacy + 1} · Reputation on space ${view.vine.reputation + 1} · Momentum Box ${view.momentum_box} of ${view.momentum_box_size}`));
    }
    return out.length ? out : null;
  }

  return {title: "the trial, hearing by hearing", seats: () => [0], seatName: () => "the Judge", describe, draw, moment, outcome};
})();
