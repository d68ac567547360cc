// The console's behaviour: data attributes only (no inline script: CSP).

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
