/* The replay of a game from History: every revealed step drawn as its game (ReplayGames[game],
   from replay_goblets.js, replay_court.js or replay_cena.js), played and paused, stepped, or
   jumped to its moments (each Toast, each hearing, each trick won); what the step changed is
   marked on the drawing and said in words, and a step that ends in something (a Toast's
   verdicts, the game's end) shows it. The frames are the server's (service/history.py): each
   action already redacted by its game for whoever may watch, so nothing here decides a secret. */
"use strict";
(() => {
  const STEP_MS = 900;  // long enough to see what moved, short enough to watch a Course through
  const timeline = CB.data("timeline");
  const frames = timeline.frames || [];
  const game = (window.ReplayGames || {})[timeline.game];
  const names = timeline.names || {};
  const scrub = document.getElementById("scrub");
  const playButton = document.getElementById("play");
  scrub.max = Math.max(0, frames.length - 1);
  let index = 0, timer = null;
  const extra = game && game.prepare ? game.prepare(frames) : frames.map(() => ({}));

  /* The players by name and by what the game calls them at this step ("Anna · De Miceti"). */
  function players(view) {
    CB.players = game.seats(view).map((seat) => {
      const name = names[String(seat)] || null, called = game.seatName(view, seat);
      return {seat, name, seat_name: called, label: name ? `${name} · ${called}` : called};
    });
  }

  function moments() {
    const out = [];
    frames.forEach((frame, i) => {
      players(frame.view || {});
      const label = game.moment(frame, frames[i - 1], i);
      if (label) out.push(CB.el("button", {class: "moment", type: "button", "data-frame": i, onclick: () => { pause(); show(i); }}, label));
    });
    if (frames.length) out.push(CB.el("button", {class: "moment", type: "button", "data-frame": frames.length - 1, onclick: () => { pause(); show(frames.length - 1); }}, "The last step"));
    return out;
  }

  function show(i) {
    if (!frames.length) return;
    index = Math.max(0, Math.min(frames.length - 1, i));
    scrub.value = index;
    const frame = frames[index], prev = frames[index - 1], last = index === frames.length - 1;
    players(frame.view || {});
    const said = game.describe(frame, prev);
    document.getElementById("step").textContent = `Step ${index + 1} of ${frames.length}: ${said}`;
    const changed = game.draw(document.getElementById("drawing"), frame, prev, extra[index]) || [];
    CB.fill("change", changed.length ? [CB.el("span", {class: "shape", "aria-hidden": "true"}, "◆ "), `Changed: ${changed.join(" · ")}`] : []);
    const ended = game.outcome(frame, last);
    const box = CB.fill("outcome", ended || []);
    box.hidden = !ended;
    for (const button of document.querySelectorAll("#moments .moment")) {
      if (Number(button.dataset.frame) === index) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    }
    const from = Math.max(0, index - 11);
    CB.fill("steps", frames.slice(from, index + 1).map((f, k) => {
      players(f.view || {});
      return CB.el("li", {class: from + k === index ? "current" : "", value: from + k + 1}, game.describe(f, frames[from + k - 1]));
    }).reverse());
    players(frame.view || {});
    document.body.dataset.step = String(index);
  }

  function pause() {
    clearInterval(timer);
    timer = null;
    playButton.textContent = "▶ Play";
    playButton.setAttribute("aria-pressed", "false");
    document.body.dataset.playing = "no";
  }

  function play() {
    if (index >= frames.length - 1) show(0);  // played to the end: again from the start
    playButton.textContent = "❚❚ Pause";
    playButton.setAttribute("aria-pressed", "true");
    document.body.dataset.playing = "yes";
    // Played through to the next moment (a Course to its Toast): it pauses there, on the
    // verdicts; Play again goes on.
    timer = setInterval(() => {
      show(index + 1);
      if (index >= frames.length - 1 || game.moment(frames[index], frames[index - 1], index)) pause();
    }, STEP_MS);
  }

  if (!game || !frames.length) {
    for (const id of ["prev", "next", "play"]) document.getElementById(id).disabled = true;
    scrub.disabled = true;
    document.body.dataset.step = "none";
    return;
  }
  document.getElementById("prev").addEventListener("click", () => { pause(); show(index - 1); });
  document.getElementById("next").addEventListener("click", () => { pause(); show(index + 1); });
  playButton.addEventListener("click", () => (timer ? pause() : play()));
  scrub.addEventListener("input", () => { pause(); show(Number(scrub.value)); });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea")) return;
    if (event.key === "ArrowLeft") { pause(); show(index - 1); }
    if (event.key === "ArrowRight") { pause(); show(index + 1); }
  });
  CB.fill("moments", moments());
  pause();
  show(0);
})();
