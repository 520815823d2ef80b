/* Cena: drawing and wording shared by the tablet page (cena_table.js) and a House's phone
   (cena_seat.js). Houses sit clockwise around the table; alliance card `a` lies between House `a`
   and House `a+1` (docs/cena.md). Everything drawn comes from the snapshot's view: the public
   view has no hand, a seat's view adds that House's own hand. */
"use strict";
const Cena = (() => {
  const SUITS = ["mead", "wine", "cider", "beer"];
  const SHORT = {mead: "Me", wine: "Wi", cider: "Ci", beer: "Be"};
  /* "1 trick", "2 tricks": a count with its noun, singular for one. */
  const plural = (n, one, many) => `${n} ${Number(n) === 1 ? one : many || one + "s"}`;
  const houseName = (h) => (h === null || h === undefined ? "?" : CB.label(h));
  const playerName = (h) => (CB.players[Number(h)] || {}).name || "House " + (Number(h) + 1);
  const allianceName = (a, n) => `${playerName(a)} & ${playerName((a + 1) % n)}`;
  /* "Wine 7": a card as printed, suit then value. */
  const cardName = (name) => {
    const [suit, value] = String(name).split("-");
    return `${suit.charAt(0).toUpperCase()}${suit.slice(1)} ${value}`;
  };
  const parse = (name) => {
    const [suit, value] = String(name).split("-");
    return {suit, value: Number(value)};
  };

  /* A Toast card as HTML: suit on the left, value on the right ("as printed"). */
  function card(name, extra) {
    const c = parse(name);
    return CB.el("span", {class: `ccard suit-${c.suit} ${extra || ""}`, "data-card": name, title: name},
      CB.el("span", {class: "s"}, c.suit), CB.el("span", {class: "v"}, String(c.value)));
  }

  /* A Toast card in the SVG, centred on (x, y). */
  function svgCard(name, x, y, attrs) {
    const c = parse(name);
    // 80 wide: a suit's two letters and a 10 side by side with room between ("Me10" ran together).
    return CB.svg("g", Object.assign({transform: `translate(${x - 40} ${y - 26})`}, attrs || {}),
      CB.svg("rect", {class: `scard suit-${c.suit}`, width: 80, height: 52, rx: 7}),
      CB.svg("text", {class: "scard-suit", x: 7, y: 32, text: SHORT[c.suit] || c.suit}),
      CB.svg("text", {class: "scard-value", x: 74, y: 35, "text-anchor": "end", text: String(c.value)}));
  }

  function polar(cx, cy, r, angle) {
    return [cx + r * Math.cos(angle), cy + r * Math.sin(angle)];
  }

  /* The table: House tiles (Host seal, invitation tile, who is to move), alliance cards between
     them (combined card, tricks won), the card in front of each House and the lead suit. Between
     tricks the last trick stays drawn, faded, until the next card is played. */
  function draw(container, message) {
    if (!container) return;
    const view = message.view || {};
    const n = view.players || 0;
    if (!n) { container.replaceChildren(CB.el("p", {class: "muted"}, "No Cena game at the table.")); return; }
    const size = 680, c = size / 2;
    const svg = CB.svg("svg", {viewBox: `0 0 ${size} ${size}`, class: "cena-svg", role: "img",
      "aria-label": `Cena table with ${n} Houses`});
    svg.append(CB.svg("circle", {class: "felt", cx: c, cy: c, r: 215}));
    const angle = (h) => -Math.PI / 2 + (2 * Math.PI * h) / n;
    const trick = view.trick;
    const played = trick && trick.table.some((p) => p);
    const last = !played && view.last_trick;
    // Houses and the card in front of each.
    const tiles = [];
    for (let h = 0; h < n; h++) {
      const [x, y] = polar(c, c, 268, angle(h));
      const mover = message.to_move === h && !message.over;
      const g = CB.svg("g", {class: "house", "data-house": h});
      const info = (view.houses || [])[h] || {};
      const sub = [(CB.players[h] || {}).name ? `House ${h + 1}` : null, `${info.hand_size || 0} in hand`].filter((x) => x);
      // Who is to move, the Host House and the invitation tile: in words, never by colour alone.
      const tags = [mover ? "▶ to play" : null, view.host === h ? "Host" : null].filter((x) => x);
      const lines = [["house-name", playerName(h)], ["house-sub", sub.join(" · ")]];
      if (tags.length) lines.push(["house-tag", tags.join(" · ")]);
      const tile = CB.svg("rect", {class: "house-tile" + (mover ? " to-move" : ""), x: x - 68, y: y - 32, width: 136, height: 64, rx: 10});
      g.append(tile);
      const texts = lines.map(([cls, text]) => CB.svg("text", {class: cls, x, "text-anchor": "middle", text}));
      g.append(...texts);
      let invite = null;
      if (view.invitation === h) {
        invite = CB.svg("g", {class: "invitation", "data-invitation": h},
          CB.svg("rect", {class: "tile", width: 80, height: 26, rx: 5}),
          CB.svg("text", {class: "tile-label", x: 40, y: 18, "text-anchor": "middle", text: "invitation"}));
        g.append(invite);
      }
      tiles.push({x, y, tile, texts, invite});
      svg.append(g);
      const [px, py] = polar(c, c, 150, angle(h));
      let spot = null, faded = false;
      if (played && trick.table[h]) spot = trick.table[h];
      else if (last) { spot = last.table.find((p) => p.house === h); faded = true; }
      if (spot) {
        const cardNode = svgCard(spot.card, px, py, {"data-house-card": h, "data-card": spot.card, class: faded ? "faded" : ""});
        svg.append(cardNode);
        if (spot.played_by !== h) {
          // Who played it, on the card's side towards the table's middle: under a House below
          // the middle, the words would run into its tile.
          const towards = Math.sin(angle(h)) > 0.2 ? py - 34 : py + 44;
          svg.append(CB.svg("text", {class: "ally-label", x: px, y: towards, "text-anchor": "middle",
            text: "by " + playerName(spot.played_by), "data-played-by": spot.played_by}));
        }
      } else {
        svg.append(CB.svg("rect", {x: px - 40, y: py - 26, width: 80, height: 52, rx: 7, fill: "none",
          stroke: "#8fb59a", "stroke-dasharray": "4 4", "data-house-card": h}));
      }
    }
    // Alliance cards, between House a and House a+1.
    for (let a = 0; a < n; a++) {
      const [x, y] = polar(c, c, 212, angle(a) + Math.PI / n);
      const ally = (view.alliances || [])[a] || {};
      let combined = null;
      if (played) combined = trick.alliances[a].combined;
      else if (last) combined = last.alliances[a];
      const won = last && last.winner === a;
      const g = CB.svg("g", {class: "alliance", "data-alliance": a});
      g.append(CB.svg("rect", {class: "ally" + (won ? " won" : ""), x: x - 46, y: y - 40, width: 92, height: 80, rx: 8}));
      if (combined) g.append(svgCard(combined, x, y - 8, {class: last ? "faded" : ""}));
      g.append(CB.svg("text", {class: "house-sub", x, y: y + 33, "text-anchor": "middle", text: plural(ally.tricks || 0, "trick")}));
      svg.append(g);
    }
    let centre = ["", ""];  // two short lines: the middle of the table is narrow
    if (played) centre = [`Trick ${trick.number}`, `lead ${trick.lead_suit}`];
    else if (last) centre = [`Trick ${last.trick} won by`, allianceName(last.winner, n)];
    else if (view.phase === "welcome") centre = ["Welcome:", "choose three cards"];
    else if (view.phase === "reveal") centre = ["The Host", "reveals the poison"];
    if (message.over) centre = ["The feast", "is over"];
    centre.forEach((line, i) => svg.append(CB.svg("text", {class: "lead", x: c, y: c - 6 + 24 * i,
      "text-anchor": "middle", text: line})));
    container.replaceChildren(svg);
    tiles.forEach(fitTile);
  }

  /* Size a House's tile to its words, inside the drawing (a name is never cut off nor run into
     its neighbour's), the invitation tile hung below it. Measured once drawn: an SVG text's
     length is known only on the page. */
  function fitTile({x, y, tile, texts, invite}) {
    const SIZE = 680;
    const sizes = texts.map((t) => parseFloat(getComputedStyle(t).fontSize) || 16);
    const widths = texts.map((t) => { try { return t.getComputedTextLength(); } catch (e) { return 120; } });
    const width = Math.max(120, ...widths) + 20;
    const height = sizes.reduce((a, b) => a + b * 1.2, 0) + 12;
    const left = Math.min(Math.max(x - width / 2, 4), SIZE - width - 4);
    let top = Math.min(Math.max(y - height / 2, 4), SIZE - height - 4 - (invite ? 30 : 0));
    tile.setAttribute("x", left); tile.setAttribute("y", top);
    tile.setAttribute("width", width); tile.setAttribute("height", height);
    let baseline = top + 6;
    texts.forEach((t, i) => {
      baseline += sizes[i] * 1.2;
      t.setAttribute("x", left + width / 2); t.setAttribute("y", baseline - sizes[i] * 0.22);
    });
    top += height;
    if (invite) invite.setAttribute("transform", `translate(${left + width / 2 - 40} ${top + 2})`);
  }

  /* The trick as a list (legible on a phone): the card in front of each House, who played it. */
  function trickList(view) {
    const trick = view.trick;
    const played = trick && trick.table.some((p) => p);
    const last = !played && view.last_trick;
    if (!played && !last) return [CB.el("p", {class: "muted"}, view.phase === "feast" ? "No card on the table yet." : "No trick yet.")];
    const n = view.players;
    const rows = [];
    for (let h = 0; h < n; h++) {
      const spot = played ? trick.table[h] : last.table.find((p) => p.house === h);
      rows.push(CB.el("li", {"data-house": h}, CB.el("strong", {}, `${houseName(h)}: `),
        spot ? card(spot.card) : CB.el("span", {class: "muted"}, "—"),
        spot && spot.played_by !== h ? ` by ${houseName(spot.played_by)}` : ""));
    }
    const title = played ? `Trick ${trick.number} · lead suit: ${trick.lead_suit} · invitation: ${houseName(trick.leader)}`
      : `Last trick (${last.trick}): won by ${allianceName(last.winner, n)}`;
    return [CB.el("p", {}, title), CB.el("ul", {class: "welcome-list"}, rows)];
  }

  function poison(view) {
    const revealed = view.poisons_revealed || [];
    // Between rounds and once over, the last poison revealed stays shown (it scored the round).
    const p = view.poison || (view.phase === "reveal" ? null : revealed[revealed.length - 1]);
    if (!p) return [CB.el("p", {class: "muted"}, view.poison_pile ? `${plural(view.poison_pile, "Poison card")} face down: the Host House reveals the top one.` : "No poison yet.")];
    const earlier = revealed.filter((r) => r.number !== p.number).map((r) => `${r.number}. ${r.name}`);
    return [CB.el("div", {class: "poison-card", "data-poison": p.number},
      CB.el("div", {class: "name"}, `${p.number}. ${p.name}`), CB.el("div", {class: "text"}, p.text)),
    earlier.length ? CB.el("p", {class: "small muted"}, "Earlier rounds: " + earlier.join(", ")) : null];
  }

  function welcome(view) {
    const rows = (view.houses || []).map((h) => CB.el("li", {"data-house": h.house}, CB.el("strong", {}, houseName(h.house) + ": "),
      h.welcome ? (h.welcome.length ? h.welcome.map((name) => card(name)) : "all played")
        : (h.welcome_chosen ? "chosen (face down until all have chosen)"
          : (view.phase === "welcome" ? "choosing…" : "none this round"))));
    return [CB.el("ul", {class: "welcome-list"}, rows)];
  }

  function alliances(view) {
    const n = view.players || 0;
    return [CB.el("ul", {class: "allies"}, (view.alliances || []).map((a) => CB.el("li", {"data-alliance": a.alliance},
      CB.el("strong", {}, allianceName(a.alliance, n)), `: ${plural(a.tricks, "trick")}, ${plural(a.cards, "card")}`)))];
  }

  /* The score pad: one row per round (cards won, minus the poison's penalty), then the totals. */
  function scorePad(view, message) {
    const n = view.players || 0;
    if (!n) return [];
    const result = view.result || (message && message.outcome) || null;
    const winners = new Set(result && result.winners ? result.winners : []);
    const head = CB.el("tr", {}, CB.el("th", {}, "Round"),
      Array.from({length: n}, (_, h) => CB.el("th", {class: winners.has(h) ? "win" : ""}, (winners.has(h) ? "★ " : "") + houseName(h))));
    const rows = (view.scores || []).map((s) => CB.el("tr", {"data-round": s.round},
      CB.el("td", {}, `${s.round} (poison ${s.poison})`),
      s.houses.map((h) => CB.el("td", {class: h.points < 0 ? "neg" : "", title: `${plural(h.cards, "card")} − ${h.penalty} penalty`},
        `${h.points}`, CB.el("div", {class: "small muted"}, `${h.cards} − ${h.penalty}`)))));
    const totals = CB.el("tr", {class: "totals"}, CB.el("th", {}, "Total"),
      (view.totals || []).map((t, h) => CB.el("th", {class: (winners.has(h) ? "win " : "") + (t < 0 ? "neg" : "")}, String(t))));
    const out = [CB.el("table", {class: "pad"}, CB.el("thead", {}, head), CB.el("tbody", {}, rows, totals))];
    if (result && result.winners) {
      const names = result.winners.map(houseName).join(" and ");
      out.push(CB.el("p", {class: "winner", id: "winners"}, result.winners.length > 1
        ? `${names} share the victory: raise a toast!` : `${names} wins!`));
    }
    return out;
  }

  function turn(message) {
    const view = message.view || {};
    if (!message.game) return "No game yet: the Host starts one.";
    if (message.game !== "cena") return `The table is playing ${message.game}: the Host starts a Cena game.`;
    if (message.over) return "Game over";
    const round = `Round ${view.round} of ${view.rounds}`;
    const who = houseName(message.to_move);
    switch (view.phase) {
      case "reveal": return `${round} · ${who} (Host) reveals the poison`;
      case "welcome": return `${round} · Welcome: ${who} chooses three cards`;
      case "feast": return `${round} · Feast: ${who} to play`;
      default: return `${round} · dealing…`;
    }
  }

  function eventText(e, n) {
    switch (e.event) {
      case "poison_revealed": return `Round ${e.round}: poison ${e.number}, ${e.name} — ${e.text}`;
      case "dealt": return `Round ${e.round}: ${plural(e.hand_size, "card")} dealt to each House`;
      case "welcome_chosen": return `${houseName(e.house)} chose its Welcome cards`;
      case "welcome_revealed": return "Welcome cards placed face up";
      case "played": return `${houseName(e.house)} played ${cardName(e.card)} in front of ${houseName(e.before)}`;
      case "trick_won": return `Trick ${e.trick} won by ${n ? allianceName(e.alliance, n) : "alliance " + (e.alliance + 1)}`;
      case "round_scored": return `Round ${e.round} scored: ${e.houses.map((h) => h.points).join(" / ")}`;
      case "game_over": return `Game over: ${e.winners.map(houseName).join(", ")} won`;
      case "rule_warning": return `Rule warning (${houseName(e.house)}): ${e.message}`;
      case "poison_pile": return "Three Poison cards form the pile";
      default: return e.event;
    }
  }

  function feed(node, message) {
    if (!node) return;
    const events = (message.events || []).slice(-12).reverse();
    const n = (message.view || {}).players;
    node.replaceChildren(...events.map((e) => CB.el("li", {}, eventText(e, n))));
  }

  return {SUITS, houseName, allianceName, parse, card, svgCard, draw, trickList, poison, welcome, alliances, scorePad, turn, feed, eventText, plural, cardName};
})();
