/* The Toast's reveal on one schedule for every screen at the table. The tablet (reveal.js) shows
   the Goblets one by one, STEP ms apart, in the order the server's view gives (reveal.order: from
   the Toast Caller's left clockwise, the Caller's last), then the Course's VP; a phone (seat.js)
   shows its player's own outcome when the tablet shows that player's Goblet. Both pages read
   their times here, counted from the arrival of the same message, so no change to one page can
   make them drift apart. The order and the player's place are the view's: no rule here. */
"use strict";
const RevealSchedule = (() => {
  const STEP = 1000;  // ms between two Goblets: long enough to read, short enough to keep the pace

  /* When the VP are shown: after the last Goblet of the order. */
  function scores(reveal) {
    return reveal.order.length * STEP;
  }

  /* When the Goblet at ``place`` is shown, in ms from the reveal's message; a place the order
     does not reveal one by one is told with the scores. */
  function goblet(reveal, place) {
    const position = reveal.order.indexOf(place);
    return position < 0 ? scores(reveal) : position * STEP;
  }

  return {STEP, goblet, scores};
})();
