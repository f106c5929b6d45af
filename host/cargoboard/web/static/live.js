// Live tables (cargoboard serve): server-sent events update each table in place.
// window.cbUpdates records when each board update was applied (t: Date.now(), key, position;
// read: when serve had read it from the board, its clock in seconds; painted: when the
// browser had painted it): the tests and bench/web.py read it.
(function () {
  "use strict";
  window.cbUpdates = [];
  window.cbShowSvg = showSvg;  // for the tests: the drawing patched as a live page does
  var root = document.querySelector("[data-stream]");
  if (!root || !window.EventSource) { return; }

  function el(section, field) { return section.querySelector('[data-f="' + field + '"]'); }
  function text(node, value) { if (node) { node.textContent = value == null ? "" : value; } }
  // a part of the page is made again only when its markup changed: an update that leaves it
  // as it was keeps its elements (a button the reader is about to press stays that button)
  function html(node, markup) {
    if (!node || node.cbMarkup === markup) { return false; }
    node.cbMarkup = markup;
    node.innerHTML = markup;
    return true;
  }
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

  // The drawing is replaced piece by piece: the new SVG is parsed apart from the page and
  // only the parts that differ (a layer, a stack's group) take the old ones' places. Put in
  // whole, the browser lays out every cube's digits again (some 250 texts), which cost
  // 15-40 ms of each update on the 2-core machine; a move changes two or three stacks.
  function sameAttrs(to, from) {
    var i, a;
    for (i = to.attributes.length - 1; i >= 0; i--) {
      a = to.attributes[i];
      if (!from.hasAttribute(a.name)) { to.removeAttribute(a.name); }
    }
    for (i = 0; i < from.attributes.length; i++) {
      a = from.attributes[i];
      if (to.getAttribute(a.name) !== a.value) { to.setAttribute(a.name, a.value); }
    }
  }
  function cellKey(n) { return n.nodeType === 1 ? n.getAttribute("data-cell") : null; }
  function patch(to, from, depth) {
    // to's children made equal to from's: a child with the same data-cell (a stack), or
    // without one at the same place, is kept if equal and patched if alike; others move in
    var a = Array.prototype.slice.call(to.childNodes);
    var b = Array.prototype.slice.call(from.childNodes);
    if (depth === 0) { to.replaceChildren.apply(to, b); return; }
    var byCell = {}, i, o, n, k, keep = [];
    for (i = 0; i < a.length; i++) {
      k = cellKey(a[i]);
      if (k !== null) { byCell[k] = a[i]; }
    }
    for (i = 0; i < b.length; i++) {
      n = b[i];
      k = cellKey(n);
      o = k !== null ? byCell[k] : (i < a.length && cellKey(a[i]) === null ? a[i] : null);
      if (k !== null) { delete byCell[k]; }
      if (!o) {
        keep.push(n);
      } else if (o.isEqualNode(n)) {
        keep.push(o);
      } else if (o.nodeType === 1 && n.nodeType === 1 && o.tagName === n.tagName) {
        sameAttrs(o, n);
        patch(o, n, depth - 1);
        keep.push(o);
      } else {
        keep.push(n);
      }
    }
    // the old children that go are taken out first: moving the kept ones past them would
    // detach and lay out again every stack after a removed one
    var kept = new Set(keep);
    for (i = 0; i < a.length; i++) {
      if (!kept.has(a[i])) { to.removeChild(a[i]); }
    }
    for (i = 0; i < keep.length; i++) {
      if (to.childNodes[i] !== keep[i]) { to.insertBefore(keep[i], to.childNodes[i] || null); }
    }
  }
  function showSvg(holder, markup) {
    var old = holder.firstElementChild, scratch = document.createElement("div");
    scratch.innerHTML = markup;
    var fresh = scratch.firstElementChild;
    if (!old || !fresh || old.tagName !== fresh.tagName || holder.childElementCount !== 1 ||
        scratch.childElementCount !== 1) {
      holder.replaceChildren.apply(holder, Array.prototype.slice.call(scratch.childNodes));
      return;
    }
    sameAttrs(old, fresh);
    patch(old, fresh, 3);
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
    if (t.svg) { showSvg(d, t.svg); }
    else if (t.position) { d.innerHTML = '<pre class="pos-text">' + esc(t.position) + "</pre>"; }
    else { d.innerHTML = '<p class="empty">' + (t.connected ? "no game on the board" : "") + "</p>"; }
    text(el(s, "phase"), t.phase || (t.game ? t.game + " " + (t.app || "") : (t.app || "")));
    var sc = el(s, "scores");
    if (sc) {
      var h = "";
      for (var i = 0; i < t.scores.length; i++) {
        h += '<span class="score" data-seat="' + esc(t.scores[i][0]) + '">' +
             esc(t.scores[i][0] + ": " + t.scores[i][1]) + "</span> ";
      }
      html(sc, h);
    }
    text(el(s, "tracker"), t.tracker || "");
    text(el(s, "mismatch"), t.mismatch_text);
    var c = el(s, "candidates");
    if (c) {
      html(c, t.candidates.length ?
        "<p>The board waits for a button: <kbd>next</kbd> shows the next move, " +
        "<kbd>confirm</kbd> takes it.</p><ol>" + list(t.candidates, t.shown) + "</ol>" : "");
    }
    var m = el(s, "moves");
    if (html(m, list(t.moves, -1))) { m.scrollTop = m.scrollHeight; }
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
      html(p, h2);
    }
    // t: applied to the page; painted: after the browser's next frame is painted (a task
    // queued from requestAnimationFrame runs after that frame's paint)
    var rec = {t: Date.now(), key: t.key, position: t.position, connected: t.connected,
               moves: t.moves.length, read: t.time, painted: null};
    window.cbUpdates.push(rec);
    requestAnimationFrame(function () {
      setTimeout(function () { rec.painted = Date.now(); }, 0);
    });
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

  // "sync now": one form per table (form.sync, data-key), on its own page and on the tables page
  function syncForm(key) {
    var forms = document.querySelectorAll("form.sync");
    for (var i = 0; i < forms.length; i++) {
      if (forms[i].getAttribute("data-key") === String(key)) { return forms[i]; }
    }
    return null;
  }
  function showSync(st) {
    var f = syncForm(st.key);
    if (!f) { return; }
    var bar = f.querySelector(".sync-bar"), label = f.querySelector(".sync-label");
    var button = f.querySelector(".sync-now");
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

  // sync now without leaving the page: its progress and result come as `sync` events; a refusal
  // (a sync running, the board not there) is said in the form's label
  document.addEventListener("submit", function (e) {
    var f = e.target;
    if (!f.classList || !f.classList.contains("sync") || !window.fetch) { return; }
    e.preventDefault();
    var label = f.querySelector(".sync-label");
    fetch(f.action, {method: "POST", body: new FormData(f),
                     headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (j) { if (j.error) { text(label, j.error); } })
      .catch(function (err) { text(label, "sync failed: " + err); });
  });

  var streamUrl = root.getAttribute("data-stream");
  var source = new EventSource(streamUrl);
  // a page left behind must give its stream back at once: a browser keeps at most 6
  // connections to one server, and a stream stays open until its page lets it go
  window.addEventListener("pagehide", function () { source.close(); });
  source.addEventListener("board", function (e) { showBoard(JSON.parse(e.data)); });
  source.addEventListener("leds", function (e) { var d = JSON.parse(e.data); showLeds(d.key, d.leds); });
  source.addEventListener("sync", function (e) { showSync(JSON.parse(e.data)); });
  function status(words) {
    var tables = document.querySelectorAll("section.table .status");
    for (var i = 0; i < tables.length; i++) { tables[i].textContent = words; }
  }
  source.onerror = function () {
    if (source.readyState !== 2 || !window.fetch) {  // (not CLOSED: the browser tries again)
      status("the server is not answering; retrying");
      return;
    }
    // CLOSED: the server answered the stream with an error (a browser does not try again),
    // e.g. a seat link's token after `cargoboard serve` was started anew (new tokens each
    // run): the page says why, in the server's words, rather than "retrying" for ever
    var ctl = window.AbortController ? new AbortController() : null;
    fetch(streamUrl, {headers: {"Accept": "application/json"}, signal: ctl ? ctl.signal : null})
      .then(function (r) {
        if (r.ok) { if (ctl) { ctl.abort(); } location.reload(); return null; }  // it answers again
        return r.json().then(function (j) {
          status("this page gets no more updates: " + (j.error || r.status) + " (a link from " +
                 "before cargoboard serve was started again is no longer valid: ask the host " +
                 "for the new one)");
        });
      })
      .catch(function () { status("the server is not answering; reload the page to try again"); });
  };
})();
