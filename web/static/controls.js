// The game's buttons and keys: resign, rematch, copying the moves, and
// stepping through the game with the arrow keys.

import {api} from "./api.js";
import {boardName, setBoardMenu} from "./board.js";
import {act, newGame, note, resignArmed, show, state, viewMove, viewPly} from "./game.js";
import {t} from "./i18n.js";
import {$, announce, busy} from "./page.js";

// gameKey steps through the game with ←/→ (Home: the start, End: the
// game as it stands) while playing, wherever the focus is but on a board
// (whose arrows move between squares) or a form field.
export function gameKey(ev) {
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

export function resign() {
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
export function rematch() {
  if (!state) return;
  const color = state.human === "black" ? "white" : "black";
  setBoardMenu(boardName(state.game));
  $("color").value = color;
  newGame({board: boardName(state.game), color: color, level: state.level});
}

// copyText puts text on the clipboard and says so (done) or says how to
// copy it by hand.
export async function copyText(text, done) {
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
export function movesText() {
  const out = [];
  state.moves.forEach((m, i) => out.push(i % 2 === 0 ? Math.floor(i / 2) + 1 + ". " + m : m));
  return out.join(" ");
}
