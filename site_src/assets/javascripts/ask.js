// The "Ask the engine" page: a board and the text of its case file, two views of one thing,
// judged by the engine running in this page as either changes. This script only moves text
// between the views and the engine; every verdict, message and case file comes from the
// engine's own code (oracle/browser/pages.py).
import { startEngine } from "./engine-client.js";
import { maxCaseBytes } from "./engine-files.js";

const app = document.getElementById("oracle-app");
const engine = startEngine();
const $ = (id) => document.getElementById(id);
const STONES = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const DELAY = 250; // ms after the last keystroke or click before the engine is asked
let target = "stone-1-you";
let generation = 0; // each question's number: an answer to an older one is dropped
let timer = null;
let waiting = null; // the question the timer will ask (askBoard or askCaseText), if any
let answering = Promise.resolve(); // the last question asked, until its answer is shown
let edited = false; // the reader has changed the board or the text since the page opened
// The published cases by the digest of their answers, as the site's build wrote them: a board
// that asks what one of them asks, with the same answers, is said to be published already.
const publishedCases = fetch(new URL("../published-answers.json", import.meta.url))
  .then((response) => (response.ok ? response.json() : {}))
  .catch(() => ({}));

// ------------------------------------------------------------------ the link to a board
// The part of the address after # carries the case file's text; its key names the version.
// Version 2 (written since 2026-12): v2=<base64url of the text, raw-deflated>. Version 1:
// case=<base64url of the text>. Both open; the site's Python (oracle/site/casepages.py,
// ask_fragment) writes version 2 in the case pages' links.

function toBase64Url(bytes) {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

class TooLarge extends Error {}

// Deflate ("in") or inflate ("out") the bytes; inflating stops, with TooLarge, as soon as the
// text would hold more than a case file may (a short link can inflate to hundreds of megabytes).
async function squeeze(data, direction) {
  const stream = new Blob([data]).stream().pipeThrough(
    direction === "in" ? new CompressionStream("deflate-raw") : new DecompressionStream("deflate-raw"),
  );
  if (direction === "in") return new Uint8Array(await new Response(stream).arrayBuffer());
  const reader = stream.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxCaseBytes) {
      await reader.cancel();
      throw new TooLarge();
    }
    parts.push(value);
  }
  const whole = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

async function linkFragment(text) {
  if (typeof CompressionStream === "undefined") {
    return `case=${toBase64Url(new TextEncoder().encode(text))}`;
  }
  return `v2=${toBase64Url(await squeeze(text, "in"))}`;
}

// The case a link carries, as { text } or, when the link is damaged, { problem } in words
// (null for an address that carries no case).
async function caseFromLink() {
  const hash = location.hash.replace(/^#/, "");
  const at = hash.indexOf("=");
  const key = at > 0 ? hash.slice(0, at).toLowerCase() : "";
  if (key !== "case" && !/^v\d+$/.test(key)) return null;
  if (key !== "case" && key !== "v2") {
    return { problem: `it is a link of version ${key.slice(1)}, newer than this copy of the site reads (1 and 2); open it on the site it came from` };
  }
  // Padding is never written, but a link copied from elsewhere may carry it, or encode it.
  const code = hash.slice(at + 1).replace(/(=|%3D)+$/i, "");
  if (!/^[A-Za-z0-9_-]+$/.test(code)) {
    return { problem: code ? `it holds characters a case link never has (only letters, digits, - and _ follow ${key}=); copy the whole link again` : `it ends at ${key}= with no case after it; copy the whole link again` };
  }
  const tooLarge = `it carries more than a case file may hold (${maxCaseBytes / 1024} KiB), so it was not read; a link to a board is far shorter`;
  if (code.length > (maxCaseBytes * 4) / 3 + 1024) return { problem: tooLarge };
  let bytes;
  try {
    const base64 = code.replace(/-/g, "+").replace(/_/g, "/");
    bytes = Uint8Array.from(atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0));
    if (key === "v2") bytes = await squeeze(bytes, "out");
  } catch (error) {
    if (error instanceof TooLarge) return { problem: tooLarge };
    return { problem: "it is cut short or damaged, so no case can be read from it; copy the whole link again" };
  }
  if (bytes.length > maxCaseBytes) return { problem: tooLarge };
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { problem: "what it carries is not the text of a case file; copy the whole link again" };
  }
}

