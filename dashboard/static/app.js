// The dashboard page: polls /api/status and fetches /api/charts again
// whenever the run's version changes. It only reads.
"use strict";

const refreshMs = Number(document.body.dataset.refreshMs) || 5000;
let version = null;
let lastOK = 0;

function $(id) { return document.getElementById(id); }

function fmt(x, digits) {
  return typeof x === "number" && isFinite(x) ? x.toFixed(digits) : "–";
}

function duration(hours) {
  if (!(hours > 0)) return "–";
  if (hours < 1) return Math.round(hours * 60) + " min";
  return hours.toFixed(1) + " h";
}

function signed(x) {
  return (x >= 0 ? "+" : "−") + Math.abs(Math.round(x));
}

function showStatus(st) {
  $("run").textContent = st.name ? "· " + st.name : "";
  document.title = "gen " + st.generation + " · Kōnane Zero" + (st.name ? " · " + st.name : "");
  $("generation").textContent = st.generation;
  $("games").textContent = st.selfplay_games.toLocaleString("en");
  $("hours").textContent = duration(st.hours);
  const last = st.last || {};
  $("losses").textContent = fmt(last.policy_loss, 3) + " / " + fmt(last.value_loss, 3);
  const l = st.ladder;
  // The ladder may lag behind the trainer: say which generation it rates.
  $("elo-label").textContent = l && l.generation ? "ladder Elo, generation " + l.generation : "ladder Elo, latest rated";
  $("elo").textContent = l ? signed(l.elo) + " [" + signed(l.ci_low) + ", " + signed(l.ci_high) + "]" : "–";
  if (l) $("elo").title = l.latest + "; best " + l.best + " at " + signed(l.best_elo) + "; " + l.rated + " generations rated";
  const total = st.games_per_gen || 0;
  $("progress").max = Math.max(total, 1);
  $("progress").value = Math.min(st.games_done, total);
  let progress = "no run configuration yet";
  if (st.state === "stopped") {
    progress = "stopped after generation " + st.generation + " (" + st.games_done + " of " + total +
      " games of generation " + (st.generation + 1) + " played)";
  } else if (st.stale) {
    progress = "no news after generation " + st.generation + " since " +
      new Date(st.activity).toLocaleString() + " (" + st.games_done + " of " + total + " games of generation " +
      (st.generation + 1) + " played)";
  } else if (total && st.games_done >= total) {
    progress = "generation " + (st.generation + 1) + ": self-play done (" + total + " games), training";
  } else if (total) {
    progress = "generation " + (st.generation + 1) + ": " + st.games_done + " of " + total + " self-play games";
  }
  $("progress-label").textContent = progress;
  $("config").textContent = st.config ? JSON.stringify(st.config, null, 2) : "no config.json yet";
  const errs = st.errors || [];
  $("errors").hidden = errs.length === 0;
  $("errors").textContent = errs.join("; ");
}

// liveText says whether the run trains now: "live" only while a trainer
// holds the run and its data is fresh (st.state, decided by the server).
function liveText(st) {
  const since = st.activity ? new Date(st.activity).toLocaleString() : "–";
  const ladder = st.ladder_pid ? " · the ladder is rating (process " + st.ladder_pid + ")" : "";
  switch (st.state) {
    case "training": {
      const when = st.updated ? new Date(st.updated).toLocaleTimeString() : "–";
      return "live · last generation at " + when + ladder;
    }
    case "quiet":
      return "not training · no new data since " + since +
        (st.trainer_pid ? " although its trainer (process " + st.trainer_pid + ") runs: it may hang" : "") + ladder;
    case "stopped":
      return "not training · no trainer holds the run (last data " + since + ")" + ladder;
  }
  return "no training data yet" + ladder;
}

function showCharts(list) {
  const groups = { metrics: [], ladder: [] };
  for (const c of list) {
    const fig = document.createElement("figure");
    fig.id = c.id;
    fig.setAttribute("aria-label", c.title);
    fig.innerHTML = c.svg;
    groups[c.id.startsWith("ladder") ? "ladder" : "metrics"].push(fig);
  }
  for (const [name, figs] of Object.entries(groups)) {
    if (figs.length > 0) $(name + "-charts").replaceChildren(...figs);
  }
}

async function poll() {
  try {
    const r = await fetch("api/status", { cache: "no-store" });
    if (!r.ok) throw new Error("status " + r.status);
    const st = await r.json();
    showStatus(st);
    if (st.version !== version) {
      const c = await fetch("api/charts", { cache: "no-store" });
      if (!c.ok) throw new Error("charts " + c.status);
      showCharts(await c.json());
      version = st.version;
    }
    lastOK = Date.now();
    $("live").textContent = liveText(st) + " · checked " + new Date().toLocaleTimeString();
    $("live").classList.toggle("stale", st.stale || !st.state);
  } catch (e) {
    $("live").textContent = "cannot reach the dashboard (" + e.message + "); retrying";
    $("live").classList.add("stale");
  }
  setTimeout(poll, refreshMs);
}

poll();
