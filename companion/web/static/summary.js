/* The end of a game of Raise Your Goblets in one table: each player's Victory Points Course by
   Course, the total and who won ("the player with the most VP wins"), as the public view gives
   them (each Course's result, the standings and the winners): nothing is summed or ruled here but
   the row each number goes in. Shown on the tablet when the game ends, and at the last step of a
   replay. With hidden VP, a Course's VP stay hidden until the view shows them. */
"use strict";
const Summary = (() => {
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many || one + "s"}`;

  /* The per-Course score table of ``view`` (a public Goblets view), or null without places. */
  function table(view, name) {
    const results = (view.results || []).filter((r) => r.places);
    if (!view.places || !results.length) return null;
    const seats = view.places.flatMap((p) => p.seats).sort((a, b) => a - b);
    const winners = new Set(view.winners || []);
    // "Course" once over its columns and each Course's number under it: the words fit a phone's
    // narrow columns whole ("Course 1" in each broke as "Cour|se 1").
    const head = [
      CB.el("tr", {}, CB.el("th", {scope: "col", rowspan: 2}, "Player"),
        CB.el("th", {scope: "colgroup", colspan: results.length, class: "courses"}, "Course"),
        CB.el("th", {scope: "col", rowspan: 2}, "Total")),
      CB.el("tr", {}, results.map((r) => CB.el("th", {scope: "col", "aria-label": `Course ${r.course}`}, String(r.course)))),
    ];
    const rows = seats.map((s) => {
      const survived = (r) => (r.places.find((p) => p.seats.includes(s)) || {}).poisoned ? "☠" : "✓";
      return CB.el("tr", {"data-seat": s, class: winners.has(s) ? "win" : ""},
        CB.el("th", {scope: "row"}, (winners.has(s) ? "★ " : "") + name(s)),
        results.map((r) => CB.el("td", {"data-course": r.course},
          CB.el("span", {class: "shape", "aria-label": survived(r) === "☠" ? "poisoned" : "survived"}, survived(r)),
          r.vp ? ` +${r.vp[s]}` : " hidden")),
        CB.el("td", {class: "total"}, view.vp ? String(view.vp[s]) : "hidden"));
    });
    return CB.el("table", {class: "summary-table"}, CB.el("thead", {}, ...head), CB.el("tbody", {}, rows));
  }

  /* The game's end in words and the table: who won, then each Course's VP. */
  function goblets(view, name) {
    const winners = (view.winners || []).map(name);
    const words = !winners.length ? "The feast is over."
      : winners.length === 1 ? `${winners[0]} wins the feast!` : `${winners.join(" and ")} share the victory!`;
    const courses = (view.results || []).length;
    return [CB.el("h2", {class: "summary-winner"}, words),
      CB.el("p", {}, `${plural(courses, "Course")} played. ✓ survived, ☠ poisoned; each Course's Victory Points, then the total.`),
      table(view, name)];
  }

  /* The tablet at a game's end (table.js): the summary above the table, until a new game. */
  function tablet(message) {
    const node = document.getElementById("summary");
    if (!node) return;
    const view = message.view || {};
    const shown = Boolean(message.over && view.places && (view.results || []).length);
    node.hidden = !shown;
    if (!shown) { node.replaceChildren(); delete document.body.dataset.summary; return; }
    const key = `${message.game_id}:${message.seq}`;
    if (node.dataset.key === key) return;
    node.dataset.key = key;
    node.replaceChildren(CB.el("h1", {}, `Game ${message.game_id}: the end of the feast`), ...goblets(view, CB.label),
      CB.el("p", {}, CB.el("a", {class: "button", href: `/history/${message.game_id}`}, "Replay this game")));
    document.body.dataset.summary = "shown";
  }

  return {goblets, table, tablet, plural};
})();
