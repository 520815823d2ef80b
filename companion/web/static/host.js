/* The Host: log in with the PIN, start games, enter events by hand, undo, mark readers. */
"use strict";
(() => {
  const login = document.getElementById("login-form");
  if (login) {
    login.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await CB.post("/api/host/login", {pin: document.getElementById("pin").value});
        location.reload();
      } catch (error) { CB.showError(error); }
    });
    return;
  }
  const act = async (url, body) => {
    CB.showError(null);
    try { render(await CB.post(url, body)); } catch (error) { CB.showError(error); }
  };

  document.getElementById("undo").addEventListener("click", () => act("/api/host/undo", {}));
  document.getElementById("logout").addEventListener("click", async () => {
    await CB.post("/api/host/logout", {}); location.reload();
  });
  document.getElementById("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    let options;
    try { options = JSON.parse(document.getElementById("options").value || "{}"); }
    catch (error) { CB.showError(new Error("More options: not valid JSON")); return; }
    const game = document.getElementById("game-name").value;
    if (game === "goblets") {
      options.players = options.players || Number(document.getElementById("players").value);
      const houses = document.getElementById("houses").value.split(",").map((h) => h.trim()).filter((h) => h);
      if (houses.length) options.houses = houses;
      const variant = document.getElementById("variant").value;
      if (variant) options.variant = variant;
      options.hidden_vp = document.getElementById("hidden-vp").checked;
      if (document.getElementById("memory").checked) options.raise_your_memory = true;
      if (document.getElementById("legacy").checked) options.legacy = true;
      options.show_pourer = document.getElementById("show-pourer").checked;
    }
    if (game === "cena") Object.assign(options, cenaOptions(options));
    act("/api/host/game", {game, options});
  });
  // Cena's options (docs/cena.md): Houses 3-5, the Host House, the variants, the poison cards.
  function cenaOptions(given) {
    const value = (id) => document.getElementById(id);
    const out = {players: Number(value("cena-players").value), host: Number(value("cena-host").value)};
    if (value("cena-private").checked) out.private_feast = true;
    if (value("cena-single").checked) out.single_course = true;
    const poisons = [...document.querySelectorAll(".cena-poison:checked")].map((box) => Number(box.value));
    if (poisons.length !== 8) out.poison_cards = poisons;
    return Object.assign(out, given);  // "More options" JSON wins
  }
  const gameName = document.getElementById("game-name");
  const showOptions = () => {
    document.getElementById("goblets-options").hidden = gameName.value !== "goblets";
    document.getElementById("cena-options").hidden = gameName.value !== "cena";
  };
  gameName.addEventListener("change", showOptions);
  showOptions();
  document.getElementById("cena-first").addEventListener("click", () => {
    for (const box of document.querySelectorAll(".cena-poison")) box.checked = Number(box.value) <= 3;
  });
  document.getElementById("manual").addEventListener("submit", (event) => {
    event.preventDefault();
    let action;
    try { action = JSON.parse(document.getElementById("action").value); }
    catch (error) { CB.showError(new Error("The event is not valid JSON")); return; }
    act("/api/host/act", {action, mode: document.getElementById("mode").value});
  });

  const sensed = (input, extra) => act("/api/host/sensed", Object.assign({input}, extra || {}));
  document.getElementById("start-course").addEventListener("click", () => sensed("start_course"));
  document.getElementById("reveal").addEventListener("click", () => sensed("reveal"));
  document.getElementById("fix-layout").addEventListener("submit", (event) => {
    event.preventDefault();
    let layout;
    try { layout = JSON.parse(document.getElementById("layout").value); }
    catch (error) { CB.showError(new Error("The layout is not valid JSON")); return; }
    sensed("fix_layout", {layout});
  });

  function suggestions(message) {
    const seat = message.to_move;
    if (typeof seat !== "number") return [];
    if (message.game === "cena") {  // Cena's actions carry no seat: the House to move acts
      const kinds = [{type: "reveal_poison"}, {type: "welcome", cards: ["mead-1", "wine-1", "beer-1"]},
        {type: "play", card: "wine-7", house: seat}];
      return kinds.map((a) => CB.el("button", {class: "small", onclick: () => {
        document.getElementById("action").value = JSON.stringify(a);
      }}, a.type.replace("_", " ")));
    }
    const kinds = [{type: "pass", seat}, {type: "rotate", seat, direction: "clockwise"},
      {type: "rotate", seat, direction: "widdershins"}, {type: "peek", seat}, {type: "toast", seat}];
    return kinds.map((a) => CB.el("button", {class: "small", onclick: () => {
      document.getElementById("action").value = JSON.stringify(a);
    }}, Goblets.actionLabel(a, message.view || {})));
  }

  function readerControls(message) {
    const seats = message.seats || 0, readers = message.readers || {};
    const rows = [];
    for (let s = 0; s < seats; s++) {
      const status = readers[String(s)] || (message.virtual ? "virtual" : "unknown");
      rows.push(CB.el("li", {class: "reader-" + status}, `${Goblets.seatName(s)}: ${status} `,
        CB.el("button", {class: "small", onclick: () => act("/api/host/reader", {seat: s, status: status === "broken" ? "online" : "broken"})},
          status === "broken" ? "mark repaired" : "mark broken"),
        CB.el("button", {class: "small", onclick: async () => {
          try { await CB.post("/api/host/links", {seat: s}); CB.showError(new Error(`New link made for ${Goblets.seatName(s)}: the old one no longer works.`)); }
          catch (error) { CB.showError(error); }
        }}, "new link")));
    }
    return rows;
  }

  function render(message) {
    const cena = message.game === "cena";
    document.getElementById("turn").textContent = (cena ? Cena.turn(message) : Goblets.turn(message)) + (message.mode ? ` · mode: ${message.mode}` : "");
    if (cena) Cena.draw(document.getElementById("drawing"), message);
    else Goblets.draw(document.getElementById("drawing"), message);
    CB.fill("suggest", suggestions(message));
    CB.fill("reader-controls", readerControls(message));
    document.getElementById("undo").disabled = !message.can_undo;
    document.getElementById("sensed-panel").hidden = !message.sensed;
    CB.fill("notices", (message.notices || []).slice().reverse().map((n) => CB.el("li", {class: "notice-" + n.kind}, n.message)));
    document.body.dataset.seq = message.seq;
  }

  const initial = CB.data("initial");
  if (initial.mode) document.getElementById("mode").value = initial.mode;  // the table's mode
  render(initial);
  CB.live("/api/stream?viewer=host", render);
})();
