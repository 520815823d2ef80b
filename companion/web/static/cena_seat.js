/* A Cena House's phone: its own hand grouped by suit, the Welcome choice (tap three cards), and
   on its turn a card played in front of a House (tap the card, then the House). The engine's
   legal actions mark the cards that may be played; any other choice is still sent, and the
   server's refusal is shown with the rulebook's words. */
"use strict";
(() => {
  let current = null;
  let selected = [];  // Welcome: up to three cards; Feast: one card

  async function send(action) {
    if (CB.busy()) return;
    selected = [];
    const accepted = await CB.act("/api/seat/act", {action}, render, {once: true});
    if (!accepted && !document.body.dataset.rejoin) render(current);  // the refusal: redraw as it was
  }

  const myTurn = (message) => message.to_move === (message.viewer || {}).index && !message.over;

  function tap(name) {
    const view = current.view || {};
    CB.showError(null);
    if (view.phase === "welcome") {
      if (selected.includes(name)) selected = selected.filter((c) => c !== name);
      else if (selected.length < 3) selected = [...selected, name];
      else { CB.showError(new Error("Three cards are chosen: tap one to put it back first.")); }
    } else {
      selected = selected[0] === name ? [] : [name];
    }
    render(current);
  }

  function hand(message) {
    const view = message.view || {};
    const cards = view.hand || [];
    if (!cards.length) return [CB.el("p", {class: "muted"}, message.over ? "The feast is over." : "No cards in your hand.")];
    const me = view.seat;
    const faces = new Set(((view.houses || [])[me] || {}).welcome || view.welcome_choice || []);
    const legal = message.legal || [];
    const playable = new Set(legal.filter((a) => a.type === "play").map((a) => a.card));
    const feast = view.phase === "feast" && myTurn(message);
    const canTap = myTurn(message) && (view.phase === "welcome" || view.phase === "feast");
    return Cena.SUITS.map((suit) => {
      const mine = cards.filter((name) => Cena.parse(name).suit === suit);
      if (!mine.length) return null;
      return CB.el("div", {class: "hand-row", "data-suit": suit}, CB.el("h3", {}, suit),
        mine.map((name) => {
          const c = Cena.parse(name);
          const cls = ["card", "suit-" + suit];
          if (faces.has(name)) cls.push("face-up");
          if (selected.includes(name)) cls.push("selected");
          if (feast && !playable.has(name)) cls.push("off");
          return CB.el("button", {class: cls.join(" "), "data-card": name, disabled: !canTap,
            "aria-pressed": selected.includes(name) ? "true" : "false",
            title: faces.has(name) ? "face up (Welcome)" : null, onclick: () => tap(name)},
          CB.el("span", {class: "s"}, suit), CB.el("span", {class: "v"}, String(c.value)));
        }));
    });
  }

  function prompt(message) {
    const view = message.view || {};
    if (message.game !== "cena") return [CB.el("p", {class: "muted"}, "This seat's game is not Cena.")];
    if (message.over) return [];
    if (!myTurn(message)) {
      if (view.phase === "welcome" && view.welcome_choice) return [CB.el("p", {}, "Your Welcome cards are chosen: they are shown once every House has chosen.")];
      return [CB.el("p", {class: "muted"}, "Wait for your turn.")];
    }
    if (view.phase === "reveal") {
      return [CB.el("button", {class: "big", id: "reveal", onclick: () => send({type: "reveal_poison"})}, "Reveal the poison")];
    }
    if (view.phase === "welcome") {
      return [CB.el("p", {}, `Welcome: tap three cards to place face up (${selected.length} of 3).`),
        CB.el("button", {class: "big", id: "welcome-confirm", disabled: selected.length !== 3,
          onclick: () => send({type: "welcome", cards: selected.slice()})}, "Place these three face up")];
    }
    if (view.phase === "feast") {
      const lead = view.trick && view.trick.lead_suit;
      return [CB.el("p", {}, selected.length ? `Play ${selected[0]} in front of:` : (lead ? `Lead suit: ${lead}. Tap a card to play.` : "You lead: tap a card to play."))];
    }
    return [];
  }

  function places(message) {
    const view = message.view || {};
    if (view.phase !== "feast" || !myTurn(message) || !selected.length) return [];
    const table = (view.trick || {}).table || [];
    const legal = new Set((message.legal || []).filter((a) => a.card === selected[0]).map((a) => a.house));
    return Array.from({length: view.players}, (_, h) => h).filter((h) => !table[h]).map((h) =>
      CB.el("button", {class: "big house" + (legal.has(h) ? "" : " off"), "data-house": h,
        onclick: () => send({type: "play", card: selected[0], house: h})},
      h === view.seat ? `${Cena.houseName(h)} (yours)` : Cena.houseName(h)));
  }

  function render(message) {
    current = message;
    const view = message.view || {};
    const me = (message.viewer || {}).index;
    if (!myTurn(message)) selected = [];
    const tags = [];
    if (view.host === me) tags.push("Host House");
    if (view.invitation === me && view.phase === "feast") tags.push("holds the invitation");
    document.getElementById("you-title").textContent = `You are ${(message.you || {}).label || Cena.houseName(me)}${tags.length ? " · " + tags.join(", ") : ""}`;
    document.getElementById("turn").textContent = myTurn(message) ? "Your turn! " + Cena.turn(message) : Cena.turn(message);
    CB.fill("prompt", prompt(message));
    CB.fill("places", places(message));
    CB.fill("hand", hand(message));
    CB.fill("poison", Cena.poison(view));
    CB.fill("trick", Cena.trickList(view));
    Cena.draw(document.getElementById("cena-table"), message);
    CB.fill("welcome", Cena.welcome(view));
    CB.fill("pad", Cena.scorePad(view, message));
    Cena.feed(document.getElementById("feed"), message);
    document.body.dataset.seq = message.seq;
    document.body.dataset.myturn = myTurn(message) ? "yes" : "no";
    document.body.dataset.phase = view.phase || "";
    document.body.dataset.over = message.over ? "yes" : "no";
  }

  render(CB.data("initial"));
  CB.live("/api/stream?viewer=seat", (message) => {
    if (message.seq !== (current || {}).seq) render(message);  // keep a half-made choice otherwise
  });
})();
