// The "Play a game" page: a whole game against the computer at a table, refereed by the engine
// running in this page. The page offers only the moves the engine lists (oracle/browser/games.py
// gives each as the hand card it starts from, the card it takes, the stone it ends at) and sends
// the one the reader picks; the engine plays the computer's side from its own view. A card no move
// plays says why, in the engine's words (games.py gives them as "refused"): the page words no rule.
import { startEngine } from "./engine-client.js";

const app = document.getElementById("oracle-app");
const engine = startEngine();
const $ = (id) => document.getElementById(id);
let game = null; // the engine's view of the game, as last answered
let pick = { hand: null, card: null }; // the hand card chosen, then the board card a ruse takes
const marked = new Set(); // stones marked to claim
let busy = false; // a move is on its way: nothing more is sent until the answer
let review = null; // the moment shown while stepping back through the game
let reviewStep = null; // the step last asked for; clicks faster than the engine answers count from it
let explained = null; // the refused card whose reason is shown; kept while it is picked
let explainedKept = false;
const USABLE = "button:not([disabled]):not([aria-disabled=true])";

function button(text, onClick, options = {}) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = options.primary ? "md-button md-button--primary" : "md-button";
  element.textContent = text;
  if (options.label) element.setAttribute("aria-label", options.label);
  element.addEventListener("click", onClick);
  return element;
}

function cardFace(card) {
  const face = document.createElement("span");
  face.className = "oracle-play-card";
  face.innerHTML = card.html; // the engine's drawing of the card, every text escaped there
  face.firstElementChild.setAttribute("aria-hidden", "true");
  const name = document.createElement("span");
  name.className = "oracle-sr-only";
  name.textContent = card.name;
  face.append(name);
  return face;
}

// ------------------------------------------------------------------ what can be picked

const movesFromHand = (name) => game.moves.filter((move) => move.hand === name);
const isRuse = (name) => ["banshee", "traitor", "strategist"].includes(name);

// The moves the picks so far lead to, and what the next pick is.
function pending() {
  if (!pick.hand) return [];
  return movesFromHand(pick.hand).filter((move) => !pick.card
    || (move.card === pick.card.name && move.from === pick.card.from));
}

function stoneMoves(number) {
  if (!pick.hand || (isRuse(pick.hand) && !pick.card)) return [];
  return pending().filter((move) => move.stone === number);
}

function boardCardMove(side, number, name) {
  if (!pick.hand || !isRuse(pick.hand) || pick.card) return null;
  const takesTheirs = pick.hand !== "strategist";
  if ((side === "them") !== takesTheirs) return null;
  return pending().find((move) => move.card === name && move.from === number) || null;
}

function hint() {
  const rule = pick.hand ? game.hand_cards.find((card) => card.name === pick.hand)?.rule : "";
  const next = nextStep();
  return rule && next ? `${rule} ${next}` : next;
}

function nextStep() {
  if (!game.your_turn) return "";
  if (game.phase === "claim") {
    return game.table.some((stone) => stone.claimable)
      ? "The stones you can prove are marked: claim them, or press one to leave it unclaimed."
      : "";
  }
  if (game.phase === "recruiter return") return "Choose a card to put back under its deck.";
  if (game.phase === "draw" || game.phase === "recruiter draw") return "Choose the deck to draw from.";
  if (!pick.hand) return "Choose a card, then a stone (or drag the card onto a stone).";
  if (pick.hand === "recruiter") return "Play the Recruiter with the button below, or choose another card.";
  if (isRuse(pick.hand) && !pick.card) {
    return pick.hand === "strategist" ? "Choose one of your cards on the border." : "Choose one of their cards on the border.";
  }
  if (pick.hand === "banshee") return "";
  return `Choose a stone for ${pick.card ? pick.card.name : pick.hand}${pick.hand === "strategist" ? ", or discard it" : ""}. Escape starts again.`;
}

// ------------------------------------------------------------------ sending a move

async function send(request, what) {
  if (busy || reviewStep !== null) return;
  busy = true;
  app.dataset.busy = "true";
  render(); // every control off until the answer: a second click sends nothing
  try {
    const answer = await engine.ask("game_move", { game: game.game, at: game.moves_made, ...request });
    pick = { hand: null, card: null };
    explained = null;
    explainedKept = false;
    marked.clear();
    show(answer, what);
  } finally {
    busy = false;
    app.dataset.busy = "false";
    render();
  }
  focusNextStep();
  autoMove();
}

