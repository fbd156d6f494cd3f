// The game screen: the game the page holds (as the server last sent
// it), its board, clicks, drags and moves, the evaluation bar, the moves
// list and looking back at a move.

import {api, config} from "./api.js";
import {applyMove, boardDims, boardLabel, boardName, drawArrows, gapStart, initialRows, renderBoard, squares, swallowClick} from "./board.js";
import {gameCode} from "./gamecode.js";
import {levelAbout, levelName, msg, putText, t} from "./i18n.js";
import {queueMove} from "./motion.js";
import {$, announce, busy, prefs, touchScreen} from "./page.js";

export let state = null;    // the game, as the server last sent it (state.game is the record)
let selected = null; // the square of the stone chosen to jump, or null
let hint = null;     // the last hint's move (drawn as an arrow), or null
export let viewPly = null;  // the move looked back at (0: the start), or null for the game as it stands
let flipped = false; // the Flip button pressed: the board turned from its usual side

// evals[ply] is the analysis behind the computer's move moves[ply-1], as
// the server sent it with that move: the evaluation bar shows the one of
// the computer's last move on the board, after an undo too.
let evals = {};

// asking is the ply whose evaluation askEval waits for, or null.
let asking = null;

// animated is how many moves of state have been drawn (moving or not).
let animated = 0;

// act runs one request at a time, marking the page busy meanwhile; the
// version attribute counts finished requests (tests wait on it).
export async function act(request, waiting, same) {
  if (busy()) return;
  document.body.dataset.busy = "true";
  if (waiting) $("status").textContent = waiting;
  $("error").textContent = "";
  try {
    const s = await request();
    if (s) show(s, same);
  } catch (e) {
    $("error").textContent = e.message;
    if (state) $("status").textContent = statusText();
  } finally {
    document.body.dataset.version = String(Number(document.body.dataset.version) + 1);
    document.body.dataset.busy = "false";
  }
}

// show draws a state of the server; same says whether it is the game
// shown before (a move, an undo), not a new one.
export function show(s, same) {
  const old = same && state ? state : null;
  const before = old ? old.moves.length : -1;
  if (!old) evals = {};
  for (const k of Object.keys(evals)) if (Number(k) > s.moves.length) delete evals[k];
  if (s.eval) evals[s.eval.ply] = s.eval;
  // The coach's better move, after its move was taken back: shown as a
  // hint on the position it was better in.
  const retry = old && old.coach && s.moves.length === old.coach.ply - 1 ? old.coach.better : null;
  state = s;
  selected = null;
  hint = retry;
  viewPly = null;
  $("viewbar").hidden = true;
  gameCode.save(s.game);
  $("hinttext").textContent = "";
  drawCoach();
  // A note ("The moves are on the clipboard.") is of the game as it
  // was: a new game, a move, an undo or the end clear it.
  if (!old || s.moves.length !== old.moves.length || s.over !== old.over) $("note").textContent = "";
  document.body.dataset.over = String(s.over);
  $("status").textContent = msg(s.message);
  // Game over stands out (a banner, won or lost), and what no longer
  // applies is disabled: Hint when it is not your move, Undo when you
  // have nothing to take back.
  $("status").className = s.over ? (s.winner === s.human ? "over won" : "over lost") : "";
  $("hint").disabled = !myTurn();
  $("undo").disabled = !s.canUndo;
  $("reviewbtn").disabled = s.moves.length === 0 || !!s.classical; // a review is the model's
  $("reviewbtn").classList.toggle("primary", s.over);
  $("resign").hidden = s.over;
  $("rematch").hidden = !s.over;
  resignArmed(false);
  $("record").href = gameCode.recordURL(s.game);
  $("level").value = s.level;
  $("levelabout").textContent = levelAbout(s.level, boardName(s.game), config);
  if (old && !old.over && s.over) suggestLevel(s);
  else $("levelsuggest").hidden = true;
  drawEval();
  drawMoves();
  drawBoard();
  // The moves the page has not drawn moving yet: the computer's reply (the
  // human's own move moved as it was played).
  if (old) {
    for (let i = Math.max(before, animated); i < s.moves.length; i++) queueMove(s.moves, i);
  }
  animated = s.moves.length;
  // Announce the moves since the last state (or those taken back): both
  // sides', then the status.
  const said = [];
  if (before < 0) said.push(t(s.human === "black" ? "announce.newBlack" : "announce.newWhite", {board: boardLabel(s.board)}));
  if (old && s.moves.length < before) said.push(t("announce.undone", {moves: old.moves.slice(s.moves.length).join(" ")}));
  for (let i = Math.max(before, 0); i < s.moves.length; i++) {
    const humans = (i % 2 === 0) === (s.human === "black");
    said.push(t(humans ? "announce.you" : "announce.computer", {move: s.moves[i]}));
  }
  if (s.coach) said.push($("coachtext").textContent);
  said.push(msg(s.message));
  announce(said.join(" "));
  if (!old) askEval();
  // A keyboard's move stopped by the coach: the focus to its Undo.
  if (s.coach && $("board").contains(document.activeElement)) $("coachundo").focus();
}

