/* The Host: log in with the PIN, start games from a form (game, how it is played, players and
   their names, options with their rulebook meaning), free a lost phone's seat, switch the demo,
   enter events by hand as buttons, fix the layout by tapping, undo. Anything that discards play
   asks first. */
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

  const $ = (id) => document.getElementById(id);
  const TITLES = {goblets: "Raise Your Goblets", tribunal: "The Gods Will Have Blood", cena: "Cena"};
  const PLAY_NAMES = {phones: "On the phones (each player taps their own actions)",
    readers: "With the reader nodes (the table is read)", camera: "With the overhead camera"};
  const PLAY_NOTES = {readers: "no reader nodes are connected (companion serve --mqtt or --serial)",
    camera: "no overhead camera is configured (companion serve --camera)"};
  const HOUSE_IDS = Object.keys(Goblets.HOUSES);
  const {plays, sensed} = JSON.parse($("plays").textContent);
  let current = null;
  let shownJoin = null;
  let proposal = null;  // the layout being fixed: place -> ring
  let picked = null;

  const act = (url, body) => CB.act(url, body, render);

  /* A person's unfinished game is discarded only once the Host says yes. */
  async function confirmAbandon(what) {
    const m = current || {};
    if (!m.game_id || m.over || m.play === "demo") return {};
    const ok = await CB.confirm(`${what} abandons game ${m.game_id} (${TITLES[m.game] || m.game}), which is still in play. Go on?`);
    return ok ? {abandon: m.game_id} : null;
  }

  // -- the new game form --------------------------------------------------------------------

  const game = () => $("game-name").value;
  function seatCount() {
    if (game() === "cena") return Number($("cena-players").value);
    if (game() === "tribunal") return 1;
    return Math.max(2, Math.min(12, Number($("players-count").value) || 4));
  }
  function variant() {
    const n = seatCount();
    return n <= 3 ? "russian_goblette" : n <= 6 ? "standard" : "winetasters";
  }

  function playOptions() {
    const allowed = plays[game()] || ["phones"];
    CB.fill("play", allowed.map((p) => {
      const blocked = (p === "readers" || p === "camera") && !sensed.includes(p);
      return CB.el("option", {value: p, disabled: blocked ? "disabled" : null}, PLAY_NAMES[p] + (blocked ? " — " + PLAY_NOTES[p] : ""));
    }));
    $("play").value = "phones";
  }

  function seatRows() {
    const typed = [...document.querySelectorAll(".seat-name")].map((input) => input.value);
    const houses = [...document.querySelectorAll(".seat-house")].map((select) => select.value);
    const n = seatCount();
    const standard = game() === "goblets" && variant() === "standard";
    const rows = [];
    for (let s = 0; s < n; s++) {
      const label = game() === "tribunal" ? "The Judge" : game() === "cena" ? `House ${s + 1}` : `Seat ${s + 1}`;
      const row = CB.el("div", {class: "row seat-row"}, CB.el("span", {class: "seat-row-label"}, label),
        CB.el("input", {class: "seat-name", "aria-label": `${label}: name`, maxlength: 24, placeholder: "name (optional)", value: typed[s] || ""}));
      if (standard) {
        row.append(CB.el("select", {class: "seat-house", "aria-label": `${label}: House`},
          HOUSE_IDS.map((h) => CB.el("option", {value: h, selected: (houses[s] || HOUSE_IDS[s]) === h ? "selected" : null}, Goblets.HOUSES[h].name))));
      }
      rows.push(row);
    }
    CB.fill("seat-rows", rows);
    const hostLabel = game() === "cena" ? "Host House (the House that most recently poisoned someone)"
      : "Host (the player who most recently called a toast)";
    $("host-row").firstChild.textContent = hostLabel + " ";
    $("host-row").hidden = game() === "tribunal";
    const before = $("host-seat").value;
    const hosts = Array.from({length: n}, (_, s) => CB.el("option", {value: s}, typed[s] || (game() === "cena" ? `House ${s + 1}` : `Seat ${s + 1}`)));
    // Cena's setup: "(or randomly if there is no evidence)" -- the engine draws it (journaled chance).
    if (game() === "cena") hosts.push(CB.el("option", {value: "random"}, "Random (no evidence)"));
    CB.fill("host-seat", hosts);
    const keep = before === "random" ? game() === "cena" : before !== "" && Number(before) < n;
    $("host-seat").value = keep ? before : "0";
  }

  function showOptions() {
    for (const set of document.querySelectorAll("fieldset[data-game]")) set.hidden = set.dataset.game !== game();
    const v = variant();
    const notes = {standard: "4 to 6 players: one Goblet each.",
      winetasters: "7 to 12 players: Winetasters, in pairs of a Noble and their Winetaster (VP are kept in the open).",
      russian_goblette: "2 or 3 players: Russian Goblette, six Goblets in a row, no Characters and no rings."};
    $("variant-note").textContent = notes[v];
    const russian = v === "russian_goblette";
    for (const id of ["characters", "memory", "legacy", "hidden-vp", "show-pourer", "courses"]) {
      $(id).closest("label").hidden = russian;
    }
    if (russian) $("characters").value = "none";
    $("hidden-vp").checked = v === "standard";  // Winetasters: "You don't need to keep your VPs behind the screen."
    seatRows();
  }

  function gobletsOptions() {
    const n = seatCount(), v = variant();
    const out = {players: n, host: Number($("host-seat").value)};
    if (v === "russian_goblette") return out;
    Object.assign(out, {
      characters: $("characters").value,
      hidden_vp: $("hidden-vp").checked,
      show_pourer: $("show-pourer").checked,
      courses: Number($("courses").value) || 3,
    });
    if ($("memory").checked) out.raise_your_memory = true;
    if ($("legacy").checked) out.legacy = true;
    if (v === "standard") out.houses = [...document.querySelectorAll(".seat-house")].map((select) => select.value);
    return out;
  }

  function cenaOptions() {
    const host = $("host-seat").value;
    const out = {players: seatCount(), host: host === "random" ? "random" : Number(host)};
    if ($("cena-private").checked) out.private_feast = true;
    if ($("cena-single").checked) out.single_course = true;
    const poisons = [...document.querySelectorAll(".cena-poison:checked")].map((box) => Number(box.value));
    if (poisons.length !== 8) out.poison_cards = poisons;
    return out;
  }

  $("new-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    CB.showError(null);
    let extra;
    try { extra = JSON.parse($("options").value || "{}"); }
    catch (error) { CB.showError(new Error("More options: not valid JSON")); return; }
    const name = game();
    const options = name === "goblets" ? gobletsOptions() : name === "cena" ? cenaOptions()
      : {second_draw: $("second-draw").value, missing_reds: $("missing-reds").value};
    const names = [...document.querySelectorAll(".seat-name")].map((input) => input.value.trim());
    const confirmed = await confirmAbandon("Starting a new game");
    if (confirmed === null) return;
    const ok = await act("/api/host/game", Object.assign({game: name, play: $("play").value,
      options: Object.assign(options, extra), names}, confirmed));
    if (ok) window.scrollTo(0, 0);
  });
  $("game-name").addEventListener("change", () => { playOptions(); showOptions(); });
  $("players-count").addEventListener("input", showOptions);
  $("cena-players").addEventListener("change", seatRows);
  $("seat-rows").addEventListener("input", () => {
    const names = [...document.querySelectorAll(".seat-name")].map((input) => input.value.trim());
    [...$("host-seat").options].forEach((option, s) => {
      if (option.value === "random") return;
      option.textContent = names[s] || (game() === "cena" ? `House ${s + 1}` : `Seat ${s + 1}`);
    });
  });
  $("cena-first").addEventListener("click", () => {
    for (const box of document.querySelectorAll(".cena-poison")) box.checked = Number(box.value) <= 3;
  });
  fetch("/api/host/characters", {credentials: "same-origin"}).then((r) => r.json()).then((data) => {
    if (data.cards && data.cards.length) {
      $("characters-table").disabled = false;
      $("characters-table").textContent = `Our Character cards (${data.cards.length})`;
    }
  }).catch(() => {});

  // -- the table now ------------------------------------------------------------------------

  $("undo").addEventListener("click", () => act("/api/host/undo", {}));
  $("logout").addEventListener("click", async () => { await CB.post("/api/host/logout", {}); location.reload(); });
  $("demo-toggle").addEventListener("click", async () => {
    const on = !(current || {}).demo;
    const confirmed = on ? await confirmAbandon("Turning the demo on") : {};
    if (confirmed === null) return;
    act("/api/host/demo", Object.assign({on}, confirmed));
  });

  function players(message) {
    return (message.players || []).map((p) => CB.el("li", {class: p.taken ? "taken" : "free", "data-seat": p.seat},
      p.taken ? `${p.label} ✓ ` : `${p.label}: free `,
      p.taken ? CB.el("button", {class: "small", onclick: async () => {
        if (await CB.confirm(`Free ${p.label}'s seat? Their phone loses it at once; they join again with the code.`)) {
          act("/api/host/seats/free", {seat: p.seat});
        }
      }}, "Free this seat") : null));
  }

  async function joinCode(message) {
    const key = `${message.game_id}:${message.joinable}`;
    if (key === shownJoin) return;
    shownJoin = key;
    if (!message.joinable) { CB.fill("host-join"); return; }
    try {
      const join = await (await fetch("/api/host/join", {credentials: "same-origin"})).json();
      if (!join.code) { CB.fill("host-join"); return; }
      const qr = CB.el("div", {class: "qr-code"});
      qr.innerHTML = join.qr;  // segno's SVG, made by the server
      CB.fill("host-join", CB.el("div", {class: "join-body"}, qr,
        CB.el("p", {}, "Join code ", CB.el("strong", {class: "join-code"}, join.code), " — also on the Table page")));
    } catch (error) { /* shown again on the next message */ }
  }

  // -- events by hand ------------------------------------------------------------------------

  function suggestions(message) {
    // The Host's view lists the legal actions the Host may enter by hand (goblets/views.py
    // host_entries): what the table sees, never a pour, a Toast or an ability.
    const view = message.view || {};
    if (message.game !== "goblets" || !view.places || message.over) return [];
    return (view.entries || []).map((a) => CB.el("button", {class: "small", "data-type": a.type, onclick: () =>
      act("/api/host/act", {action: a, mode: $("mode").value})}, Goblets.actionLabel(a, view)));
  }

  $("manual").addEventListener("submit", (event) => {
    event.preventDefault();
    let action;
    try { action = JSON.parse($("action").value); }
    catch (error) { CB.showError(new Error("The event is not valid JSON")); return; }
    act("/api/host/act", {action, mode: $("mode").value});
  });

  // -- the sensed table ------------------------------------------------------------------------

  let lastPourKey = null;
  const sensedInput = (input, extra) => act("/api/host/sensed", Object.assign({input}, extra || {}));
  $("start-course").addEventListener("click", () => sensedInput("start_course"));
  $("reveal").addEventListener("click", () => sensedInput("reveal"));
  $("confirm-all").addEventListener("click", () => sensedInput("confirm_all"));

  const KINDS = ["wine", "poison", "antidote", "unicorn_antidote", "ogre_poison"];
  function pourOutSeats(message) {
    // A seat's hand count: one number per kind, sent as {input: "confirm", place, counts}.
    return (message.pour_out || []).map((seat) => {
      const label = `${Goblets.seatName(seat.place)}: ${seat.status}` + (seat.tokens === null ? "" : ` · ${seat.tokens} read`);
      if (seat.status === "confirmed" || seat.status === "settled") return CB.el("li", {"data-status": seat.status}, label);
      const inputs = KINDS.map((kind) => CB.el("label", {class: "small"}, kind.replace("_", " ") + " ",
        CB.el("input", {type: "number", min: "0", max: "52", value: "0", name: kind, class: "count"})));
      const form = CB.el("form", {class: "row", "data-place": String(seat.place)}, ...inputs,
        CB.el("button", {type: "submit"}, "Count by hand"),
        CB.el("button", {type: "button", class: "as-read"}, "Take as read"));
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        const counts = {};
        form.querySelectorAll("input.count").forEach((i) => { counts[i.name] = Number(i.value) || 0; });
        sensedInput("confirm", {place: seat.place, counts});
      });
      form.querySelector(".as-read").addEventListener("click", () => sensedInput("confirm", {place: seat.place}));
      return CB.el("li", {"data-status": seat.status}, label, form);
    });
  }
  // Readers and camera disagree (a game played with the readers, the camera as their witness):
  // the two layouts (public: who stands where), or at the reveal a seat's two counts, and a tap.
  function fusionItems(message) {
    const fusion = message.fusion || {};
    const items = [];
    const named = (layout) => Object.keys(layout).sort().map((s) =>
      `${Goblets.seatName(Number(s))}: ${Goblets.house(layout[s]).name}`).join(", ");
    const counted = (counts) => KINDS.filter((k) => counts[k]).map((k) => `${counts[k]} ${k.replace("_", " ")}`).join(", ") || "nothing";
    if (fusion.layouts) {
      const c = fusion.layouts;
      const seats = c.seats.map((s) => Goblets.seatName(s)).join(" & ");
      items.push(CB.el("li", {"data-fusion": "layout"}, `At ${seats}. Readers: ${named(c.readers)}. Camera: ${named(c.camera)}.`,
        CB.el("div", {class: "row"},
          CB.el("button", {type: "button", onclick: () => sensedInput("settle", {source: "readers"})}, "The readers are right"),
          CB.el("button", {type: "button", onclick: () => sensedInput("settle", {source: "camera"})}, "The camera is right"))));
    }
    (fusion.counts || []).forEach((d) => {
      items.push(CB.el("li", {"data-fusion": "count", "data-place": String(d.place)},
        `${Goblets.seatName(d.place)} poured out: readers ${counted(d.readers)}; camera ${counted(d.camera)}.`,
        CB.el("div", {class: "row"},
          CB.el("button", {type: "button", onclick: () => sensedInput("pick", {place: d.place, source: "readers"})}, "Take the readers' count"),
          CB.el("button", {type: "button", onclick: () => sensedInput("pick", {place: d.place, source: "camera"})}, "Take the camera's count"))));
    });
    return items;
  }

  $("fix-layout").addEventListener("click", () => {
    if (!proposal) return;
    const layout = {};
    proposal.forEach((ring, place) => { if (ring) layout[String(place)] = ring; });
    proposal = null;
    sensedInput("fix_layout", {layout});
  });

  function layoutFix(message) {
    const view = message.view || {};
    if (!view.places) return [];
    if (!proposal || proposal.length !== view.places.length) proposal = view.places.map((p) => p.ring);
    return view.places.map((place, i) => CB.el("li", {}, CB.el("button", {
      class: "small" + (picked === i ? " picked" : ""), "data-place": i,
      onclick: () => {
        if (picked === null) picked = i;
        else { [proposal[picked], proposal[i]] = [proposal[i], proposal[picked]]; picked = null; }
        CB.fill("layout-fix", layoutFix(message));
      }}, `${Goblets.house(place.house).name}'s place: ${proposal[i] ? Goblets.house(proposal[i]).name + "'s Goblet" : "no ring"}`)));
  }

  function readerControls(message) {
    const seats = message.seats || 0, readers = message.readers || {};
    if (message.play === "phones" && !Object.keys(readers).length) {
      return [CB.el("li", {class: "muted"}, "This game is played on the phones: no reader is used.")];
    }
    // A camera game, or the demo table played for the camera: the camera is the only sensor.
    const byCamera = message.play === "camera" || (message.play === "demo" && message.camera);
    if (byCamera && !Object.keys(readers).length) {
      return [CB.el("li", {class: "muted"}, "This game is read by the overhead camera: no reader is used.")];
    }
    const rows = [];
    for (let s = 0; s < seats; s++) {
      const status = readers[String(s)] || (message.virtual ? "virtual" : "unknown");
      rows.push(CB.el("li", {class: "reader-" + status}, `${CB.label(s)}: ${status} `,
        CB.el("button", {class: "small", onclick: () => act("/api/host/reader", {seat: s, status: status === "broken" ? "online" : "broken"})},
          status === "broken" ? "mark repaired" : "mark broken")));
    }
    return rows;
  }

  // -- the overhead camera -------------------------------------------------------------------

  const CAMERA_STATUS = {"ok": "reading the table", "no frames": "gives no frames",
    "not calibrated": "not calibrated: calibrate the camera", "covered": "a reveal area is covered"};

  let cameraViewAsked = false;

  // The calibration's warning (the outline only, or a camera that clips the cloth) stays in view
  // until the camera is calibrated again.
  function showCameraWarning(warning) {
    $("camera-warning").textContent = warning ? "Warning: " + warning : "";
    $("camera-warning").hidden = !warning;
  }

  function cameraPanel(message) {
    const health = message.camera;
    $("camera-panel").hidden = !health;
    if (!health) return;
    if (!cameraViewAsked) {  // the calibration's warning, once per page (a reload shows it again)
      cameraViewAsked = true;
      fetch("/api/host/camera", {credentials: "same-origin"})
        .then((r) => (r.ok ? r.json() : null))
        .then((view) => { if (view) showCameraWarning(view.warning); });
    }
    const age = health.last_frame === null ? "no frame yet" : `last frame ${health.last_frame} s ago`;
    $("camera-status").textContent = `The camera ${CAMERA_STATUS[health.status] || health.status} · ${health.fps} frames/s · ${age} · ${health.errors} refused frames`;
  }

  // The frame is fetched, not linked, so that a refusal is read, not drawn as a broken picture:
  // while a game is in play the server refuses it (the Arm's Length Rule: from above the camera
  // sees into the Goblets and behind the screens, and the Host is a player).
  async function showFrame() {
    const img = $("camera-frame"), note = $("camera-frame-note");
    const reply = await fetch("/api/host/camera/frame.jpg?at=" + Date.now(),  // a fresh frame
      {credentials: "same-origin"});
    if (!reply.ok) {
      const data = await reply.json().catch(() => ({error: reply.statusText}));
      img.hidden = true;
      img.removeAttribute("src");
      note.textContent = "No frame: " + data.error + (data.rule ? ". " + data.rule : "");
      note.hidden = false;
      return;
    }
    const blob = await reply.blob();
    img.src = await new Promise((resolve) => {  // a data: URL (the page's CSP allows no blob:)
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result);
      reader.readAsDataURL(blob);
    });
    note.hidden = true;
    img.style.maxWidth = "100%";  // the frame fits the panel (set here: no inline styles)
    img.hidden = false;
  }

  async function calibrateCamera(acceptEllipse) {
    CB.showError(null);
    try {
      const found = await CB.post("/api/host/camera/calibrate", {accept_ellipse: acceptEllipse});
      const markers = Object.keys(found.markers).length;
      // The calibration may have lowered a clipping Pi camera's exposure itself: say so.
      const exposure = found.exposure ? ` Exposure: ${found.exposure}.` : "";
      $("camera-result").textContent = `Calibrated (${found.method}): ${markers} of 4 markers found, ${found.seats.length} seats.${exposure}`;
      showCameraWarning(found.warning);
      $("camera-ellipse").hidden = true;
      showFrame();
    } catch (error) {
      const noMarkers = Boolean(error && error.data && error.data.field === "accept_ellipse");
      // The API's words name its JSON flag; the page names its button instead.
      if (noMarkers) {
        $("camera-result").textContent = "The four markers were not all found: clear them and " +
          "calibrate again, or tap “Use the table's outline instead” (right only for a camera " +
          "looking straight down).";
      } else {
        CB.showError(error);
      }
      $("camera-ellipse").hidden = !noMarkers;
    }
  }

  $("camera-calibrate").addEventListener("click", () => calibrateCamera(false));
  $("camera-ellipse").addEventListener("click", () => calibrateCamera(true));
  $("camera-look").addEventListener("click", showFrame);

  function render(message) {
    if (!current || current.game_id !== message.game_id) {
      if (message.mode) $("mode").value = message.mode;  // a new game: its own mode
      proposal = null;
    }
    current = message;
    const cena = message.game === "cena";
    const title = message.game ? `${TITLES[message.game] || message.game} · game ${message.game_id}` : "No game";
    const how = message.play === "demo" ? " · the demo table" : message.mode ? ` · ${message.mode}` : "";
    $("turn").textContent = `${title}${how} — ${cena ? Cena.turn(message) : Goblets.turn(message)}`;
    if (cena) Cena.draw($("drawing"), message);
    else if (message.game === "goblets") Goblets.draw($("drawing"), message);
    else CB.fill("drawing");
    CB.fill("players", players(message));
    joinCode(message);
    $("demo-switch").hidden = !message.demo_available;
    $("demo-toggle").textContent = message.demo ? "Turn the demo table off" : "Turn the demo table on";
    CB.fill("suggest", suggestions(message));
    $("manual-who").textContent = typeof message.to_move === "number" && !message.over ? `For ${CB.label(message.to_move)}:` : "";
    CB.fill("reader-controls", readerControls(message));
    cameraPanel(message);
    $("undo").disabled = !message.can_undo;
    $("sensed-panel").hidden = !message.sensed;
    if (message.sensed) CB.fill("layout-fix", layoutFix(message));
    $("pour-out-host").hidden = !message.pour_out;
    // Re-drawn only when the statuses change, so a count being typed in is not wiped.
    const pourKey = JSON.stringify((message.pour_out || []).map((s) => s.status));
    if (message.pour_out && pourKey !== lastPourKey) CB.fill("pour-out-seats", pourOutSeats(message));
    lastPourKey = pourKey;
    const fusion = fusionItems(message);
    $("fusion-host").hidden = !fusion.length;
    CB.fill("fusion-list", fusion);
    CB.fill("notices", (message.notices || []).slice().reverse().map((n) => CB.el("li", {class: "notice-" + n.kind}, n.message)));
    document.body.dataset.seq = message.seq;
    document.body.dataset.game = message.game_id;
  }

  const initial = CB.data("initial");
  playOptions();
  showOptions();
  render(initial);
  CB.live("/api/stream?viewer=host", render);
})();
