/* A player's phone: on their turn a banner (with a buzz and an optional chime), the actions first
   and grouped (Pour: pick a token kind, then a Goblet), at the reveal their own outcome only, when
   the tablet shows their Goblet (reveal_schedule.js: one schedule for both); then who they are and
   their own secrets. The seat is the phone's own (its cookie); when it ends the
   page asks to join again. Every rule's answer comes from the server's view (legal, you.outcome). */
"use strict";
(() => {
  let picked = null;        // the token kind chosen for a Pour, until the Goblet is tapped
  let wasMine = null;       // whether the last render was this seat's turn (null: first render)
  let dismissed = null;     // the outcome the player closed ("game:course")
  let shown = null;         // the newest message drawn
  let drawnOnce = false;    // whether the page has drawn a message (its first is from before it)
  const heard = {};         // "game:course" -> performance.now() when that Toast's outcome came
  let momentTimer = null;   // until the next moment of the Toast's reveal on the tablet
  let outcomeShown = null;  // the outcome on screen now ("game:course"), once its moment came
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
    // While the table reveals the Toast the VP would tell the verdict before the player's Goblet.
    if (me.vp !== undefined && me.vp !== null) out.push(CB.el("p", {}, CB.el("strong", {}, "Your VP: "),
      telling(message) ? "after the reveal" : String(me.vp)));
    out.push(CB.el("p", {}, CB.el("strong", {}, "What you peeked: "), peeks(me.peeks || [])));
    return out;
  }

  function play(action) {
    if (outcomeShown) dismissed = outcomeShown;  // seen: they play on
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
      ? kinds[picked].map((a) => button(a, goblet(view, a.place), view))
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

  /* The Toast's two moments on this phone, as performance.now() times: ``told``, when it shows
     its player's own outcome (when the tablet shows their Goblet), and ``scored``, when the
     Course's scores are shown (with the tablet's). Counted from the arrival of the Toast's
     message, as the tablet counts its reveal; at once for an outcome from before the page
     opened, or one the table does not reveal Goblet by Goblet (no reveal order in the view, as
     in Russian Goblette). Null before the game's first Toast. */
  function moments(message) {
    const own = ownOutcome(message);
    if (!own) return null;
    const key = `${message.game_id}:${own.course}`;
    if (!(key in heard)) heard[key] = drawnOnce ? performance.now() : -Infinity;
    const start = heard[key];
    const view = message.view || {}, reveal = view.reveal, me = view.you;
    if (!reveal || reveal.course !== own.course || !me) return {told: start, scored: start};
    return {told: start + RevealSchedule.goblet(reveal, me.place), scored: start + RevealSchedule.scores(reveal)};
  }

  /* Whether the tablet is still revealing the Goblets before this player's own. */
  function telling(message) {
    const m = moments(message);
    return Boolean(m) && performance.now() < m.told;
  }

  /* Whether the tablet has not shown the Course's scores yet. */
  function scoring(message) {
    const m = moments(message);
    return Boolean(m) && performance.now() < m.scored;
  }

  /* The page drawn again at the next moment of the reveal still to come. */
  function atNextMoment(message) {
    clearTimeout(momentTimer);
    const m = moments(message), now = performance.now();
    const next = m ? [m.told, m.scored].filter((t) => t > now) : [];
    if (next.length) momentTimer = setTimeout(() => render(shown), Math.min(...next) - now);
  }

  function outcome(message) {
    // The player's own verdict of the latest Toast, from their seat's view: never anyone else's.
    const own = ownOutcome(message);
    const node = document.getElementById("outcome");
    const key = own ? `${message.game_id}:${own.course}` : null;
    outcomeShown = null;
    node.hidden = !own || key === dismissed;
    if (node.hidden) { document.body.dataset.outcome = ""; return; }
    if (telling(message)) {
      // The Toast is being revealed on the tablet: this phone tells its verdict with its Goblet.
      node.className = "outcome waiting";
      document.body.dataset.outcome = "waiting";
      CB.fill("outcome", CB.el("p", {class: "verdict"}, CB.el("span", {class: "shape", "aria-hidden": "true"}, "◔"),
        `The Toast! Course ${own.course}`),
        CB.el("p", {}, "The Goblets are being revealed on the table: yours is told here when its turn comes."));
      return;
    }
    outcomeShown = key;
    document.body.dataset.outcome = own.poisoned ? "poisoned" : "survived";
    // Its own Goblet's contents, as revealed (the public results' entry for the player's place),
    // and "Course N" on the Target: the page below already shows the next Course's Target.
    const results = (message.view || {}).results || [];
    const last = results[results.length - 1];
    const place = ((message.view || {}).you || {}).place;
    const goblet = last && last.course === own.course && last.places && last.places[place];
    const details = [];
    if (goblet) details.push(`your Goblet: ${Goblets.contents(goblet.contents)}`);
    if (own.target_poisoned !== undefined) details.push(`your Course ${own.course} Target ${own.target_poisoned ? "was poisoned" : "survived"}`);
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
    // A seat that ended (CB.rejoin replaced the page) draws nothing more, though a timer of the
    // reveal's moments may still fire.
    if (document.body.dataset.rejoin) { clearTimeout(momentTimer); return; }
    shown = message;  // CB.act and CB.live draw only the newest message
    const me = message.you || {};
    const view = message.view || {};
    const mine = message.to_move === me.seat && !message.over;
    document.getElementById("you-title").textContent = `You are ${me.label || "?"}`;
    // A game's last Toast names its winners: not before the tablet has shown the scores.
    // With the Course, as the next Course begins while the table reveals the last one's Toast.
    const course = Goblets.course(message);
    document.getElementById("turn").textContent = mine ? ""
      : message.over && scoring(message) ? "The Toast is being revealed on the table…"
      : [course && !message.over ? course : "", Goblets.headline(message)].filter((x) => x).join(" · ");
    banner(message, mine);
    outcome(message);
    if (!mine) picked = null;
    CB.fill("actions", actions(message));
    CB.fill("you", you(message));
    Goblets.draw(document.getElementById("drawing"), message, {mine: view.you ? view.you.place : null, phone: true});
    // The feed's scores would tell everyone's verdicts before the tablet has shown them.
    Goblets.feed(document.getElementById("feed"), scoring(message)
      ? {...message, events: (message.events || []).filter((e) => e.event !== "scored")} : message);
    atNextMoment(message);
    wasMine = mine;
    drawnOnce = true;
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