// The address holds the board of the newest question (asked). A link the reader brings
// while the fragment is being made (a hashchange on its way) is theirs: never written over.
async function showInAddress(text, asked = generation) {
  const before = location.hash;
  const fragment = await linkFragment(text);
  if (asked !== generation || location.hash !== before) return;
  if (location.hash !== `#${fragment}`) history.replaceState(null, "", `#${fragment}`);
}

// ------------------------------------------------------------------ the board form

function variant() {
  return document.querySelector('#ask-form input[name="variant"]:checked').value;
}

function showVariant() {
  const tactics = variant() === "tactics";
  for (const element of app.querySelectorAll(".oracle-tactics-only")) element.hidden = !tactics;
  for (const button of app.querySelectorAll(".oracle-palette-cards [data-tactic]")) {
    button.hidden = !tactics;
  }
  for (const option of $("palette-target").options) {
    option.hidden = option.value === "discards" && !tactics;
  }
  if (!tactics && target === "discards") chooseTarget("hand");
}

function fillTargets() {
  const select = $("palette-target");
  for (const input of app.querySelectorAll("input[data-cards]")) {
    const option = document.createElement("option");
    option.value = input.id;
    option.textContent = boxLabel(input.id);
    select.append(option);
  }
  select.addEventListener("change", () => chooseTarget(select.value, true));
}

function boxLabel(id) {
  if (id === "hand") return "your hand";
  if (id === "discards") return "the face-up discards";
  const [, number, who] = id.split("-");
  return `Stone ${number}, ${who === "you" ? "your" : "their"} cards`;
}

function chooseTarget(id, announced = false) {
  target = id;
  $("palette-target").value = id;
  for (const input of app.querySelectorAll("input[data-cards]")) {
    input.classList.toggle("oracle-target", input.id === id);
  }
  drawBoard();
  if (announced) announce(`Cards now go to ${boxLabel(id)}.`);
}

function namesIn(text) {
  return text.split(/[,;]/).map((word) => word.trim().toLowerCase().replace(/\s+/g, " ")).filter(Boolean);
}

function markUsed() {
  const used = new Set();
  for (const input of app.querySelectorAll("input[data-cards]")) {
    for (const name of namesIn(input.value)) used.add(name);
  }
  for (const button of app.querySelectorAll(".oracle-palette-cards button")) {
    const isUsed = used.has(button.dataset.card);
    button.setAttribute("aria-pressed", isUsed ? "true" : "false");
    button.classList.toggle("oracle-used", isUsed);
  }
  drawBoard();
}

function announce(words) {
  $("ask-announce").textContent = words;
}

// A card clicked or dropped goes to the box; clicked again there it comes back; found in
// another box it moves (the two Jokers share a name, so a second one is added, not moved).
function putCard(name, boxId) {
  const input = $(boxId);
  const names = namesIn(input.value);
  const label = boxLabel(boxId);
  const shown = name.charAt(0).toUpperCase() + name.slice(1);
  if (names.includes(name) && (name !== "joker" || names.filter((n) => n === name).length === 2)) {
    const at = names.lastIndexOf(name);
    input.value = names.filter((_, index) => index !== at).join(", ");
    announce(`${shown} taken back from ${label}.`);
  } else {
    let from = null;
    if (name !== "joker") {
      for (const other of app.querySelectorAll("input[data-cards]")) {
        const held = namesIn(other.value);
        if (other !== input && held.includes(name)) {
          other.value = held.filter((n) => n !== name).join(", ");
          from = boxLabel(other.id);
        }
      }
    }
    input.value = [...names, name].join(", ");
    announce(from ? `${shown} moved from ${from} to ${label}.` : `${shown} put on ${label}.`);
  }
  markUsed();
  boardChanged();
}