// A step with one move only (claim nothing when no stone can be proved, the one deck to draw
// from) is taken for the reader; the log still lists it.
function autoMove() {
  if (!game || !game.your_turn || game.moves.length !== 1 || reviewStep !== null) return;
  const [only] = game.moves;
  const forced = (only.kind === "claim" && only.stones.length === 0) || only.kind === "draw";
  if (forced) setTimeout(() => send({ move: only.text }, only.text), 0);
}

function focusNextStep() {
  if (!game) return;
  // The step's main button first (claim the marked stones, play the Recruiter), then the board,
  // then the hand: Enter, Enter plays a turn.
  const next = game.over
    ? $("game-over-title")
    : !game.your_turn
      ? $("game-status")
      : $("game-actions").querySelector(".md-button--primary")
        || $("game-table").querySelector(USABLE)
        || $("game-hand").querySelector(USABLE)
        || $("game-actions").querySelector("button");
  (next || $("game-status")).focus();
}

// ------------------------------------------------------------------ showing the game

function describeStatus(view, what) {
  const held = `You hold ${view.held.you.length ? view.held.you.join(", ") : "no stone"}, the computer ${view.held.them.length ? view.held.them.join(", ") : "no stone"}.`;
  const theirs = view.their_last.length ? `The computer: ${view.their_last.join("; ")}. ` : "";
  const yours = what ? `You: ${what}. ` : "";
  if (view.over) return `${yours}${theirs}Game over. ${view.result}`;
  const whose = view.your_turn ? `your ${view.phase} step` : "the computer's turn";
  const soFar = view.moves_made ? ` (${view.length} so far)` : "";
  return `${yours}${theirs}Turn ${view.turn}, ${whose}${soFar}. ${held}`;
}

function show(view, what) {
  game = view;
  if (view.your_turn && view.phase === "claim") {
    // The stones the reader can prove come marked: one press claims them all.
    for (const stone of view.table) if (stone.claimable) marked.add(stone.number);
  }
  $("game").hidden = false;
  app.dataset.over = view.over ? "true" : "false";
  app.dataset.phase = view.phase;
  app.dataset.movesMade = String(view.moves_made);
  $("game-status").textContent = describeStatus(view, what);
  const problem = $("game-problem");
  problem.hidden = view.ok !== false;
  problem.textContent = view.ok === false ? `Refused: ${view.problem}` : "";
  const decks = Object.entries(view.decks).map(([deck, size]) => `${deck} deck ${size}`).join(", ");
  $("game-their-hand").textContent = `The computer holds ${view.their_hand_size} cards; ${decks}.`;
  $("game-over").hidden = !view.over;
  $("game-result").textContent = view.result;
  $("game-length").textContent = `${view.length[0].toUpperCase()}${view.length.slice(1)}; in the record you are A, the computer B.`;
  showLog(view);
  const link = $("game-download");
  URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([view.record], { type: "text/plain" }));
  const timing = view.expert ? "expert" : "standard";
  const first = view.you_first ? "you-first" : "computer-first";
  link.download = `schotten-totten-${view.variant}-${timing}-${first}-seed-${view.seed}.txt`;
  $("game-download-end").href = link.href; // the end offers the record too
  $("game-download-end").download = link.download;
  $("game-record").textContent = view.record;
  const select = $("game-legal");
  select.replaceChildren();
  for (const move of view.moves) {
    const option = document.createElement("option");
    option.value = option.textContent = move.text;
    select.append(option);
  }
  $("game-legal-box").hidden = view.moves.length === 0;
  render();
}

// One line a turn: what the player chose, then the steps the rules made for them (a claim of
// nothing, a draw from the only deck) in a lighter colour.
function showLog(view) {
  const log = $("game-log");
  log.replaceChildren();
  let line = null;
  for (const event of view.log) {
    if (!line || line.dataset.turn !== String(event.turn)) {
      line = document.createElement("li");
      line.dataset.turn = String(event.turn);
      line.append(`Turn ${event.turn}, ${event.who}: `);
      line.chosen = [];
      line.forced = document.createElement("span");
      line.forced.className = "oracle-log-forced";
      log.append(line);
    }
    if (event.forced) {
      line.forced.textContent = `${line.forced.textContent ? `${line.forced.textContent}, ` : " (then "}${event.text}`;
    } else {
      line.chosen.push(event.text);
    }
  }
  for (const item of log.children) {
    item.append(item.chosen.length ? item.chosen.join("; ") : "nothing to choose");
    if (item.forced.textContent) {
      item.forced.textContent += ", forced)";
      item.append(item.forced);
    }
  }
  log.scrollTop = log.scrollHeight; // the newest moves in view
}