// askEval asks for the evaluation of a game the page opens with the
// human to move (a reload, a link, the language switch, "Play on from
// here"): the server sends one only with the computer's move, so the
// page asks for the human's best move (as Hint does, whose search it
// shares) and shows its win probability as the one of the computer's
// last move. It runs beside other requests, not marking the page busy;
// an answer for a game no longer shown, or a failure, leaves the bar as
// it was.
async function askEval() {
  const s = state;
  const ply = s.moves.length;
  if (s.over || s.classical || s.turn !== s.human || ply === 0 || evals[ply]) return;
  asking = ply;
  drawEval();
  let e = null;
  try {
    const h = await api("api/v2/hint", {game: s.game});
    e = {ply: ply, agentMove: s.moves[ply - 1], humanWinProb: h.winProb, pv: h.pv, proven: !!h.proven};
  } catch (err) {
    e = null;
  }
  if (asking === ply) asking = null;
  // The same game, at this move or past it.
  if (!state || state.game.size !== s.game.size || state.game.board !== s.game.board || state.human !== s.human || state.moves.length < ply ||
      state.moves.slice(0, ply).join(" ") !== s.moves.join(" ")) return;
  if (e && !evals[ply]) evals[ply] = e;
  drawEval();
}

function myTurn() { return state && !state.over && state.turn === state.human; }

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

// flip turns the board (the Flip button).
export function flip() {
  if (!state) return;
  flipped = !flipped;
  $("flip").setAttribute("aria-pressed", String(flipped));
  drawBoard();
}

// askHint asks the server for the human's best move and shows it.
export function askHint() {
  if (!myTurn()) return;
  act(async () => {
    const h = await api("api/v2/hint", {game: state.game});
    hint = h.move;
    const pv = h.pv[0] === h.move ? h.pv.slice(1) : h.pv; // the line after the hinted move
    if (h.winProb === undefined) putText($("hinttext"), "hint.classical", {move: h.move}); // the classical engine's: no probability
    else putText($("hinttext"), pv.length ? "hint.text" : "hint.short", {move: h.move, p: Math.round(100 * h.winProb), pv: pv.join(" ")});
    $("status").textContent = msg(state.message);
    announce($("hinttext").textContent);
    drawBoard();
  }, t("status.hintWait"));
}

// isFlipped says whether the game's board is drawn from White's side:
// when the human plays White, unless the Flip button is pressed.
function isFlipped() { return (state.human === "white") !== flipped; }

function drawBoard() {
  const looking = viewPly !== null;
  renderBoard($("board"), {
    rows: looking ? boardAt(viewPly) : state.board,
    flipped: isFlipped(),
    movable: looking ? new Set() : origins(),
    movableKey: state.phase === "jumping" ? "sq.canJump" : "sq.canRemove",
    selected: looking ? null : selected,
    targets: looking ? new Set() : targets(),
    marked: new Set(),
    last: new Set(squares(looking ? state.moves[viewPly - 1] : state.last)),
    hint: new Set(looking ? [] : squares(hint)),
    onClick: looking ? () => viewMove(null) : clickSquare,
    onDragStart: startDrag,
    onDrop: (from, to) => {
      if (myTurn() && !busy() && state.legal.includes(from + "-" + to)) play(from + "-" + to);
    },
    onEscape: () => {
      if (selected === null) return;
      selected = null;
      drawBoard();
      $("status").textContent = msg(state.message);
      announce(t("announce.cancelled"));
    },
  });
  $("board").classList.toggle("past", looking);
  drawBoardArrows();
}

