// Starts Swagger UI with the settings the viewer wrote into this file as
// JSON. Served as a file of its own so that the page needs no inline script.
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