// While stepping back, the log shows which turn the table stands at.
function markLogTurn(turn) {
  const log = $("game-log");
  for (const item of log.children) {
    const current = turn !== null && item.dataset.turn === String(turn);
    item.classList.toggle("oracle-log-current", current);
    if (current) {
      item.setAttribute("aria-current", "step");
      // Within the log's own scroll box only: the page stays where the reader is.
      log.scrollTop = item.offsetTop - (log.clientHeight - item.offsetHeight) / 2;
    } else {
      item.removeAttribute("aria-current");
    }
  }
}

// The table: the nine stones (their side above, yours below), your hand and the other moves,
// each offered only where the engine lists a move.
function render() {
  const moment = review || game;
  const playing = !review && game.your_turn && !busy;
  const table = $("game-table");
  table.replaceChildren();
  for (const stone of moment.table) table.append(stoneColumn(stone, playing));
  const hand = $("game-hand");
  hand.replaceChildren();
  for (const card of moment.hand_cards) hand.append(handCard(card, playing));
  $("game-hint").textContent = playing ? hint() : "";
  showReason(playing);
  const actions = $("game-actions");
  actions.replaceChildren();
  if (playing) for (const action of otherMoves()) actions.append(action);
}

function stoneColumn(stone, playing) {
  const column = document.createElement("div");
  column.className = "oracle-play-stone";
  column.dataset.stone = String(stone.number);
  column.classList.toggle("oracle-touched", Boolean(stone.touched));
  column.classList.toggle("oracle-claimable", playing && stone.claimable);
  if (stone.held_by) column.dataset.heldBy = stone.held_by;
  column.append(side(stone, "them", playing));
  const moves = playing ? stoneMoves(stone.number) : [];
  const claimable = playing && game.phase === "claim" && stone.claimable;
  const marks = [];
  if (stone.held_by) marks.push(stone.held_by === "you" ? "yours" : "theirs");
  if (claimable) marks.push("provable");
  if (stone.touched) marks.push("just moved");
  for (const mode of stone.modes) marks.push(mode);
  const label = button("", () => {
    if (claimable) toggleClaim(stone.number);
    else if (moves.length) send({ move: moves[0].text }, moves[0].text);
  });
  label.className = "oracle-play-label";
  const number = document.createElement("strong");
  number.textContent = String(stone.number);
  const notes = document.createElement("span");
  notes.className = "oracle-play-marks";
  notes.textContent = marks.join(" · ");
  label.append(number, notes);
  label.disabled = !(claimable || moves.length);
  // The name starts with what the button shows, then says what pressing it does.
  const said = document.createElement("span");
  said.className = "oracle-sr-only";
  if (claimable) {
    label.setAttribute("aria-pressed", marked.has(stone.number) ? "true" : "false");
    said.textContent = `: Stone ${stone.number}, you can prove it; mark it to claim`;
  } else if (moves.length) {
    said.textContent = `: Stone ${stone.number}: ${moves[0].text}`;
    column.classList.add("oracle-target-stone");
  } else {
    said.textContent = `: ${stone.words}`;
  }
  label.append(said);
  column.append(label, side(stone, "you", playing));
  // Anywhere on the column does what its button does; a card dropped on it is played there.
  column.addEventListener("click", (event) => {
    if (event.target === column || event.target.closest(".oracle-play-side") && !event.target.closest("button")) {
      if (!label.disabled) label.click();
    }
  });
  column.addEventListener("dragover", (event) => {
    const name = dragged(event);
    if (!playing || !name) return;
    if (movesFromHand(name).some((move) => move.kind === "play" && move.stone === stone.number)) {
      event.preventDefault();
      column.classList.add("oracle-drop");
    }
  });
  column.addEventListener("dragleave", () => column.classList.remove("oracle-drop"));
  column.addEventListener("drop", (event) => {
    column.classList.remove("oracle-drop");
    const name = dragged(event);
    const move = name && movesFromHand(name).find((m) => m.kind === "play" && m.stone === stone.number);
    if (!move) return;
    event.preventDefault();
    send({ move: move.text }, move.text);
  });
  return column;
}

function dragged(event) {
  const types = event.dataTransfer ? [...event.dataTransfer.types] : [];
  if (!types.includes("text/x-oracle-card")) return null;
  return event.dataTransfer.getData("text/x-oracle-card") || draggedName;
}
let draggedName = null; // dragover cannot read the data, only its type

