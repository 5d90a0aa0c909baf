// Starts Swagger UI with the settings the viewer wrote into this file as
// JSON. Served as a file of its own so that the page needs no inline script.
window.addEventListener("load", function () {
  "use strict";
  var config = {{.Config}};
  config.dom_id = "#swagger-ui";
  config.presets = [SwaggerUIBundle.presets.apis{{if .Standalone}}, SwaggerUIStandalonePreset{{end}}];
  config.plugins = [SwaggerUIBundle.plugins.DownloadUrl];
  config.layout = {{.Layout}};
  var ui = SwaggerUIBundle(config);
{{- if .OAuth2}}
  ui.initOAuth({{.OAuth2}});
{{- end}}
  window.ui = ui;
});
