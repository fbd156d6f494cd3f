// Every text comes from the catalog the server put into the page (the
// messages of its language, web/messages/*.json): t(key, {param: v}).
// Keys are always written out in full, so that the catalog test finds
// them. The API sends messages as {code, args}, rendered here by msg().

import {$} from "./page.js";

export const catalog = JSON.parse($("catalog").textContent);

// t returns the text of key with its {parameters} filled in.
export function t(key, args) {
  const text = catalog[key];
  if (text === undefined) return key;
  return text.replace(/\{([a-zA-Z]+)\}/g, (p, name) => (args && name in args ? String(args[name]) : p));
}

// moveArgs are the parameters that hold moves, one or several.
const moveArgs = new Set(["move", "pv", "line", "moves"]);

// tNodes is t as nodes: each move in a parameter of moveArgs is a span of
// class mv, which does not wrap inside (d7-d5 stays whole) and copies as
// the move itself, hyphen included.
export function tNodes(key, args) {
  const text = catalog[key];
  if (text === undefined) return [document.createTextNode(key)];
  const nodes = [];
  for (const part of text.split(/(\{[a-zA-Z]+\})/)) {
    const name = part.startsWith("{") ? part.slice(1, -1) : null;
    if (name === null || !args || !(name in args)) {
      nodes.push(document.createTextNode(part));
    } else if (!moveArgs.has(name)) {
      nodes.push(document.createTextNode(String(args[name])));
    } else {
      String(args[name]).split(" ").forEach((mv, i) => {
        if (i > 0) nodes.push(document.createTextNode(" "));
        const span = document.createElement("span");
        span.className = "mv";
        span.textContent = mv;
        nodes.push(span);
      });
    }
  }
  return nodes;
}

// putText sets el's content to tNodes(key, args).
export function putText(el, key, args) { el.replaceChildren(...tNodes(key, args)); }

// msg renders a message of the API ({code, args}).
export function msg(m) { return t(m.code, m.args); }

// The names of the levels and what each plays like: literal keys, one
// per level of agent.Levels.
const levelKeys = {newcomer: "level.newcomer", beginner: "level.beginner", casual: "level.casual", easy: "level.easy",
  steady: "level.steady", medium: "level.medium", hard: "level.hard", max: "level.max"};
const levelAboutKeys = {newcomer: "level.about.newcomer", beginner: "level.about.beginner", casual: "level.about.casual",
  easy: "level.about.easy", steady: "level.about.steady", medium: "level.about.medium", hard: "level.about.hard", max: "level.about.max"};
const perfectKeys = {always: "level.perfect.always", early: "level.perfect.early"};
export function levelName(level) { return levelKeys[level] ? t(levelKeys[level]) : level; }

// levelAboutWideKeys are the words of the levels that say they play the
// endgame perfectly, without that clause: for a board without the
// endgame solver (boards[].endgameSolver false).
const levelAboutWideKeys = {steady: "level.about.steady.wide", medium: "level.about.medium.wide"};

// levelAbout says what the level plays like (on a board without the
// endgame solver, boards[].endgameSolver false, without the
// perfect-endgame clause: levelAboutWideKeys) and, on board (its name,
// "6x6"), whether it plays perfectly there, by the config's levels
// (levels[].perfect: "always", "early" — from early in the game, like
// every level from the least one that does — or none).
export function levelAbout(level, board, config) {
  const levels = config.levels;
  const b = (config.boards || []).find((x) => x.board === board);
  const key = b && !b.endgameSolver && levelAboutWideKeys[level] ? levelAboutWideKeys[level] : levelAboutKeys[level];
  const said = key ? [t(key)] : [];
  const l = levels.find((x) => x.name === level);
  const perfect = l && l.perfect ? l.perfect[board] : undefined;
  if (perfectKeys[perfect]) {
    const from = levels.find((x) => x.perfect && x.perfect[board] === "early");
    said.push(t(perfectKeys[perfect], {board: board.replace("x", "×"), from: from ? levelName(from.name) : ""}));
  }
  return said.join(" ");
}