function readForm() {
  const checked = (id) => [...$(id).querySelectorAll("input:checked")].map((box) => box.value);
  return {
    situation: $("situation").value,
    why: $("why").value,
    variant: variant(),
    stones: STONES.map((n) => ({
      you: $(`stone-${n}-you`).value,
      them: $(`stone-${n}-them`).value,
      completed_first: $(`stone-${n}-completed_first`).value,
      claimed_by: $(`stone-${n}-claimed_by`).value,
      modes: variant() === "tactics" ? checked(`stone-${n}-modes`) : [],
      claim: $(`stone-${n}-claim`).checked,
    })),
    hand: $("hand").value,
    discards: variant() === "tactics" ? $("discards").value : "",
    jokers_played: variant() === "tactics" ? checked("jokers_played") : [],
  };
}

function fillForm(form) {
  $("situation").value = form.situation;
  $("why").value = form.why;
  document.querySelector(`#ask-form input[name="variant"][value="${form.variant}"]`).checked = true;
  form.stones.forEach((stone, index) => {
    const n = index + 1;
    $(`stone-${n}-you`).value = stone.you;
    $(`stone-${n}-them`).value = stone.them;
    $(`stone-${n}-completed_first`).value = stone.completed_first;
    $(`stone-${n}-claimed_by`).value = stone.claimed_by;
    for (const box of $(`stone-${n}-modes`).querySelectorAll("input")) {
      box.checked = stone.modes.includes(box.value);
    }
    $(`stone-${n}-claim`).checked = stone.claim;
  });
  $("hand").value = form.hand;
  $("discards").value = form.discards;
  for (const box of $("jokers_played").querySelectorAll("input")) {
    box.checked = form.jokers_played.includes(box.value);
  }
  showVariant();
  markUsed();
}

// ------------------------------------------------------------------ the case file's text

function showText(text) {
  const area = $("case-text");
  if (area.value !== text) area.value = text;
  numberLines(null);
}

function numberLines(badLine) {
  const area = $("case-text");
  const count = Math.max(area.value.split("\n").length, 1);
  area.rows = Math.min(Math.max(count + 1, 12), 40);
  const gutter = $("case-gutter");
  gutter.replaceChildren();
  for (let line = 1; line <= count; line += 1) {
    const number = document.createElement("span");
    number.textContent = line === badLine ? `\u26A0 ${line}` : String(line);
    if (line === badLine) number.className = "oracle-error-line";
    gutter.append(number, "\n");
  }
  gutterFollowsText();
}

// The gutter keeps the text's scroll. Read in the next animation frame, not here: reading the
// text's scroll lays the page out, and as an answer is shown (or a key typed) it would be laid
// out here and again in the frame that draws it, after the rest of the answer is written.
let gutterFollowing = false;
function gutterFollowsText() {
  if (gutterFollowing) return;
  gutterFollowing = true;
  requestAnimationFrame(() => {
    gutterFollowing = false;
    $("case-gutter").scrollTop = $("case-text").scrollTop;
  });
}

// ------------------------------------------------------------------ answers and problems

function clearProblem() {
  $("ask-problem-box").hidden = true;
  $("case-text").removeAttribute("aria-invalid");
  $("case-text").setAttribute("aria-describedby", "case-help");
  for (const element of app.querySelectorAll("#ask-form [aria-invalid]")) {
    element.removeAttribute("aria-invalid");
    element.removeAttribute("aria-describedby");
  }
  for (const message of app.querySelectorAll(".oracle-field-error")) message.remove();
}

function showProblem(answer, where, focusField) {
  const problem = $("ask-problem");
  problem.textContent = `${where}: ${answer.message}`;
  $("ask-problem-box").hidden = false;
  const source = $("ask-problem-source");
  source.hidden = !answer.case_text || !answer.line;
  if (answer.case_text) {
    const lines = answer.case_text.replace(/\n$/, "").split("\n");
    const width = String(lines.length).length;
    $("ask-problem-case").textContent = lines
      .map((line, index) => `${String(index + 1).padStart(width)}  ${line}`)
      .join("\n");
  }
  numberLines(answer.line || null);
  if (answer.line) {
    $("case-text").setAttribute("aria-invalid", "true");
    $("case-text").setAttribute("aria-describedby", "case-help ask-problem");
  }
  setVerdicts([], `${where}: ${answer.message}`);
  const field = answer.field && (answer.field === "claims" ? $("stone-1-claim") : $(answer.field));
  if (field) {
    const control = field.matches("input, select, textarea") ? field : field.querySelector("input, select");
    if (control) {
      // The message also stands beside the box, where the eye and the screen reader are.
      const beside = document.createElement("span");
      beside.className = "oracle-field-error";
      beside.id = `${control.id || "field"}-error`;
      beside.textContent = answer.message;
      (control.closest("label") || control).after(beside);
      control.setAttribute("aria-invalid", "true");
      control.setAttribute("aria-describedby", beside.id);
      if (focusField) control.focus();
    }
  }
}