// drawBoardArrows draws the moves the page points at over the game's
// board: the coach's (the move played, and the better one) while the
// game waits on its word, else the hint's; none while looking back.
function drawBoardArrows() {
  const [w, h] = boardDims(state.board);
  const arrows = [];
  if (viewPly === null) {
    if (state.coach) arrows.push({move: state.coach.move, cls: "played"}, {move: state.coach.better, cls: "best"});
    else if (hint) arrows.push({move: hint, cls: "hint"});
  }
  drawArrows($("arrows"), w, h, arrows, isFlipped());
  $("arrows").classList.toggle("wide", w > 12);
}

// coachOn says whether the coach is on (the Coach box, kept in the
// browser).
export function coachOn() { return prefs.get("coach", "off") === "on"; }

// drawCoach shows the coach's word on the human's last move, when the
// server stopped the game for it: how far the move dropped the human's
// chances and the better move (both drawn on the board), with Undo and
// Play on.
function drawCoach() {
  const c = state.coach;
  $("coachbox").hidden = !c;
  if (!c) return;
  putText($("coachtext"), "coach.text", {from: Math.round(100 * c.from), to: Math.round(100 * c.to), better: c.better});
}

// coachPlayOn lets the computer reply to a move the coach stopped the game
// for.
export function coachPlayOn() {
  if (!state || !state.coach) return;
  return act(() => api("api/v2/move", {game: state.game, coach: coachOn()}), t("status.thinking"), true);
}

// explain says why a click did nothing, in the status line and to screen
// readers, as the tutorial does.
function explain(key, args) {
  const text = t(key, args);
  $("status").textContent = text;
  $("status").className = "why";
  announce(text);
}

// clickSquare answers a click on sq in the game: a move played, a stone
// chosen, or why neither.
function clickSquare(sq) {
  if (busy()) return explain("why.wait");
  if (state.over) return explain("why.over");
  if (!myTurn()) return explain("why.wait");
  const at = (s) => state.board[state.board.length - Number(s.slice(1))][s.charCodeAt(0) - 97];
  const mine = state.human === "black" ? "x" : "o";
  const c = at(sq);
  const notYours = state.human === "black" ? "why.notYoursBlack" : "why.notYoursWhite";
  if (state.phase !== "jumping") {
    if (state.legal.includes(sq)) return play(sq);
    if (c === ".") return explain("why.empty");
    if (c !== mine) return explain(notYours);
    return explain(state.phase === "black removal" ? "why.removeBlack" : "why.removeWhite");
  }
  if (selected && state.legal.includes(selected + "-" + sq)) return play(selected + "-" + sq);
  if (selected === sq) { // chosen again: cancelled
    selected = null;
    drawBoard();
    $("status").className = "";
    $("status").textContent = msg(state.message);
    announce(t("announce.cancelled"));
    return;
  }
  if (origins().has(sq)) return choose(sq);
  if (selected && c === ".") {
    // Off the stone's line: a turn, if a landing square of the stone is
    // in line with sq; a diagonal; else just no landing square.
    const from = selected;
    const straight = (a, b) => a[0] === b[0] || a.slice(1) === b.slice(1);
    if (!straight(from, sq)) {
      if ([...targets()].some((l) => straight(l, sq))) return explain("why.turn");
      const dc = sq.charCodeAt(0) - from.charCodeAt(0), dr = Number(sq.slice(1)) - Number(from.slice(1));
      if (Math.abs(dc) === Math.abs(dr)) return explain("why.diagonal");
    }
    return explain("why.notLanding", {square: from});
  }
  if (c === ".") return explain("why.empty");
  if (c !== mine) return explain(notYours);
  return explain("why.cannotJump");
}

