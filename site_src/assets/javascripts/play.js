// The "Play a game" page: a whole game against the computer, refereed by the engine running in
// this page. Only the moves the engine lists are offered; the engine plays the computer's side
// from its own view, and writes the log and the record.
import { startEngine } from "./engine-client.js";

const app = document.getElementById("oracle-app");
const engine = startEngine(app);
const $ = (id) => document.getElementById(id);
let game = null;
let chosenCard = null;

function button(text, onClick, label) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = "md-button";
  element.textContent = text;
  if (label) element.setAttribute("aria-label", label);
  element.addEventListener("click", onClick);
  return element;
}

function describeStatus(view) {
  const decks = Object.entries(view.decks).map(([deck, size]) => `${deck} deck ${size}`).join(", ");
  const held = `You hold ${view.held.you.length ? view.held.you.join(", ") : "no stone"}, the computer ${view.held.them.length ? view.held.them.join(", ") : "no stone"}`;
  const theirs = view.their_moves.length ? `The computer: ${view.their_moves.join("; ")}. ` : "";
  if (view.over) return `${theirs}Game over. ${view.result}`;
  const whose = view.your_turn ? `your ${view.phase} step` : "the computer's turn";
  return `${theirs}Turn ${view.turn}, ${whose}. ${held}; ${decks}; the computer holds ${view.their_hand_size} cards.`;
}

async function move(request) {
  const answer = await engine.ask("game_move", { game: game.game, ...request });
  show(answer);
  focusNextStep();
}

// After a move, the keyboard lands where the next choice is made.
function focusNextStep() {
  const next = game.over || !game.your_turn
    ? $("game-status")
    : $("game-claim-stones").querySelector("input")
      || $("game-hand").querySelector("button:not([disabled])")
      || $("game-other").querySelector("button")
      || $("game-legal");
  next.focus();
}

function show(view) {
  game = view;
  chosenCard = null;
  $("game").hidden = false;
  app.dataset.over = view.over ? "true" : "false";
  app.dataset.phase = view.phase;
  $("game-status").textContent = describeStatus(view);
  const problem = $("game-problem");
  problem.hidden = view.ok !== false;
  problem.textContent = view.ok === false ? `Refused: ${view.problem}` : "";
  $("game-board").innerHTML = view.board; // the engine's board, every text escaped there
  const playing = view.your_turn;
  $("game-controls").hidden = !playing;
  const claimStep = playing && view.phase === "claim";
  $("game-claim").hidden = !claimStep;
  $("game-hand-step").hidden = !(playing && view.phase === "play");
  const hand = $("game-hand");
  hand.replaceChildren();
  for (const name of view.hand) {
    const stones = view.plays[name] || [];
    const choice = button(name, () => chooseCard(name), stones.length ? `${name}: choose a stone next` : `${name}: cannot be played now`);
    choice.disabled = !playing || view.phase !== "play" || stones.length === 0;
    choice.dataset.card = name;
    hand.append(choice);
  }
  $("game-targets").replaceChildren();
  const claimStones = $("game-claim-stones");
  claimStones.replaceChildren();
  if (claimStep) {
    for (const stone of view.open_stones) {
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.value = String(stone);
      label.append(box, ` Stone ${stone}`);
      claimStones.append(label);
    }
  }
  const others = $("game-other");
  others.replaceChildren();
  if (playing && view.other_moves.length <= 12) {
    for (const text of view.other_moves) others.append(button(text, () => move({ move: text })));
  }
  const select = $("game-legal");
  select.replaceChildren();
  for (const text of view.legal.filter((text) => !text.startsWith("claim"))) {
    const option = document.createElement("option");
    option.value = option.textContent = text;
    select.append(option);
  }
  $("legal-button").disabled = select.options.length === 0;
  $("game-legal-row").hidden = select.options.length === 0;
  $("game-over").hidden = !view.over;
  $("game-result").textContent = view.result;
  const log = $("game-log");
  log.replaceChildren();
  for (const event of view.log) {
    const item = document.createElement("li");
    item.textContent = `Turn ${event.turn}, ${event.who}: ${event.text}${event.forced ? " (forced)" : ""}`;
    log.append(item);
  }
  log.scrollTop = log.scrollHeight; // the newest moves in view
  $("game-record").textContent = view.record;
  const link = $("game-download");
  URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([view.record], { type: "text/plain" }));
  link.download = `schotten-totten-${view.variant}-seed-${view.seed}.txt`;
}

function chooseCard(name) {
  chosenCard = name;
  const targets = $("game-targets");
  targets.replaceChildren();
  for (const stone of game.plays[name] || []) {
    targets.append(button(`${name} on ${stone}`, () => move({ move: `${name} on ${stone}` })));
  }
  for (const element of $("game-hand").querySelectorAll("button")) {
    element.setAttribute("aria-pressed", element.dataset.card === name ? "true" : "false");
  }
  targets.querySelector("button")?.focus();
}

async function deal(event) {
  event.preventDefault();
  const variant = document.querySelector('#game-form input[name="variant"]:checked').value;
  const view = await engine.ask("new_game", {
    variant,
    expert: $("game-expert").checked,
    seed: Number($("game-seed").value || 0),
    you_first: $("game-first").value === "you",
  });
  show(view);
  $("game-title").focus();
}

async function main() {
  $("game-form").addEventListener("submit", deal);
  $("claim-button").addEventListener("click", () => {
    const stones = [...$("game-claim-stones").querySelectorAll("input:checked")].map((box) => Number(box.value));
    move({ claim: stones });
  });
  $("claim-none-button").addEventListener("click", () => move({ claim: [] }));
  $("legal-button").addEventListener("click", () => move({ move: $("game-legal").value }));
  await engine.ready;
  $("deal-button").disabled = false;
}

main();