function side(stone, who, playing) {
  const element = document.createElement("div");
  element.className = `oracle-play-side oracle-play-side--${who}`;
  for (const card of stone[who]) {
    const move = playing ? boardCardMove(who, stone.number, card.name) : null;
    if (move) {
      const take = button("", () => {
        if (pick.hand === "banshee") send({ move: move.text }, move.text);
        else { pick.card = { name: card.name, from: stone.number }; render(); focusNextStep(); }
      }, { label: `${pick.hand}: take ${card.name} from stone ${stone.number}` });
      take.className = "oracle-play-pick";
      take.append(cardFace(card));
      element.append(take);
    } else {
      const face = cardFace(card);
      if (card.last) face.classList.add("oracle-card-new");
      element.append(face);
    }
  }
  for (let free = stone[who].length; free < stone.capacity; free += 1) {
    const slot = document.createElement("span");
    slot.className = "oracle-play-slot";
    element.append(slot);
  }
  return element;
}

function handCard(card, playing) {
  const moves = playing ? game.moves.filter((move) => move.hand === card.name || (move.kind === "return" && move.card === card.name)) : [];
  const refused = playing && !moves.length && card.refused;
  const element = button("", () => (refused ? explain(card.name, true) : chooseCard(card.name)));
  element.className = "oracle-hand-card";
  element.dataset.card = card.name;
  const reason = refused ? `Not playable now: ${card.refused}.` : "";
  // A Tactic card's rule, and why it cannot be played now: also its accessible description.
  if (card.rule || reason) element.title = [card.rule, reason].filter(Boolean).join(" ");
  element.append(cardFace(card));
  if (!moves.length && playing) {
    const note = document.createElement("span");
    note.className = "oracle-sr-only";
    note.textContent = refused ? `: not playable now, ${card.refused}` : ": not playable now";
    element.append(note);
  }
  if (refused) {
    // Still focusable, so the keyboard reaches its reason; pressing it shows the reason only.
    element.setAttribute("aria-disabled", "true");
    element.dataset.refused = card.refused;
    element.addEventListener("focus", () => explain(card.name, false));
    element.addEventListener("pointerenter", () => explain(card.name, false));
    element.addEventListener("blur", () => unexplain(card.name));
    element.addEventListener("pointerleave", () => unexplain(card.name));
  }
  element.disabled = !moves.length && !refused;
  element.setAttribute("aria-pressed", pick.hand === card.name ? "true" : "false");
  if (moves.length && game.phase === "play") {
    element.draggable = true;
    element.addEventListener("dragstart", (event) => {
      draggedName = card.name;
      event.dataTransfer.setData("text/x-oracle-card", card.name);
      event.dataTransfer.effectAllowed = "move";
    });
  }
  return element;
}

// A refused card's reason, shown under the hand while the card is pointed at or focused, and
// kept once it is pressed (picked) until another card is.
function explain(name, keep) {
  if (keep) {
    explainedKept = true;
    if (pick.hand) { // pressing a refused card puts back the card picked before
      pick = { hand: null, card: null };
      explained = name;
      render();
      $("game-hand").querySelector(`[data-card="${CSS.escape(name)}"]`)?.focus();
    }
  } else if (explainedKept && explained !== name) {
    explainedKept = false;
  }
  explained = name;
  showReason(!review && game.your_turn && !busy);
}

function unexplain(name) {
  if (explained === name && !explainedKept) {
    explained = null;
    showReason(!review && game.your_turn && !busy);
  }
}

function showReason(playing) {
  const note = $("game-card-note");
  const card = playing && explained ? game.hand_cards.find((c) => c.name === explained && c.refused) : null;
  const name = card ? `${card.name[0].toUpperCase()}${card.name.slice(1)}` : "";
  note.textContent = card ? `${name} cannot be played now: ${card.refused}.` : "";
  note.hidden = !card;
  for (const element of $("game-hand").children) {
    if (!element.dataset.refused) continue;
    const shown = Boolean(card) && element.dataset.card === card.name;
    element.classList.toggle("oracle-explained", shown);
    element.setAttribute("aria-pressed", shown && explainedKept ? "true" : "false");
  }
}

function chooseCard(name) {
  if (busy || reviewStep !== null) return;
  explained = null;
  explainedKept = false;
  if (game.phase === "recruiter return") {
    const move = game.moves.find((m) => m.kind === "return" && m.card === name);
    if (move) send({ move: move.text }, move.text);
    return;
  }
  pick = pick.hand === name ? { hand: null, card: null } : { hand: name, card: null };
  render();
  if (pick.hand) focusNextStep();
  else $("game-hand").querySelector(`[data-card="${CSS.escape(name)}"]`)?.focus();
}

function toggleClaim(number) {
  if (marked.has(number)) marked.delete(number); else marked.add(number);
  render();
  $("game-table").querySelector(`[data-stone="${number}"] .oracle-play-label`)?.focus();
}