function setVerdicts(verdicts, note) {
  const list = $("verdict-list");
  list.replaceChildren();
  for (const verdict of verdicts) {
    const item = document.createElement("li");
    const strong = document.createElement("strong");
    strong.textContent = `Stone ${verdict.stone}: ${verdict.verdict}`;
    item.append(strong, ` \u2014 ${verdict.explanation}`);
    item.dataset.verdict = verdict.verdict;
    list.append(item);
  }
  $("verdict-note").textContent = note;
}

function showReport(report, pasted) {
  const section = $("ask-answer");
  section.hidden = false;
  section.dataset.verdicts = JSON.stringify(report.verdicts.map((v) => [v.stone, v.verdict]));
  $("answer-situation").textContent = pasted
    ? `${report.situation} (${report.variant} game, case ${report.id})`
    : `Your board (${report.variant} game).`;
  $("answer-board").innerHTML = report.board; // the engine's board, every text escaped there
  const lines = $("answer-lines");
  lines.replaceChildren();
  for (const answer of report.answers) {
    const title = document.createElement("p");
    const strong = document.createElement("strong");
    strong.textContent = answer.title;
    title.append(strong);
    lines.append(title);
    const list = document.createElement(answer.title === "What happens" ? "ol" : "div");
    for (const line of answer.lines) {
      const item = document.createElement(answer.title === "What happens" ? "li" : "p");
      item.textContent = line;
      list.append(item);
    }
    lines.append(list);
  }
  const agreement = $("answer-agreement");
  agreement.classList.toggle("oracle-problem", pasted && !report.verified);
  if (!pasted) agreement.textContent = "";
  else if (report.verified) agreement.textContent = report.has_table && !report.asks_claims_only
    ? "The engine agrees with every answer the case expects. The board above shows its position only; the case's table (their hand, the decks) stays in the case file."
    : "The engine agrees with every answer the case expects.";
  else agreement.textContent = `The case expects otherwise: ${report.problems.join(" ")}`;
  const note = report.verdicts.length
    ? (pasted && !report.verified ? "The case file expects otherwise: see the answer below." : "")
    : "This case asks about the game, not claims: its answer is below.";
  setVerdicts(report.verdicts, note);
}

// Say when the board is a published case already (the engine gives the digest of its
// answers; the build, each published case's), with a link to that case's page.
async function showPublished(report, pasted, asked) {
  const found = (await publishedCases)[report.answers_digest];
  if (asked !== generation) return;
  const note = $("answer-published");
  note.replaceChildren();
  note.hidden = !found;
  if (!found) return;
  const link = document.createElement("a");
  link.href = new URL(`../../cases/${found.topic}/${found.id}.html`, import.meta.url).href;
  link.textContent = found.id;
  if (pasted && found.id === report.id) {
    note.append("This is the published case ", link, ".");
  } else {
    note.append(
      "A published case asks the same and gets the same answers: ", link,
      ". Copied as it is, check refuses it as a duplicate (unless it catches a misreading the other does not).",
    );
  }
}

// ------------------------------------------------------------------ asking

// Ask after the typing delay; what was copied before an edit is no longer what the page shows.
// An answer on its way to an earlier question is dropped from the first keystroke: shown
// during the delay, it would rewrite the text or board just typed.
function askSoon(question) {
  edited = true;
  generation += 1;
  $("copy-status").textContent = "";
  clearTimeout(timer);
  waiting = question;
  timer = setTimeout(() => askNow(question), DELAY);
}

