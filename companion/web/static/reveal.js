/* The Toast's reveal on the tablet as the game's moment: full screen, Goblet by Goblet in the
   order the server's view gives (from the Toast Caller's left clockwise, the Caller's last), each
   Goblet's tokens drawn with the Antidotes and the Poison they removed struck through, its verdict
   in a word and a shape, then the Course's VP (or, with hidden VP, that they stay hidden) and the
   standings, at the times reveal_schedule.js gives (the phones read the same). Every rule's answer
   (the order, the Poison left, the verdicts, the VP) is the view's. */
"use strict";
const Reveal = (() => {
  const LETTER = {wine: "W", poison: "P", antidote: "A"};
  let timers = [];

  function stop() {
    timers.forEach(clearTimeout);
    timers = [];
  }

  function close() {
    stop();
    document.getElementById("reveal-moment").hidden = true;
    document.body.dataset.reveal = "closed";
  }

  function tokens(contents, poisonLeft) {
    // The doses removed are struck through, as many Antidotes as Poison (special tokens keep
    // their own letters; the words below say exactly what was in the Goblet).
    const poison = contents.poison || 0, antidote = contents.antidote || 0;
    const removed = Math.max(0, Math.min(antidote, poison + (contents.ogre_poison || 0) * 2 - poisonLeft));
    const out = [];
    let struckPoison = Math.min(poison, removed), struckAntidote = removed;
    for (const [kind, count] of Object.entries(contents)) {
      for (let i = 0; i < count; i++) {
        let struck = false;
        if (kind === "poison" && struckPoison > 0) { struck = true; struckPoison--; }
        if (kind === "antidote" && struckAntidote > 0) { struck = true; struckAntidote--; }
        out.push(CB.el("span", {class: `tok tok-${kind}${struck ? " struck" : ""}`, title: kind.replaceAll("_", " ")},
          LETTER[kind] || kind[0].toUpperCase()));
      }
    }
    return out.length ? out : [CB.el("span", {class: "muted"}, "empty")];
  }

  function goblet(place, poisonLeft) {
    const h = Goblets.house(place.house);
    const verdict = place.poisoned ? "☠ POISONED" : "✓ SURVIVED";
    const why = poisonLeft > 0 ? `${poisonLeft} Poison left` : (place.contents.poison || place.contents.ogre_poison)
      ? "every Poison removed by an Antidote" : "no Poison";
    return CB.el("li", {class: "reveal-goblet " + (place.poisoned ? "poisoned" : "survived"), "data-place": place.place},
      CB.el("h3", {}, CB.el("span", {class: "swatch sw-" + place.house}), h.name),
      CB.el("p", {class: "who"}, place.seats.map(Goblets.seatName).join(" & ")),
      CB.el("p", {class: "tokens"}, tokens(place.contents, poisonLeft)),
      CB.el("p", {class: "words"}, Goblets.contents(place.contents)),
      CB.el("p", {class: "verdict"}, verdict),
      CB.el("p", {class: "why"}, why + (place.target_poisoned ? " · Target poisoned" : "") + (place.most_wine ? " · most Wine" : "")));
  }

  function scores(message, result, order) {
    const view = message.view || {};
    if (!result.vp) return [CB.el("p", {class: "vp"}, "This Course's VP stay hidden behind the screens until the end.")];
    const seats = order.flatMap((p) => result.places[p].seats);
    const out = [CB.el("h2", {}, `Course ${result.course}: Victory Points`),
      CB.el("ul", {class: "vp-list"}, seats.map((s) => CB.el("li", {"data-seat": s}, `${Goblets.seatName(s)}: +${result.vp[s]} VP`)))];
    if (view.vp) {
      const standing = view.vp.map((vp, s) => [s, vp]).sort((a, b) => b[1] - a[1]);
      out.push(CB.el("h2", {}, "Standings"), CB.el("ol", {class: "standings"},
        standing.map(([s, vp]) => CB.el("li", {}, `${Goblets.seatName(s)}: ${vp} VP`))));
    }
    return out;
  }

  /* Show the latest Toast of ``message`` (a public snapshot) as the table's moment. */
  function show(message) {
    const view = message.view || {};
    const reveal = view.reveal, results = view.results || [];
    const result = results[results.length - 1];
    if (!reveal || !result || !result.places) return;
    stop();
    const node = document.getElementById("reveal-moment");
    const list = CB.el("ol", {class: "reveal-goblets"});
    const after = CB.el("div", {class: "reveal-after"});
    const button = CB.el("button", {class: "big", type: "button", onclick: close}, "Back to the table");
    node.replaceChildren(
      CB.el("h1", {}, `The Toast! Course ${result.course}`),
      CB.el("p", {class: "caller"}, `called by ${Goblets.seatName(result.toast_caller)} — the Goblets are revealed from their left`),
      list, after, button);
    node.hidden = false;
    document.body.dataset.reveal = "showing";
    button.focus();
    reveal.order.forEach((p) => timers.push(setTimeout(() => {
      list.append(goblet(result.places[p], reveal.poison_left[p]));
    }, RevealSchedule.goblet(reveal, p))));
    timers.push(setTimeout(() => {
      after.replaceChildren(...scores(message, result, reveal.order));
      document.body.dataset.reveal = "done";
    }, RevealSchedule.scores(reveal)));
  }

  document.addEventListener("keydown", (event) => { if (event.key === "Escape") close(); });
  return {show, close};
})();
