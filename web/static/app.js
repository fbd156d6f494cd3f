// Kōnane against the computer: the page's logic. Plain JavaScript, no
// build step; it talks to the JSON API of the server that sent it.
//
// Every text comes from the catalog the server put into the page (the
// messages of its language, web/messages/*.json): t(key, {param: v}).
// Keys are always written out in full, so that the catalog test finds
// them. The API sends messages as {code, args}, rendered here by msg().
"use strict";

const $ = (id) => document.getElementById(id);

const catalog = JSON.parse($("catalog").textContent);

// t returns the text of key with its {parameters} filled in.
function t(key, args) {
  const text = catalog[key];
  if (text === undefined) return key;
  return text.replace(/\{([a-zA-Z]+)\}/g, (p, name) => (args && name in args ? String(args[name]) : p));
}

// moveArgs are the parameters that hold moves, one or several.
const moveArgs = new Set(["move", "pv", "line", "moves"]);

// tNodes is t as nodes: each move in a parameter of moveArgs is a span of
// class mv, which does not wrap inside (d7-d5 stays whole) and copies as
// the move itself, hyphen included.
function tNodes(key, args) {
  const text = catalog[key];
  if (text === undefined) return [document.createTextNode(key)];
  const nodes = [];
  for (const part of text.split(/(\{[a-zA-Z]+\})/)) {
    const name = part.startsWith("{") ? part.slice(1, -1) : null;
    if (name === null || !args || !(name in args)) {
      nodes.push(document.createTextNode(part));
    } else if (!moveArgs.has(name)) {
      nodes.push(document.createTextNode(String(args[name])));
    } else {
      String(args[name]).split(" ").forEach((mv, i) => {
        if (i > 0) nodes.push(document.createTextNode(" "));
        const span = document.createElement("span");
        span.className = "mv";
        span.textContent = mv;
        nodes.push(span);
      });
    }
  }
  return nodes;
}

// putText sets el's content to tNodes(key, args).
function putText(el, key, args) { el.replaceChildren(...tNodes(key, args)); }

// msg renders a message of the API ({code, args}).
function msg(m) { return t(m.code, m.args); }

// The names of the levels: literal keys, one per level of agent.Levels.
const levelKeys = {easy: "level.easy", medium: "level.medium", hard: "level.hard", max: "level.max"};
function levelName(level) { return levelKeys[level] ? t(levelKeys[level]) : level; }

let config = null;   // GET api/v2/config
let state = null;    // the game, as the server last sent it (state.game is the record)
let selected = null; // the square of the stone chosen to jump, or null
let hint = null;     // the last hint's move, or null
let cursor = null;   // the square that has (or last had) the keyboard focus
let viewPly = null;  // the move looked back at (0: the start), or null for the game as it stands
let flipped = false; // the Flip button pressed: the board turned from its usual side
let linkError = "";  // why the game of the page's address could not be opened, or ""

// ---- Preferences: colours and sound, kept in the browser ---------------
const prefs = {
  get(k, d) { try { return localStorage.getItem("konane-" + k) || d; } catch (e) { return d; } },
  set(k, v) { try { localStorage.setItem("konane-" + k, v); } catch (e) { /* private mode */ } },
};
// The colours: "auto" follows the system, else light or dark as chosen;
// theme.js applies the kept choice (before the first paint, and again here).

// ---- The game record and the page's address -------------------------
//
// The server keeps no game: the page holds it, as the record the server
// sends in every state (state.game: {size, human, level, start, moves}),
// and sends it with every request. The record also lives in the address,
// #g=CODE (kept up to date with history.replaceState, so that reload,
// bookmark and a shared link bring the game back), and in the tab's
// sessionStorage (for the language switch, which loads a new address).
// CODE is 1.<size><b|w>.<level>.<start>[.<move>]...[.resign], e.g.
// 1.8b.medium.0.d5.e5.c5-e5, with ".resign" when the human resigned
// (docs/http-api.md; web/game.go reads it for the record download).
// Everything about the record is here.
const gameCode = {
  // encode writes a record as a CODE.
  encode(g) {
    const p = ["1", g.size + (g.human === "black" ? "b" : "w"), g.level, String(g.start || 0)].concat(g.moves);
    if (g.resigned) p.push("resign");
    return p.join(".");
  },
  // decode reads a CODE, or returns null; the server checks the rest.
  decode(code) {
    const p = code.split(".");
    const m = p.length >= 4 && p[0] === "1" ? /^([0-9]+)([bw])$/.exec(p[1]) : null;
    if (!m || !/^[0-9]+$/.test(p[3])) return null;
    const g = {size: Number(m[1]), human: m[2] === "b" ? "black" : "white", level: p[2], start: Number(p[3]), moves: p.slice(4)};
    if (g.moves.length > 0 && g.moves[g.moves.length - 1] === "resign") {
      g.moves.pop();
      g.resigned = true;
    }
    return g;
  },
  // save puts the record into the address and the tab's storage.
  save(g) {
    const code = gameCode.encode(g);
    history.replaceState(null, "", location.pathname + location.search + "#g=" + code);
    sessionStorage.setItem("konane-game-v2", code);
  },
  // load returns the record of the address, else of the tab's storage,
  // else null; undefined when there is a code that cannot be read.
  load() {
    const h = /^#g=(.+)$/.exec(location.hash);
    const code = h ? decodeURIComponent(h[1]) : sessionStorage.getItem("konane-game-v2");
    if (!code) return null;
    return gameCode.decode(code) || undefined;
  },
  forget() { sessionStorage.removeItem("konane-game-v2"); },
  // undone is the record with the human's last move and the reply taken
  // back (state.canUndo says whether there is one).
  undone(g) {
    let last = g.moves.length - 1;
    if (last >= 0 && (last % 2 === 0 ? "black" : "white") !== g.human) last--;
    return Object.assign({}, g, {moves: g.moves.slice(0, Math.max(last, 0))});
  },
  // recordURL is the download of the record in the text format.
  recordURL(g) { return "api/v2/record?g=" + encodeURIComponent(gameCode.encode(g)); },
};

// evals[ply] is the analysis behind the computer's move moves[ply-1], as
// the server sent it with that move: the evaluation bar shows the one of
// the computer's last move on the board, after an undo too.
let evals = {};

// A failed request: the message of the API, or of the network.
class APIError extends Error {
  constructor(m) { super(msg(m)); this.m = m; }
}

// api sends a request and returns the JSON answer, or throws an APIError.
async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body),
  };
  let res, data;
  try {
    res = await fetch(path, opts);
    data = await res.json();
  } catch (e) {
    throw new APIError({code: "error.network", args: {status: res ? res.status + " " + res.statusText : e.message}});
  }
  if (!res.ok) throw new APIError(data.code ? data : {code: "error.network", args: {status: res.status}});
  return data;
}

function busy() { return document.body.dataset.busy === "true"; }

