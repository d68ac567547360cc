// The public live games feed's page (poker_floor/live.html): draws the games running and
// the interest lists from feed.json, asked again every second while the page is shown
// (a 304 while nothing changed: the page sends the ETag it has). No inline script (CSP);
// the feed's URL is the root's data-live-feed, the property's time zone json_script
// live-zone. Never a player's name: the feed has none.
(function () {
  "use strict";
  var root = document.querySelector("[data-live-feed]");
  if (!root) { return; }
  var url = root.dataset.liveFeed;
  var zone = JSON.parse(document.getElementById("live-zone").textContent);
  var clock = new Intl.DateTimeFormat("en-US", {timeZone: zone, hour: "numeric",
                                                minute: "2-digit", timeZoneName: "short"});
  var status = document.getElementById("status");
  var etag = null;

  function element(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function empty(body, columns, text) {
    var tr = element("tr"), td = element("td", "", text);
    td.colSpan = columns; tr.appendChild(td); body.appendChild(tr);
  }
  // the estimated wait of a player joining now (poker_floor.feed.wait_words: one wording)
  function wait(list) {
    var next = list ? list.next_wait : null;
    return next ? next.low_minutes + "–" + next.high_minutes + " min" : "unknown";
  }
  function seats(g) {
    return g.open_tables.map(function (t) {
      return t.table + ": " + (t.vacant.length ? "seat " + t.vacant.join(", ") : "full");
    }).join("; ");
  }
  function render(feed) {
    var games = document.getElementById("games");
    games.textContent = "";
    if (!feed.games.length) { empty(games, 6, "No games running."); }
    feed.games.forEach(function (g) {
      var tr = element("tr");
      tr.dataset.game = g.game;
      tr.appendChild(element("td", "name", g.name));
      tr.appendChild(element("td", "", g.stakes));
      tr.appendChild(element("td", "", String(g.tables)));
      tr.appendChild(element("td", g.vacant_seats ? "vacant" : "full", seats(g)));
      tr.appendChild(element("td", "waiting", String(g.waitlist ? g.waitlist.length : 0)));
      tr.appendChild(element("td", "wait", wait(g.waitlist)));
      games.appendChild(tr);
    });
    var interest = document.getElementById("interest");
    interest.textContent = "";
    if (!feed.interest_lists.length) { empty(interest, 2, "No interest lists."); }
    feed.interest_lists.forEach(function (l) {
      var tr = element("tr");
      tr.dataset.list = l.id;
      tr.appendChild(element("td", "name", l.name));
      tr.appendChild(element("td", "waiting", String(l.length)));
      interest.appendChild(tr);
    });
  }
  function refresh() {
    if (document.hidden) { setTimeout(refresh, 1000); return; }
    var headers = etag ? {"If-None-Match": etag} : {};
    fetch(url, {cache: "no-store", headers: headers})
      .then(function (r) {
        if (r.status === 304) { return null; }
        if (!r.ok) { throw new Error(r.status); }
        etag = r.headers.get("ETag");
        return r.json();
      })
      .then(function (feed) {
        if (feed) { render(feed); }
        status.textContent = "updated " + clock.format(new Date());
        status.className = "";
      })
      .catch(function () {
        status.textContent = "reconnecting…";
        status.className = "lost";
      })
      .then(function () { setTimeout(refresh, 1000); });
  }
  setTimeout(refresh, 1000);
})();
