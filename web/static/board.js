// Boards as the page draws them: the game's, the review's and the
// tutorial's (renderBoard), the moves on them, and arrows over them.

import {t} from "./i18n.js";
import {svgEl} from "./page.js";

// The squares of a move: "d4" or "f4-d4".
export function squares(move) { return move ? move.split("-") : []; }

function squareName(col, rank) { return String.fromCharCode(97 + col) + rank; }

// renderBoard draws a board into el: view has size, rows (top rank first,
// x/o/.), the sets movable, selected, targets, last, hint and marked, the
// kind of the movable squares ("sq.canRemove" or "sq.canJump") and
// onClick(square); flipped draws it from White's side (h8 bottom left),
// and onDragStart(ev, el, square, view), when given, starts a drag of a
// movable stone (the game's, which then calls view.onDrop(from, to));
// pointerKey(ev), when given, is offered the board's keys while its focus
// came from a click (boardKey).
// Every square is a button named for screen readers
// ("d4, black stone, can jump"); one of them is in the tab order, and the
// arrow keys move the focus over the board. Highlights are shapes (rings,
// dots, corner marks, a star), not colours alone.
export function renderBoard(el, view) {
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
      if (view.onDragStart && view.movable.has(sq) && view.movableKey === "sq.canJump") {
        cell.addEventListener("pointerdown", (ev) => view.onDragStart(ev, el, sq, view));
      }
      cell.addEventListener("focus", () => { el.dataset.cursor = sq; });
      el.append(cell);
    }
  }
  el.onkeydown = (ev) => boardKey(el, n, ev, view);
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
    case "Home": col = view.flipped ? n - 1 : 0; break;
    case "End": col = view.flipped ? 0 : n - 1; break;
    case "Escape":
      if (view.onEscape) view.onEscape();
      ev.preventDefault();
      return;
    default: return;
  }
  ev.preventDefault();
  delete el.dataset.via;
  col = Math.min(Math.max(col, 0), n - 1);
  rank = Math.min(Math.max(rank, 1), n);
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
export function applyMove(rows, size, move) {
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

// initialRows is the board of size n at the start: full, a1 black.
export function initialRows(n) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    let r = "";
    for (let col = 0; col < n; col++) r += (col + n - i) % 2 === 1 ? "x" : "o";
    rows.push(r);
  }
  return rows;
}

// drawArrows draws moves over a board of size n: an arrow for a jump, a
// ring for a removal. The SVG's user units are squares.
export function drawArrows(svg, n, arrows) {
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
    const g = svgEl("g", {class: "arrow " + a.cls, "data-move": a.move}, svg);
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