function askNow(question, ...options) {
  clearTimeout(timer);
  waiting = null;
  answering = question(...options);
  return answering;
}

// Once the board, the case text and the answer agree: a question still waiting for the typing
// delay is asked now, and every answer on its way is shown. Copying waits for this, so what is
// copied is what the page shows once the last keystroke is answered.
async function settled() {
  if (waiting !== null) askNow(waiting);
  let last;
  do {
    last = answering;
    await last.catch(() => {});
  } while (last !== answering || waiting !== null);
}

function boardChanged() {
  askSoon(askBoard);
}

function textChanged() {
  numberLines(null);
  askSoon(askCaseText);
}

async function askBoard(focusField = false) {
  clearTimeout(timer);
  const asked = ++generation;
  const started = performance.now();
  const answer = await engine.ask("ask_form", { form: readForm() });
  if (asked !== generation) return; // the board changed again meanwhile
  app.dataset.lastCallMs = (performance.now() - started).toFixed(2);
  app.dataset.lastEngineMs = engine.timing.engineMs.toFixed(2);
  clearProblem();
  showText(answer.case_text);
  showInAddress(answer.case_text, asked);
  if (answer.ok) {
    showReport(answer.report, false);
    showPublished(answer.report, false, asked);
  } else if (answer.field === "claims" && !answer.line) {
    $("ask-answer").hidden = true;
    setVerdicts([], "Press \u201cclaim\u201d on a stone of the board, and the engine answers.");
  } else {
    $("ask-answer").hidden = true;
    showProblem(answer, "Your board", focusField);
  }
}

async function askCaseText() {
  clearTimeout(timer);
  const text = $("case-text").value;
  const asked = ++generation;
  const started = performance.now();
  const answer = await engine.ask("ask_text", { text });
  if (asked !== generation) return;
  app.dataset.lastCallMs = (performance.now() - started).toFixed(2);
  app.dataset.lastEngineMs = engine.timing.engineMs.toFixed(2);
  clearProblem();
  showInAddress(text, asked);
  if (!answer.ok) {
    // The board keeps its last readable state; the answer is withdrawn with it.
    $("ask-answer").hidden = true;
    showProblem(answer, "The case file", false);
    return;
  }
  numberLines(null);
  fillForm(answer.form);
  showReport(answer.report, true);
  showPublished(answer.report, true, asked);
}

async function copyText(text, done, selectable) {
  try {
    await navigator.clipboard.writeText(text);
    $("copy-status").textContent = done;
  } catch {
    selectable.focus();
    selectable.select();
    $("copy-status").textContent = "Selected: press Ctrl+C (or Cmd+C) to copy.";
  }
}

// ------------------------------------------------------------------ the drawn board
// The board as the reader builds it: each stone with their side above, the stone (and its
// claim) in the middle and your side below (beside it on a phone). It draws what the boxes
// hold and writes to them only through putCard and the claim boxes, so the boxes, the drawing
// and the case file never disagree. One Tab stop: the arrow keys move between the stones
// (left, right) and within one (up, down), as the palette does.

const cardDrawings = new Map(); // a card's name -> the engine's drawing of it, once it runs
const SIDES = ["them", "stone", "you"];

function drawnCard(name, last) {
  const chip = document.createElement("span");
  chip.className = "oracle-ask-chip";
  const drawing = cardDrawings.get(name);
  if (drawing) {
    chip.innerHTML = drawing; // the engine's markup, every text escaped there
    chip.firstElementChild.setAttribute("aria-hidden", "true");
    chip.append(hidden(last ? name : `${name},`));
  } else chip.textContent = last ? name : `${name},`;
  return chip;
}

// Words for a screen reader only: a button's name is made of what it holds, as it is seen.
function hidden(words) {
  const span = document.createElement("span");
  span.className = "oracle-sr-only";
  span.textContent = ` ${words} `;
  return span;
}

function drawnCards(boxId) {
  const names = namesIn($(boxId).value);
  return names.length ? names.map((name, at) => drawnCard(name, at === names.length - 1)) : [hidden("empty")];
}

