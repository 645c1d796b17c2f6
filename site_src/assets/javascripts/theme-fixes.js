/* Two fixes to the theme's markup for readers of assistive technology. Written for this site.
 *
 * - The search overlay is a dialog without a name: it gets one.
 * - A table too wide for the screen scrolls inside a wrapper that the keyboard cannot reach:
 *   each wrapper that scrolls becomes a named, focusable region, so it scrolls with the arrows.
 */
(function () {
  "use strict";

  // The nearest heading before a table names its region, so that no two regions sound alike.
  function near(el) {
    var headings = document.querySelectorAll("article h1, article h2, article h3");
    var found = "";
    headings.forEach(function (heading) {
      if (heading.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) {
        found = heading.textContent.replace(/¶$/, "").trim();
      }
    });
    var index = Array.prototype.indexOf.call(document.querySelectorAll(".md-typeset__scrollwrap"), el);
    return (found ? ": " + found : "") + " (table " + (index + 1) + ")";
  }

  function fix() {
    document.querySelectorAll(".md-search[role=dialog]:not([aria-label])").forEach(function (el) {
      el.setAttribute("aria-label", "Search");
    });
    document.querySelectorAll(".md-typeset__scrollwrap, .oracle-scroll").forEach(function (el) {
      if (el.scrollWidth > el.clientWidth + 1) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "region");
        if (!el.hasAttribute("aria-label")) el.setAttribute("aria-label", "Table, scrolls sideways" + near(el));
      } else if (el.getAttribute("tabindex") === "0") {
        el.removeAttribute("tabindex");
        el.removeAttribute("role");
      }
    });
  }

  // The theme wraps its tables after loading, and rewraps them on navigation.
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(fix);
  window.addEventListener("load", fix);
  window.addEventListener("resize", fix);
  if (document.readyState !== "loading") fix();
  else document.addEventListener("DOMContentLoaded", fix);
})();
