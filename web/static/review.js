import {api, config} from "./api.js";
import {drawArrows, renderBoard, setBoardMenu, squares} from "./board.js";
import {act, newGame, state} from "./game.js";
import {catalog, t, tNodes} from "./i18n.js";
import {$, busy, svgEl} from "./page.js";

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
export const rv = {data: null, i: 0, var: null}; // var: the variation tried on the board (varClick)
export function pct(x) { return Math.round(100 * x); }

// Text for people numbers moves by pairs, as records do (the JSON counts
// plies, 1 = Black's first move): pairNo(5) is 3, moveNo(5) "3." (Black's
// third move), moveNo(6) "3..." (White's reply).
function pairNo(ply) { return Math.ceil(ply / 2); }
function moveNo(ply) { return pairNo(ply) + (ply % 2 === 1 ? "." : "..."); }

// openReview shows the review panel: of the game in progress, or (upload)
// with the form to upload a record.
export function openReview(upload) {
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

export function closeReview() {
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
export function selectMove(k, focus) {
  const d = rv.data, m = d.moves[k - 1];
  rv.i = k;
  rv.var = null; // a move of the game leaves the variation
  $("varback").hidden = true;
  renderBoard($("revboard"), {
    rows: d.boards[k - 1],
    movable: new Set(), movableKey: "sq.canJump", selected: null, targets: new Set(),
    marked: new Set(), last: new Set(), hint: new Set(), onClick: varClick, pointerKey: varKey,
  });
  const arrows = [{move: m.move, cls: m.best === m.move ? "played agreed" : "played"}];
  if (m.best && m.best !== m.move) arrows.push({move: m.best, cls: "best"});
  candidateArrows(m, arrows);
  drawArrows($("revarrows"), d.size, d.size, arrows);
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

// playOn starts a game from the position before the chosen move, the
// human playing the side that was to move there.
export function playOn() {
  const d = rv.data, k = rv.i;
  // From the variation's position when one is on the board.
  const moves = d.moves.slice(0, k - 1).map((m) => m.move).concat(rv.var ? rv.var.moves : []);
  const color = moves.length % 2 === 0 ? "black" : "white";
  setBoardMenu(d.size + "x" + d.size);
  $("color").value = color;
  closeReview();
  newGame({size: d.size, color: color, level: $("level").value, moves: moves});
}

export function sendRecord() {
  const text = $("revtext").value;
  if (text.trim() === "") {
    $("error").textContent = t("review.noRecord");
    return;
  }
  startReview({record: text});
}

// reviewKey steps through the reviewed game with ←/→ (Home/End: the first
// and last move) wherever the focus is in the review panel, except on the
// board, whose arrows move between squares, and in a text field.
export function reviewKey(ev) {
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

// candidatesOf is the computer's candidates before move m, each with
// one figure, the mover's chance after it (in percent), best first: the
// move played has the figure its text gives ("35% before, 24% after",
// the search after it), the others the search's before it.
function candidatesOf(m) {
  return (m.candidates || []).map((c) => ({move: c.move, p: pct(c.move === m.move ? m.after : c.winrate)}))
    .sort((a, b) => b.p - a.p);
}

// candidateArrows adds the computer's candidates before move m to the
// arrows (a thin arrow for those not drawn already) and labels each with
// the mover's chance after it, as KaTrain and Lizzie do.
function candidateArrows(m, arrows) {
  for (const c of candidatesOf(m)) {
    let a = arrows.find((x) => x.move === c.move);
    if (!a) {
      a = {move: c.move, cls: "cand"};
      arrows.push(a);
    }
    a.label = c.p + "%";
  }
}

// candidateText names the candidates: "f4-d4 62%, d6-d4 55%", each move
// with its chance kept on one line (span.mv), the moves as written so
// that copied text reads back as moves.
function candidateText(m) {
  const [before, after] = (catalog["review.candidates"] || "{list}").split("{list}");
  const nodes = [document.createTextNode(before)];
  candidatesOf(m).forEach((c, i) => {
    if (i > 0) nodes.push(document.createTextNode(", "));
    const span = document.createElement("span");
    span.className = "mv";
    span.textContent = c.move + " " + t("eval.value", {p: c.p});
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

// varKey is the review board's key while its focus came from a click
// (see boardKey): ← takes the variation's last move back, as it does
// off the board, instead of moving the focus.
function varKey(ev) {
  if (!rv.var || ev.key !== "ArrowLeft") return false;
  ev.preventDefault();
  varUndo();
  return true;
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
    rows: st.board,
    movable: from, movableKey: st.phase === "jumping" ? "sq.canJump" : "sq.canRemove", selected: v.selected, targets: to,
    marked: new Set(), last: new Set(squares(st.last)), hint: new Set(), onClick: varClick, pointerKey: varKey,
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
  drawArrows($("revarrows"), st.size, st.size, arrows);
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
