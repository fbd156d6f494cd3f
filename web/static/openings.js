// The openings.
//
// What `konane openings` prints, on the page: every pair of opening
// removals with the computer's view of Black's chance and, where the
// solver works the board out (up to 6x6), the exact result, from
// api/v2/openings (computed once per board size by the server).

import {api, config} from "./api.js";
import {setBoardMenu} from "./board.js";
import {newGame} from "./game.js";
import {t} from "./i18n.js";
import {$} from "./page.js";
import {pct} from "./review.js";

export function openingsInit() {
  const sel = $("opensize");
  for (const n of config.sizes) sel.append(new Option(n + "×" + n, String(n), false, n === config.defaultSize));
  $("openings").addEventListener("toggle", () => {
    if ($("openings").open && !$("opentable").dataset.size) loadOpenings();
  });
  sel.addEventListener("change", loadOpenings);
}

// loadOpenings asks for the table of the chosen size; while the server
// computes it (a minute the first time on 6x6), the page says how far
// it is, asking every second. It runs beside the game's requests (the
// page stays playable meanwhile); the version attribute counts it when
// it ends, as act does (tests wait on it).
let loading = 0; // the size whose table is on its way, or 0
function loadOpenings() {
  const size = Number($("opensize").value);
  if (loading === size) return;
  loading = size;
  $("openstatus").textContent = t("open.wait");
  let waiting = true;
  const poll = async () => {
    while (waiting) {
      await new Promise((r) => setTimeout(r, 1000));
      if (!waiting) return;
      try {
        const pr = await api("api/v2/openings?size=" + size + "&progress=1");
        if (!waiting || !pr.computing || !pr.total || Number($("opensize").value) !== size) continue;
        $("openstatus").textContent = pr.done < pr.total ? t("open.progress", {done: pr.done, total: pr.total}) : t("open.solving", {total: pr.total});
        const bar = $("openprogress");
        bar.hidden = false;
        bar.max = pr.total;
        bar.value = pr.done;
      } catch (e) {
        // The table's own request says what went wrong.
      }
    }
  };
  poll();
  (async () => {
    try {
      const d = await api("api/v2/openings?size=" + size);
      if (Number($("opensize").value) === d.size) drawOpenings(d);
    } catch (e) {
      if (Number($("opensize").value) === size) $("openstatus").textContent = e.message;
    } finally {
      waiting = false;
      $("openprogress").hidden = true;
      if (loading === size) loading = 0;
      document.body.dataset.version = String(Number(document.body.dataset.version) + 1);
    }
  })();
}

// playOpening starts a game on the table's board from the opening's two
// removals, the human playing colour at the level chosen.
function playOpening(size, o, colour) {
  setBoardMenu(size + "x" + size);
  $("color").value = colour;
  newGame({board: size + "x" + size, color: colour, level: $("level").value, moves: [o.black, o.white]});
  $("play").scrollIntoView({block: "start"});
}

function drawOpenings(d) {
  const table = $("opentable");
  table.replaceChildren();
  table.dataset.size = String(d.size);
  const head = table.createTHead().insertRow();
  for (const key of ["open.black", "open.white", "open.chance", "open.exact", "open.line", "open.play"]) {
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
    // Each opening can be played on from, in either colour; a click on
    // the row plays it as Black (whose chance the row gives).
    const play = (colour, key) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "openplay";
      b.textContent = t(key);
      b.setAttribute("aria-label", t(key === "open.playBlack" ? "open.playBlackLabel" : "open.playWhiteLabel", {black: o.black, white: o.white}));
      b.addEventListener("click", (ev) => {
        ev.stopPropagation();
        playOpening(d.size, o, colour);
      });
      return b;
    };
    cell([play("black", "open.playBlack"), play("white", "open.playWhite")], "play");
    tr.classList.add("playable");
    tr.addEventListener("click", () => playOpening(d.size, o, "black"));
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
