// The console's behaviour: data attributes only (no inline script: CSP).

// ==== Printables: a button with data-print prints the page (issue 23, item 5) ==========
document.addEventListener("click", function (event) {
  "use strict";
  var button = event.target.closest && event.target.closest("[data-print]");
  if (button) { event.preventDefault(); window.print(); }
});

// ==== Boards: the wall screens (the poker room's, the jackpots') =========================
// A board's page carries data-board="poker-room" or "jackpots" on its root and its
// configuration as json_script: board-data (the board it came with), board-key (a screen's
// display key or null), board-zone (the property's time zone). It draws the board, then
// asks ./data for it again every two seconds; a server restart only shows as
// "reconnecting…" until it answers again.
(function () {
  "use strict";
  var root = document.querySelector("[data-board]");
  if (!root) { return; }
  function config(id) { return JSON.parse(document.getElementById(id).textContent); }
  var key = config("board-key");
  var zone = config("board-zone");
  // the property's wall clock with its zone's abbreviation ("6:10 AM EST"), never the
  // screen's own zone
  var clock = new Intl.DateTimeFormat("en-US", {timeZone: zone, hour: "numeric",
                                                minute: "2-digit", timeZoneName: "short"});
  var url = "data" + (key ? "?key=" + encodeURIComponent(key) : "");

  function element(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  // -- the poker room board ---------------------------------------------------------------
  function decks(list) {
    if (!list.length) { return "none in play"; }
    return list.map(function (d) {
      if (d.change_due) { return d.colour + ": change due"; }
      if (d.minutes_left === null) { return d.colour; }
      var h = Math.floor(d.minutes_left / 60), m = d.minutes_left % 60;
      return d.colour + " " + h + "h " + (m < 10 ? "0" : "") + m + "m";
    }).join(" · ");
  }
  function renderRoom(board) {
    var body = document.getElementById("tables");
    body.textContent = "";
    if (!board.tables.length) {
      var tr = element("tr"), td = element("td", "", "No poker tables.");
      td.colSpan = 6; tr.appendChild(td); body.appendChild(tr); return;
    }
    board.tables.forEach(function (t) {
      var tr = element("tr", t.status);
      tr.dataset.table = t.id;
      tr.appendChild(element("td", "name", t.name));
      tr.appendChild(element("td", "", t.game + (t.kill ? " (Kill)" : "")));
      tr.appendChild(element("td", "", t.stakes));
      // a closed table offers no seat: shown closed, never its seats as open
      var open = t.status === "open";
      var seats = !open ? "closed"
        : t.vacant.length ? t.vacant.length + " open: seat " + t.vacant.join(", ")
        : "full";
      var td = element("td", open && t.vacant.length ? "vacant seats" : "full seats", seats);
      if (open) { td.title = t.taken.length + " of " + t.seats + " taken"; }
      tr.appendChild(td);
      tr.appendChild(element("td", t.hand_in_progress ? "live hand" : "hand",
                             t.status !== "open" ? "closed" :
                             t.hand_in_progress ? "hand in progress" : "between hands"));
      tr.appendChild(element("td", t.decks.some(function (d) { return d.change_due; })
                             ? "due" : "", decks(t.decks)));
      body.appendChild(tr);
    });
  }

  // the poker floor's lists (poker_room.board.registry), initials only
  function renderLists(lists) {
    var body = document.getElementById("lists");
    if (!body || !lists) { return; }
    body.textContent = "";
    if (!lists.length) {
      var tr = element("tr"), td = element("td", "", "No lists.");
      td.colSpan = 4; tr.appendChild(td); body.appendChild(tr); return;
    }
    lists.forEach(function (l) {
      var row = element("tr", l.kind);
      row.dataset.list = l.id;
      row.appendChild(element("td", "name", l.name));
      row.appendChild(element("td", "", l.kind === "waitlist" ? "waitlist" : "interest list"));
      row.appendChild(element("td", "waiting", String(l.length)));
      row.appendChild(element("td", "initials", l.initials.join(", ")));
      body.appendChild(row);
    });
  }

  // -- the jackpot board ------------------------------------------------------------------
  function renderJackpots(board) {
    var main = document.getElementById("funds");
    main.textContent = "";
    if (!board.funds.length) { main.appendChild(element("p", "", "No jackpots yet.")); return; }
    board.funds.forEach(function (f) {
      var s = element("section", "fund");
      s.dataset.fund = f.fund;
      s.appendChild(element("div", "kind", f.kind));
      s.appendChild(element("div", "name", f.fund));
      s.appendChild(element("div", "amount", f.displayed));
      s.appendChild(element("div", "pending", f.pending_adjustment
        ? "Pending adjustment: a payout from this fund is being recorded" : ""));
      if (f.high_hand) {
        var h = f.high_hand;
        s.appendChild(element("div", "high", h.hand
          ? "High Hand: " + h.hand + " — " + h.table + " seat " + h.seat
          : "No full house yet this period"));
        var e = element("div", "ends", "");
        e.dataset.ends = h.ends_at;
        s.appendChild(e);
      }
      main.appendChild(s);
    });
  }
  function countdown() {
    // the period's end on the property's clock, and the time left, every second
    document.querySelectorAll(".ends[data-ends]").forEach(function (e) {
      var left = Math.max(0, Math.round((Date.parse(e.dataset.ends) - Date.now()) / 1000));
      var h = Math.floor(left / 3600), m = Math.floor(left % 3600 / 60), sec = left % 60;
      e.textContent = "Period ends " + clock.format(new Date(e.dataset.ends)) +
        ", in " + (h ? h + "h " : "") + (m < 10 ? "0" : "") + m + "m " +
        (sec < 10 ? "0" : "") + sec + "s";
    });
  }

  var render = root.dataset.board === "jackpots"
    ? function (board) { renderJackpots(board); countdown(); }
    : function (board) { renderRoom(board); renderLists(board.lists); };
  var status = document.getElementById("status");
  function refresh() {
    fetch(url, {credentials: "same-origin", cache: "no-store"})
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
      .then(function (board) {
        render(board);
        status.textContent = "updated " + clock.format(new Date(board.at));
        status.className = "";
      })
      .catch(function () {
        status.textContent = "reconnecting…";
        status.className = "lost";
      })
      .then(function () { setTimeout(refresh, 2000); });
  }
  render(config("board-data"));
  setTimeout(refresh, 2000);
  if (root.dataset.board === "jackpots") { setInterval(countdown, 1000); }
})();

// ==== Shell: CSRF for htmx, the navigation's Menu button, polling (issue 23) =============
(function () {
  "use strict";
  // Every htmx request carries the CSRF token of <meta name="csrf-token"> (base.html).
  document.addEventListener("htmx:configRequest", function (event) {
    var meta = document.querySelector("meta[name=csrf-token]");
    if (meta) { event.detail.headers["X-CSRFToken"] = meta.content; }
    // a polled list sends the stamp of what it shows: 204 when nothing changed
    var elt = event.detail.elt;
    if (elt && elt.hasAttribute && elt.hasAttribute("data-poll") && elt.dataset.updated) {
      event.detail.headers["If-None-Match"] = "\"" + elt.dataset.updated + "\"";
      event.detail.parameters.since = elt.dataset.updated;
    }
  });
  // A poller that keeps its element (the navigation's badges on a page other than the
  // home: hx-swap none) keeps the stamp of the last answer itself, so the next asks
  // answer 204 while nothing changed.
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt, xhr = event.detail.xhr;
    if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-poll") || !xhr ||
        xhr.status !== 200 || !elt.isConnected) { return; }
    var etag = xhr.getResponseHeader("ETag");
    if (etag) { elt.dataset.updated = etag.replace(/"/g, ""); }
  });
  // Polling pauses while the tab is hidden (htmx's "every" still ticks: its requests are
  // cancelled) and asks once at once when the tab is shown again.
  document.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail.elt;
    if (document.hidden && elt && elt.hasAttribute && elt.hasAttribute("data-poll")) {
      event.preventDefault();
    }
  });
  document.addEventListener("visibilitychange", function () {
    if (document.hidden || !window.htmx) { return; }
    document.querySelectorAll("[data-poll]").forEach(function (elt) {
      window.htmx.trigger(elt, "console:refresh");
    });
  });
  // The navigation's Menu button (narrow screens): shows and hides the groups; Escape
  // closes them and gives the focus back to the button.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-nav-toggle]");
    if (!button) { return; }
    var open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", open ? "true" : "false");
    var groups = document.getElementById(button.getAttribute("aria-controls"));
    if (groups) { groups.classList.toggle("open", open); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") { return; }
    var button = document.querySelector("[data-nav-toggle][aria-expanded=true]");
    if (!button) { return; }
    button.click();
    button.focus();
  });
})();
