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
    summary(message, view);
    document.body.dataset.game = message.game_id;
    document.body.dataset.seq = message.seq;
    document.body.dataset.phase = view.phase || "";
    document.body.dataset.over = message.over ? "yes" : "no";
  }

  /* The feast's end on top of the page: who won, and every round's points (the score pad). */
  function summary(message, view) {
    const node = document.getElementById("summary");
    const result = view.result || message.outcome;
    node.hidden = !(message.game === "cena" && message.over && result && result.winners);
    if (node.hidden) return;
    const names = result.winners.map(Cena.houseName);
    node.replaceChildren(CB.el("h1", {}, `Game ${message.game_id}: the feast is over`),
      CB.el("h2", {class: "summary-winner"}, names.length > 1 ? `${names.join(" and ")} share the victory!` : `${names[0]} wins the feast!`),
      CB.el("p", {}, `${Cena.plural((view.scores || []).length, "round")} played: each round's points (cards won − the poison's penalty), then the total.`),
      Cena.scorePad(view, message)[0],
      CB.el("p", {}, CB.el("a", {class: "button", href: `/history/${message.game_id}`}, "Replay this game")));
  }

  const initial = CB.data("initial");
  render(initial);
  CB.live("/api/stream?viewer=public", render);
})();
