// Kōnane against the computer: the page's entry point (index.html
// loads it as a module; no build step, no bundler). It wires the
// controls of every screen (game.js, review.js, tutorial.js,
// openings.js) and starts: the server's configuration, then the game of
// the page's address, or a new one.

import {api, config, loadConfig} from "./api.js";
import {boardName, fillBoardMenu, setBoardMenu} from "./board.js";
import {copyText, gameKey, movesText, rematch, resign} from "./controls.js";
import {act, askHint, coachOn, coachPlayOn, flip, newGame, note, resignArmed, show, state, viewMove, viewPly} from "./game.js";
import {gameCode} from "./gamecode.js";
import {levelAbout, levelName, t} from "./i18n.js";
import {openingsInit} from "./openings.js";
import {$, busy, prefs} from "./page.js";
import {closeReview, openReview, playOn, reviewKey, rv, selectMove, sendRecord} from "./review.js";
import {closeTutorial, openTutorial, playFromTutorial, showStep, tut} from "./tutorial.js";

function init() {
  const learnFirst = location.hash === "#learn"; // the game's address replaces it
  let linkError = ""; // why the game of the page's address could not be opened, or ""
  document.addEventListener("keydown", gameKey);
  document.addEventListener("keydown", reviewKey);
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
  $("flip").addEventListener("click", flip);
  $("copymoves").addEventListener("click", () => { if (state && state.moves.length) copyText(movesText(), "copy.moves"); });
  $("copylink").addEventListener("click", () => { if (state) copyText(gameCode.shareURL(state.game), "copy.link"); });
  $("viewlive").addEventListener("click", () => viewMove(null));
  $("sound").checked = prefs.get("sound", "off") === "on";
  $("sound").addEventListener("change", () => prefs.set("sound", $("sound").checked ? "on" : "off"));
  $("theme").value = prefs.get("theme", "auto");
  $("theme").addEventListener("change", () => {
    prefs.set("theme", $("theme").value);
    window.konaneApplyTheme();
  });
  const undo = () => {
    if (state && state.canUndo) return act(() => api("api/v2/state", {game: gameCode.undone(state.game)}), undefined, true);
  };
  $("undo").addEventListener("click", undo);
  // The coach's buttons leave the focus on the board (they are hidden
  // after).
  const backToBoard = async (f) => {
    await f();
    const sq = document.querySelector("#board .sq[tabindex='0']");
    if (sq && (document.activeElement === document.body || $("coachbox").contains(document.activeElement))) sq.focus();
  };
  $("coachundo").addEventListener("click", () => backToBoard(undo));
  $("coachplayon").addEventListener("click", () => backToBoard(coachPlayOn));
  $("coach").checked = coachOn();
  $("coach").addEventListener("change", () => {
    prefs.set("coach", $("coach").checked ? "on" : "off");
    // On a board of the classical engine there is no win probability to
    // judge a move by, and above 8x8 the coach does not judge (noCoach):
    // the coach says so, and stays silent.
    note(t(!$("coach").checked ? "coach.off" : state && state.classical ? "coach.classical" : state && state.noCoach ? "coach.wide" : "coach.on"));
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
    if (state && $("size").value !== boardName(state.game)) note(t("status.sizeNext"));
  });
  $("color").addEventListener("change", () => {
    if (state && $("color").value !== state.human) note(t("status.colorNext"));
  });
  $("hint").addEventListener("click", askHint);
  $("level").addEventListener("change", () => {
    $("levelabout").textContent = levelAbout($("level").value, state ? boardName(state.game) : $("size").value, config);
    if (!state) return;
    // The level's name alone: the menu's "8 · " would break the
    // sentence.
    const name = levelName($("level").value);
    act(async () => {
      const s = await api("api/v2/state", {game: Object.assign({}, state.game, {level: $("level").value})});
      if (state.coach && !s.over && s.turn !== s.human) Object.assign(s, {coach: state.coach, message: state.message}); // still waiting on the coach's word
      show(s, true);
      note(t("status.levelChanged", {level: name}));
    });
  });
  document.body.dataset.busy = "false";
  act(async () => {
    await loadConfig();
    fillBoardMenu(config.boards, config.defaultSize + "x" + config.defaultSize);
    for (const l of config.levels) {
      const name = levelName(l.name);
      $("level").append(new Option(t("level.option", {level: name, n: l.number}), l.name, false, l.name === config.defaultLevel));
    }
    $("levelabout").textContent = levelAbout($("level").value, $("size").value, config);
    openingsInit();
    // A reload, a bookmark or a shared link (#g=...) goes on with its
    // game; so does the language switch (the tab's storage). A game that
    // cannot be opened is said why, and a new game starts.
    const g = gameCode.load();
    if (g === undefined) linkError = t("error.link", {reason: t("error.gameCode")});
    if (g) {
      try {
        return await openGame(g);
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
  // A game's link (#g=...) pasted into the address of this tab opens that
  // game, as on a page load; the page's own writes of the address
  // (history.replaceState) fire no hashchange. A link that cannot be read
  // is said why, and the game on the page stays (its address too).
  window.addEventListener("hashchange", () => {
    if (location.hash === "#learn") {
      openTutorial();
      return;
    }
    if (!/^#g=/.test(location.hash)) return;
    const g = gameCode.load();
    if (state && g && gameCode.encode(g) === gameCode.encode(state.game)) return;
    act(async () => {
      try {
        if (!g) throw new Error(t("error.gameCode"));
        const s = await openGame(g);
        if (!$("review").hidden) closeReview();
        if (!$("tutorial").hidden) closeTutorial();
        return s;
      } catch (e) {
        if (state) gameCode.save(state.game);
        throw new Error(t("error.link", {reason: e.message}));
      }
    }, t("status.starting"));
  });
}

// openGame asks the server for the state of a game record (of the
// address or the tab's storage), with the computer's move when it is to
// move (a game saved before it moved), and sets the menus to its board
// and colour.
async function openGame(g) {
  let s = await api("api/v2/state", {game: g});
  if (!s.over && s.turn !== s.human) s = await api("api/v2/move", {game: s.game, move: ""});
  setBoardMenu(boardName(s.game));
  $("color").value = s.human;
  return s;
}

// window.konane lets the browser tests (and a console) read what the page
// holds: the game as the server last sent it, the move looked back at,
// and the review. Nothing on the page uses it.
window.konane = {
  get state() { return state; },
  get viewPly() { return viewPly; },
  rv: rv,
};

init();
