/* Two fixes to the theme's markup for readers of assistive technology. Written for this site.
 *
 * - The search overlay is a dialog without a name: it gets one.
 * - A table too wide for the screen scrolls inside a wrapper that the keyboard cannot reach:
 *   each wrapper that scrolls becomes a named, focusable region, so it scrolls with the arrows.
 */
(function () {
  "use strict";

  function fix() {
    document.querySelectorAll(".md-search[role=dialog]:not([aria-label])").forEach(function (el) {
      el.setAttribute("aria-label", "Search");
    });
    document.querySelectorAll(".md-typeset__scrollwrap, .oracle-scroll").forEach(function (el) {
      if (el.scrollWidth > el.clientWidth + 1) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "region");
        if (!el.hasAttribute("aria-label")) el.setAttribute("aria-label", "Table, scrolls sideways");
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
