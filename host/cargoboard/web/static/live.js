// Live tables (cargoboard serve): server-sent events update each table in place.
// window.cbUpdates records when each board update was applied (Date.now(), key, position;
// read: when serve had read it from the board, its clock in seconds):
// the tests and bench/web.py read it.
(function () {
  "use strict";
  window.cbUpdates = [];
  var root = document.querySelector("[data-stream]");
  if (!root || !window.EventSource) { return; }

  function el(section, field) { return section.querySelector('[data-f="' + field + '"]'); }
  function text(node, value) { if (node) { node.textContent = value == null ? "" : value; } }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c];
    });
  }
  function list(items, shown) {
    var out = "";
    for (var i = 0; i < items.length; i++) {
      out += '<li class="' + (i === shown ? "shown" : "") + '">' + esc(items[i]) + "</li>";
    }
    return out;
  }

  function showBoard(t) {
    var s = document.getElementById("table-" + t.key);
    if (!s) {
      // a board found after this page was made: the page is made again with it
      if (root.getAttribute("data-stream") === "/events") { location.reload(); }
      return;
    }
    s.className = "table " + (t.connected ? "on" : "off");
    text(el(s, "board"), t.board || "");
    text(el(s, "status"), t.status);
    var d = el(s, "svg");
    if (t.svg) { d.innerHTML = t.svg; }
    else if (t.position) { d.innerHTML = '<pre class="pos-text">' + esc(t.position) + "</pre>"; }
    else { d.innerHTML = '<p class="empty">' + (t.connected ? "no game on the board" : "") + "</p>"; }
    text(el(s, "phase"), t.phase || (t.game ? t.game + " " + (t.app || "") : (t.app || "")));
    var sc = el(s, "scores");
    if (sc) {
      var h = "";
      for (var i = 0; i < t.scores.length; i++) {
        h += '<span class="score" data-seat="' + esc(t.scores[i][0]) + '">' +
             esc(t.scores[i][0] + " " + t.scores[i][1]) + "</span> ";
      }
      sc.innerHTML = h;
    }
    text(el(s, "tracker"), t.tracker || "");
    var c = el(s, "candidates");
    if (c) {
      c.innerHTML = t.candidates.length ?
        "<p>The board waits for a button: <kbd>next</kbd> shows the next move, " +
        "<kbd>confirm</kbd> takes it.</p><ol start=\"0\">" + list(t.candidates, t.shown) + "</ol>" : "";
    }
    var m = el(s, "moves");
    if (m) { m.innerHTML = list(t.moves, -1); m.scrollTop = m.scrollHeight; }
    text(el(s, "position"), t.position || "");
    text(el(s, "notice"), t.notice || "");
    var p = el(s, "private");
    if (p) {
      var h2 = t.private.length ? "<h3>Your hand (seat " + esc(t.seat) + ")</h3><ul>" +
        list(t.private, -1) + "</ul>" : "";
      var act = root.getAttribute("data-act"), csrf = document.querySelector('meta[name="cb-csrf"]');
      for (var a = 0; a < (t.actions || []).length; a++) {
        h2 += '<form method="post" class="act" action="' + esc(act) + '"><input type="hidden" ' +
          'name="csrf" value="' + esc(csrf ? csrf.content : "") + '"><button type="submit" ' +
          'name="command" value="' + esc(t.actions[a][1]) + '">' + esc(t.actions[a][0]) +
          "</button></form>";
      }
      p.innerHTML = h2;
    }
    window.cbUpdates.push({t: Date.now(), key: t.key, position: t.position,
                           connected: t.connected, moves: t.moves.length, read: t.time});
  }

  // The LED mirror: 11 x 11 cells and the four score bars round them (firmware/hal/__init__.py).
  function ledPlaces() {
    var out = [];
    for (var c = 0; c < 121; c++) { out.push([1 + c % 11, 11 - Math.floor(c / 11)]); }
    for (var k = 0; k < 9; k++) { out.push([2 + k, 12]); }   // S: west -> east
    for (k = 0; k < 9; k++) { out.push([0, 2 + k]); }        // W: north -> south
    for (k = 0; k < 9; k++) { out.push([10 - k, 0]); }       // N: east -> west
    for (k = 0; k < 9; k++) { out.push([12, 10 - k]); }      // E: south -> north
    return out;
  }
  var PLACES = ledPlaces();
  function shade(r, g, b) {
    // the board's LEDs are dimmed (brightness cap): scale up for the screen, keep the hue
    var m = Math.max(r, g, b);
    if (!m) { return "#222"; }
    var k = 255 / m * (0.35 + 0.65 * Math.min(1, m / 96));
    return "rgb(" + Math.round(r * k) + "," + Math.round(g * k) + "," + Math.round(b * k) + ")";
  }
  function showLeds(key, hex) {
    var s = document.getElementById("table-" + key);
    var svg = s && el(s, "leds");
    if (!svg) { return; }
    if (!svg.childNodes.length) {
      var h = "";
      for (var i = 0; i < PLACES.length; i++) {
        h += '<circle r="4.2" cx="' + (PLACES[i][0] * 10 + 5) + '" cy="' + (PLACES[i][1] * 10 + 5) + '"/>';
      }
      svg.innerHTML = h;
    }
    var dots = svg.childNodes;
    for (var j = 0; j < dots.length && 6 * j + 5 < hex.length; j++) {
      var o = 6 * j;
      dots[j].setAttribute("fill", shade(parseInt(hex.substr(o, 2), 16),
        parseInt(hex.substr(o + 2, 2), 16), parseInt(hex.substr(o + 4, 2), 16)));
    }
    svg.setAttribute("data-updated", String(Date.now()));
  }

  function showSync(st) {
    var bar = document.getElementById("sync-bar"), label = document.getElementById("sync-label");
    var button = document.getElementById("sync-now");
    if (!bar) { return; }
    bar.max = st.total || 1;
    bar.value = st.running ? st.done : (st.total || 1);
    text(label, st.running ? (st.label || "syncing") + " " +
         Math.round(100 * st.done / (st.total || 1)) + " %" : st.result);
    if (button) { button.disabled = !!st.running; }
  }

  // a seat's own actions (play a card): sent without leaving the page
  document.addEventListener("submit", function (e) {
    var f = e.target;
    if (!f.classList || !f.classList.contains("act") || !window.fetch) { return; }
    e.preventDefault();
    var data = new FormData(f);
    data.append("command", e.submitter ? e.submitter.value : f.querySelector("button").value);
    fetch(f.action, {method: "POST", body: data, headers: {"Accept": "application/json"}});
  });

  var form = document.getElementById("sync-form");
  if (form && window.fetch) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var label = document.getElementById("sync-label");
      fetch(form.action, {method: "POST", body: new FormData(form),
                          headers: {"Accept": "application/json"}})
        .then(function (r) { return r.json(); })
        .then(function (j) { if (j.error) { text(label, j.error); } })
        .catch(function (err) { text(label, "sync failed: " + err); });
    });
  }

  var source = new EventSource(root.getAttribute("data-stream"));
  // a page left behind must give its stream back at once: a browser keeps at most 6
  // connections to one server, and a stream stays open until its page lets it go
  window.addEventListener("pagehide", function () { source.close(); });
  source.addEventListener("board", function (e) { showBoard(JSON.parse(e.data)); });
  source.addEventListener("leds", function (e) { var d = JSON.parse(e.data); showLeds(d.key, d.leds); });
  source.addEventListener("sync", function (e) { showSync(JSON.parse(e.data)); });
  source.onerror = function () {
    var tables = document.querySelectorAll("section.table .status");
    for (var i = 0; i < tables.length; i++) { tables[i].textContent = "the server is not answering; retrying"; }
  };
})();
