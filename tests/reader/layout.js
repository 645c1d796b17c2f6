/* What a reader sees, checked in the page: run by tests/test_reader.py through playwright on
 * every kind of page, at each width and in each theme. Returns one object per problem:
 * {check, element, detail}. Written for these tests; no dependencies.
 *
 * The checks:
 * - table-squeezed: a table narrower than it would lay out on its own or than its column,
 *   whichever is less (2 px of rounding allowed);
 * - page-scrolls-sideways: the page is wider than the window (a wide table must scroll inside
 *   its own frame), naming the elements that stick out;
 * - text-clipped: text cut off by a box that hides what overflows it (an ellipsis included);
 * - text-covered: text or a control under another element (the header, the navigation, the
 *   table of contents...), tested where the reader can see it, scrolling the page down a
 *   window at a time;
 * - card-outside-its-box: a card or a stone sticking out of the board, stone or hand it is in;
 * - target-too-small: a control smaller than 24 by 24 px with another control within 24 px of
 *   its centre (WCAG 2.2, 2.5.8; links inside running text are exempt, as the rule has it).
 * One more check needs the browser's own view of the fonts and runs from Python:
 * glyph-from-the-machine (tests/reader_support.py, machine_font_problems).
 */
async () => {
  "use strict";
  const problems = [];
  const root = document.documentElement;
  const viewWidth = root.clientWidth;
  const viewHeight = window.innerHeight;

  function describe(element) {
    let name = element.tagName.toLowerCase();
    if (element.id) name += "#" + element.id;
    const classes = Array.from(element.classList).slice(0, 3);
    if (classes.length) name += "." + classes.join(".");
    const words = (element.getAttribute("aria-label") || element.textContent || "")
      .replace(/\s+/g, " ").trim().slice(0, 50);
    return words ? `${name} "${words}"` : name;
  }

  function report(check, element, detail) {
    problems.push({ check, element: describe(element), detail });
  }

  function shown(element) {
    if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const box = element.getBoundingClientRect();
    return box.width > 1 && box.height > 1;
  }

  // A screen-reader-only text is clipped on purpose (a 1 px box with clip).
  function screenReaderOnly(element) {
    for (let node = element; node && node !== document.body; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.clip === "rect(0px, 0px, 0px, 0px)" || style.clipPath === "inset(50%)") return true;
      const box = node.getBoundingClientRect();
      if (box.width <= 1 && box.height <= 1 && style.overflow !== "visible") return true;
    }
    return false;
  }

  function hides(style) {
    return ["hidden", "clip"].includes(style.overflowX) || ["hidden", "clip"].includes(style.overflowY);
  }

  function scrolls(style) {
    return ["auto", "scroll"].includes(style.overflowX) || ["auto", "scroll"].includes(style.overflowY);
  }

  // The part of a box the reader can see at this scroll: inside every box of an ancestor that
  // clips or scrolls, and inside the window.
  function seenPart(element, box) {
    let left = Math.max(box.left, 0), top = Math.max(box.top, 0);
    let right = Math.min(box.right, viewWidth), bottom = Math.min(box.bottom, viewHeight);
    for (let node = element.parentElement; node && node !== root; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const frame = node.getBoundingClientRect();
      left = Math.max(left, frame.left); top = Math.max(top, frame.top);
      right = Math.min(right, frame.right); bottom = Math.min(bottom, frame.bottom);
    }
    return right - left > 1 && bottom - top > 1 ? { left, top, right, bottom } : null;
  }

  const article = document.querySelector("article.md-content__inner") || document.querySelector(".md-content") || document.body;

  // --- tables
  for (const table of document.querySelectorAll("article table")) {
    if (!shown(table)) continue;
    const wrapper = table.closest(".md-typeset__scrollwrap") || table.parentElement;
    const column = article.getBoundingClientRect().width
      - parseFloat(getComputedStyle(article).paddingLeft) - parseFloat(getComputedStyle(article).paddingRight);
    const actual = table.getBoundingClientRect().width;
    const saved = [table.style.width, table.style.maxWidth, table.style.display];
    table.style.width = "max-content";
    table.style.maxWidth = "none";
    const natural = table.getBoundingClientRect().width;
    [table.style.width, table.style.maxWidth, table.style.display] = saved;
    const wanted = Math.min(natural, column);
    if (actual + 2 < wanted) {
      report("table-squeezed", table,
        `${Math.round(actual)} px wide; it lays out at ${Math.round(natural)} px on its own and its column is ${Math.round(column)} px`);
    }
    void wrapper;
  }

  // --- sideways scroll
  if (root.scrollWidth > viewWidth + 1) {
    const culprits = [];
    for (const element of document.body.querySelectorAll("*")) {
      if (!shown(element)) continue;
      const box = element.getBoundingClientRect();
      if (box.right <= viewWidth + 1) continue;
      let inFrame = false;
      for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (scrolls(style) || hides(style)) { inFrame = true; break; }
      }
      if (!inFrame && !culprits.some((outer) => outer.contains(element))) culprits.push(element);
    }
    const named = culprits.slice(0, 3).map(describe).join("; ");
    report("page-scrolls-sideways", culprits[0] || document.body,
      `the page is ${root.scrollWidth} px wide in a ${viewWidth} px window (sticking out: ${named || "?"})`);
  }

  // --- text: clipped by a box that hides its overflow
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.textContent.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT),
  });
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || ["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "OPTION"].includes(parent.tagName)) continue;
    if (!shown(parent) || screenReaderOnly(parent)) continue;
    texts.push(node);
  }
  const clippedSeen = new Set();
  for (const node of texts) {
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) continue;
    const parent = node.parentElement;
    for (let frame = parent; frame && frame !== document.body; frame = frame.parentElement) {
      const style = getComputedStyle(frame);
      if (style.textOverflow === "ellipsis" && frame.scrollWidth > frame.clientWidth + 1) {
        if (!clippedSeen.has(frame)) { clippedSeen.add(frame); report("text-clipped", frame, "cut short with an ellipsis"); }
        break;
      }
      if (scrolls(style)) {
        // A frame that scrolls sideways is no clipping only if the keyboard can scroll it too.
        const reachable = frame.tabIndex >= 0 || frame.querySelector("a[href], button, input, select, textarea, [tabindex]");
        if (frame.scrollWidth > frame.clientWidth + 1 && ["auto", "scroll"].includes(style.overflowX) && !reachable && !clippedSeen.has(frame)) {
          clippedSeen.add(frame);
          report("text-clipped", frame, `its lines run ${frame.scrollWidth - frame.clientWidth} px past its edge, in a frame the keyboard cannot scroll`);
        }
        break;
      }
      if (!hides(style)) continue;
      const edge = frame.getBoundingClientRect();
      const cutX = ["hidden", "clip"].includes(style.overflowX) && (box.right > edge.right + 1 || box.left < edge.left - 1);
      const cutY = ["hidden", "clip"].includes(style.overflowY) && (box.bottom > edge.bottom + 1 || box.top < edge.top - 1);
      if ((cutX || cutY) && !clippedSeen.has(frame)) {
        clippedSeen.add(frame);
        report("text-clipped", parent, `cut off by ${describe(frame)}`);
      }
      break;
    }
  }

  // --- cards and stones inside their boxes
  const boxes = ".oracle-stone, .oracle-play-stone, .oracle-board, .oracle-hand, .oracle-palette-cards, .oracle-side, .oracle-play-side";
  for (const card of document.querySelectorAll(".oracle-card, .oracle-stone, .oracle-play-stone")) {
    if (!shown(card)) continue;
    const holder = card.parentElement && card.parentElement.closest(boxes);
    if (!holder || !shown(holder)) continue;
    const inner = card.getBoundingClientRect(), outer = holder.getBoundingClientRect();
    if (inner.left < outer.left - 1 || inner.right > outer.right + 1 || inner.top < outer.top - 1 || inner.bottom > outer.bottom + 1) {
      report("card-outside-its-box", card, `sticks out of ${describe(holder)}`);
    }
  }

  // --- controls: big enough, or far enough from the others
  const controls = Array.from(document.querySelectorAll(
    "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab], [tabindex]:not([tabindex='-1'])"
  )).filter((element) => shown(element) && !screenReaderOnly(element));
  function inRunningText(element) {
    if (element.tagName !== "A" || getComputedStyle(element).display !== "inline") return false;
    const block = element.closest("p, li, td, th, dd, figcaption, small, label, .admonition");
    if (!block) return false;
    const own = (element.textContent || "").trim().length;
    return (block.textContent || "").trim().length > own;
  }
  // Judged where the reader sees each control whole (at one of the scroll steps below), against
  // every control seen at that moment. The 24 px circle is centred on the control's own box,
  // as WCAG 2.5.8 has it, also when a frame cuts part of it off (a long table of contents cut
  // by its sidebar's foot); what it must not meet is the part of each other control in view.
  function seenTargets() {
    return controls.map((element) => {
      const whole = element.getBoundingClientRect();
      const seen = seenPart(element, whole);
      if (!seen) return null;
      return { element, whole, box: seen, x: (whole.left + whole.right) / 2, y: (whole.top + whole.bottom) / 2 };
    }).filter(Boolean);
  }
  function circleMeetsBox(t, box) {
    const nx = Math.max(box.left, Math.min(t.x, box.right)), ny = Math.max(box.top, Math.min(t.y, box.bottom));
    return (nx - t.x) ** 2 + (ny - t.y) ** 2 < 12 * 12 - 0.5;
  }
  const judged = new Set();
  function judgeTargets(bandTop) {
    const targets = seenTargets();
    const undersized = (t) => (t.whole.width < 24 - 0.5 || t.whole.height < 24 - 0.5) && !inRunningText(t.element)
      && !(t.element.tagName === "INPUT" && ["checkbox", "radio"].includes(t.element.type) && t.element.closest("label"));
    for (const t of targets) {
      if (judged.has(t.element)) continue;
      const whole = Math.abs(t.box.bottom - t.box.top - Math.min(t.whole.height, viewHeight)) < 1 && t.box.top >= bandTop;
      if (!whole && !t.element.closest(".md-header, .md-sidebar, .md-tabs")) continue;
      judged.add(t.element);
      if (!undersized(t)) continue;
      const near = targets.find((other) => other !== t && !other.element.contains(t.element) && !t.element.contains(other.element)
        && (undersized(other) ? (other.x - t.x) ** 2 + (other.y - t.y) ** 2 < 24 * 24 - 1 : circleMeetsBox(t, other.box)));
      if (near) {
        report("target-too-small", t.element,
          `${Math.round(t.whole.width)} x ${Math.round(t.whole.height)} px, and ${describe(near.element)} lies within 24 px of its centre`);
      }
    }
  }

  // --- covered: tested where the reader sees it, stepping down the page by less than half a
  // window, so that what a sticky bar covers at one step is seen clear at another; text covered
  // at every step where it is in view (under a sticky title, say) is reported
  const header = document.querySelector(".md-header");
  const headerBottom = header ? header.getBoundingClientRect().bottom : 0;
  const clear = new Set();
  const covered = new Map();
  const startY = window.scrollY;
  const step = Math.max(120, Math.floor((viewHeight - headerBottom) * 0.4));
  const candidates = texts.map((node) => ({ node, element: node.parentElement }))
    .concat(controls.map((element) => ({ node: null, element })));
  const stuck = (element) => element.closest(".md-header, .md-sidebar, .md-tabs");
  for (let y = 0; ; y += step) {
    window.scrollTo(0, y);
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    judgeTargets(headerBottom);
    for (const item of candidates) {
      if (clear.has(item)) continue;
      const boxes = item.node ? (() => { const r = document.createRange(); r.selectNodeContents(item.node); return Array.from(r.getClientRects()); })()
        : [item.element.getBoundingClientRect()];
      for (const box of boxes) {
        if (box.width < 2 || box.height < 2) continue;
        const seen = seenPart(item.element, box);
        if (!seen) continue;
        if (!stuck(item.element) && (seen.top < headerBottom || seen.bottom - seen.top < box.height - 1)) continue;
        const x = (seen.left + seen.right) / 2, yy = (seen.top + seen.bottom) / 2;
        const top = document.elementFromPoint(x, yy);
        if (top && !item.element.contains(top) && !top.contains(item.element)) {
          if (!covered.has(item)) covered.set(item, `under ${describe(top)} at (${Math.round(x)}, ${Math.round(yy + window.scrollY)})`);
        } else {
          clear.add(item);
        }
        break;
      }
    }
    if (y + viewHeight >= root.scrollHeight) break;
  }
  for (const [item, detail] of covered) {
    if (!clear.has(item)) report("text-covered", item.element, detail);
  }
  window.scrollTo(0, startY);
  return problems;
}
