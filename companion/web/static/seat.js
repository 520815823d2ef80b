/* A player's phone: who they are, their own secrets and, on their turn, a big button per legal
   action. The seat is the phone's own (its cookie); when it ends the page asks to join again. */
"use strict";
(() => {
  let busy = false;

  function character(message, seat) {
    const card = ((message.view || {}).characters || []).find((c) => c && c.seat === seat);
    return card && card.text ? CB.el("span", {class: "card-text"}, ` — ${card.text}`) : null;
  }

  function peeks(list) {
    return list.length ? list.map((p) => Goblets.contents(p.contents || p)).join(" · ") : "nothing yet";
  }

  function you(message) {
    const view = message.view || {};
    const me = view.you;
    if (view.variant === "russian_goblette") {
      return [
        CB.el("p", {}, CB.el("strong", {}, "Behind your screen: "), Goblets.contents(view.screen)),
        CB.el("p", {}, CB.el("strong", {}, "What you peeked: "), peeks(view.peeks || [])),
        CB.el("p", {}, CB.el("strong", {}, "Your VP: "), String((view.vp || [])[message.you.seat] || 0)),
      ];
    }
    if (!me) return [];
    const h = Goblets.house(me.house);
    const out = [
      CB.el("p", {class: "house"}, CB.el("span", {class: "swatch sw-" + me.house}), `${h.name} (${h.colourName}, ${h.pattern})${me.role !== "player" ? " · " + me.role : ""}`),
      CB.el("p", {}, CB.el("strong", {}, "Behind your screen: "), Goblets.contents(me.screen)),
      CB.el("p", {}, CB.el("strong", {}, "Your Target: "), me.target ? Goblets.house(me.target).name : "—"),
    ];
    if (me.character) out.push(CB.el("p", {}, CB.el("strong", {}, "Your Character: "), me.character, character(message, me.seat)));
    if (me.winetaster_card) out.push(CB.el("p", {}, CB.el("strong", {}, "Your Winetaster card: "), me.winetaster_card));
    if (me.vp !== undefined && me.vp !== null) out.push(CB.el("p", {}, CB.el("strong", {}, "Your VP: "), String(me.vp)));
    out.push(CB.el("p", {}, CB.el("strong", {}, "What you peeked: "), peeks(me.peeks || [])));
    return out;
  }

  async function play(action) {
    if (busy) return;
    busy = true;
    CB.showError(null);
    try {
      render(CB.take(await CB.post("/api/seat/act", {action})));
    } catch (error) {
      if (error.data && error.data.rejoin) CB.rejoin("freed");
      CB.showError(error);
    } finally {
      busy = false;
    }
  }

  function actions(message) {
    // On a sensed table the readers record pours and moves: the phone says only Pass or Toast.
    const legal = (message.legal || []).filter((a) => !message.sensed || a.type === "pass" || a.type === "toast");
    if (!legal.length) return [CB.el("p", {class: "muted"}, message.over ? "The game is over." : "Wait for your turn.")];
    const groups = {};
    for (const action of legal) (groups[action.type] = groups[action.type] || []).push(action);
    const view = message.view || {};
    const button = (action, label) => CB.el("button", {class: "big action", "data-type": action.type,
      "data-token": action.token, onclick: () => play(action)}, label);
    return Object.entries(groups).map(([type, list]) => {
      if (type === "pour") {
        // One row per token kind, one button per goblet: short enough for a phone.
        const kinds = {};
        for (const action of list) (kinds[action.token] = kinds[action.token] || []).push(action);
        return CB.el("div", {class: "group"}, Object.entries(kinds).map(([token, actions]) =>
          CB.el("div", {class: "pour-row"}, CB.el("h3", {}, `Pour ${token.replaceAll("_", " ")} into`),
            actions.map((a) => button(a, Goblets.placeName(view, a.goblet).replace("'s place", ""))))));
      }
      return CB.el("div", {class: "group"}, CB.el("h3", {}, type.replaceAll("_", " ")),
        list.map((action) => button(action, Goblets.actionLabel(action, view))));
    });
  }

  function render(message) {
    const me = message.you || {};
    const view = message.view || {};
    const mine = message.to_move === me.seat && !message.over;
    document.getElementById("you-title").textContent = `You are ${me.label || "?"}`;
    document.getElementById("turn").textContent = mine ? "Your turn!" : Goblets.turn(message);
    CB.fill("you", you(message));
    CB.fill("actions", actions(message));
    Goblets.draw(document.getElementById("drawing"), message, {mine: view.you ? view.you.place : null});
    Goblets.feed(document.getElementById("feed"), message);
    document.body.dataset.seq = message.seq;
    document.body.dataset.game = message.game_id;
    document.body.dataset.myturn = mine ? "yes" : "no";
    document.body.dataset.over = message.over ? "yes" : "no";
  }

  render(CB.data("initial"));
  CB.live("/api/stream?viewer=seat", render);
})();
