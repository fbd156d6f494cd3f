// Seeing the moves: each move is drawn moving.
//
// A jump flies along its path, square by square, and the stones it
// captures fade away as it passes; a removal fades out. The board under
// it is already the position after the move: while a move waits its turn
// (the computer's reply, after the human's own move) its landing stone is
// hidden and its captured stones and moving stone are shown where they
// were. With prefers-reduced-motion nothing moves. body[data-moving]
// counts the moves still moving (the browser test waits for 0).

import {arriving, jumpPath, squares} from "./board.js";
import {$} from "./page.js";

let moving = Promise.resolve();
const hopMs = 220;

function reducedMotion() { return window.matchMedia("(prefers-reduced-motion: reduce)").matches; }

function movingCount(d) {
  document.body.dataset.moving = String(Number(document.body.dataset.moving || 0) + d);
}

// queueMove draws moves[i] moving, after the moves queued before it.
export function queueMove(moves, i) {
  const move = moves[i];
  const color = i % 2 === 0 ? "black" : "white";
  if (reducedMotion()) return;
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
