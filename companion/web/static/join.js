/* A phone joins the game with the tablet's join code: a name, then a free seat (House). */
"use strict";
(() => {
  const root = document.getElementById("join-root");
  const code = root.dataset.code;
  const TITLES = {goblets: "Raise Your Goblets", tribunal: "The Gods Will Have Blood", cena: "Cena"};
  let busy = false;

  async function claim(player) {
    if (busy) return;
    const typed = document.getElementById("name").value.trim();
    const name = typed || player.name || "";
    CB.showError(null);
    if (!name) { CB.showError(new Error("Type your name first.")); document.getElementById("name").focus(); return; }
    busy = true;
    try {
      const reply = await CB.post("/api/join", {code, seat: player.seat, name});
      location.assign(reply.url);
    } catch (error) {
      CB.showError(error);
    } finally {
      busy = false;
    }
  }

  function render(message) {
    const title = TITLES[message.game] || message.game || "";
    document.getElementById("join-game").textContent = message.over ? `${title}: this game is over.`
      : `${title} · ${(message.players || []).filter((p) => !p.taken).length} seat(s) free`;
    CB.fill("seat-choices", (message.players || []).map((p) => CB.el("button", {
      class: "big seat-choice", "data-seat": p.seat, disabled: p.taken || message.over ? "disabled" : null,
      onclick: () => claim(p)},
    p.taken ? `${p.label} (taken)` : (p.name ? `${p.seat_name} — ${p.name}` : p.seat_name))));
    document.body.dataset.seq = message.seq;
  }

  const initial = CB.data("initial");
  render(initial);
  CB.live("/api/stream?viewer=public", (message) => {
    if (message.game_id !== initial.game_id) { location.reload(); return; }  // a new game: its code
    render(message);
  });
})();
