// The "Ask the engine" page: a board typed or clicked in, or a case file pasted or linked,
// judged by the engine running in this page. This script only moves text between the form and
// the engine; every verdict, message and case file comes from the engine's own code.
import { startEngine } from "./engine-client.js";

const app = document.getElementById("oracle-app");
const engine = startEngine(app);
const $ = (id) => document.getElementById(id);
const STONES = [1, 2, 3, 4, 5, 6, 7, 8, 9];
let target = "stone-1-you";
let lastCaseText = "";

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
  select.addEventListener("change", () => chooseTarget(select.value));
}

function boxLabel(id) {
  if (id === "hand") return "your hand";
  if (id === "discards") return "the face-up discards";
  const [, number, who] = id.split("-");
  return `Stone ${number}, ${who === "you" ? "your" : "their"} cards`;
}

function chooseTarget(id) {
  target = id;
  $("palette-target").value = id;
  for (const input of app.querySelectorAll("input[data-cards]")) {
    input.classList.toggle("oracle-target", input.id === id);
  }
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
}

function addCard(name) {
  const input = $(target);
  const names = namesIn(input.value);
  // The two Jokers share a name: a box may take it twice before a click takes one back.
  const room = name === "joker" ? names.filter((other) => other === name).length < 2 : !names.includes(name);
  if (room) {
    input.value = [...names, name].join(", ");
  } else {
    const at = names.lastIndexOf(name);
    input.value = names.filter((_, index) => index !== at).join(", ");
  }
  markUsed();
}

function readForm() {
  const checked = (id) => [...$(id).querySelectorAll("input:checked")].map((box) => box.value);
  return {
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

function clearProblem() {
  $("ask-problem-box").hidden = true;
  for (const element of app.querySelectorAll("[aria-invalid]")) {
    element.removeAttribute("aria-invalid");
    element.removeAttribute("aria-describedby");
  }
  for (const message of app.querySelectorAll(".oracle-field-error")) message.remove();
}

function showProblem(answer, where) {
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
      control.focus();
    }
  }
}

function showReport(report, caseText, pasted) {
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
    ? "The engine agrees with every answer the case expects. The board form above shows its position only; the case's table (their hand, the decks) stays in the pasted text."
    : "The engine agrees with every answer the case expects.";
  else agreement.textContent = `The case expects otherwise: ${report.problems.join(" ")}`;
  lastCaseText = caseText;
  $("answer-case").textContent = caseText;
  $("copy-status").textContent = "";
  section.focus();
}

async function askForm(event) {
  event.preventDefault();
  clearProblem();
  const started = performance.now();
  const answer = await engine.ask("ask_form", { form: readForm() });
  app.dataset.lastCallMs = (performance.now() - started).toFixed(2);
  if (!answer.ok) {
    $("ask-answer").hidden = true;
    showProblem(answer, "Your board");
    return;
  }
  showReport(answer.report, answer.case_text, false);
}

async function askText(text, where) {
  clearProblem();
  const answer = await engine.ask("ask_text", { text });
  if (!answer.ok) {
    $("ask-answer").hidden = true;
    showProblem(answer, where);
    return;
  }
  fillForm(answer.form);
  showReport(answer.report, answer.case_text, true);
}

// The case a link carries after #case=, as { text } or, when the link is damaged, { problem }
// in words (null for an address that carries no case).
function caseFromLink() {
  if (!location.hash.toLowerCase().startsWith("#case=")) return null;
  // Padding is never written, but a link copied from elsewhere may carry it, or encode it.
  const code = location.hash.slice("#case=".length).replace(/(=|%3D)+$/i, "");
  if (!/^[A-Za-z0-9_-]+$/.test(code)) {
    return { problem: code ? "it holds characters a case link never has (only letters, digits, - and _ follow #case=); copy the whole link again" : "it ends at #case= with no case after it; copy the whole link again" };
  }
  let bytes;
  try {
    const base64 = code.replace(/-/g, "+").replace(/_/g, "/");
    bytes = Uint8Array.from(atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0));
  } catch {
    return { problem: "it is cut short or damaged, so no case can be read from it; copy the whole link again" };
  }
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { problem: "what it carries is not the text of a case file; copy the whole link again" };
  }
}

async function copyCase() {
  try {
    await navigator.clipboard.writeText(lastCaseText);
    $("copy-status").textContent = "Copied.";
  } catch {
    const range = document.createRange();
    range.selectNodeContents($("answer-case"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    $("copy-status").textContent = "Selected: press Ctrl+C (or Cmd+C) to copy.";
  }
}

async function main() {
  // Clicking or typing in a box makes it the palette's target; merely tabbing through does not.
  for (const input of app.querySelectorAll("input[data-cards]")) {
    input.addEventListener("click", () => chooseTarget(input.id));
    input.addEventListener("input", () => { chooseTarget(input.id); markUsed(); });
  }
  for (const pick of app.querySelectorAll(".oracle-stone-pick")) {
    pick.addEventListener("click", () => chooseTarget(pick.dataset.target));
  }
  for (const radio of app.querySelectorAll('input[name="variant"]')) {
    radio.addEventListener("change", () => {
      showVariant();
      $("ask-answer").hidden = true; // the answer was for the other game
    });
  }
  $("ask-form").addEventListener("submit", askForm);
  $("clear-button").addEventListener("click", () => {
    for (const input of app.querySelectorAll("#ask-form input[type=text]")) input.value = "";
    for (const box of app.querySelectorAll("#ask-form input[type=checkbox]")) box.checked = false;
    for (const select of app.querySelectorAll("#ask-form select")) select.value = "";
    markUsed();
  });
  $("paste-button").addEventListener("click", () => askText($("paste-text").value, "The pasted case"));
  $("copy-button").addEventListener("click", copyCase);
  fillTargets();
  chooseTarget(target);
  showVariant();
  // A damaged link is said at once, before the engine is ready, not thrown in the console.
  const linked = caseFromLink();
  if (linked !== null && linked.problem !== undefined) {
    showProblem({ message: linked.problem }, "The link to this page");
  }
  await engine.ready;
  const cards = await engine.ask("cards", {});
  const palette = $("palette-cards");
  const seen = new Set();
  for (const [kind, list] of [["clan", cards.clan], ["tactics", cards.tactics]]) {
    for (const card of list) {
      if (seen.has(card.name)) continue; // one button for both Jokers
      seen.add(card.name);
      const button = document.createElement("button");
      button.type = "button";
      button.className = "oracle-palette-card";
      button.dataset.card = card.name;
      if (kind === "tactics") button.dataset.tactic = "";
      // The engine's drawing of the card, for the eye; its name, for a screen reader.
      button.innerHTML = card.html;
      button.firstElementChild.setAttribute("aria-hidden", "true");
      const name = document.createElement("span");
      name.className = "oracle-sr-only";
      name.textContent = card.name;
      button.append(name);
      button.addEventListener("click", () => addCard(card.name));
      palette.append(button);
    }
  }
  showVariant();
  markUsed();
  $("ask-button").disabled = false;
  $("paste-button").disabled = false;
  if (linked !== null && linked.text !== undefined) {
    $("paste-text").value = linked.text;
    $("paste-box").open = true;
    await askText(linked.text, "The linked case");
  }
}

main();
