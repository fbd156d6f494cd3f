// Boards as the page draws them: the game's, the review's and the
// tutorial's (renderBoard), the moves on them, and arrows over them.

import {t} from "./i18n.js";
import {$, svgEl} from "./page.js";

// The squares of a move: "d4" or "f4-d4".
export function squares(move) { return move ? move.split("-") : []; }

function squareName(col, rank) { return String.fromCharCode(97 + col) + rank; }

// boardDims returns the files and ranks of a board drawn as rows (top
// rank first): any W×H from 4×4 to 16×16.
export function boardDims(rows) { return [rows[0].length, rows.length]; }

// boardLabel names the board of rows for people: "7×6".
export function boardLabel(rows) {
  const [w, h] = boardDims(rows);
  return w + "×" + h;
}

// boardName is the board of the game record g (state.game) as the API
// names it: "8x8", "7x6", "9x8/removal".
export function boardName(g) { return g.board || g.size + "x" + g.size; }

// boardOption is the menu's entry of the board name; classical says that
// the classical engine plays it (its label says so).
function boardOption(name, classical) {
  const label = name.replace("x", "×").replace("/", " ");
  return new Option(classical ? t("page.boardClassical", {board: label}) : label, name);
}

// fillBoardMenu fills the board menu (#size) with the server's boards
// (config.boards: AbstractPlay's first, then the other square boards up
// to 16×16, those of the classical engine labelled so), selecting def; a
// game on any other board adds its own entry.
export function fillBoardMenu(boards, def) {
  const menu = $("size");
  const group = (label, abstractPlay) => {
    const g = document.createElement("optgroup");
    g.label = label;
    for (const b of boards) if (!!b.abstractPlay === abstractPlay) g.append(boardOption(b.board, b.player === "classical"));
    menu.append(g);
  };
  group(t("page.boardsAbstractPlay"), true);
  group(t("page.boardsMore"), false);
  setBoardMenu(def);
}

// setBoardMenu selects the board name in the board menu, adding it when
// the menu has no entry for it (a link's 9x8/removal).
export function setBoardMenu(name) {
  const menu = $("size");
  if (![...menu.options].some((o) => o.value === name)) menu.append(boardOption(name));
  menu.value = name;
}

// renderBoard draws a board into el: view has rows (top rank first,
// x/o/.; they give the board's files and ranks), the sets movable, selected, targets, last, hint and marked, the
// kind of the movable squares ("sq.canRemove" or "sq.canJump") and
// onClick(square); flipped draws it from White's side (h8 bottom left),
// and onDragStart(ev, el, square, view), when given, starts a drag of a
// movable stone (the game's, which then calls view.onDrop(from, to));
// pointerKey(ev), when given, is offered the board's keys while its focus
// came from a click (boardKey).
// The board is a grid (el has role="grid" and a label): a row per rank,
// a cell per square, and in it the square's button named for screen
// readers ("d4, black stone, can jump"); one of them is in the tab
// order, and the arrow keys move the focus over the board. Highlights
// are shapes (rings, dots, corner marks, arrows), not colours alone.
export function renderBoard(el, view) {
  const [w, h] = boardDims(view.rows);
  const hadFocus = el.contains(document.activeElement);
  let focusSq = el.dataset.cursor;
  if (!focusSq || !onBoard(focusSq, w, h)) focusSq = [...view.movable][0] || squareName(0, h);
  el.replaceChildren();
  el.style.setProperty("--w", w);
  el.style.setProperty("--h", h);
  el.style.setProperty("--m", Math.max(w, h));
  el.classList.toggle("wide", w > 12);
  el.dataset.flipped = String(!!view.flipped);
  for (let i = 0; i < h; i++) {
    const rank = view.flipped ? i + 1 : h - i;
    // The board is a grid for screen readers: a row per rank, a cell per
    // square (both display: contents, so that the squares are the CSS
    // grid's items), the square's button in the cell.
    const row = document.createElement("div");
    row.className = "boardrow";
    row.setAttribute("role", "row");
    el.append(row);
    for (let k = 0; k < w; k++) {
      const col = view.flipped ? w - 1 - k : k;
      const sq = squareName(col, rank);
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "sq";
      cell.dataset.sq = sq;
      cell.tabIndex = sq === focusSq ? 0 : -1;
      const c = view.rows[h - rank][col];
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
      if (i === h - 1) cell.append(coord("file", String.fromCharCode(97 + col)));
      cell.setAttribute("aria-label", name.join(", "));
      cell.addEventListener("click", () => {
        el.dataset.cursor = sq;
        if (dragged) return; // the click that ends a drag
        view.onClick(sq);
      });
      if (view.onDragStart && view.movable.has(sq) && view.movableKey === "sq.canJump") {
        cell.addEventListener("pointerdown", (ev) => view.onDragStart(ev, el, sq, view));
      }
      cell.addEventListener("focus", () => { el.dataset.cursor = sq; });
      const gc = document.createElement("span");
      gc.className = "cell";
      gc.setAttribute("role", "gridcell");
      gc.append(cell);
      row.append(gc);
    }
  }
  el.onkeydown = (ev) => boardKey(el, w, h, ev, view);
  // How the board was reached, for boardKey: by a pointer, until the
  // focus leaves it (not when a redraw replaces the focused square).
  el.onpointerdown = () => { el.dataset.via = "pointer"; };
  el.onfocusout = (ev) => { if (ev.relatedTarget && !el.contains(ev.relatedTarget)) delete el.dataset.via; };
  if (hadFocus) focusSquare(el, focusSq);
}