// choose picks the stone on sq to jump: its landing squares are marked,
// and the status says what to do next.
function choose(sq) {
  selected = sq;
  drawBoard();
  $("status").className = "";
  $("status").textContent = t("status.landing", {square: sq});
  announce(t(touchScreen() ? "announce.selectedTouch" : "announce.selected", {square: sq}));
}

// ---- Drag and drop: a stone that can jump, dragged onto its landing
// square (click, click works as well). -----------------------------------
let drag = null;      // {from, x, y, moved, ghost} while the pointer is down

function startDrag(ev, el, sq, view) {
  if (ev.button !== 0 || busy() || !myTurn()) return;
  drag = {from: sq, x: ev.clientX, y: ev.clientY, moved: false, ghost: null, view: view};
  const move = (e) => {
    if (!drag) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6) return;
    if (!drag.moved) {
      drag.moved = true;
      if (selected !== sq) choose(sq);
      const cell = $("board").querySelector('[data-sq="' + sq + '"]');
      const r = cell.getBoundingClientRect();
      drag.ghost = document.createElement("span");
      drag.ghost.className = "stone dragging " + state.human;
      drag.ghost.style.width = drag.ghost.style.height = 0.76 * r.width + "px";
      document.body.append(drag.ghost);
      const own = cell.querySelector(".stone");
      if (own) own.classList.add("arriving");
    }
    drag.ghost.style.left = e.clientX + "px";
    drag.ghost.style.top = e.clientY + "px";
    e.preventDefault();
  };
  const up = (e) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", up);
    const d = drag;
    drag = null;
    if (!d || !d.moved) return;
    d.ghost.remove();
    swallowClick();
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const cell = under && under.closest("#board .sq");
    if (cell && targets().has(cell.dataset.sq)) {
      d.view.onDrop(d.from, cell.dataset.sq);
    } else {
      drawBoard(); // the stone goes back; it stays chosen
    }
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", up);
}

// play sends the human's move; it is drawn at once, while the computer
// thinks, and taken off again if the server refuses it.
function play(move) {
  const before = state;
  act(async () => {
    state = Object.assign({}, before, {
      board: applyMove(before.board, move), last: move, legal: [],
      turn: before.human === "black" ? "white" : "black",
    });
    selected = null;
    hint = null;
    $("hint").disabled = true;
    $("status").className = "";
    drawBoard();
    if (viewPly === null) queueMove(before.moves.concat([move]), before.moves.length);
    animated = before.moves.length + 1;
    try {
      return await api("api/v2/move", {game: before.game, move: move, coach: coachOn()});
    } catch (e) {
      state = before;
      drawBoard();
      $("hint").disabled = !myTurn();
      throw e;
    }
  }, t("status.youPlay", {move: move}), true);
}

function drawEval() {
  drawEvalBar();
  // The figure on the bar itself (shown on phones, where the bar sits
  // above the board and its text below).
  const bar = $("evalbar"), pct = t("eval.value", {p: bar.getAttribute("aria-valuenow")});
  $("evalpct").textContent = !bar.hidden && (bar.getAttribute("aria-valuetext") || "").startsWith(pct) ? pct : "";
}

