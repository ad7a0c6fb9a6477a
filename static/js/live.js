// The live board. A board (#board) names its stream (data-live-url) and the seq it shows
// (data-seq). While the Server-Sent Events stream is alive it pushes the new board after a
// change ("board", swapped in without a request), or says it changed and the board is
// fetched ("live-changed"); whenever the stream is down, blocked by a proxy or not supported, the board polls every 2 seconds instead ("live-poll", answered 304 when
// nothing changed). Both are htmx triggers on the board element: no inline script, no eval.
(function () {
  "use strict";
  var POLL_MS = 2000;
  // The server pings every 15 s: a stream silent for longer than this is treated as dead.
  var SILENT_MS = 35000;
  var source = null;
  var lastHeard = 0;

  function board() {
    return document.getElementById("board");
  }

  // The seq of the board on screen. An action's answer swaps in only the fragments it
  // changed (htmx out-of-band swaps), among them #board-seq: the board element itself, its
  // poll URL and the seq inputs of the forms left in place keep the old one until sync().
  function currentSeq() {
    var marker = document.getElementById("board-seq");
    if (marker && marker.dataset.version) {
      return marker.dataset.version;
    }
    var el = board();
    return el ? el.dataset.seq : null;
  }

  function sync() {
    var el = board();
    var seq = currentSeq();
    if (!el || seq === null || seq === undefined) {
      return;
    }
    el.dataset.seq = seq;
    var inputs = el.querySelectorAll("input[name=seq]");
    for (var i = 0; i < inputs.length; i++) {
      inputs[i].value = seq;
    }
  }

  // The board's own fetches (poll, stream) ask for what changed since the board on screen;
  // an action from the board says which piece the board on screen has selected (the answer
  // is what changed from that board).
  document.addEventListener("htmx:configRequest", function (event) {
    var el = board();
    var seq = currentSeq();
    if (!el) {
      return;
    }
    if (event.detail.elt === el && seq !== null && event.detail.path) {
      event.detail.path = event.detail.path.replace(/([?&]since=)\d+/, "$1" + seq);
    }
    if (el.dataset.sel !== undefined && el.contains(event.detail.elt)) {
      event.detail.headers["X-Board-Sel"] = el.dataset.sel;
    }
  });
  ["htmx:oobAfterSwap", "htmx:afterSettle", "htmx:afterRequest"].forEach(function (name) {
    document.addEventListener(name, sync);
  });

  function streamAlive() {
    return source !== null && source.readyState === 1 && Date.now() - lastHeard < SILENT_MS;
  }

  function fetchBoard(kind) {
    var el = board();
    if (el && window.htmx) {
      window.htmx.trigger(el, kind);
    }
  }

  function onSeq(event) {
    lastHeard = Date.now();
    document.body.dataset.live = "sse";
    if (board() && currentSeq() !== event.data) {
      fetchBoard("live-changed");
    }
  }

  function seqOf(html) {
    var match = /data-seq="(\d+)"/.exec(html);
    return match ? match[1] : null;
  }

  // A change pushed with the board itself: swapped in as the board's own fetch would be,
  // without a request (every viewer of a change at once would be many). The pushed board is
  // the one with nothing asked for (in D&D 5e the board then selects the next piece to act
  // by itself, data-sel="*"): a board showing a piece the member selected (or nothing, on
  // their asking) fetches its own instead, ?sel= kept; a board the member already has (their
  // own action brought it) is left alone.
  function onBoard(event) {
    lastHeard = Date.now();
    document.body.dataset.live = "sse";
    var el = board();
    if (!el || !window.htmx || currentSeq() === seqOf(event.data)) {
      return;
    }
    if (el.dataset.sel !== undefined && el.dataset.sel !== "*") {
      fetchBoard("live-changed");
      return;
    }
    window.htmx.swap(el, event.data, { swapStyle: "outerHTML" });
    sync();
  }

  function connect(url) {
    source = new EventSource(url);
    source.addEventListener("board", onBoard);
    source.addEventListener("seq", onSeq);
    source.addEventListener("changed", onSeq);
    source.addEventListener("ping", onSeq);
    source.addEventListener("error", function () {
      document.body.dataset.live = "poll";
    });
  }

  function start() {
    var el = board();
    if (!el) {
      return;
    }
    document.body.dataset.live = "poll";
    if (el.dataset.liveUrl && window.EventSource) {
      connect(el.dataset.liveUrl);
    }
    window.setInterval(function () {
      if (!streamAlive()) {
        fetchBoard("live-poll");
      }
    }, POLL_MS);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
