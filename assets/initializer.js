// Starts Swagger UI with the settings the viewer wrote into this file as
// JSON. Served as a file of its own so that the page needs no inline script.

// The theme (Config.Theme, the page's data-theme): Swagger UI's dark mode is
// the dark-mode class on the root element. "auto" sets it while the system
// prefers a dark color scheme, and follows changes; "light" keeps it off
// (Swagger UI's top-bar switch sets it from the preference when it appears);
// "dark" has it in the page already. This runs before Swagger UI starts, so
// the first paint has the right background.
(function () {
  "use strict";
  var root = document.documentElement;
  var theme = root.getAttribute("data-theme");
  if (theme === "auto" && window.matchMedia) {
    var dark = window.matchMedia("(prefers-color-scheme: dark)");
    var follow = function () {
      root.classList.toggle("dark-mode", dark.matches);
    };
    follow();
    dark.addEventListener("change", follow);
  } else if (theme === "light") {
    var keepLight = function () {
      if (root.classList.contains("dark-mode")) {
        root.classList.remove("dark-mode");
      }
    };
    keepLight();
    new MutationObserver(keepLight).observe(root, {attributes: true, attributeFilter: ["class"]});
  }
})();

window.addEventListener("load", function () {
  "use strict";
  var config = /*CONFIG*/;
  config.dom_id = "#swagger-ui";
  config.presets = [/*PRESETS*/];
  config.plugins = [SwaggerUIBundle.plugins.DownloadUrl];
  config.layout = /*LAYOUT*/;
  var ui = SwaggerUIBundle(config);
  /*INIT_OAUTH*/
  window.ui = ui;
});