function buildBoard() {
  const board = $("ask-drawn");
  for (const number of STONES) {
    const stone = document.createElement("div");
    stone.className = "oracle-ask-stone";
    stone.setAttribute("role", "group");
    stone.setAttribute("aria-label", `Stone ${number}`);
    for (const side of SIDES) {
      const button = document.createElement("button");
      button.type = "button";
      button.tabIndex = -1;
      button.dataset.stone = String(number);
      button.dataset.side = side;
      if (side === "stone") {
        button.className = "oracle-ask-claim";
        button.addEventListener("click", () => {
          const box = $(`stone-${number}-claim`);
          box.checked = !box.checked;
          drawBoard();
          boardChanged();
        });
      } else {
        const boxId = `stone-${number}-${side}`;
        button.className = `oracle-ask-zone oracle-ask-zone--${side}`;
        button.addEventListener("click", () => chooseTarget(boxId, true));
        dropTarget(button, boxId);
      }
      stone.append(button);
    }
    board.append(stone);
  }
  board.firstElementChild.children[2].tabIndex = 0;
  board.addEventListener("keydown", boardKeys);
  for (const boxId of ["hand", "discards"]) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "oracle-ask-zone oracle-ask-zone--loose";
    button.dataset.box = boxId;
    if (boxId === "discards") button.classList.add("oracle-tactics-only");
    button.addEventListener("click", () => chooseTarget(boxId, true));
    dropTarget(button, boxId);
    $("ask-drawn-hand").append(button);
  }
}

function drawBoard() {
  const board = $("ask-drawn");
  if (!board || !board.firstElementChild) return;
  for (const button of board.querySelectorAll("button")) {
    const number = Number(button.dataset.stone);
    const side = button.dataset.side;
    if (side === "stone") {
      const claimed = $(`stone-${number}-claim`).checked;
      const holder = $(`stone-${number}-claimed_by`).value;
      button.setAttribute("aria-pressed", claimed ? "true" : "false");
      const name = document.createElement("span");
      name.className = "oracle-ask-stone-number";
      name.textContent = String(number);
      const word = document.createElement("span");
      word.className = "oracle-ask-claim-word";
      word.textContent = "claim";
      const tick = document.createElement("span");
      tick.setAttribute("aria-hidden", "true");
      tick.textContent = claimed ? "\u2713 " : "";
      word.prepend(tick);
      button.replaceChildren(hidden("Stone"), name, word);
      if (holder) {
        const mark = document.createElement("span");
        mark.className = "oracle-ask-holder";
        mark.textContent = holder === "you" ? "yours" : "theirs";
        button.append(mark);
      }
      continue;
    }
    const boxId = `stone-${number}-${side}`;
    button.setAttribute("aria-pressed", target === boxId ? "true" : "false");
    const where = `Stone ${number}, ${side === "you" ? "your" : "their"} side:`;
    button.replaceChildren(hidden(where), ...drawnCards(boxId));
  }
  for (const button of $("ask-drawn-hand").querySelectorAll("button")) {
    const boxId = button.dataset.box;
    const name = document.createElement("span");
    name.className = "oracle-ask-zone-name";
    name.textContent = boxId === "hand" ? "Your hand:" : "Discards:";
    button.setAttribute("aria-pressed", target === boxId ? "true" : "false");
    button.replaceChildren(name, ...drawnCards(boxId));
  }
}

// Arrow keys: left and right to the same place on the next stone, up and down within a stone.
function boardKeys(event) {
  const current = event.target.closest("button");
  if (!current) return;
  const stone = Number(current.dataset.stone);
  const row = SIDES.indexOf(current.dataset.side);
  const phone = getComputedStyle($("ask-drawn")).flexDirection === "column";
  const moves = {
    ArrowLeft: phone ? [0, -1] : [-1, 0],
    ArrowRight: phone ? [0, 1] : [1, 0],
    ArrowUp: phone ? [-1, 0] : [0, -1],
    ArrowDown: phone ? [1, 0] : [0, 1],
    Home: [-9, 0],
    End: [9, 0],
  };
  const move = moves[event.key];
  if (!move) return;
  event.preventDefault();
  const nextStone = Math.min(9, Math.max(1, stone + move[0]));
  const nextRow = Math.min(2, Math.max(0, row + move[1]));
  const next = $("ask-drawn").children[nextStone - 1].children[nextRow];
  current.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}

