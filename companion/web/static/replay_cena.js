/* A Cena replay (replay.js plays it): the table of cena.js after each step, the card just played
   and the alliance that won a trick marked by a word and a shape; the trick as a list, the
   poison of the round, and each round's score pad as a moment to jump to; at the last step the
   feast's end. The hands are never in a replay: the frames carry the public view only. */
"use strict";
window.ReplayGames = window.ReplayGames || {};
ReplayGames.cena = (() => {
  const seats = (view) => Array.from({length: view.players || 0}, (_, h) => h);

  function describe(frame) {
    const view = frame.view || {};
    const said = (frame.events || []).map((e) => Cena.eventText(e, view.players));
    return said.length ? said.join("; ") : String(frame.action.type).replaceAll("_", " ");
  }

  /* Mark ``node`` (a card or an alliance) with ``word`` just above it, in its own coordinates
     (a card is a translated group: its box is its own). */
  function mark(node, word) {
    if (!node) return;
    node.classList.add("changed");
    const box = node.getBBox();
    const text = CB.svg("text", {class: "change-mark", x: box.x + box.width / 2, y: box.y - 12, "text-anchor": "middle", text: word});
    if (node.tagName === "g") node.append(text); else node.after(text);
  }

  function draw(node, frame) {
    const view = frame.view || {};
    node.replaceChildren(CB.el("div", {class: "cena-table", id: "replay-cena"}),
      CB.el("div", {class: "trick-list"}, Cena.trickList(view)),
      CB.el("div", {class: "replay-poison"}, Cena.poison(view)));
    Cena.draw(node.firstChild, {view, to_move: view.to_move, over: view.phase === "over"});
    const svg = node.querySelector("svg");
    const words = [];
    for (const e of frame.events || []) {
      if (e.event === "played" && svg) {
        mark(svg.querySelector(`[data-house-card="${e.before}"]`), "▼ played");
        words.push(`${Cena.cardName(e.card)} played in front of ${Cena.houseName(e.before)}`);
      }
      if (e.event === "trick_won" && svg) {
        mark(svg.querySelector(`.alliance[data-alliance="${e.alliance}"]`), "★ won");
        words.push(`trick ${e.trick} won by ${Cena.allianceName(e.alliance, view.players)}`);
      }
    }
    return words;
  }

  const scored = (frame) => (frame.events || []).find((e) => e.event === "round_scored") || null;

  /* A moment to jump to: each round's scoring. */
  function moment(frame) {
    const e = scored(frame);
    return e ? `Round ${e.round} scored` : null;
  }

  function outcome(frame, last) {
    const view = frame.view || {};
    if (!scored(frame) && !(last && view.phase === "over")) return null;
    return [CB.el("h2", {}, view.phase === "over" ? "The feast is over" : `Round ${scored(frame).round}: the score pad`),
      ...Cena.scorePad(view, {outcome: view.result})];
  }

  return {title: "the feast, trick by trick", seats, seatName: (view, h) => `House ${h + 1}`, describe, draw, moment, outcome};
})();
