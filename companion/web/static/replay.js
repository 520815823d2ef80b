/* The replay timeline: every revealed action on the drawn table, step by step, with what each
   goblet held ("how the poison travelled"), folded here from the revealed journal. */
"use strict";
(() => {
  const timeline = CB.data("timeline");
  const frames = timeline.frames || [];
  const scrub = document.getElementById("scrub");
  scrub.max = Math.max(0, frames.length - 1);
  let index = 0, timer = null;

  // What each goblet (by its Coaster ring) held after every step: folded from the revealed
  // journal. The initial pour fills one token per place; a pour adds to the goblet standing at
  // its place; moves carry the contents along with the ring.
  const held = [];
  let current = {};
  for (const frame of frames) {
    const a = frame.action, places = (frame.view && frame.view.places) || [];
    if (a.type === "initial_pour" && Array.isArray(a.tokens)) {
      current = {};
      a.tokens.forEach((kind, p) => { const ring = places[p] && places[p].ring; if (ring) current[ring] = {[kind]: 1}; });
    } else if (a.type === "pour" && places[a.goblet] && places[a.goblet].ring) {
      const ring = places[a.goblet].ring, box = Object.assign({}, current[ring] || {});
      box[a.token] = (box[a.token] || 0) + 1;
      current = Object.assign({}, current, {[ring]: box});
    }
    held.push(current);
  }

  function describe(frame) {
    const a = frame.action;
    if (a.type === "initial_pour") return `Initial pour: ${JSON.stringify(a.tokens || a.goblets || a.cups)}`;
    if (a.type === "pour") return `${Goblets.seatName(a.seat)} poured ${a.token} into ${Goblets.placeName(frame.view, a.goblet)}`;
    return Goblets.actionLabel(a, frame.view) + (a.seat !== undefined ? ` — ${Goblets.seatName(a.seat)}` : "");
  }

  function show(i) {
    if (!frames.length) return;
    index = Math.max(0, Math.min(frames.length - 1, i));
    scrub.value = index;
    const frame = frames[index];
    document.getElementById("step").textContent = `Step ${index + 1} of ${frames.length}: ${describe(frame)}`;
    Goblets.draw(document.getElementById("drawing"), {view: frame.view, readers: {}}, {contents: held[index]});
    CB.fill("steps", frames.slice(Math.max(0, index - 12), index + 1).reverse()
      .map((f) => CB.el("li", {}, `#${f.seq}: ${describe(f)}`)));
  }

  document.getElementById("prev").addEventListener("click", () => show(index - 1));
  document.getElementById("next").addEventListener("click", () => show(index + 1));
  scrub.addEventListener("input", () => show(Number(scrub.value)));
  document.getElementById("play").addEventListener("click", () => {
    clearInterval(timer);
    timer = setInterval(() => { if (index >= frames.length - 1) clearInterval(timer); else show(index + 1); }, 700);
  });
  show(0);
})();