// ------------------------------------------------------------------ the palette

function paletteCard(card, kind) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "oracle-palette-card";
  button.dataset.card = card.name;
  button.draggable = true;
  if (kind === "tactics") button.dataset.tactic = "";
  // The engine's drawing of the card, for the eye; its name, for a screen reader.
  button.innerHTML = card.html;
  button.firstElementChild.setAttribute("aria-hidden", "true");
  const name = document.createElement("span");
  name.className = "oracle-sr-only";
  name.textContent = card.name;
  button.append(name);
  button.addEventListener("click", () => putCard(card.name, target));
  button.addEventListener("dragstart", (event) => {
    event.dataTransfer.setData("text/x-oracle-card", card.name);
    event.dataTransfer.setData("text/plain", card.name);
    event.dataTransfer.effectAllowed = "copyMove";
  });
  return button;
}

// The palette is one stop for Tab: the arrow keys move between its cards as they are laid out
// on the screen (a roving tabindex, as WAI-ARIA's grid pattern moves focus), Home and End go to
// the ends of a row, Ctrl+Home and Ctrl+End to the first and last card.
function paletteKeys(palette) {
  const cards = () => [...palette.querySelectorAll(".oracle-palette-card")];
  const box = (card) => card.getBoundingClientRect();
  const row = (card) => Math.round(box(card).top);
  const rove = (current) => {
    for (const card of cards()) card.tabIndex = card === current ? 0 : -1;
  };
  palette.addEventListener("focusin", (event) => {
    if (event.target.matches(".oracle-palette-card")) rove(event.target);
  });
  palette.addEventListener("keydown", (event) => {
    const all = cards();
    const current = document.activeElement;
    const here = all.indexOf(current);
    if (here < 0) return;
    const sameRow = all.filter((card) => row(card) === row(current));
    let next;
    if (event.key === "ArrowRight") next = all[here + 1];
    else if (event.key === "ArrowLeft") next = all[here - 1];
    else if (event.key === "Home") next = event.ctrlKey ? all[0] : sameRow[0];
    else if (event.key === "End") next = event.ctrlKey ? all.at(-1) : sameRow.at(-1);
    else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      const rows = [...new Set(all.map(row))].sort((a, b) => a - b);
      const wanted = rows[rows.indexOf(row(current)) + (event.key === "ArrowDown" ? 1 : -1)];
      const x = box(current).left;
      const distance = (card) => Math.abs(box(card).left - x);
      next = all
        .filter((card) => row(card) === wanted)
        .reduce((best, card) => (best === undefined || distance(card) < distance(best) ? card : best), undefined);
    } else return;
    event.preventDefault();
    if (next) next.focus();
  });
  rove(cards()[0]);
}

// A box takes a dropped card; a stone's frame, outside its boxes, puts it on your side.
function dropTarget(element, boxId) {
  element.addEventListener("dragover", (event) => {
    if (!event.dataTransfer.types.includes("text/x-oracle-card")) return;
    event.preventDefault();
    event.stopPropagation();
    element.classList.add("oracle-drop");
  });
  element.addEventListener("dragleave", () => element.classList.remove("oracle-drop"));
  element.addEventListener("drop", (event) => {
    const name = event.dataTransfer.getData("text/x-oracle-card");
    element.classList.remove("oracle-drop");
    if (!name) return;
    event.preventDefault();
    event.stopPropagation();
    chooseTarget(boxId);
    putCard(name, boxId);
  });
}

// ------------------------------------------------------------------ start

// Open the board a new link carries (the page wrote the address itself with replaceState,
// which is no hashchange: this is a link the reader brought).
async function followLink() {
  const linked = await caseFromLink();
  if (linked === null) return;
  if (linked.problem !== undefined) {
    // The link is the reader's newest question: an answer still on its way to the page's
    // earlier one is dropped, or it would clear this problem as it arrived.
    clearTimeout(timer);
    waiting = null;
    generation += 1;
    showProblem({ message: linked.problem }, "The link to this page", false);
    return;
  }
  if (linked.text === $("case-text").value) return;
  showText(linked.text);
  edited = true;
  await askNow(askCaseText);
}