function drawEvalBar() {
  let e = null;
  for (let ply = state.moves.length; ply > 0 && !e; ply--) e = evals[ply] || null;
  const bar = $("evalbar");
  // The classical engine gives no win probability: no bar, and no
  // explanation of one.
  bar.hidden = !state.over && !!state.classical;
  $("evalmeans").hidden = bar.hidden;
  // At the end the result replaces the last search's estimate.
  if (state.over) {
    const won = state.winner === state.human;
    if (state.resigned) {
      // The status says "You resigned"; the bar only the result.
      $("evalfill").style.width = "0%";
      bar.setAttribute("aria-valuenow", "0");
      bar.setAttribute("aria-valuetext", t("eval.value", {p: 0}));
      $("evaltext").textContent = t("eval.lost");
      return;
    }
    $("evalfill").style.width = won ? "100%" : "0%";
    bar.setAttribute("aria-valuenow", won ? "100" : "0");
    bar.setAttribute("aria-valuetext", t("eval.value", {p: won ? 100 : 0}));
    $("evaltext").textContent = t(won ? "eval.won" : "eval.lost");
    return;
  }
  if (state.classical) { // no win probability: say who plays instead
    $("evaltext").textContent = t("status.classical", {board: boardLabel(state.board)});
    return;
  }
  if (state.coach) { // the game waits on the coach's word: its figure after the move
    const p = Math.round(100 * state.coach.to);
    $("evalfill").style.width = p + "%";
    bar.setAttribute("aria-valuenow", String(p));
    bar.setAttribute("aria-valuetext", t("eval.value", {p: p}));
    $("evaltext").textContent = t("eval.coach", {p: p});
    return;
  }
  // Who wins with perfect play, where the server proved it (the solver,
  // the openings table, a search that proved the position) or the
  // search behind the bar did.
  let perfect = state.perfect || null;
  if (!perfect && e && e.proven) perfect = e.humanWinProb >= 0.5 ? state.human : state.human === "black" ? "white" : "black";
  const proven = perfect ? t(perfect === "black" ? "eval.provenBlack" : "eval.provenWhite") : "";
  if (!e && perfect) { // no search yet: the proof alone
    const p = perfect === state.human ? 100 : 0;
    $("evalfill").style.width = p + "%";
    bar.setAttribute("aria-valuenow", String(p));
    bar.setAttribute("aria-valuetext", t("eval.value", {p: p}) + ". " + proven);
    $("evaltext").replaceChildren(provenNode(proven));
    if (asking === state.moves.length) $("evaltext").append(" ", t("eval.asking")); // the search's figure to come
    return;
  }
  if (!e) {
    const none = t(asking === state.moves.length ? "eval.asking" : "eval.none");
    $("evalfill").style.width = "50%";
    bar.setAttribute("aria-valuenow", "50");
    bar.setAttribute("aria-valuetext", none);
    $("evaltext").textContent = none;
    return;
  }
  const p = Math.round(100 * e.humanWinProb);
  $("evalfill").style.width = p + "%";
  bar.setAttribute("aria-valuenow", String(p));
  bar.setAttribute("aria-valuetext", t("eval.value", {p: p}));
  // The line the computer expects after its move (the search's line
  // starts with the move itself).
  const pv = e.pv[0] === e.agentMove ? e.pv.slice(1) : e.pv;
  putText($("evaltext"), pv.length ? "eval.text" : "eval.short", {p: p, move: e.agentMove, pv: pv.join(" ")});
  // A proven result is said plainly: who wins with perfect play.
  if (perfect) {
    $("evaltext").prepend(provenNode(proven), " ");
    bar.setAttribute("aria-valuetext", t("eval.value", {p: p}) + ". " + proven);
  }
}

// provenNode is the sentence that says who wins with perfect play.
function provenNode(text) {
  return Object.assign(document.createElement("strong"), {className: "proven", textContent: text});
}

// moveLabel numbers the move of ply i (0-based) as records do, by move
// pairs: "3. f6-d6" for Black's, "3… c6-c4" for White's.
function moveLabel(i, move) { return Math.floor(i / 2) + 1 + (i % 2 === 0 ? ". " : "… ") + move; }

// drawMoves lists the moves by pairs; each move is a button that shows
// the position after it (viewMove).
function drawMoves() {
  const list = $("moves");
  list.replaceChildren();
  const current = viewPly === null ? state.moves.length : viewPly;
  let li = null;
  state.moves.forEach((m, i) => {
    if (i % 2 === 0) {
      li = document.createElement("li");
      // The pair's number, for the phone's strip (the list numbers it
      // elsewhere).
      const num = document.createElement("span");
      num.className = "num";
      num.setAttribute("aria-hidden", "true");
      num.dataset.n = String(i / 2 + 1); // drawn by the style sheet: the text copies as moves alone
      li.append(num);
      list.append(li);
    }
    const b = document.createElement("button");
    b.type = "button";
    b.className = "mvbtn";
    b.dataset.ply = String(i + 1);
    b.textContent = m;
    b.setAttribute("aria-label", t(i % 2 === 0 ? "view.itemBlack" : "view.itemWhite", {move: moveLabel(i, m)}));
    if (i + 1 === current) b.setAttribute("aria-current", "true");
    b.addEventListener("click", () => viewMove(i + 1 === state.moves.length ? null : i + 1));
    if (i % 2 === 1) li.append(" "); // the pair's text reads (and copies) "f6-d6 a6-c6"
    li.append(b);
  });
  $("copymoves").disabled = state.moves.length === 0;
  list.scrollLeft = list.scrollWidth; // a phone's strip of moves shows the last ones
}

