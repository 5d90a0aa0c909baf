package server

import (
	"net/http"

	"github.com/openapi-viewer/viewer/exporttask"
)

// webhookSecret is the body of GET /webhook-secret.
type webhookSecret struct {
	Secret string `json:"secret"`
	Scheme string `json:"scheme"`
}

// getWebhookSecret handles GET /webhook-secret (write scope): the secret
// that signs the calling customer's webhook deliveries.
func (s *Server) getWebhookSecret(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	s.writeJSON(w, r, http.StatusOK, webhookSecret{
		Secret: exporttask.CustomerWebhookSecret(s.secret, customerOf(r)),
		Scheme: "v2",
	})
}
