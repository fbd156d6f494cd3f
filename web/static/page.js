// The page's elements and what every screen shares: $ (an element by
// id), the live region for screen readers, the busy flag, preferences
// kept in the browser, and SVG elements.

export const $ = (id) => document.getElementById(id);

// ---- Preferences: colours and sound, kept in the browser ---------------
export const prefs = {
  get(k, d) { try { return localStorage.getItem("konane-" + k) || d; } catch (e) { return d; } },
  set(k, v) { try { localStorage.setItem("konane-" + k, v); } catch (e) { /* private mode */ } },
};
// The colours: "auto" follows the system, else light or dark as chosen;
// theme.js applies the kept choice (before the first paint, and again here).

// touchScreen says whether the page is used by touch alone (no mouse, no
// keyboard help): the texts then say tap, not Escape.
export function touchScreen() { return matchMedia("(hover: none) and (pointer: coarse)").matches; }

export function busy() { return document.body.dataset.busy === "true"; }

// announce tells screen readers what happened, through the live region.
export function announce(text) { $("announce").textContent = text; }

const svgNS = $("revgraph").namespaceURI; // SVG's, from an SVG element of the page

export function svgEl(name, attrs, parent) {
  const e = document.createElementNS(svgNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.append(e);
  return e;
}