// boardAt is the board after the first ply moves of the game.
function boardAt(ply) {
  const [w, h] = boardDims(state.board);
  let rows = initialRows(w, h, gapStart(state.game));
  for (let i = 0; i < ply; i++) rows = applyMove(rows, state.moves[i]);
  return rows;
}

// viewMove shows the position after move ply (0: the start) while the
// game goes on, or (null) the game as it stands again.
export function viewMove(ply) {
  if (!state) return;
  if (ply !== null && (ply >= state.moves.length || ply < 0)) ply = ply < 0 ? 0 : null;
  if (ply === viewPly) return;
  viewPly = ply;
  selected = null;
  $("fly").replaceChildren();
  drawBoard();
  drawMoves();
  const bar = $("viewbar");
  bar.hidden = ply === null;
  if (ply === null) {
    $("status").className = state.over ? (state.winner === state.human ? "over won" : "over lost") : "";
    $("status").textContent = statusText();
    announce(statusText());
    return;
  }
  const text = ply === 0 ? t("view.start") : t(ply % 2 === 1 ? "view.atBlack" : "view.atWhite", {move: moveLabel(ply - 1, state.moves[ply - 1])});
  $("viewtext").textContent = text;
  announce(text);
}

// statusText is the status of the game: the server's message (which says
// so when the human resigned).
function statusText() { return msg(state.message); }

// Resign asks once more on the button itself ("Really resign?") before
// the game ends. The resignation is part of the game (its record says
// resigned, its link ends in ".resign"): the server answers the state of
// the game resigned, which a reload or a shared link brings back.
let resignTimer = null;
export function resignArmed(on) {
  clearTimeout(resignTimer);
  $("resign").dataset.armed = String(on);
  $("resign").textContent = t(on ? "page.resignConfirm" : "page.resign");
  if (on) resignTimer = setTimeout(() => resignArmed(false), 4000);
}

// suggestLevel offers, when a game has just ended on this page, the next
// level up after a win and the level below after three games lost in a
// row (a resignation is a loss), counted in the tab's storage: a note
// says so, and a button starts that game (same board and colour).
function suggestLevel(s) {
  const names = config.levels.map((l) => l.name);
  const i = names.indexOf(s.level);
  let losses = Number(sessionStorage.getItem("konane.losses")) || 0;
  let next = null;
  let key = null;
  if (s.winner === s.human) {
    losses = 0;
    if (i >= 0 && i + 1 < names.length) [next, key] = [names[i + 1], "level.suggestUp"];
  } else if (++losses >= 3 && i > 0) {
    losses = 0;
    [next, key] = [names[i - 1], "level.suggestDown"];
  }
  sessionStorage.setItem("konane.losses", String(losses));
  const button = $("levelsuggest");
  button.hidden = !next;
  if (!next) return;
  const name = t("level.option", {n: config.levels[names.indexOf(next)].number, level: levelName(next)});
  note(t(key, {level: name}));
  button.textContent = t("level.suggestPlay", {level: name});
  button.onclick = () => newGame({board: boardName(s.game), color: s.human, level: next});
}

// newGame starts a game with the settings of the controls, or those given.
export function newGame(settings) {
  const s = settings || {board: $("size").value, color: $("color").value, level: $("level").value};
  act(() => api("api/v2/new", s), t("status.starting"));
}

// note says what a change of the controls does, on the page and to
// screen readers: the level applies at once, board and colour from the
// next game.
export function note(text) {
  $("note").textContent = text;
  announce(text);
}
