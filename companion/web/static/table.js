/* The public tablet: redraws from every public snapshot; the Toast appears step by step. */
"use strict";
(() => {
  let revealedCourses = null;
  let shownReveal = null;
  let revealTimer = null;

  function toast(message) {
    const view = message.view || {};
    const results = view.results || [];
    if (!results.length && !(view.stage === "toast" || view.stage === "before_drinking")) {
      revealedCourses = 0;  // so the game's first Toast is a fresh one, revealed as it happens
      if (shownReveal !== null) CB.fill("toast", CB.el("p", {class: "muted"}, "No Toast yet this game."));
      shownReveal = null;
      return;
    }
    if (view.stage === "toast" || view.stage === "before_drinking") {
      // The Toast is called: said at once (the last results are a past Course's).
      if (revealedCourses === null) revealedCourses = results.length;
      CB.fill("toast", CB.el("p", {class: "toast-called"}, `The Toast! Called by ${Goblets.seatName(view.toast_caller)}: the last actions, then the reveal.`));
      shownReveal = null;
      return;
    }
    const last = results[results.length - 1];
    const key = `${message.game_id}:${results.length}`;
    if (key === shownReveal) return;  // already on screen: leave it (and its animation) alone
    shownReveal = key;
    const fresh = revealedCourses !== null && results.length > revealedCourses;
    revealedCourses = results.length;
    if (!last.places) {  // Russian Goblette: who survived the drinking, who won the Course
      clearInterval(revealTimer);
      CB.fill("toast", CB.el("p", {}, `Course ${last.course}, Toast called by ${Goblets.seatName(last.toast_caller)}`),
        CB.el("ol", {class: "reveal"}, CB.el("li", {class: "reveal-row survived"},
          `Survived: ${(last.survivors || []).map(Goblets.seatName).join(", ") || "nobody"}`),
        CB.el("li", {class: "reveal-row"}, `Won the Course: ${(last.winners || []).map(Goblets.seatName).join(", ") || "nobody"}`)));
      return;
    }
    const rows = last.places.map((p) => CB.el("li", {class: "reveal-row " + (p.poisoned ? "poisoned" : "survived")},
      CB.el("span", {class: "shape", "aria-hidden": "true"}, p.poisoned ? "☠" : "✓"),
      CB.el("strong", {}, Goblets.house(p.house).name),
      ` (${p.seats.map(Goblets.seatName).join(" & ")}): ${Goblets.contents(p.contents)} — `,
      CB.el("strong", {class: "verdict"}, p.poisoned ? "POISONED" : "SURVIVED"),
      p.target_poisoned ? " · Target poisoned" : "",
      p.most_wine ? " · most Wine" : ""));
    const list = CB.el("ol", {class: "reveal"});
    CB.fill("toast", CB.el("p", {}, `Course ${last.course}, Toast called by ${Goblets.seatName(last.toast_caller)}`), list);
    clearInterval(revealTimer);
    if (fresh) Reveal.show(message);  // the table's moment, full screen, Goblet by Goblet
    if (!fresh) { list.append(...rows); return; }
    let i = 0;  // a fresh reveal: one goblet at a time, like players turning them over
    revealTimer = setInterval(() => {
      if (i < rows.length) list.append(rows[i++]); else clearInterval(revealTimer);
    }, 900);
  }

  function scores(message) {
    const view = message.view || {};
    if (!view.places && !view.vp) { CB.fill("scores", CB.el("p", {class: "muted"}, "")); return; }
    if (!view.vp) { CB.fill("scores", CB.el("p", {class: "muted"}, "Victory Points are hidden until the end.")); return; }
    CB.fill("scores", CB.el("ul", {}, view.vp.map((vp, s) => CB.el("li", {}, `${Goblets.seatName(s)}: ${vp} VP`))),
      message.over ? CB.el("p", {class: "winner"}, Goblets.turn(message)) : null);
  }

  const CAMERA_STATUS = {"ok": "ok", "no frames": "no frames", "not calibrated": "not calibrated (the Host calibrates it)",
    "covered": "a reveal area is covered"};

  function cameraRow(message) {
    // The overhead camera's health: how it reads, never what it sees.
    const camera = message.camera;
    if (!camera) return null;
    const age = camera.last_frame === null ? "no frame yet" : `${camera.last_frame} s ago`;
    const state = camera.status === "ok" ? "online" : camera.status === "covered" ? "online" : "offline";
    return CB.el("li", {class: "reader-" + state, "data-camera": camera.status},
      `Camera: ${CAMERA_STATUS[camera.status] || camera.status} · ${camera.fps} frames/s · ${age}` +
      (camera.errors ? ` · ${camera.errors} refused frames` : ""));
  }

  const READER_SHAPE = {online: "●", virtual: "●", offline: "▲", broken: "✕"};  // as on the drawing

  function readers(message) {
    const entries = Object.entries(message.readers || {});
    const camera = cameraRow(message);
    CB.fill("readers", entries.length ? entries.map(([s, v]) => CB.el("li", {class: "reader-" + v},
      CB.el("span", {class: "shape", "aria-hidden": "true"}, READER_SHAPE[v] || "▲"), `${Goblets.seatName(Number(s))}: ${v}`))
      : camera ? [] : [CB.el("li", {class: "muted"}, message.play === "phones" ? "played on the phones (no readers)"
        : message.virtual ? "virtual table (no hardware)" : "no reader has reported yet")], camera);
  }

  const POUR_STATUS = {waiting: "Goblet still on the reader", settling: "reading…",
    settled: "settled", confirmed: "counted by hand", differs: "readers and camera differ: the Host decides"};

  const POUR_HOW = {
    readers: "Lift your Goblet, pour it out onto your reader spot in one layer, and set the empty Goblet aside. The Toast is scored once every seat's reader has settled.",
    camera: "Lift your Goblet, pour it out in front of you in one layer where the camera sees it, and set the Goblet back on its spot. The Toast is scored once the camera has counted every seat.",
  };

  function pourOut(message) {
    // The reveal: each seat's progress, and how many tokens lie on its reader (or, with the
    // camera alone, in its reveal area). With reader nodes the readers count, the camera checks.
    const seats = message.pour_out;
    document.getElementById("pour-out-panel").hidden = !seats;
    if (!seats) return;
    const byCamera = Boolean(message.camera) && !Object.keys(message.readers || {}).length;
    document.getElementById("pour-out-how").textContent = POUR_HOW[byCamera ? "camera" : "readers"];
    CB.fill("pour-out", seats.map((s) => CB.el("li", {class: "pour-" + s.status, "data-status": s.status},
      `${Goblets.seatName(s.place)}: ${(byCamera && s.status === "waiting") ? "not poured out yet" : POUR_STATUS[s.status] || s.status}` +
        (s.tokens === null ? "" : ` · ${s.tokens} token${s.tokens === 1 ? "" : "s"}`))));
  }

  function render(message) {
    const view = message.view || {};
    CB.followGame(initial, message);
    CB.joinPanel(message);
    document.getElementById("demo-banner").hidden = message.play !== "demo";
    document.getElementById("game-title").textContent = message.game
      ? [`Raise Your Goblets · game ${message.game_id}`, Goblets.course(message)].filter((x) => x).join(" · ") : "Cupbearer";
    document.getElementById("headline").textContent = Goblets.headline(message);
    Goblets.draw(document.getElementById("drawing"), message, {legend: document.getElementById("legend")});
    Goblets.feed(document.getElementById("feed"), message);
    toast(message);
    pourOut(message);
    scores(message);
    Summary.tablet(message);  // the game's end: every Course's VP (summary.js)
    readers(message);
    document.body.dataset.game = message.game_id;
    document.body.dataset.seq = message.seq;
    if (view.phase) document.body.dataset.phase = view.phase;
  }

  /* The tablet stays awake while it shows the table (where the browser offers a wake lock). */
  async function keepAwake() {
    if (!("wakeLock" in navigator)) { document.body.dataset.wakelock = "unsupported"; return; }
    try {
      const lock = await navigator.wakeLock.request("screen");
      document.body.dataset.wakelock = "held";
      lock.addEventListener("release", () => { document.body.dataset.wakelock = "released"; });
    } catch (error) {
      document.body.dataset.wakelock = "refused: " + error.name;  // e.g. a hidden tab; asked again when shown
    }
  }
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") keepAwake(); });
  keepAwake();

  const initial = CB.data("initial");
  render(initial);
  CB.live("/api/stream?viewer=public", render);
})();
