// The puzzle page: pick a puzzle, play the team's cards, the server judges and defends.
"use strict";

const state = { list: [], index: -1, puzzle: null, moves: [], session: localStorage.getItem("openhand-session") };
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const $ = (id) => document.getElementById(id);

async function api(path, body) {
  const options = body === undefined ? {} :
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, options);
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function toMove(position) {
  return (position.leader + position.trick.length) % position.hands.length;
}

function label(token) {
  if (token.includes("-")) return token;                       // a tile
  const rank = token[1] === "T" ? "10" : token[1];
  return rank + SUITS[token[0]];
}

async function draw(position) {
  $("table").innerHTML = position.hidden  // a single-dummy view: the server draws it, hidden cards as backs
    ? await api(`/api/puzzles/${state.puzzle.id}/svg`)
    : await api(`/api/svg?viewer=${state.puzzle.player}`, position);
  const hand = $("hand");
  hand.innerHTML = "";
  const seat = toMove(position);
  if (!state.puzzle.team.includes(seat) || state.finished) return;
  for (const token of position.hands[seat]) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label(token);
    button.dataset.piece = token;
    if (token[0] === "H" || token[0] === "D") button.classList.add("red");
    button.addEventListener("click", () => play(token));
    hand.appendChild(button);
  }
}

function say(text, kind) {
  const status = $("status");
  status.textContent = text;
  status.className = "status " + (kind || "");
}

function showAnswer(answer) {
  const box = $("answer");
  const moves = answer.moves.map(([card, value]) => `${label(card)}: ${value}`).join(", ");
  box.innerHTML = `<strong>Answer:</strong> ${answer.key.map(label).join(" or ")} holds it to ${answer.value}.` +
    `<br>Every first move: ${moves}.<br>Line: ${answer.line.map(label).join(" ")}`;
  box.hidden = false;
}

async function play(token) {
  state.moves.push(token);
  let outcome;
  try {
    outcome = await api(`/api/puzzles/${state.puzzle.id}/attempt`, { moves: state.moves, session: state.session });
  } catch (e) {
    state.moves.pop();
    say(e.message, "wrong");
    return;
  }
  state.session = outcome.session;
  localStorage.setItem("openhand-session", outcome.session);
  state.finished = outcome.finished;
  if (!outcome.correct) {
    say(`Wrong: ${outcome.explanation}`, "wrong");
  } else if (outcome.finished) {
    say(`Right! ${outcome.explanation}`, "right");
  } else {
    const replies = outcome.replies.length ? ` Reply: ${outcome.replies.map(label).join(" ")}.` : "";
    say(`Right: ${outcome.explanation}.${replies} Your move.`, "right");
  }
  if (outcome.answer) showAnswer(outcome.answer);
  await draw(outcome.position);
  document.body.dataset.moves = String(state.moves.length);  // lets a test wait for the reply
}

async function load(index) {
  if (!state.list.length) { say("No puzzles here yet."); return; }
  state.index = (index + state.list.length) % state.list.length;
  state.puzzle = await api(`/api/puzzles/${state.list[state.index].id}`);
  state.moves = [];
  state.finished = false;
  $("answer").hidden = true;
  $("task").textContent = `${state.puzzle.task} (level ${state.puzzle.level})`;
  say("Your move.");
  await draw(state.puzzle.position);
  // Set only once the table is drawn, so a test that waits for them sees the whole page.
  document.body.dataset.moves = "0";
  document.body.dataset.puzzle = state.puzzle.id;
}

async function choose() {
  const game = $("game").value;
  const page = await api(`/api/puzzles?per_page=100${game ? "&game=" + game : ""}`);
  state.list = page.items;
  await load(0);
}

$("game").addEventListener("change", choose);
$("next").addEventListener("click", () => load(state.index + 1));
choose().catch((e) => say(e.message, "wrong"));
