import {boardName, gapStart} from "./board.js";

// ---- The game record and the page's address -------------------------
//
// The server keeps no game: the page holds it, as the record the server
// sends in every state (state.game: {size, human, level, start, moves}),
// and sends it with every request. The record also lives in the address,
// #g=CODE (kept up to date with history.replaceState, so that reload,
// bookmark and a shared link bring the game back; a link sent to others
// is ?g=CODE, shareURL), and in the tab's
// sessionStorage (for the language switch, which loads a new address).
// CODE is 1.<size><b|w>.<level>.<start>[.<move>]...[.resign], e.g.
// 1.8b.medium.0.d5.e5.c5-e5, with ".resign" when the human resigned, on
// the n×n boards with the removals up to 8×8; on every other board
// 2.<W>x<H><r|g><b|w>.<level>.<start>[.<move>]...[.resign], e.g.
// 2.15x12gb.medium.0.h8-h6 (r the removals, g the gap start)
// (docs/http-api.md; web/api/game.go reads it for the record download).
// Everything about the record is here.
export const gameCode = {
  // encode writes a record as a CODE.
  encode(g) {
    const c = g.human === "black" ? "b" : "w";
    let head = ["1", g.size + c];
    if (g.board || g.size > 8) {
      const [w, h] = boardName(g).split("/")[0].split("x");
      head = ["2", w + "x" + h + (gapStart(g) ? "g" : "r") + c];
    }
    const p = head.concat([g.level, String(g.start || 0)], g.moves);
    if (g.resigned) p.push("resign");
    return p.join(".");
  },
  // decode reads a CODE, or returns null; the server checks the rest. The
  // record names its board as the server's do: size on the n×n boards
  // with the removals, board ("7x6", "9x8/removal") on the others.
  decode(code) {
    const p = code.split(".");
    if (p.length < 4 || !/^[0-9]+$/.test(p[3])) return null;
    const g = {level: p[2], start: Number(p[3]), moves: p.slice(4)};
    const v1 = p[0] === "1" ? /^([0-9]+)([bw])$/.exec(p[1]) : null;
    const v2 = p[0] === "2" ? /^([0-9]{1,2})x([0-9]{1,2})([rg])([bw])$/.exec(p[1]) : null;
    if (v1) {
      g.size = Number(v1[1]);
    } else if (v2) {
      const w = Number(v2[1]), h = Number(v2[2]), gap = v2[3] === "g";
      if (w === h && !gap) g.size = w;
      else g.board = w + "x" + h + (gap === (w % 2 !== h % 2) ? "" : gap ? "/gap" : "/removal");
    } else {
      return null;
    }
    g.human = (v1 ? v1[2] : v2[4]) === "b" ? "black" : "white";
    if (g.moves.length > 0 && g.moves[g.moves.length - 1] === "resign") {
      g.moves.pop();
      g.resigned = true;
    }
    return g;
  },
  // save puts the record into the address and the tab's storage.
  save(g) {
    const code = gameCode.encode(g);
    const q = new URLSearchParams(location.search);
    q.delete("g"); // a shared link's game, now in the fragment
    const search = q.toString() ? "?" + q.toString() : "";
    history.replaceState(null, "", location.pathname + search + "#g=" + code);
    sessionStorage.setItem("konane-game-v2", code);
  },
  // load returns the record of the address, else of the tab's storage,
  // else null; undefined when there is a code that cannot be read.
  load() {
    const h = /^#g=(.+)$/.exec(location.hash);
    const shared = new URLSearchParams(location.search).get("g"); // a shared link's (shareURL)
    const code = h ? decodeURIComponent(h[1]) : shared || sessionStorage.getItem("konane-game-v2");
    if (!code) return null;
    return gameCode.decode(code) || undefined;
  },
  forget() { sessionStorage.removeItem("konane-game-v2"); },
  // shareURL is the link to a game to send: ?g=CODE, which the server
  // sees (the fragment it does not), so that the link's preview shows
  // the game's position; the page opens it as #g=CODE.
  shareURL(g) { return location.origin + location.pathname + "?g=" + gameCode.encode(g); },
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