async function main() {
  // Clicking or typing in a box makes it the palette's target; merely tabbing through does not.
  for (const input of app.querySelectorAll("input[data-cards]")) {
    input.addEventListener("click", () => chooseTarget(input.id));
    input.addEventListener("input", () => { chooseTarget(input.id); markUsed(); });
    dropTarget(input, input.id);
  }
  for (const stone of app.querySelectorAll(".oracle-stone-form")) {
    dropTarget(stone, `stone-${stone.dataset.stone}-you`);
  }
  for (const pick of app.querySelectorAll(".oracle-stone-pick")) {
    pick.addEventListener("click", () => chooseTarget(pick.dataset.target, true));
  }
  for (const radio of app.querySelectorAll('input[name="variant"]')) {
    radio.addEventListener("change", showVariant);
  }
  const form = $("ask-form");
  // The case file's pane lies beside the board, inside the form: its text is asked on its own.
  const ofBoard = (event) => event.target.id !== "palette-target" && !event.target.closest(".oracle-case-pane");
  form.addEventListener("input", (event) => { if (ofBoard(event)) boardChanged(); });
  form.addEventListener("change", (event) => { if (ofBoard(event)) { drawBoard(); boardChanged(); } });
  form.addEventListener("submit", (event) => { event.preventDefault(); askNow(askBoard, true); });
  $("clear-button").addEventListener("click", () => {
    for (const input of app.querySelectorAll("#ask-form input[type=text]")) input.value = "";
    for (const box of app.querySelectorAll("#ask-form input[type=checkbox]")) box.checked = false;
    for (const select of app.querySelectorAll("#ask-form select:not(#palette-target)")) select.value = "";
    markUsed();
    announce("The board is cleared.");
    boardChanged();
  });
  const area = $("case-text");
  area.addEventListener("input", textChanged);
  area.addEventListener("scroll", () => { $("case-gutter").scrollTop = area.scrollTop; });
  $("copy-button").addEventListener("click", async () => {
    await settled();
    await copyText(area.value, "Copied.", area);
  });
  $("link-button").addEventListener("click", async () => {
    await settled();
    await showInAddress(area.value);
    await copyText(location.href, "Link copied.", area);
  });
  // A link pasted into the address bar of an open page changes only the part after #.
  window.addEventListener("hashchange", followLink);
  fillTargets();
  buildBoard();
  chooseTarget(target);
  showVariant();
  numberLines(null);
  // A damaged link is said at once, before the engine is ready, not thrown in the console.
  const linked = await caseFromLink();
  if (linked !== null && linked.problem !== undefined) {
    showProblem({ message: linked.problem }, "The link to this page", false);
  }
  if (linked !== null && linked.text !== undefined) showText(linked.text);
  try {
    await engine.ready;
  } catch {
    return; // the loading line says why
  }
  try {
    await opening(linked);
  } finally {
    app.dataset.opened = "true"; // the opening question is answered: what comes next is the reader's
  }
}

// Once the engine runs: the palette is drawn and the opening board (or the link's) is asked.
async function opening(linked) {
  const cards = await engine.ask("cards", {});
  const palette = $("palette-cards");
  const seen = new Set();
  for (const [kind, list] of [["clan", cards.clan], ["tactics", cards.tactics]]) {
    for (const card of list) {
      if (seen.has(card.name)) continue; // one button for both Jokers
      seen.add(card.name);
      cardDrawings.set(card.name, card.html);
      palette.append(paletteCard(card, kind));
    }
  }
  paletteKeys(palette);
  showVariant();
  markUsed(); // draws the board's cards as the engine draws them
  $("ask-button").disabled = false;
  // What the reader typed or pasted while the engine started is already on its way to it;
  // asking about the opening board now would drop that answer and cancel a question not yet sent.
  if (edited) return;
  if (linked !== null && linked.text !== undefined) {
    await askNow(askCaseText);
  } else if (linked === null) {
    await askNow(askBoard);
  } else {
    setVerdicts([], "The link could not be read: set up a board, or paste a case file.");
  }
}

main();
