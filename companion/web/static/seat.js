/* A player's phone: on their turn a banner (with a buzz and an optional chime), the actions first
   and grouped (Pour: pick a token kind, then a Goblet), at the reveal their own outcome only; then
   who they are and their own secrets. The seat is the phone's own (its cookie); when it ends the
   page asks to join again. Every rule's answer comes from the server's view (legal, you.outcome). */
"use strict";
(() => {
  let picked = null;        // the token kind chosen for a Pour, until the Goblet is tapped
  let wasMine = null;       // whether the last render was this seat's turn (null: first render)
  let dismissed = null;     // the outcome the player closed ("game:course")
  let shown = null;         // the newest message drawn
  const MUTE_KEY = "cupbearer-muted";
  const chime = new Audio("/static/turn.wav");
  chime.preload = "auto";

  const muted = () => localStorage.getItem(MUTE_KEY) === "yes";

  function soundButton() {
    const button = document.getElementById("sound");
    const off = muted();
    button.textContent = off ? "♪ Sound off" : "♪ Sound on";
    button.setAttribute("aria-pressed", off ? "false" : "true");
  }

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

  function play(action) {
    const own = ownOutcome(shown || {});
    if (own) dismissed = `${shown.game_id}:${own.course}`;  // seen: they play on
    picked = null;
    return CB.act("/api/seat/act", {action}, render, {once: true});
  }

  const FIRST = ["reveal", "shootout_choose", "defer"];
  const MOVES = ["peek", "rotate"];
  const LAST = ["toast", "pass"];

  /* A Goblet by the House of its place, the player's own marked (words, not a colour). */
  function goblet(view, place) {
    const name = Goblets.placeName(view, place).replace("'s place", "");
    return ((view.you || {}).place === place) ? `${name} (yours)` : name;
  }

  const SHORT = {
    peek: () => "Peek",
    rotate: (a) => a.direction === "clockwise" ? "Rotate ⟳ clockwise" : a.direction === "widdershins" ? "Rotate ⟲ widdershins" : null,
    swap: (a, view) => a.with !== undefined ? goblet(view, a.with) : null,
  };

  function button(action, label, view) {
    label = label || (SHORT[action.type] && SHORT[action.type](action, view));
    return CB.el("button", {class: "big action", "data-type": action.type, "data-token": action.token,
      onclick: () => play(action)}, label || Goblets.actionLabel(action, view));
  }

  function pourGroup(list, view) {
    // "Pour": first the token kind (with how many are behind the screen), then the Goblet.
    const kinds = {};
    for (const action of list) (kinds[action.token] = kinds[action.token] || []).push(action);
    if (picked && !kinds[picked]) picked = null;
    const screen = (view.you || {}).screen || view.screen || {};
    const pick = Object.keys(kinds).map((token) => CB.el("button", {class: "kind" + (token === picked ? " picked" : ""),
      "data-pick": token, "aria-pressed": token === picked ? "true" : "false",
      onclick: () => { picked = token === picked ? null : token; render(shown); }},
      `${token.replaceAll("_", " ")}${screen[token] ? " ×" + screen[token] : ""}`));
    const into = picked
      ? kinds[picked].map((a) => button(a, goblet(view, a.goblet), view))
      : [CB.el("p", {class: "hint"}, "Pick a token, then a Goblet.")];
    return CB.el("div", {class: "group pour"}, CB.el("h3", {}, "Pour"),
      CB.el("div", {class: "act-grid kinds"}, pick),
      CB.el("h3", {}, picked ? `${picked.replaceAll("_", " ")} into…` : "into…"),
      CB.el("div", {class: "act-grid"}, into));
  }

  function actions(message) {
    // The server sends what this phone may say (on a sensed table only Pass, Toast or a Character
    // ability: service/sensing.py PHONE_SAYS); the page groups them and decides no rule.
    const legal = message.legal || [];
    if (!legal.length) return [CB.el("p", {class: "muted"}, message.over ? "The game is over." : "Wait for your turn.")];
    const view = message.view || {};
    const of = (types) => legal.filter((a) => types.includes(a.type));
    const others = legal.filter((a) => ![...FIRST, "pour", "swap", ...MOVES, ...LAST].includes(a.type));
    const grid = (title, list) => list.length
      ? CB.el("div", {class: "group"}, title ? CB.el("h3", {}, title) : null,
        CB.el("div", {class: "act-grid"}, list.map((a) => button(a, null, view)))) : null;
    const pours = of(["pour"]);
    return [
      grid(null, of(FIRST)),
      pours.length ? pourGroup(pours, view) : null,
      grid("Peek or rotate", of(MOVES)),
      grid("Swap your Goblet with…", of(["swap"])),
      grid(null, others),
      grid(null, of(LAST)),
    ].filter((g) => g);
  }

  function banner(message, mine) {
    const node = document.getElementById("turn-banner");
    const step = (message.view || {}).step;
    node.hidden = !mine;
    if (!mine) return;
    const limit = step && step.limit ? `action ${(step.taken || 0) + 1} of ${step.limit}` : "";
    CB.fill("turn-banner", CB.el("strong", {}, "Your turn!"), limit ? CB.el("span", {}, limit) : null);
    if (wasMine === false) {
      // The turn has just come: tell the player even if the phone is in their lap.
      node.classList.remove("flash"); void node.offsetWidth; node.classList.add("flash");
      document.body.dataset.turnShownAt = String(Date.now());
      if (navigator.vibrate) document.body.dataset.buzzed = String(navigator.vibrate([180, 80, 180]));
      if (!muted()) {
        chime.currentTime = 0;
        chime.play().then(() => { document.body.dataset.chimed = String(Date.now()); }, () => {});
      }
    }
  }

  function ownOutcome(message) {
    const view = message.view || {};
    return (view.you ? view.you.outcome : view.outcome) || null;
  }

  function outcome(message) {
    // The player's own verdict of the latest Toast, from their seat's view: never anyone else's.
    const own = ownOutcome(message);
    const node = document.getElementById("outcome");
    const key = own ? `${message.game_id}:${own.course}` : null;
    node.hidden = !own || key === dismissed;
    document.body.dataset.outcome = own && !node.hidden ? (own.poisoned ? "poisoned" : "survived") : "";
    if (node.hidden) return;
    const details = [];
    if (own.target_poisoned !== undefined) details.push(own.target_poisoned ? "your Target was poisoned" : "your Target survived");
    if (own.most_wine) details.push("you had the most Wine");
    if (own.won) details.push("you won the Course");
    if (own.vp !== undefined && own.vp !== null) details.push(`+${own.vp} VP`);
    node.className = "outcome " + (own.poisoned ? "poisoned" : "survived");
    CB.fill("outcome",
      CB.el("p", {class: "verdict"}, CB.el("span", {class: "shape", "aria-hidden": "true"}, own.poisoned ? "☠" : "✓"),
        `Course ${own.course}: ${own.poisoned ? "you were poisoned" : "you survived"}`),
      details.length ? CB.el("p", {}, details.join(" · ")) : null,
      CB.el("button", {class: "small", onclick: () => { dismissed = key; render(shown); }}, "OK"));
  }

  function render(message) {
    shown = message;  // CB.act and CB.live draw only the newest message
    const me = message.you || {};
    const view = message.view || {};
    const mine = message.to_move === me.seat && !message.over;
    document.getElementById("you-title").textContent = `You are ${me.label || "?"}`;
    document.getElementById("turn").textContent = mine ? "" : Goblets.headline(message);
    banner(message, mine);
    outcome(message);
    if (!mine) picked = null;
    CB.fill("actions", actions(message));
    CB.fill("you", you(message));
    Goblets.draw(document.getElementById("drawing"), message, {mine: view.you ? view.you.place : null, phone: true});
    Goblets.feed(document.getElementById("feed"), message);
    wasMine = mine;
    document.body.dataset.seq = message.seq;
    document.body.dataset.game = message.game_id;
    document.body.dataset.myturn = mine ? "yes" : "no";
    document.body.dataset.over = message.over ? "yes" : "no";
  }

  document.getElementById("sound").addEventListener("click", () => {
    localStorage.setItem(MUTE_KEY, muted() ? "no" : "yes");
    soundButton();
  });
  soundButton();
  render(CB.data("initial"));
  CB.live("/api/stream?viewer=seat", render);
})();