function otherMoves() {
  const found = [];
  if (game.phase === "claim") {
    const stones = [...marked].sort((a, b) => a - b);
    const claim = game.moves.find((move) => move.kind === "claim" && move.stones.length === stones.length
      && move.stones.every((stone, index) => stone === stones[index]));
    if (stones.length && claim) found.push(button(`Claim ${stones.length === 1 ? "stone" : "stones"} ${stones.join(", ")}`, () => send({ claim: stones }, claim.text), { primary: true }));
    found.push(button(stones.length ? "Claim none of them" : "Claim nothing", () => send({ claim: [] }, "claim nothing")));
  }
  for (const move of game.moves) {
    if (move.kind === "pass") found.push(button("Pass (play no card)", () => send({ move: move.text }, move.text)));
    if (move.kind === "draw") found.push(button(`Draw from the ${move.deck} deck`, () => send({ move: move.text }, move.text)));
  }
  if (pick.hand === "recruiter") {
    const move = movesFromHand("recruiter")[0];
    if (move) found.push(button("Play the Recruiter", () => send({ move: move.text }, move.text), { primary: true }));
  }
  if (pick.hand === "strategist" && pick.card) {
    const move = pending().find((m) => m.stone === null);
    if (move) found.push(button(`Discard ${pick.card.name}`, () => send({ move: move.text }, move.text)));
  }
  if (pick.hand) found.push(button("Choose again", cancelPick));
  return found;
}

function cancelPick() {
  pick = { hand: null, card: null };
  render();
  focusNextStep();
}

// ------------------------------------------------------------------ stepping back

async function stepTo(step) {
  if (!game || busy) return;
  const target = Math.max(0, Math.min(step, game.moves_made));
  reviewStep = target === game.moves_made ? null : target;
  if (reviewStep === null) {
    review = null;
    $("game-review-note").hidden = true;
    $("game-status").hidden = false;
    markLogTurn(null);
    render();
    return;
  }
  const moment = await engine.ask("game_at", { game: game.game, step: target });
  if (reviewStep !== target) return; // a later click asked for another step
  review = moment;
  const note = $("game-review-note");
  note.hidden = false;
  note.textContent = `Looking back: after move ${review.step} of ${review.total} (turn ${review.turn})${review.move ? `, ${review.move}` : ", the deal"}. Press Now to return to the game.`;
  $("game-status").hidden = true; // it tells the game now, not the moment shown
  markLogTurn(review.step ? review.turn : null);
  render();
}

function reviewFrom() {
  return reviewStep === null ? game.moves_made : reviewStep;
}

// ------------------------------------------------------------------ start

function newSeed() {
  const [random] = crypto.getRandomValues(new Uint32Array(1));
  $("game-seed").value = String(random % 1000000);
}

async function deal(event) {
  event.preventDefault();
  const variant = document.querySelector('#game-form input[name="variant"]:checked').value;
  if ($("game-seed").value === "") newSeed();
  review = null;
  reviewStep = null;
  $("game-review-note").hidden = true;
  pick = { hand: null, card: null };
  explained = null;
  explainedKept = false;
  marked.clear();
  $("game-status").hidden = false;
  const view = await engine.ask("new_game", {
    variant,
    expert: $("game-expert").checked,
    seed: Number($("game-seed").value),
    you_first: $("game-first").value === "you",
  });
  show(view);
  // Once dealt, the table comes first: the how-to folds away, and the form for another deal
  // moves below the game.
  const help = document.getElementById("play-help");
  if (help) help.open = false;
  $("game").after($("game-form"));
  $("game-title").scrollIntoView({ block: "start" }); // the table and the hand in view
  $("game-title").focus({ preventScroll: true });
  autoMove();
}

async function main() {
  newSeed();
  $("seed-button").addEventListener("click", newSeed);
  $("game-form").addEventListener("submit", deal);
  $("legal-button").addEventListener("click", () => {
    const text = $("game-legal").value;
    const move = game.moves.find((m) => m.text === text);
    if (move && move.kind === "claim") send({ claim: move.stones }, text);
    else if (move) send({ move: text }, text);
  });
  $("game-again").addEventListener("click", () => {
    newSeed();
    $("game-form").requestSubmit();
  });
  $("review-start").addEventListener("click", () => stepTo(0));
  $("review-back").addEventListener("click", () => stepTo(reviewFrom() - 1));
  $("review-forward").addEventListener("click", () => stepTo(reviewFrom() + 1));
  $("review-now").addEventListener("click", () => stepTo(game.moves_made));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && pick.hand) cancelPick();
  });
  await engine.ready;
  $("deal-button").disabled = false;
}

main();
