/* The table's own Character cards: a row per card, validated by the server when saved (a refusal
   names the card and the field: "cards[3].timing"). */
"use strict";
(() => {
  const vocabulary = JSON.parse(document.getElementById("vocabulary").textContent);
  const TIMING_NAMES = {course_start: "at the beginning of each Course", own_turn: "on your own turn",
    toast_phase: "in the Toast Phase", before_drinking: "before drinking", scoring_override: "at scoring",
    passive: "always (or nothing to tap)"};
  const EFFECT_NAMES = {none: "none (used at the table)", extra_toast_action: "one more final action in the Toast Phase",
    extra_action: "one more action in your turns", peek_any: "look into any Goblet", swap_any: "swap any two Goblets",
    swap_and_exchange_coasters: "everyone averts their eyes: swap and/or exchange two Coasters",
    take_token: "take a token from the pool", scoring_override: "your own scoring table"};
  let cards = [];

  const select = (cls, options, value, names) => CB.el("select", {class: cls},
    options.map((o) => CB.el("option", {value: o, selected: o === value ? "selected" : null}, names[o] || o)));

  function row(card, index) {
    const node = CB.el("fieldset", {class: "card-row game-options", "data-index": index},
      CB.el("legend", {}, `Card ${index + 1}`),
      CB.el("label", {}, "Name ", CB.el("input", {class: "c-name", value: card.name || "", maxlength: 60})),
      CB.el("label", {}, "Text ", CB.el("textarea", {class: "c-text", rows: 2}, card.text || "")),
      CB.el("label", {}, "When ", select("c-timing", vocabulary.timings, card.timing || "passive", TIMING_NAMES)),
      CB.el("label", {}, CB.el("input", {type: "checkbox", class: "c-once", checked: card.once_per_course ? "checked" : null}), " once per Course"),
      CB.el("label", {}, "Effect ", select("c-effect", Object.keys(vocabulary.effects), card.effect || "none", EFFECT_NAMES)),
      CB.el("label", {}, "Token (take a token) ", select("c-token", ["", ...vocabulary.tokens], card.token || "", {"": "—"})),
      CB.el("label", {}, "Scoring table (JSON, for 'your own scoring table') ",
        CB.el("textarea", {class: "c-override", rows: 2}, card.override ? JSON.stringify(card.override) : "")),
      CB.el("button", {type: "button", class: "small", onclick: () => { read(); cards.splice(index, 1); draw(); }}, "Remove"));
    return node;
  }

  function read() {
    cards = [...document.querySelectorAll(".card-row")].map((node) => {
      const card = {
        name: node.querySelector(".c-name").value.trim(),
        text: node.querySelector(".c-text").value.trim(),
        timing: node.querySelector(".c-timing").value,
        once_per_course: node.querySelector(".c-once").checked,
        effect: node.querySelector(".c-effect").value,
      };
      const token = node.querySelector(".c-token").value;
      if (token) card.token = token;
      const override = node.querySelector(".c-override").value.trim();
      if (override) { try { card.override = JSON.parse(override); } catch (error) { card.override = override; } }
      return card;
    });
    return cards;
  }

  function draw() {
    CB.fill("cards", cards.map(row));
    document.getElementById("deck-json").value = JSON.stringify(cards, null, 1);
  }

  document.getElementById("add-card").addEventListener("click", () => { read(); cards.push({timing: "passive", effect: "none"}); draw(); });
  document.getElementById("import").addEventListener("click", () => {
    try { cards = JSON.parse(document.getElementById("deck-json").value); CB.showError(null); draw(); }
    catch (error) { CB.showError(new Error("That is not valid JSON")); }
  });
  document.getElementById("save").addEventListener("click", async () => {
    CB.showError(null);
    document.getElementById("saved").textContent = "";
    try {
      const response = await fetch("/api/host/characters", {method: "PUT", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": CB.csrf()}, body: JSON.stringify({cards: read()})});
      const data = await response.json();
      if (!response.ok) throw Object.assign(new Error(`${data.field ? data.field + ": " : ""}${data.error}`), {data});
      cards = data.cards;
      draw();
      document.getElementById("saved").textContent = `Saved: ${cards.length} cards.`;
    } catch (error) { CB.showError(error); }
  });
  fetch("/api/host/characters", {credentials: "same-origin"}).then((r) => r.json()).then((data) => {
    cards = data.cards || [];
    if (!cards.length) cards.push({timing: "passive", effect: "none"});
    draw();
  });
})();
