// The page's colours, set before its first paint (index.html loads this
// file without defer, before the stylesheet): the choice kept in the
// browser ("light" or "dark"; app.js's prefs "konane-theme"), else the
// system's (prefers-color-scheme), followed while the page is open.
// Afterwards <html data-theme> is always "light" or "dark", so style.css
// declares the dark palette once, for :root[data-theme="dark"].
// window.konaneApplyTheme applies the kept choice again (app.js calls it
// when the player changes it).
(function () {
  var media = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  function apply() {
    var choice = "auto";
    try { choice = localStorage.getItem("konane-theme") || "auto"; } catch (e) { /* private mode */ }
    if (choice !== "light" && choice !== "dark") choice = media && media.matches ? "dark" : "light";
    document.documentElement.dataset.theme = choice;
  }
  apply();
  if (media && media.addEventListener) media.addEventListener("change", apply);
  window.konaneApplyTheme = apply;
})();
