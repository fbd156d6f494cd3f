// Kōnane against the computer: the page's logic. Plain JavaScript, no
// build step; it talks to the JSON API of the server that sent it.
"use strict";

const $ = (id) => document.getElementById(id);

let config = null;   // GET api/config
let state = null;    // the game, as the server last sent it
let selected = null; // the square of the stone chosen to jump, or null
let hint = null;     // the last hint's move, or null

// api sends a request and returns the JSON answer, or throws its error.
async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body),
  };
  const res = await fetch(path, opts);
  let data;
  try {
    data = await res.json();
  } catch (e) {
    throw new Error(res.status + " " + res.statusText);
  }
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function busy() { return document.body.dataset.busy === "true"; }

// act runs one request at a time, marking the page busy meanwhile; the
// version attribute counts finished requests (tests wait on it).
async function act(request, waiting) {
  if (busy()) return;
  document.body.dataset.busy = "true";
  if (waiting) $("status").textContent = waiting;
  $("error").textContent = "";
  try {
    const s = await request();
    if (s) show(s);
  } catch (e) {
    $("error").textContent = e.message;
    if (state) $("status").textContent = state.message;
  } finally {
    document.body.dataset.version = String(Number(document.body.dataset.version) + 1);
    document.body.dataset.busy = "false";
  }
}

function show(s) {
  state = s;
  selected = null;
  hint = null;
  $("hinttext").textContent = "";
  document.body.dataset.over = String(s.over);
  $("status").textContent = s.message;
  $("status").className = s.over ? "over" : "";
  $("record").href = "api/record?id=" + encodeURIComponent(s.id);
  $("level").value = s.level;
  drawEval();
  drawMoves();
  drawBoard();
}

function myTurn() {
  return state && !state.over && state.turn === state.human;
}

// The squares of a move: "d4" or "f4-d4".
function squares(move) { return move ? move.split("-") : []; }

// origins returns the squares the human can click first: the removable
// stones in the opening, else the stones that can jump.
function origins() {
  if (!myTurn()) return new Set();
  return new Set(state.legal.map((m) => squares(m)[0]));
}

// targets returns the landing squares of the selected stone.
function targets() {
  if (!selected || !myTurn()) return new Set();
  return new Set(state.legal.filter((m) => squares(m)[0] === selected && m.includes("-")).map((m) => squares(m)[1]));
}

function drawBoard() {
  const n = state.size;
  const board = $("board");
  board.replaceChildren();
  board.style.gridTemplateColumns = "1.4rem repeat(" + n + ", auto)";
  const from = origins();
  const to = targets();
  const last = new Set(squares(state.last));
  const hinted = new Set(squares(hint));
  for (let i = 0; i < n; i++) {
    const rank = n - i;
    const label = document.createElement("div");
    label.className = "label";
    label.textContent = String(rank);
    board.append(label);
    for (let col = 0; col < n; col++) {
      const sq = String.fromCharCode(97 + col) + rank;
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "sq";
      cell.dataset.sq = sq;
      const c = state.board[i][col];
      if (c !== ".") {
        const stone = document.createElement("span");
        stone.className = "stone " + (c === "x" ? "black" : "white");
        cell.append(stone);
      }
      cell.setAttribute("aria-label", sq + (c === "x" ? " black" : c === "o" ? " white" : " empty"));
      if (from.has(sq)) cell.classList.add("movable");
      if (sq === selected) cell.classList.add("selected");
      if (to.has(sq)) cell.classList.add("target");
      if (last.has(sq)) cell.classList.add("last");
      if (hinted.has(sq)) cell.classList.add("hint");
      cell.addEventListener("click", () => clickSquare(sq));
      board.append(cell);
    }
  }
  board.append(document.createElement("div"));
  for (let col = 0; col < n; col++) {
    const label = document.createElement("div");
    label.className = "label";
    label.textContent = String.fromCharCode(97 + col);
    board.append(label);
  }
}

function clickSquare(sq) {
  if (busy() || !myTurn()) return;
  if (state.phase !== "jumping") {
    if (state.legal.includes(sq)) play(sq);
    return;
  }
  if (selected && state.legal.includes(selected + "-" + sq)) {
    play(selected + "-" + sq);
    return;
  }
  selected = origins().has(sq) && sq !== selected ? sq : null;
  drawBoard();
}

function play(move) {
  act(() => api("api/move", {id: state.id, move: move}), "You play " + move + ". The computer is thinking…");
}

function drawEval() {
  const e = state.eval;
  if (!e) {
    $("evalfill").style.width = "50%";
    $("evaltext").textContent = "No evaluation yet: the computer has not moved.";
    return;
  }
  const p = Math.round(100 * e.humanWinProb);
  $("evalfill").style.width = p + "%";
  $("evaltext").textContent = "Your win probability, by the computer's search: " + p +
    "%. The computer played " + e.agentMove + " and expects: " + e.pv.join(" ") + ".";
}

function drawMoves() {
  const list = $("moves");
  list.replaceChildren();
  for (let i = 0; i < state.moves.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = state.moves[i] + (i + 1 < state.moves.length ? "  " + state.moves[i + 1] : "");
    list.append(li);
  }
}

function newGame() {
  act(() => api("api/new", {
    size: Number($("size").value),
    color: $("color").value,
    level: $("level").value,
  }), "Starting a new game…");
}

function init() {
  $("new").addEventListener("click", newGame);
  $("undo").addEventListener("click", () => {
    if (state) act(() => api("api/undo", {id: state.id}));
  });
  $("hint").addEventListener("click", () => {
    if (!myTurn()) return;
    act(async () => {
      const h = await api("api/hint", {id: state.id});
      hint = h.move;
      $("hinttext").textContent = "Hint: " + h.move + " (your win probability " +
        Math.round(100 * h.winProb) + "%; expected line: " + h.pv.join(" ") + ")";
      $("status").textContent = state.message;
      drawBoard();
    }, "Looking for a good move…");
  });
  $("level").addEventListener("change", () => {
    if (state) act(() => api("api/level", {id: state.id, level: $("level").value}));
  });
  document.body.dataset.busy = "false";
  act(async () => {
    config = await api("api/config");
    for (const n of config.sizes) {
      $("size").append(new Option(n + "×" + n, String(n), false, n === config.defaultSize));
    }
    for (const l of config.levels) {
      $("level").append(new Option(l.name + " (" + l.sims + " simulations)", l.name, false, l.name === config.defaultLevel));
    }
    return api("api/new", {size: config.defaultSize, color: "black", level: config.defaultLevel});
  }, "Starting a new game…");
}

init();
