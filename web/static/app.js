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

// msg renders a message of the API ({code, args}).
function msg(m) { return t(m.code, m.args); }

// The names of the levels: literal keys, one per level of agent.Levels.
const levelKeys = {easy: "level.easy", medium: "level.medium", hard: "level.hard", max: "level.max"};

let config = null;   // GET api/config
let state = null;    // the game, as the server last sent it
let selected = null; // the square of the stone chosen to jump, or null
let hint = null;     // the last hint's move, or null
let cursor = null;   // the square that has (or last had) the keyboard focus

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
    if (state) $("status").textContent = msg(state.message);
  } finally {
    document.body.dataset.version = String(Number(document.body.dataset.version) + 1);
    document.body.dataset.busy = "false";
  }
}

// announce tells screen readers what happened, through the live region.
function announce(text) { $("announce").textContent = text; }

function show(s) {
  const before = state && state.id === s.id ? state.moves.length : -1;
  state = s;
  selected = null;
  hint = null;
  sessionStorage.setItem("konane-game", s.id);
  $("hinttext").textContent = "";
  document.body.dataset.over = String(s.over);
  $("status").textContent = msg(s.message);
  $("status").className = s.over ? "over" : "";
  $("record").href = "api/record?id=" + encodeURIComponent(s.id);
  $("level").value = s.level;
  drawEval();
  drawMoves();
  drawBoard();
  // Announce the moves since the last state: both sides', then the status.
  const said = [];
  if (before < 0) said.push(t(s.human === "black" ? "announce.newBlack" : "announce.newWhite", {size: s.size}));
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
// onClick(square). Every square is a button named for screen readers
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
  for (let i = 0; i < n; i++) {
    const rank = n - i;
    for (let col = 0; col < n; col++) {
      const sq = squareName(col, rank);
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "sq";
      cell.dataset.sq = sq;
      cell.tabIndex = sq === focusSq ? 0 : -1;
      const c = view.rows[i][col];
      const name = [sq, t(c === "x" ? "sq.black" : c === "o" ? "sq.white" : "sq.empty")];
      if (c !== ".") {
        const stone = document.createElement("span");
        stone.className = "stone " + (c === "x" ? "black" : "white");
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
      if (col === 0) cell.append(coord("rank", String(rank)));
      if (rank === 1) cell.append(coord("file", String.fromCharCode(97 + col)));
      cell.setAttribute("aria-label", name.join(", "));
      cell.addEventListener("click", () => {
        el.dataset.cursor = sq;
        view.onClick(sq);
      });
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
  switch (ev.key) {
    case "ArrowLeft": col--; break;
    case "ArrowRight": col++; break;
    case "ArrowUp": rank++; break;
    case "ArrowDown": rank--; break;
    case "Home": col = 0; break;
    case "End": col = n - 1; break;
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

function drawBoard() {
  renderBoard($("board"), {
    size: state.size,
    rows: state.board,
    movable: origins(),
    movableKey: state.phase === "jumping" ? "sq.canJump" : "sq.canRemove",
    selected: selected,
    targets: targets(),
    marked: new Set(),
    last: new Set(squares(state.last)),
    hint: new Set(squares(hint)),
    onClick: clickSquare,
    onEscape: () => {
      if (selected === null) return;
      selected = null;
      drawBoard();
      announce(t("announce.cancelled"));
    },
  });
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
  if (selected) announce(t("announce.selected", {square: selected}));
}

function play(move) {
  act(() => api("api/move", {id: state.id, move: move}), t("status.youPlay", {move: move}));
}

function drawEval() {
  const e = state.eval;
  const bar = $("evalbar");
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
  $("evaltext").textContent = t("eval.text", {p: p, move: e.agentMove, pv: e.pv.join(" ")});
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

// newGame starts a game with the settings of the controls, or those given.
function newGame(settings) {
  const s = settings || {size: Number($("size").value), color: $("color").value, level: $("level").value};
  act(() => api("api/new", s), t("status.starting"));
}

// "Learn the rules": the steps come from api/learn, each a position with
// its task; the player clicks as in a game, and each wrong click is
// explained.
const tut = {steps: null, i: 0, board: null, selected: null, done: false};

async function openTutorial() {
  if (!tut.steps) {
    try {
      tut.steps = (await api("api/learn")).steps;
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
  $("lang").addEventListener("change", () => $("langform").submit());
  $("learn").addEventListener("click", openTutorial);
  $("tutback").addEventListener("click", () => showStep(tut.i - 1));
  $("tutnext").addEventListener("click", () => showStep(tut.i + 1));
  $("tutclose").addEventListener("click", closeTutorial);
  $("tutplay").addEventListener("click", playFromTutorial);
  $("new").addEventListener("click", () => newGame());
  $("undo").addEventListener("click", () => {
    if (state) act(() => api("api/undo", {id: state.id}));
  });
  $("hint").addEventListener("click", () => {
    if (!myTurn()) return;
    act(async () => {
      const h = await api("api/hint", {id: state.id});
      hint = h.move;
      $("hinttext").textContent = t("hint.text", {move: h.move, p: Math.round(100 * h.winProb), pv: h.pv.join(" ")});
      $("status").textContent = msg(state.message);
      announce($("hinttext").textContent);
      drawBoard();
    }, t("status.hintWait"));
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
      const name = levelKeys[l.name] ? t(levelKeys[l.name]) : l.name;
      $("level").append(new Option(t("level.option", {level: name, sims: l.sims}), l.name, false, l.name === config.defaultLevel));
    }
    // A reload (after switching the language, say) goes on with the game.
    const id = sessionStorage.getItem("konane-game");
    if (id) {
      try {
        const s = await api("api/state?id=" + encodeURIComponent(id));
        $("size").value = String(s.size);
        $("color").value = s.human;
        return s;
      } catch (e) {
        sessionStorage.removeItem("konane-game");
      }
    }
    return api("api/new", {size: config.defaultSize, color: "black", level: config.defaultLevel});
  }, t("status.starting")).then(() => {
    if (location.hash === "#learn") openTutorial();
  });
}

init();
