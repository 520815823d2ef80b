/* History: local times for the games' start. */
"use strict";
for (const cell of document.querySelectorAll("td.time")) {
  const t = Number(cell.dataset.t);
  if (t) cell.textContent = new Date(t * 1000).toLocaleString();
}