// dragged says that a drag just ended: the click that follows is no
// click (swallowClick).
let dragged = false;

// swallowClick makes the click that ends a drag no click on the board.
export function swallowClick() {
  dragged = true;
  setTimeout(() => { dragged = false; }, 0);
}

function coord(cls, text) {
  const s = document.createElement("span");
  s.className = "coord " + cls;
  s.setAttribute("aria-hidden", "true");
  s.textContent = text;
  return s;
}

function onBoard(sq, w, h) {
  const col = sq.charCodeAt(0) - 97, rank = Number(sq.slice(1));
  return col >= 0 && col < w && rank >= 1 && rank <= h;
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
function boardKey(el, w, h, ev, view) {
  const sq = el.dataset.cursor;
  if (!sq) return;
  // A board last pressed by a pointer (not reached by Tab or moved over
  // by the arrows since) offers the key to view.pointerKey first, which
  // returns whether it took it.
  if (view.pointerKey && el.dataset.via === "pointer" && view.pointerKey(ev)) return;
  let col = sq.charCodeAt(0) - 97, rank = Number(sq.slice(1));
  const f = view.flipped ? -1 : 1; // the arrows go the way they point on the screen
  switch (ev.key) {
    case "ArrowLeft": col -= f; break;
    case "ArrowRight": col += f; break;
    case "ArrowUp": rank += f; break;
    case "ArrowDown": rank -= f; break;
    case "Home": col = view.flipped ? w - 1 : 0; break;
    case "End": col = view.flipped ? 0 : w - 1; break;
    case "Escape":
      if (view.onEscape) view.onEscape();
      ev.preventDefault();
      return;
    default: return;
  }
  ev.preventDefault();
  delete el.dataset.via;
  col = Math.min(Math.max(col, 0), w - 1);
  rank = Math.min(Math.max(rank, 1), h);
  focusSquare(el, squareName(col, rank));
}

// arriving are the squares of the game's board whose stone is hidden
// until its move lands (motion.js).
export const arriving = new Set();
// jumpPath is every square of a jump from its start to its landing.
export function jumpPath(from, to) {
  const c0 = from.charCodeAt(0) - 97, r0 = Number(from.slice(1));
  const c1 = to.charCodeAt(0) - 97, r1 = Number(to.slice(1));
  const dc = Math.sign(c1 - c0), dr = Math.sign(r1 - r0);
  const path = [];
  for (let c = c0, r = r0; ; c += dc, r += dr) {
    path.push(squareName(c, r));
    if (c === c1 && r === r1) return path;
  }
}

// applyMove returns the board rows after move, a removal ("d4") or a
// jump ("f4-d4", over every other square on the way).
export function applyMove(rows, move) {
  const b = rows.map((r) => r.split(""));
  const at = (sq) => [rows.length - Number(sq.slice(1)), sq.charCodeAt(0) - 97]; // [row from the top, column]
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

// initialRows is the w×h board at the start: full, a1 black; with gap,
// the two centre stones of the gap start removed (file (w+1)/2 on ranks
// h/2 and h/2+1 when w is odd, the transpose when h is; rules.Board).
export function initialRows(w, h, gap) {
  const rows = [];
  for (let i = 0; i < h; i++) {
    let r = "";
    for (let col = 0; col < w; col++) r += (col + h - i) % 2 === 1 ? "x" : "o";
    rows.push(r);
  }
  if (!gap) return rows;
  const empty = (col, rank) => {
    const i = h - rank;
    rows[i] = rows[i].slice(0, col) + "." + rows[i].slice(col + 1);
  };
  if (w % 2 === 1) {
    empty((w - 1) / 2, h / 2);
    empty((w - 1) / 2, h / 2 + 1);
  } else {
    empty(w / 2 - 1, (h + 1) / 2);
    empty(w / 2, (h + 1) / 2);
  }
  return rows;
}

// gapStart says whether the game of record g (state.game) starts with
// the gap: its board names the start, else the gap where it is defined
// (exactly one side odd).
export function gapStart(g) {
  if (!g.board) return false;
  const [dims, start] = g.board.split("/");
  if (start) return start === "gap";
  const m = /^([0-9]+)x([0-9]+)$/.exec(dims);
  return m !== null && Number(m[1]) % 2 !== Number(m[2]) % 2;
}

// drawArrows draws moves over a board of w files and h ranks (drawn
// from White's side when flipped): an arrow for a jump, a ring for a
// removal; each of arrows is {move, cls, label}, cls one of played,
// agreed, best, cand and hint. The SVG's user units are squares.
export function drawArrows(svg, w, h, arrows, flipped) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", "0 0 " + w + " " + h);
  const defs = svgEl("defs", {}, svg);
  for (const cls of ["played", "agreed", "best", "cand", "hint"]) {
    const mk = svgEl("marker", {id: "head-" + cls, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse"}, defs);
    svgEl("path", {d: "M0,0L10,5L0,10Z", class: "head " + cls}, mk);
  }
  const center = (sq) => {
    const col = sq.charCodeAt(0) - 97, rank = Number(sq.slice(1));
    return flipped ? [w - col - 0.5, rank - 0.5] : [col + 0.5, h - rank + 0.5];
  };
  for (const a of arrows) {
    const [from, to] = squares(a.move);
    const [x0, y0] = center(from);
    const g = svgEl("g", {class: "arrow " + a.cls, "data-move": a.move}, svg);
    if (!to) {
      svgEl("circle", {cx: x0, cy: y0, r: 0.42}, g);
      continue;
    }
    const [x1, y1] = center(to);
    const len = Math.hypot(x1 - x0, y1 - y0);
    const ex = x1 - ((x1 - x0) / len) * 0.1, ey = y1 - ((y1 - y0) / len) * 0.1; // the tip just short of the centre
    const head = a.cls.includes("best") ? "best" : a.cls.includes("agreed") ? "agreed" : a.cls.includes("cand") ? "cand" : a.cls.includes("hint") ? "hint" : "played";
    svgEl("line", {x1: x0, y1: y0, x2: ex, y2: ey, "marker-end": "url(#head-" + head + ")"}, g);
  }
  // The candidates' chances, over every arrow, each in its arrow's
  // colour: on the landing square, moved back toward where the arrow
  // comes from (so that two arrows into one square keep their labels
  // apart), a removal's in its ring; two at one place are stacked.
  const at = {};
  for (const a of arrows) {
    if (!a.label) continue;
    const [from, to] = squares(a.move);
    let [x, y] = center(to || from);
    if (to) {
      const [x0, y0] = center(from);
      const len = Math.hypot(x - x0, y - y0);
      x -= ((x - x0) / len) * 0.28;
      y -= ((y - y0) / len) * 0.28;
    }
    const key = x.toFixed(2) + "," + y.toFixed(2);
    const k = at[key] = (at[key] || 0) + 1;
    const colour = a.cls.includes("agreed") || a.cls.includes("best") ? "best" : a.cls.includes("cand") ? "cand" : "played";
    svgEl("text", {x: x, y: y + 0.12 + (k - 1) * 0.32, class: "candlabel " + colour, "data-move": a.move}, svg).textContent = a.label;
  }
}
