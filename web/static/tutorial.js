import {api, config} from "./api.js";
import {renderBoard, setBoardMenu, squares} from "./board.js";
import {newGame} from "./game.js";
import {t} from "./i18n.js";
import {$, touchScreen} from "./page.js";

// "Learn the rules": the steps come from api/v2/learn, each a position with
// its task; the player clicks as in a game, and each wrong click is
// explained.
export const tut = {steps: null, i: 0, board: null, selected: null, done: false};

export async function openTutorial() {
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

export function closeTutorial() {
  document.body.classList.remove("learning");
  $("tutorial").hidden = true;
  $("learn").focus();
}

export function showStep(i) {
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
  feedback(t(touchScreen() ? "announce.selectedTouch" : "announce.selected", {square: sq}), "");
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
export function playFromTutorial() {
  const size = config.sizes.includes(6) ? 6 : config.sizes[0];
  const level = config.levels[0].name;
  setBoardMenu(size + "x" + size);
  $("level").value = level;
  $("color").value = "black";
  closeTutorial();
  newGame({size: size, color: "black", level: level});
  $("board").dataset.cursor = "";
  document.querySelector("#board .sq") && document.querySelector("#board .sq").focus();
}