// act runs one request at a time, marking the page busy meanwhile; the
// version attribute counts finished requests (tests wait on it).
async function act(request, waiting, same) {
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

// announce tells screen readers what happened, through the live region.
function announce(text) { $("announce").textContent = text; }

// show draws a state of the server; same says whether it is the game
// shown before (a move, an undo), not a new one.
function show(s, same) {
  const old = same && state ? state : null;
  const before = old ? old.moves.length : -1;
  if (!old) evals = {};
  for (const k of Object.keys(evals)) if (Number(k) > s.moves.length) delete evals[k];
  if (s.eval) evals[s.eval.ply] = s.eval;
  state = s;
  selected = null;
  hint = null;
  viewPly = null;
  $("viewbar").hidden = true;
  gameCode.save(s.game);
  $("hinttext").textContent = "";
  if (!old) $("note").textContent = "";
  document.body.dataset.over = String(s.over);
  $("status").textContent = msg(s.message);
  // Game over stands out (a banner, won or lost), and what no longer
  // applies is disabled: Hint when it is not your move, Undo when you
  // have nothing to take back.
  $("status").className = s.over ? (s.winner === s.human ? "over won" : "over lost") : "";
  $("hint").disabled = !myTurn();
  $("undo").disabled = !s.canUndo;
  $("reviewbtn").disabled = s.moves.length === 0;
  $("reviewbtn").classList.toggle("primary", s.over);
  $("resign").hidden = s.over;
  $("rematch").hidden = !s.over;
  resignArmed(false);
  $("record").href = gameCode.recordURL(s.game);
  $("level").value = s.level;
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
  if (before < 0) said.push(t(s.human === "black" ? "announce.newBlack" : "announce.newWhite", {size: s.size}));
  if (old && s.moves.length < before) said.push(t("announce.undone", {moves: old.moves.slice(s.moves.length).join(" ")}));
  for (let i = Math.max(before, 0); i < s.moves.length; i++) {
    const humans = (i % 2 === 0) === (s.human === "black");
    said.push(t(humans ? "announce.you" : "announce.computer", {move: s.moves[i]}));
  }
  said.push(msg(s.message));
  announce(said.join(" "));
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

function squareName(col, rank) { return String.fromCharCode(97 + col) + rank; }

// renderBoard draws a board into el: view has size, rows (top rank first,
// x/o/.), the sets movable, selected, targets, last, hint and marked, the
// kind of the movable squares ("sq.canRemove" or "sq.canJump") and
// onClick(square); flipped draws it from White's side (h8 bottom left),
// and onDrop(from, to), when given, lets the movable stones be dragged. Every square is a button named for screen readers
// ("d4, black stone, can jump"); one of them is in the tab order, and the
// arrow keys move the focus over the board. Highlights are shapes (rings,
// dots, corner marks, a star), not colours alone.
function renderBoard(el, view) {
  const n = view.size;
  const hadFocus = el.contains(document.activeElement);
  let focusSq = el.dataset.cursor;
  if (!focusSq || !onBoard(focusSq, n)) focusSq = [...view.movable][0] || squareName(0, n);
  el.replaceChildren();
  el.style.setProperty("--n", n);
  el.dataset.flipped = String(!!view.flipped);
  for (let i = 0; i < n; i++) {
    const rank = view.flipped ? i + 1 : n - i;
    for (let k = 0; k < n; k++) {
      const col = view.flipped ? n - 1 - k : k;
      const sq = squareName(col, rank);
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "sq";
      cell.dataset.sq = sq;
      cell.tabIndex = sq === focusSq ? 0 : -1;
      const c = view.rows[n - rank][col];
      const name = [sq, t(c === "x" ? "sq.black" : c === "o" ? "sq.white" : "sq.empty")];
      if (c !== ".") {
        const stone = document.createElement("span");
        stone.className = "stone " + (c === "x" ? "black" : "white") + (el.id === "board" && arriving.has(sq) ? " arriving" : "");
        cell.append(stone);
      }
      const mark = (cls, key, on) => {
        if (!on) return;
        cell.classList.add(cls);
        name.push(t(key));
      };
      mark("movable", view.movableKey, view.movable.has(sq));
      mark("selected", "sq.selected", view.selected === sq);
      mark("target", "sq.landing", view.targets.has(sq));
      mark("marked", "sq.marked", view.marked.has(sq));
      mark("last", "sq.last", view.last.has(sq));
      mark("hint", "sq.hint", view.hint.has(sq));
      if (k === 0) cell.append(coord("rank", String(rank)));
      if (i === n - 1) cell.append(coord("file", String.fromCharCode(97 + col)));
      cell.setAttribute("aria-label", name.join(", "));
      cell.addEventListener("click", () => {
        el.dataset.cursor = sq;
        if (dragged) return; // the click that ends a drag
        view.onClick(sq);
      });
      if (view.onDrop && view.movable.has(sq) && view.movableKey === "sq.canJump") {
        cell.addEventListener("pointerdown", (ev) => startDrag(ev, el, sq, view));
      }
      cell.addEventListener("focus", () => { el.dataset.cursor = sq; });
      el.append(cell);
    }
  }
  el.onkeydown = (ev) => boardKey(el, n, ev, view);
  if (hadFocus) focusSquare(el, focusSq);
}

function coord(cls, text) {
  const s = document.createElement("span");
  s.className = "coord " + cls;
  s.setAttribute("aria-hidden", "true");
  s.textContent = text;
  return s;
}

function onBoard(sq, n) {
  const col = sq.charCodeAt(0) - 97, rank = Number(sq.slice(1));
  return col >= 0 && col < n && rank >= 1 && rank <= n;
}

function focusSquare(el, sq) {
  const cell = el.querySelector('[data-sq="' + sq + '"]');
  if (!cell) return;
  for (const b of el.querySelectorAll(".sq")) b.tabIndex = -1;
  cell.tabIndex = 0;
  el.dataset.cursor = sq;
  cell.focus();
}

// boardKey moves the focus with the arrow keys (Home/End: the ends of the
// rank); Escape cancels a selection. Enter and Space click the focused
// square, as on any button.
function boardKey(el, n, ev, view) {
  const sq = el.dataset.cursor;
  if (!sq) return;
  let col = sq.charCodeAt(0) - 97, rank = Number(sq.slice(1));
  const f = view.flipped ? -1 : 1; // the arrows go the way they point on the screen
  switch (ev.key) {
    case "ArrowLeft": col -= f; break;
    case "ArrowRight": col += f; break;
    case "ArrowUp": rank += f; break;
    case "ArrowDown": rank -= f; break;
    case "Home": col = view.flipped ? n - 1 : 0; break;
    case "End": col = view.flipped ? 0 : n - 1; break;
    case "Escape":
      if (view.onEscape) view.onEscape();
      ev.preventDefault();
      return;
    default: return;
  }
  ev.preventDefault();
  col = Math.min(Math.max(col, 0), n - 1);
  rank = Math.min(Math.max(rank, 1), n);
  focusSquare(el, squareName(col, rank));
}

// isFlipped says whether the game's board is drawn from White's side:
// when the human plays White, unless the Flip button is pressed.
function isFlipped() { return (state.human === "white") !== flipped; }

function drawBoard() {
  const looking = viewPly !== null;
  renderBoard($("board"), {
    size: state.size,
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
  const at = (s) => state.board[state.size - Number(s.slice(1))][s.charCodeAt(0) - 97];
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
  announce(t("announce.selected", {square: sq}));
}

// ---- Drag and drop: a stone that can jump, dragged onto its landing
// square (click, click works as well). -----------------------------------
let drag = null;      // {from, x, y, moved, ghost} while the pointer is down
let dragged = false;  // a drag just ended: the click that follows is no click

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
    dragged = true;
    setTimeout(() => { dragged = false; }, 0);
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

// ---- Seeing the moves: each move is drawn moving ------------------------
//
// A jump flies along its path, square by square, and the stones it
// captures fade away as it passes; a removal fades out. The board under
// it is already the position after the move: while a move waits its turn
// (the computer's reply, after the human's own move) its landing stone is
// hidden and its captured stones and moving stone are shown where they
// were. With prefers-reduced-motion nothing moves. body[data-moving]
// counts the moves still moving (the browser test waits for 0).
const arriving = new Set(); // squares whose stone is hidden until its move lands
let animated = 0;           // the moves of state drawn (moving or not) so far
let moving = Promise.resolve();
const hopMs = 220;

function reducedMotion() { return window.matchMedia("(prefers-reduced-motion: reduce)").matches; }

function movingCount(d) {
  document.body.dataset.moving = String(Number(document.body.dataset.moving || 0) + d);
}

// queueMove draws moves[i] moving, after the moves queued before it.
function queueMove(moves, i) {
  const move = moves[i];
  const color = i % 2 === 0 ? "black" : "white";
  if (reducedMotion() || viewPly !== null) return;
  const board = $("board"), fly = $("fly");
  const cellOf = (sq) => board.querySelector('[data-sq="' + sq + '"]');
  const box = board.getBoundingClientRect();
  const pos = (sq) => {
    const r = cellOf(sq).getBoundingClientRect();
    return {x: r.left - box.left + r.width / 2, y: r.top - box.top + r.height / 2, w: r.width};
  };
  const put = (cls, sq) => {
    const e = document.createElement("span");
    const p = pos(sq);
    e.className = "stone " + cls;
    e.style.width = e.style.height = 0.76 * p.w + "px";
    e.style.left = p.x + "px";
    e.style.top = p.y + "px";
    fly.append(e);
    return e;
  };
  const [from, to] = squares(move);
  if (!cellOf(from) || (to && !cellOf(to))) return;
  movingCount(1);
  const other = color === "black" ? "white" : "black";
  const path = to ? jumpPath(from, to) : [from];
  const stone = put(color + " flying", from);
  const gone = to ? path.filter((_, k) => k % 2 === 1).map((sq) => put(other + " captured", sq)) : [];
  if (to) {
    arriving.add(to);
    const landed = cellOf(to).querySelector(".stone");
    if (landed) landed.classList.add("arriving");
  }
  const done = () => {
    stone.remove();
    gone.forEach((g) => g.remove());
    if (to) {
      arriving.delete(to);
      const landed = cellOf(to) && cellOf(to).querySelector(".stone");
      if (landed) landed.classList.remove("arriving");
    }
    movingCount(-1);
  };
  // An animation of a page nobody looks at (a tab in the background)
  // may never finish: the move then ends on time anyway.
  const ends = (anim, ms) => Promise.race([anim.finished.catch(() => {}), new Promise((r) => setTimeout(r, ms + 100))]);
  moving = moving.then(() => new Promise((resolve) => {
    beep(color);
    if (!to) {
      ends(stone.animate([{opacity: 1, transform: "translate(-50%, -50%) scale(1)"}, {opacity: 0, transform: "translate(-50%, -50%) scale(0.6)"}],
        {duration: 2 * hopMs, easing: "ease-in", fill: "forwards"}), 2 * hopMs).then(() => { done(); resolve(); });
      return;
    }
    // From square to square: the jumped squares are the odd steps.
    const p0 = pos(from);
    const hops = (path.length - 1) / 2;
    const frames = [];
    for (let k = 0; k < path.length; k += 2) {
      const p = pos(path[k]);
      frames.push({transform: "translate(calc(-50% + " + (p.x - p0.x) + "px), calc(-50% + " + (p.y - p0.y) + "px))", offset: k / (path.length - 1)});
    }
    gone.forEach((g, k) => {
      g.animate([{opacity: 1}, {opacity: 1, offset: (k + 0.5) / hops}, {opacity: 0, transform: "translate(-50%, -50%) scale(0.4)"}],
        {duration: hops * hopMs, easing: "linear", fill: "forwards"});
    });
    ends(stone.animate(frames, {duration: hops * hopMs, easing: "ease-in-out", fill: "forwards"}), hops * hopMs).then(() => { done(); resolve(); });
  }));
}

// jumpPath is every square of a jump from its start to its landing.
function jumpPath(from, to) {
  const c0 = from.charCodeAt(0) - 97, r0 = Number(from.slice(1));
  const c1 = to.charCodeAt(0) - 97, r1 = Number(to.slice(1));
  const dc = Math.sign(c1 - c0), dr = Math.sign(r1 - r0);
  const path = [];
  for (let c = c0, r = r0; ; c += dc, r += dr) {
    path.push(squareName(c, r));
    if (c === c1 && r === r1) return path;
  }
}

// beep plays a short sound for a move, when Sound is on (off by default):
// made here, no file to load.
let audio = null;
function beep(color) {
  if (!$("sound").checked) return;
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = color === "black" ? 330 : 440;
    g.gain.setValueAtTime(0.15, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.12);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.12);
  } catch (e) { /* no sound here */ }
}

// applyMove returns the board rows after move, a removal ("d4") or a
// jump ("f4-d4", over every other square on the way).
function applyMove(rows, size, move) {
  const b = rows.map((r) => r.split(""));
  const at = (sq) => [size - Number(sq.slice(1)), sq.charCodeAt(0) - 97]; // [row from the top, column]
  const [from, to] = squares(move);
  const [r0, c0] = at(from);
  const stone = b[r0][c0];
  b[r0][c0] = ".";
  if (to) {
    const [r1, c1] = at(to);
    const dr = Math.sign(r1 - r0), dc = Math.sign(c1 - c0);
    for (let k = 1; r0 + (k - 1) * dr !== r1 || c0 + (k - 1) * dc !== c1; k += 2) b[r0 + k * dr][c0 + k * dc] = ".";
    b[r1][c1] = stone;
  }
  return b.map((r) => r.join(""));
}

// play sends the human's move; it is drawn at once, while the computer
// thinks, and taken off again if the server refuses it.
function play(move) {
  const before = state;
  act(async () => {
    state = Object.assign({}, before, {
      board: applyMove(before.board, before.size, move), last: move, legal: [],
      turn: before.human === "black" ? "white" : "black",
    });
    selected = null;
    hint = null;
    $("hint").disabled = true;
    $("status").className = "";
    drawBoard();
    queueMove(before.moves.concat([move]), before.moves.length);
    animated = before.moves.length + 1;
    try {
      return await api("api/v2/move", {game: before.game, move: move});
    } catch (e) {
      state = before;
      drawBoard();
      $("hint").disabled = !myTurn();
      throw e;
    }
  }, t("status.youPlay", {move: move}), true);
}

function drawEval() {
  let e = null;
  for (let ply = state.moves.length; ply > 0 && !e; ply--) e = evals[ply] || null;
  const bar = $("evalbar");
  // At the end the result replaces the last search's estimate.
  if (state.over) {
    const won = state.winner === state.human;
    if (state.resigned) {
      $("evalfill").style.width = "0%";
      bar.setAttribute("aria-valuenow", "0");
      bar.setAttribute("aria-valuetext", t("eval.value", {p: 0}));
      $("evaltext").textContent = t("status.resigned");
      return;
    }
    $("evalfill").style.width = won ? "100%" : "0%";
    bar.setAttribute("aria-valuenow", won ? "100" : "0");
    bar.setAttribute("aria-valuetext", t("eval.value", {p: won ? 100 : 0}));
    $("evaltext").textContent = t(won ? "eval.won" : "eval.lost");
    return;
  }
  if (!e) {
    $("evalfill").style.width = "50%";
    bar.setAttribute("aria-valuenow", "50");
    bar.setAttribute("aria-valuetext", t("eval.none"));
    $("evaltext").textContent = t("eval.none");
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
}

// initialRows is the board of size n at the start: full, a1 black.
function initialRows(n) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    let r = "";
    for (let col = 0; col < n; col++) r += (col + n - i) % 2 === 1 ? "x" : "o";
    rows.push(r);
  }
  return rows;
}

// boardAt is the board after the first ply moves of the game.
function boardAt(ply) {
  let rows = initialRows(state.size);
  for (let i = 0; i < ply; i++) rows = applyMove(rows, state.size, state.moves[i]);
  return rows;
}

// viewMove shows the position after move ply (0: the start) while the
// game goes on, or (null) the game as it stands again.
function viewMove(ply) {
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

// gameKey steps through the game with ←/→ (Home: the start, End: the
// game as it stands) while playing, wherever the focus is but on a board
// (whose arrows move between squares) or a form field.
function gameKey(ev) {
  if (!state || !$("review").hidden || !$("tutorial").hidden || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const tgt = ev.target;
  if (tgt && tgt.closest && tgt.closest(".board, input, textarea, select")) return;
  const n = state.moves.length;
  const k = viewPly === null ? n : viewPly;
  let next;
  switch (ev.key) {
    case "ArrowLeft": next = Math.max(k - 1, 0); break;
    case "ArrowRight": next = k + 1 >= n ? null : k + 1; break;
    case "Home": next = n > 0 ? 0 : null; break;
    case "End": next = null; break;
    default: return;
  }
  ev.preventDefault();
  viewMove(next);
}
document.addEventListener("keydown", gameKey);

// statusText is the status of the game: the server's message (which says
// so when the human resigned).
function statusText() { return msg(state.message); }

// Resign asks once more on the button itself ("Really resign?") before
// the game ends. The resignation is part of the game (its record says
// resigned, its link ends in ".resign"): the server answers the state of
// the game resigned, which a reload or a shared link brings back.
let resignTimer = null;
function resignArmed(on) {
  clearTimeout(resignTimer);
  $("resign").dataset.armed = String(on);
  $("resign").textContent = t(on ? "page.resignConfirm" : "page.resign");
  if (on) resignTimer = setTimeout(() => resignArmed(false), 4000);
}

function resign() {
  if (!state || state.over || busy()) return;
  if ($("resign").dataset.armed !== "true") {
    resignArmed(true);
    announce(t("page.resignConfirm"));
    return;
  }
  resignArmed(false);
  act(async () => {
    const s = await api("api/v2/state", {game: Object.assign({}, state.game, {resigned: true})});
    show(s, true);
    $("rematch").focus();
  }, null, true);
}

// rematch starts the same game again (board, level) with the colours
// swapped.
function rematch() {
  if (!state) return;
  const color = state.human === "black" ? "white" : "black";
  $("size").value = String(state.size);
  $("color").value = color;
  newGame({size: state.size, color: color, level: state.level});
}

// copyText puts text on the clipboard and says so (done) or says how to
// copy it by hand.
async function copyText(text, done) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    // Without the clipboard API (an insecure address, a refusal): the
    // old way, through a selected text field.
    const ta = document.createElement("textarea");
    ta.value = text;
    ta.setAttribute("readonly", "");
    ta.style.position = "fixed";
    ta.style.opacity = "0";
    document.body.append(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (e2) { ok = false; }
    ta.remove();
    if (!ok) {
      note(t("copy.failed"));
      return;
    }
  }
  document.body.dataset.copied = text;
  note(t(done));
}

// movesText is the game's moves as records and other sites write them:
// "1. d4 e4 2. b4-d4".
function movesText() {
  const out = [];
  state.moves.forEach((m, i) => out.push(i % 2 === 0 ? Math.floor(i / 2) + 1 + ". " + m : m));
  return out.join(" ");
}

// newGame starts a game with the settings of the controls, or those given.
function newGame(settings) {
  const s = settings || {size: Number($("size").value), color: $("color").value, level: $("level").value};
  act(() => api("api/v2/new", s), t("status.starting"));
}

// note says what a change of the controls does, on the page and to
// screen readers: the level applies at once, board and colour from the
// next game.
function note(text) {
  $("note").textContent = text;
  announce(text);
}

// The review: the server analyses a game (this one, or a record
// uploaded), and the page draws the chance of winning after each move as
// a graph, lists the moves with their class, and shows the position
// before a chosen move with the move played and the computer's choice as
// arrows. Class and verdict names are literal keys, as the levels'.
const classKeys = {inaccuracy: "review.class.inaccuracy", mistake: "review.class.mistake", blunder: "review.class.blunder"};
const classMarks = {inaccuracy: "◆", mistake: "▲", blunder: "✖"};
const verdictKeys = {
  throwsWin: "review.verdict.throwsWin", onlyWin: "review.verdict.onlyWin",
  keepsWin: "review.verdict.keepsWin", alreadyLost: "review.verdict.alreadyLost",
};
const rv = {data: null, i: 0, var: null}; // var: the variation tried on the board (varClick)
const svgNS = $("revgraph").namespaceURI; // SVG's, from an SVG element of the page

function svgEl(name, attrs, parent) {
  const e = document.createElementNS(svgNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.append(e);
  return e;
}

function pct(x) { return Math.round(100 * x); }

// Text for people numbers moves by pairs, as records do (the JSON counts
// plies, 1 = Black's first move): pairNo(5) is 3, moveNo(5) "3." (Black's
// third move), moveNo(6) "3..." (White's reply).
function pairNo(ply) { return Math.ceil(ply / 2); }
function moveNo(ply) { return pairNo(ply) + (ply % 2 === 1 ? "." : "..."); }

// openReview shows the review panel: of the game in progress, or (upload)
// with the form to upload a record.
function openReview(upload) {
  document.body.classList.add("reviewing");
  $("review").hidden = false;
  $("upload").open = upload;
  $("revtitle").focus();
  if (!upload) {
    startReview({game: state.game});
  } else if (!rv.data) {
    $("revstatus").textContent = "";
  }
}

function closeReview() {
  document.body.classList.remove("reviewing");
  $("review").hidden = true;
  $("revboard").replaceChildren(); // the game's board is the only one
  $("reviewbtn").focus();
}

function startReview(body) {
  act(async () => {
    $("revstatus").textContent = t("review.wait");
    $("revbody").hidden = true;
    $("revboard").replaceChildren();
    let d;
    try {
      d = await api("api/v2/review", body);
    } catch (e) {
      $("revstatus").textContent = "";
      throw e;
    }
    rv.data = d;
    let done = t("review.done", {n: d.moves.length, sims: d.sims});
    if (d.resigned) done += " " + t(d.winner === "white" ? "review.resignedBlack" : "review.resignedWhite");
    $("revstatus").textContent = done;
    $("revbody").hidden = false;
    drawSummary();
    drawReviewMoves();
    // First the player's first mistake or blunder, else the first move.
    const bad = d.moves.find((m) => (m.class === "mistake" || m.class === "blunder") && (!d.human || m.player === d.human));
    selectMove(bad ? bad.ply : 1, false);
  });
}

// perspective is the side whose chance the graph shows: the human's in a
// game of the page, else Black's.
function perspective() { return rv.data.human || "black"; }

function chance(k) {
  const b = rv.data.black[k];
  return perspective() === "black" ? b : 1 - b;
}

function drawSummary() {
  const d = rv.data;
  const counts = {black: {i: 0, m: 0, b: 0}, white: {i: 0, m: 0, b: 0}};
  for (const m of d.moves) {
    if (m.class) counts[m.player][m.class[0]]++;
  }
  const box = $("revsummary");
  box.replaceChildren();
  for (const side of ["black", "white"]) {
    let key = side === "black" ? "review.countsBlack" : "review.countsWhite";
    if (d.human) key = side === d.human ? "review.countsYou" : "review.countsComputer";
    const p = document.createElement("p");
    p.textContent = t(key, counts[side]);
    box.append(p);
  }
  $("revgraphcap").textContent = t(d.human ? "review.graphYou" : "review.graphBlack");
}

function drawReviewMoves() {
  const list = $("revmoves");
  list.replaceChildren();
  for (const m of rv.data.moves) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "revmove" + (m.class ? " " + m.class : "");
    b.dataset.ply = String(m.ply);
    const name = t(m.player === "black" ? "review.itemBlack" : "review.itemWhite", {n: pairNo(m.ply), move: m.move});
    const stone = document.createElement("span");
    stone.className = "mini " + m.player;
    stone.setAttribute("aria-hidden", "true");
    const label = document.createElement("span");
    label.append(stone, document.createTextNode(moveNo(m.ply) + " " + m.move));
    b.append(label);
    if (m.class) {
      const tag = document.createElement("span");
      tag.className = "tag";
      tag.textContent = classMarks[m.class] + " " + t(classKeys[m.class]) + " −" + pct(m.loss) + "%";
      b.append(tag);
      b.setAttribute("aria-label", name + ", " + t(classKeys[m.class]) + " −" + pct(m.loss) + "%");
    } else {
      b.setAttribute("aria-label", name);
    }
    b.addEventListener("click", () => selectMove(m.ply, true));
    li.append(b);
    list.append(li);
  }
}

// drawGraph draws the chance of winning after each move (0: the start)
// as inline SVG, the X axis labelled by move pairs (n under the position
// after White's move n), the bad moves marked by shape (◆ inaccuracy, ▲ mistake,
// ✖ blunder) and the chosen move by a vertical line; a click on a point
// chooses the move that led to it.
function drawGraph() {
  const d = rv.data, n = d.moves.length;
  const g = $("revgraph");
  // One user unit a pixel, so that the labels keep their size on a phone.
  const W = Math.max(300, Math.round(g.getBoundingClientRect().width) || 640), H = 220, L = 42, R = 14, T = 12, B = 30;
  const x = (k) => L + (k * (W - L - R)) / Math.max(n, 1);
  const y = (p) => T + (1 - p) * (H - T - B);
  g.replaceChildren();
  g.setAttribute("viewBox", "0 0 " + W + " " + H);
  svgEl("rect", {x: L, y: T, width: W - L - R, height: H - T - B, class: "plot"}, g);
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    svgEl("line", {x1: L, x2: W - R, y1: y(p), y2: y(p), class: p === 0.5 ? "even" : "grid"}, g);
    svgEl("text", {x: L - 6, y: y(p) + 4, class: "ylab"}, g).textContent = pct(p) + "%";
  }
  const step = 2 * Math.max(1, Math.ceil(n / 24)); // plies, whole pairs
  for (let k = 0; k <= n; k += step) {
    svgEl("text", {x: x(k), y: H - B + 16, class: "xlab"}, g).textContent = String(k / 2);
  }
  svgEl("text", {x: W - R, y: H - 2, class: "xlab axis"}, g).textContent = t("review.axisMove");
  const pts = [];
  for (let k = 0; k <= n; k++) pts.push(x(k).toFixed(1) + "," + y(chance(k)).toFixed(1));
  svgEl("polygon", {points: x(0) + "," + y(0) + " " + pts.join(" ") + " " + x(n) + "," + y(0), class: "area"}, g);
  svgEl("polyline", {points: pts.join(" "), class: "curve"}, g);
  svgEl("line", {x1: x(rv.i), x2: x(rv.i), y1: T, y2: H - B, class: "sel"}, g);
  for (let k = 0; k <= n; k++) {
    const cx = x(k), cy = y(chance(k));
    const m = k > 0 ? d.moves[k - 1] : null;
    const pt = svgEl("g", {class: "pt" + (m && m.class ? " " + m.class : ""), "data-ply": k}, g);
    const tip = k === 0 ? "review.pointStart" : m.player === "black" ? "review.pointBlack" : "review.pointWhite";
    svgEl("title", {}, pt).textContent = t(tip, {n: pairNo(k), move: m ? m.move : "", p: pct(chance(k))});
    svgEl("circle", {cx: cx, cy: cy, r: 11, class: "hit"}, pt);
    if (m && m.class === "blunder") {
      svgEl("path", {d: `M${cx - 6},${cy - 6}L${cx + 6},${cy + 6}M${cx - 6},${cy + 6}L${cx + 6},${cy - 6}`, class: "mark"}, pt);
    } else if (m && m.class === "mistake") {
      svgEl("path", {d: `M${cx},${cy - 7}L${cx + 7},${cy + 5}L${cx - 7},${cy + 5}Z`, class: "mark"}, pt);
    } else if (m && m.class === "inaccuracy") {
      // A diamond: a round mark would read as Black's stone.
      svgEl("path", {d: `M${cx},${cy - 6}L${cx + 6},${cy}L${cx},${cy + 6}L${cx - 6},${cy}Z`, class: "mark"}, pt);
    } else {
      svgEl("circle", {cx: cx, cy: cy, r: 2.5, class: "dot"}, pt);
    }
    pt.addEventListener("click", () => selectMove(Math.max(k, 1), true));
  }
}

// selectMove shows the position before move k with the move played and
// the computer's choice as arrows, and what the analysis says of it.
function selectMove(k, focus) {
  const d = rv.data, m = d.moves[k - 1];
  rv.i = k;
  rv.var = null; // a move of the game leaves the variation
  $("varback").hidden = true;
  renderBoard($("revboard"), {
    size: d.size, rows: d.boards[k - 1],
    movable: new Set(), movableKey: "sq.canJump", selected: null, targets: new Set(),
    marked: new Set(), last: new Set(), hint: new Set(), onClick: varClick,
  });
  const arrows = [{move: m.move, cls: m.best === m.move ? "played agreed" : "played"}];
  if (m.best && m.best !== m.move) arrows.push({move: m.best, cls: "best"});
  candidateArrows(m, arrows);
  drawArrows($("revarrows"), d.size, arrows);
  const lines = [tNodes(m.player === "black" ? "review.movedBlack" : "review.movedWhite", {n: pairNo(k), move: m.move})];
  let change = t("review.change", {before: pct(m.before), after: pct(m.after)});
  if (m.class) change += " " + t("review.loss", {loss: pct(m.loss), class: t(classKeys[m.class])});
  else if (pct(m.loss) > 0) change += " " + t("review.lossOnly", {loss: pct(m.loss)});
  lines.push(change);
  if (m.verdict) lines.push(t("review.solver", {verdict: t(verdictKeys[m.verdict])}));
  if (m.candidates && m.candidates.length > 0) lines.push(candidateText(m));
  // Lines of moves wrap between moves, never inside one (tNodes).
  const moves = (ms) => ms.join(" ");
  if (m.best === m.move) {
    lines.push(tNodes("review.agrees", {pv: moves(m.pv)}));
  } else {
    if (m.best) lines.push(tNodes("review.best", {move: m.best, pv: moves(m.pv)}));
    if (m.line.length > 1) lines.push(tNodes("review.after", {line: moves(m.line)}));
  }
  const box = $("revmove");
  box.replaceChildren();
  lines.forEach((text, i) => {
    const p = document.createElement("p");
    if (typeof text === "string") p.textContent = text;
    else p.replaceChildren(...text);
    if (i === 1 && m.class) p.className = "cls " + m.class;
    box.append(p);
  });
  for (const b of document.querySelectorAll("#revmoves .revmove")) {
    if (Number(b.dataset.ply) === k) {
      b.setAttribute("aria-current", "true");
      if (focus) b.scrollIntoView({block: "nearest"});
    } else {
      b.removeAttribute("aria-current");
    }
  }
  drawGraph();
  $("revprev").disabled = k <= 1;
  $("revnext").disabled = k >= d.moves.length;
  // Playing on, and variations, need a model of the board's size (a
  // record's may have none).
  $("playon").disabled = !config.sizes.includes(d.size);
  $("varhint").hidden = !config.sizes.includes(d.size);
}

// drawArrows draws moves over a board of size n: an arrow for a jump, a
// ring for a removal. The SVG's user units are squares.
function drawArrows(svg, n, arrows) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", "0 0 " + n + " " + n);
  const defs = svgEl("defs", {}, svg);
  for (const cls of ["played", "agreed", "best", "cand"]) {
    const mk = svgEl("marker", {id: "head-" + cls, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse"}, defs);
    svgEl("path", {d: "M0,0L10,5L0,10Z", class: "head " + cls}, mk);
  }
  const center = (sq) => [sq.charCodeAt(0) - 97 + 0.5, n - Number(sq.slice(1)) + 0.5];
  for (const a of arrows) {
    const [from, to] = squares(a.move);
    const [x0, y0] = center(from);
    const g = svgEl("g", {class: "arrow " + a.cls}, svg);
    if (!to) {
      svgEl("circle", {cx: x0, cy: y0, r: 0.42}, g);
      continue;
    }
    const [x1, y1] = center(to);
    const len = Math.hypot(x1 - x0, y1 - y0);
    const ex = x1 - ((x1 - x0) / len) * 0.1, ey = y1 - ((y1 - y0) / len) * 0.1; // the tip just short of the centre
    const head = a.cls.includes("best") ? "best" : a.cls.includes("agreed") ? "agreed" : a.cls.includes("cand") ? "cand" : "played";
    svgEl("line", {x1: x0, y1: y0, x2: ex, y2: ey, "marker-end": "url(#head-" + head + ")"}, g);
  }
  // The candidates' chances, on their target squares, over every arrow;
  // two on one square are stacked, not overlaid.
  const onSquare = {};
  for (const a of arrows) {
    if (!a.label) continue;
    const [from, to] = squares(a.move);
    const sq = to || from;
    const k = onSquare[sq] = (onSquare[sq] || 0) + 1;
    const [x, y] = center(sq);
    svgEl("text", {x: x, y: y + 0.12 + (k - 1) * 0.32, class: "candlabel"}, svg).textContent = a.label;
  }
}

// playOn starts a game from the position before the chosen move, the
// human playing the side that was to move there.
function playOn() {
  const d = rv.data, k = rv.i;
  // From the variation's position when one is on the board.
  const moves = d.moves.slice(0, k - 1).map((m) => m.move).concat(rv.var ? rv.var.moves : []);
  const color = moves.length % 2 === 0 ? "black" : "white";
  $("size").value = String(d.size);
  $("color").value = color;
  closeReview();
  newGame({size: d.size, color: color, level: $("level").value, moves: moves});
}

function sendRecord() {
  const text = $("revtext").value;
  if (text.trim() === "") {
    $("error").textContent = t("review.noRecord");
    return;
  }
  startReview({record: text});
}

// "Learn the rules": the steps come from api/v2/learn, each a position with
// its task; the player clicks as in a game, and each wrong click is
// explained.
const tut = {steps: null, i: 0, board: null, selected: null, done: false};

async function openTutorial() {
  if (!tut.steps) {
    try {
      tut.steps = (await api("api/v2/learn")).steps;
    } catch (e) {
      $("error").textContent = e.message;
      return;
    }
  }
  document.body.classList.add("learning");
  $("tutorial").hidden = false;
  showStep(0);
}

function closeTutorial() {
  document.body.classList.remove("learning");
  $("tutorial").hidden = true;
  $("learn").focus();
}

function showStep(i) {
  tut.i = i;
  tut.selected = null;
  tut.done = false;
  const last = i === tut.steps.length;
  $("tutstep").textContent = t("tut.step", {n: i + 1, total: tut.steps.length + 1});
  $("tutfeedback").textContent = "";
  $("tutfeedback").className = "";
  $("tutback").disabled = i === 0;
  $("tutnext").hidden = last;
  $("tutplay").hidden = !last;
  $("tutboard").hidden = last;
  if (last) {
    $("tuttitle").textContent = t("tut.play.title");
    $("tuttext").textContent = t("tut.play.text");
  } else {
    const st = tut.steps[i];
    $("tuttitle").textContent = t(st.title);
    $("tuttext").textContent = t(st.text);
    tut.board = st.board;
    drawTutorial();
  }
  $("tuttitle").focus();
}

function drawTutorial() {
  const st = tut.steps[tut.i];
  const to = new Set(tut.selected && !tut.done ? st.legal.filter((m) => squares(m)[0] === tut.selected).map((m) => squares(m)[1]) : []);
  renderBoard($("tutboard"), {
    size: st.size,
    rows: tut.board,
    movable: new Set(),
    movableKey: "sq.canJump",
    selected: tut.selected,
    targets: to,
    marked: new Set(tut.done ? [] : st.marks),
    last: new Set(),
    hint: new Set(),
    onClick: tutorialClick,
    onEscape: () => {
      if (tut.selected === null) return;
      tut.selected = null;
      drawTutorial();
      feedback(t("announce.cancelled"), "");
    },
  });
}

function feedback(text, kind) {
  $("tutfeedback").textContent = text;
  $("tutfeedback").className = kind;
}

// tutorialClick answers a click on sq: the step's task done, a stone
// chosen, or an explanation of what is wrong.
function tutorialClick(sq) {
  const st = tut.steps[tut.i];
  if (tut.done) {
    feedback(t("tut.wrong.done"), "");
    return;
  }
  const n = st.size;
  const at = (s) => tut.board[n - Number(s.slice(1))][s.charCodeAt(0) - 97];
  const mine = st.turn === "black" ? "x" : "o";
  const c = at(sq);
  const notYours = st.turn === "black" ? "tut.wrong.notYoursBlack" : "tut.wrong.notYoursWhite";
  const origins = new Set(st.legal.map((m) => squares(m)[0]));
  if (st.click || st.phase !== "jumping") {
    if (st.task.includes(sq)) return succeed(st, sq);
    if (c === ".") return feedback(t("tut.wrong.empty"), "wrong");
    if (c !== mine) return feedback(t(notYours), "wrong");
    return feedback(t(st.phase === "black removal" ? "tut.wrong.removeBlack" : "tut.wrong.removeWhite"), "wrong");
  }
  if (tut.selected) {
    const from = tut.selected;
    const move = from + "-" + sq;
    if (st.task.includes(move)) return succeed(st, move);
    if (st.legal.includes(move)) return feedback(t(st.wrong), "wrong");
    if (sq === from) {
      tut.selected = null;
      drawTutorial();
      return feedback(t("announce.cancelled"), "");
    }
    if (c === mine && origins.has(sq)) return select(sq);
    if (c === mine) return feedback(t("tut.wrong.cannotJump"), "wrong");
    // Off the stone's row and column: a turn, if a landing square of the
    // stone is in line with sq; else a diagonal, or just no landing.
    const straight = (a, b) => a[0] === b[0] || a.slice(1) === b.slice(1);
    if (!straight(from, sq)) {
      const lands = st.legal.filter((m) => squares(m)[0] === from).map((m) => squares(m)[1]);
      if (lands.some((l) => straight(l, sq))) return feedback(t("tut.wrong.turn"), "wrong");
      const dc = sq.charCodeAt(0) - from.charCodeAt(0), dr = Number(sq.slice(1)) - Number(from.slice(1));
      if (Math.abs(dc) === Math.abs(dr)) return feedback(t("tut.wrong.diagonal"), "wrong");
    }
    return feedback(t("tut.wrong.notLanding"), "wrong");
  }
  if (origins.has(sq)) return select(sq);
  if (c === ".") return feedback(t("tut.wrong.empty"), "wrong");
  if (c !== mine) return feedback(t(notYours), "wrong");
  return feedback(t("tut.wrong.cannotJump"), "wrong");
}

function select(sq) {
  tut.selected = sq;
  drawTutorial();
  feedback(t("announce.selected", {square: sq}), "");
}

function succeed(st, move) {
  const k = st.task.indexOf(move);
  if (st.after[k]) tut.board = st.after[k];
  tut.selected = null;
  tut.done = true;
  drawTutorial();
  feedback(t(st.done), "right");
  $("tutnext").focus();
}

// playFromTutorial starts what the tutorial ends with: a 6x6 game (or the
// smallest board there is) at the easiest level, as Black.
function playFromTutorial() {
  const size = config.sizes.includes(6) ? 6 : config.sizes[0];
  const level = config.levels[0].name;
  $("size").value = String(size);
  $("level").value = level;
  $("color").value = "black";
  closeTutorial();
  newGame({size: size, color: "black", level: level});
  $("board").dataset.cursor = "";
  document.querySelector("#board .sq") && document.querySelector("#board .sq").focus();
}

function init() {
  const learnFirst = location.hash === "#learn"; // the game's address replaces it
  $("lang").addEventListener("change", () => $("langform").submit());
  $("learn").addEventListener("click", openTutorial);
  $("tutback").addEventListener("click", () => showStep(tut.i - 1));
  $("tutnext").addEventListener("click", () => showStep(tut.i + 1));
  $("tutclose").addEventListener("click", closeTutorial);
  $("tutplay").addEventListener("click", playFromTutorial);
  $("new").addEventListener("click", () => newGame());
  $("resign").addEventListener("click", resign);
  $("resign").addEventListener("blur", () => resignArmed(false));
  $("rematch").addEventListener("click", rematch);
  $("flip").addEventListener("click", () => {
    if (!state) return;
    flipped = !flipped;
    $("flip").setAttribute("aria-pressed", String(flipped));
    drawBoard();
  });
  $("copymoves").addEventListener("click", () => { if (state && state.moves.length) copyText(movesText(), "copy.moves"); });
  $("copylink").addEventListener("click", () => { if (state) copyText(location.href, "copy.link"); });
  $("viewlive").addEventListener("click", () => viewMove(null));
  $("sound").checked = prefs.get("sound", "off") === "on";
  $("sound").addEventListener("change", () => prefs.set("sound", $("sound").checked ? "on" : "off"));
  $("theme").value = prefs.get("theme", "auto");
  $("theme").addEventListener("change", () => {
    prefs.set("theme", $("theme").value);
    window.konaneApplyTheme();
  });
  $("undo").addEventListener("click", () => {
    if (state && state.canUndo) act(() => api("api/v2/state", {game: gameCode.undone(state.game)}), undefined, true);
  });
  $("reviewbtn").addEventListener("click", () => {
    if (state && state.moves.length > 0 && !busy()) openReview(false);
  });
  $("reviewrecord").addEventListener("click", () => openReview(true));
  $("revclose").addEventListener("click", closeReview);
  $("revprev").addEventListener("click", () => selectMove(rv.i - 1, true));
  $("revnext").addEventListener("click", () => selectMove(rv.i + 1, true));
  $("playon").addEventListener("click", playOn);
  $("varback").addEventListener("click", () => selectMove(rv.i, true));
  $("revsend").addEventListener("click", sendRecord);
  $("revfile").addEventListener("change", async () => {
    const f = $("revfile").files[0];
    if (!f) return;
    try {
      $("revtext").value = await f.text();
      sendRecord();
    } catch (e) {
      $("error").textContent = t("review.fileError");
    }
  });
  $("size").addEventListener("change", () => {
    if (state && Number($("size").value) !== state.size) note(t("status.sizeNext"));
  });
  $("color").addEventListener("change", () => {
    if (state && $("color").value !== state.human) note(t("status.colorNext"));
  });
  $("hint").addEventListener("click", () => {
    if (!myTurn()) return;
    act(async () => {
      const h = await api("api/v2/hint", {game: state.game});
      hint = h.move;
      const pv = h.pv[0] === h.move ? h.pv.slice(1) : h.pv; // the line after the hinted move
      putText($("hinttext"), pv.length ? "hint.text" : "hint.short", {move: h.move, p: Math.round(100 * h.winProb), pv: pv.join(" ")});
      $("status").textContent = msg(state.message);
      announce($("hinttext").textContent);
      drawBoard();
    }, t("status.hintWait"));
  });
  $("level").addEventListener("change", () => {
    if (!state) return;
    // The level's name alone: the menu's "(8192 simulations)" would
    // break the sentence.
    const name = levelName($("level").value);
    act(async () => {
      const s = await api("api/v2/state", {game: Object.assign({}, state.game, {level: $("level").value})});
      show(s, true);
      note(t("status.levelChanged", {level: name}));
    });
  });
  document.body.dataset.busy = "false";
  act(async () => {
    config = await api("api/v2/config");
    for (const n of config.sizes) {
      $("size").append(new Option(n + "×" + n, String(n), false, n === config.defaultSize));
    }
    for (const l of config.levels) {
      const name = levelName(l.name);
      $("level").append(new Option(t("level.option", {level: name, sims: l.sims}), l.name, false, l.name === config.defaultLevel));
    }
    openingsInit();
    // A reload, a bookmark or a shared link (#g=...) goes on with its
    // game; so does the language switch (the tab's storage). A game that
    // cannot be opened is said why, and a new game starts.
    const g = gameCode.load();
    if (g === undefined) linkError = t("error.link", {reason: t("error.gameCode")});
    if (g) {
      try {
        let s = await api("api/v2/state", {game: g});
        if (!s.over && s.turn !== s.human) s = await api("api/v2/move", {game: s.game, move: ""});
        $("size").value = String(s.size);
        $("color").value = s.human;
        return s;
      } catch (e) {
        linkError = t("error.link", {reason: e.message});
      }
    }
    if (linkError) gameCode.forget();
    return api("api/v2/new", {size: config.defaultSize, color: "black", level: config.defaultLevel});
  }, t("status.starting")).then(() => {
    if (linkError) $("error").textContent = linkError;
    if (learnFirst) openTutorial();
  });
}

init();

// reviewKey steps through the reviewed game with ←/→ (Home/End: the first
// and last move) wherever the focus is in the review panel, except on the
// board, whose arrows move between squares, and in a text field.
function reviewKey(ev) {
  if ($("review").hidden || !rv.data || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const tgt = ev.target;
  if (tgt && tgt.closest && tgt.closest(".board, input, textarea, select")) return;
  const n = rv.data.moves.length;
  let k = rv.i;
  switch (ev.key) {
    case "ArrowLeft": k--; break;
    case "ArrowRight": k++; break;
    case "Home": k = 1; break;
    case "End": k = n; break;
    default: return;
  }
  ev.preventDefault();
  // In a variation ← takes its last move back; the other keys leave it.
  if (rv.var && ev.key === "ArrowLeft") {
    varUndo();
    return;
  }
  if (rv.var) k = ev.key === "ArrowRight" ? rv.i : k;
  k = Math.min(Math.max(k, 1), n);
  if (k !== rv.i || rv.var) selectMove(k, true);
}
document.addEventListener("keydown", reviewKey);

// candidateArrows adds the computer's candidates before move m to the
// arrows (a thin arrow for those not drawn already) and labels each with
// the mover's chance after it, as KaTrain and Lizzie do.
function candidateArrows(m, arrows) {
  for (const c of m.candidates || []) {
    let a = arrows.find((x) => x.move === c.move);
    if (!a) {
      a = {move: c.move, cls: "cand"};
      arrows.push(a);
    }
    a.label = pct(c.winrate) + "%";
  }
}

// candidateText names the candidates: "f4-d4 62%, d6-d4 55%", each move
// with its chance kept on one line (span.mv), the moves as written so
// that copied text reads back as moves.
function candidateText(m) {
  const [before, after] = (catalog["review.candidates"] || "{list}").split("{list}");
  const nodes = [document.createTextNode(before)];
  m.candidates.forEach((c, i) => {
    if (i > 0) nodes.push(document.createTextNode(", "));
    const span = document.createElement("span");
    span.className = "mv";
    span.textContent = c.move + " " + t("eval.value", {p: pct(c.winrate)});
    nodes.push(span);
  });
  nodes.push(document.createTextNode(after || ""));
  return nodes;
}

// ---- Variations in the review --------------------------------------
//
// The review's board plays: a stone of the side to move, then where it
// lands, tries that move from the position shown (before the chosen move
// of the game), for either side in turn, as KaTrain and Lizzie let one
// explore. The server checks each move (api/v2/state replays the game and
// searches nothing) and then gives the computer's view of the new position
// (api/v2/hint at the default level). ← takes the variation's last move
// back; "Back to the moves played", or any move of the game, leaves it;
// "Play on from here" starts a game from the variation's position.

// varGame is the game record of moves for the API: the side to move
// plays it ("human"), so that the server lists its legal moves.
function varGame(moves) {
  return {size: rv.data.size, human: moves.length % 2 === 0 ? "black" : "white", level: config.defaultLevel, moves: moves};
}

// varMoves is the game's moves before the chosen move, then the
// variation's.
function varMoves() {
  return rv.data.moves.slice(0, rv.i - 1).map((m) => m.move).concat(rv.var ? rv.var.moves : []);
}

// varTop is the state of the position on the board in a variation.
function varTop() { return rv.var.states[rv.var.states.length - 1]; }

// varPick takes a click on sq in a variation: it returns the move to
// play, or null after (un)selecting a stone.
function varPick(sq) {
  const v = rv.var, st = varTop();
  if (st.over) return null;
  if (st.phase !== "jumping") return st.legal.includes(sq) ? sq : null;
  if (v.selected && st.legal.includes(v.selected + "-" + sq)) return v.selected + "-" + sq;
  const from = new Set(st.legal.map((m) => squares(m)[0]));
  v.selected = from.has(sq) && sq !== v.selected ? sq : null;
  return null;
}

// varClick is the review board's click: the first one starts a
// variation from the position shown.
function varClick(sq) {
  if (busy() || !rv.data || !config.sizes.includes(rv.data.size)) return;
  act(async () => {
    if (!rv.var) {
      const k = rv.i;
      const st = await api("api/v2/state", {game: varGame(varMoves())});
      if (rv.i !== k || rv.var) return;
      rv.var = {moves: [], states: [st], evals: [null], selected: null};
      $("varback").hidden = false;
    }
    const v = rv.var;
    const move = varPick(sq);
    if (!move) {
      drawVariation();
      return;
    }
    v.selected = null;
    const st = await api("api/v2/state", {game: varGame(varMoves().concat([move]))});
    if (v !== rv.var) return;
    v.moves.push(move);
    v.states.push(st);
    v.evals.push(null);
    drawVariation();
    if (st.over) return;
    const n = v.moves.length;
    const h = await api("api/v2/hint", {game: st.game});
    if (v === rv.var && v.moves.length === n) {
      v.evals[n] = h;
      drawVariation();
    }
  });
}

// varUndo takes the variation's last move back; with none left, it
// leaves the variation.
function varUndo() {
  const v = rv.var;
  if (!v || busy()) return;
  if (v.moves.length === 0) {
    selectMove(rv.i, true);
    return;
  }
  v.moves.pop();
  v.states.pop();
  v.evals.pop();
  v.selected = null;
  if (v.moves.length === 0) {
    selectMove(rv.i, true);
    return;
  }
  drawVariation();
}

// varLine numbers the variation's moves as records do, from where it
// starts: "3... a6-c6 4. c3-c5 e5-c5".
function varLine() {
  const base = rv.i - 1;
  return rv.var.moves.map((mv, i) => {
    const ply = base + i + 1;
    if (i === 0) return moveNo(ply) + " " + mv;
    return ply % 2 === 1 ? moveNo(ply) + " " + mv : mv;
  }).join(" ");
}

// drawVariation shows the variation's position, its last move and the
// computer's choice as arrows, and what the computer says of it.
function drawVariation() {
  const v = rv.var, st = varTop();
  const legal = st.over ? [] : st.legal;
  const from = new Set(legal.map((m) => squares(m)[0]));
  const to = new Set(v.selected ? legal.filter((m) => squares(m)[0] === v.selected && m.includes("-")).map((m) => squares(m)[1]) : []);
  renderBoard($("revboard"), {
    size: st.size, rows: st.board,
    movable: from, movableKey: st.phase === "jumping" ? "sq.canJump" : "sq.canRemove", selected: v.selected, targets: to,
    marked: new Set(), last: new Set(squares(st.last)), hint: new Set(), onClick: varClick,
    onEscape: () => {
      if (v.selected === null) return;
      v.selected = null;
      drawVariation();
    },
  });
  const h = v.evals[v.moves.length];
  const arrows = [];
  if (v.moves.length > 0) arrows.push({move: v.moves[v.moves.length - 1], cls: "played"});
  if (h) arrows.push({move: h.move, cls: "best", label: pct(h.winProb) + "%"});
  drawArrows($("revarrows"), st.size, arrows);
  const box = $("revmove");
  const lines = [];
  if (v.moves.length > 0) lines.push(tNodes("review.varLine", {moves: varLine()}));
  if (st.over) {
    lines.push(t(st.winner === "black" ? "review.varOverBlack" : "review.varOverWhite"));
  } else if (h) {
    const pv = h.pv[0] === h.move ? h.pv.slice(1) : h.pv;
    // The line after the move, when the search has one ("Expected line: ."
    // said nothing).
    const key = st.turn === "black" ? (pv.length ? "review.varEvalBlack" : "review.varEvalBlackShort") : (pv.length ? "review.varEvalWhite" : "review.varEvalWhiteShort");
    lines.push(tNodes(key, {p: pct(h.winProb), move: h.move, pv: pv.join(" ")}));
  } else if (v.moves.length > 0) {
    lines.push(t("review.varWait"));
  }
  box.replaceChildren();
  for (const text of lines) {
    const p = document.createElement("p");
    if (typeof text === "string") p.textContent = text;
    else p.replaceChildren(...text);
    box.append(p);
  }
  box.dataset.variation = String(v.moves.length);
}

// ---- The openings -----------------------------------------------------
//
// What `konane openings` prints, on the page: every pair of opening
// removals with the computer's view of Black's chance and, where the
// solver works the board out (up to 6x6), the exact result, from
// api/v2/openings (computed once per board size by the server).

function openingsInit() {
  const sel = $("opensize");
  for (const n of config.sizes) sel.append(new Option(n + "×" + n, String(n), false, n === config.defaultSize));
  $("openings").addEventListener("toggle", () => {
    if ($("openings").open && !$("opentable").dataset.size) loadOpenings();
  });
  sel.addEventListener("change", loadOpenings);
}

function loadOpenings() {
  const size = Number($("opensize").value);
  act(async () => {
    $("openstatus").textContent = t("open.wait");
    let d;
    try {
      d = await api("api/v2/openings?size=" + size);
    } catch (e) {
      $("openstatus").textContent = "";
      throw e;
    }
    if (Number($("opensize").value) === d.size) drawOpenings(d);
  });
}

function drawOpenings(d) {
  const table = $("opentable");
  table.replaceChildren();
  table.dataset.size = String(d.size);
  const head = table.createTHead().insertRow();
  for (const key of ["open.black", "open.white", "open.chance", "open.exact", "open.line"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = t(key);
    head.append(th);
  }
  const body = table.createTBody();
  for (const o of d.openings) {
    const tr = body.insertRow();
    tr.className = o.black === d.choice ? "choice" : "";
    const cell = (nodes, cls) => {
      const td = tr.insertCell();
      if (cls) td.className = cls;
      td.replaceChildren(...nodes);
    };
    const mv = (m) => {
      const span = document.createElement("span");
      span.className = "mv";
      span.textContent = m;
      return span;
    };
    cell([mv(o.black)]);
    cell([mv(o.white)]);
    cell([document.createTextNode(t("eval.value", {p: pct(o.blackWinrate)}))], "num");
    cell([document.createTextNode(o.exact ? t(o.exact === "black" ? "open.exactBlack" : "open.exactWhite") : "–")], o.exact ? "exact " + o.exact : "");
    const line = [];
    o.pv.forEach((m, i) => {
      if (i > 0) line.push(document.createTextNode(" "));
      line.push(mv(m));
    });
    cell(line, "line");
  }
  const notes = [t("open.choice", {move: d.choice, p: pct(d.choiceWorst)})];
  if (d.solved) {
    notes.push(d.winner === "black" ? t("open.solvedBlack", {size: d.size, list: d.winning.join(", ")}) : t("open.solvedWhite", {size: d.size}));
    notes.push(t("open.agree", {agree: d.agree, n: d.openings.length}));
  } else {
    notes.push(t("open.unsolved", {size: d.size}));
  }
  $("openstatus").textContent = "";
  const box = $("opennotes");
  box.replaceChildren();
  for (const text of notes) {
    const p = document.createElement("p");
    p.textContent = text;
    box.append(p);
  }
}
