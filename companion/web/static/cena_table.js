/* Cena on the public tablet: redrawn from every public snapshot (no hand is ever in it). */
"use strict";
(() => {
  const page = document.getElementById("cena-root").dataset.page;

  function render(message) {
    if (page === "table") CB.followGame(initial, message);
    CB.joinPanel(message);
    document.getElementById("demo-banner").hidden = message.play !== "demo";
    const view = message.game === "cena" ? message.view || {} : {};
    document.getElementById("headline").textContent = message.game === "cena"
      ? `Cena · game ${message.game_id}${view.rules && view.rules.private_feast ? " · Private feast" : ""}${view.rules && view.rules.single_course ? " · Single course" : ""}`
      : "Cena";
    document.getElementById("turn").textContent = Cena.turn(message);
    Cena.draw(document.getElementById("cena-table"), message.game === "cena" ? message : {});
    CB.fill("trick", message.game === "cena" && view.players ? Cena.trickList(view) : []);
    CB.fill("poison", message.game === "cena" ? Cena.poison(view) : []);
    CB.fill("welcome", Cena.welcome(view));
    CB.fill("alliances", Cena.alliances(view));
    CB.fill("pad", Cena.scorePad(view, message));
    if (message.game === "cena") Cena.feed(document.getElementById("feed"), message);
    document.body.dataset.game = message.game_id;
    document.body.dataset.seq = message.seq;
    document.body.dataset.phase = view.phase || "";
    document.body.dataset.over = message.over ? "yes" : "no";
  }

  const initial = CB.data("initial");
  render(initial);
  CB.live("/api/stream?viewer=public", render);
})();
