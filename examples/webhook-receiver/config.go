package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// Defaults of the flags.
const (
	defaultAddr       = "127.0.0.1:8090"
	defaultSecretFrom = "http://localhost:8080/webhook-secret"
)

// config is what the flags say.
type config struct {
	addr       string
	key        string // API key for secretFrom; empty when secret is given
	secretFrom string
	secret     string // the customer's webhook secret, when given with -secret
	tolerance  time.Duration
}

// secretPrefix starts every customer webhook secret the server hands out
// (see exporttask.CustomerWebhookSecret). The master secret, which the
// server also prints, has no prefix: the check catches that mix-up.
const secretPrefix = "whsec_"

// parseFlags reads the command line (without the program name). Usage and
// flag errors are written to output.
func parseFlags(args []string, output io.Writer) (config, error) {
	fs := flag.NewFlagSet("webhook-receiver", flag.ContinueOnError)
	fs.SetOutput(output)
	var cfg config
	fs.StringVar(&cfg.addr, "addr", defaultAddr, "listen `address`")
	fs.StringVar(&cfg.key, "key", "", "API `key` of the customer whose webhooks arrive here, to fetch its secret from -secret-from")
	fs.StringVar(&cfg.secretFrom, "secret-from", defaultSecretFrom, "`URL` of the server's GET /webhook-secret")
	fs.StringVar(&cfg.secret, "secret", "", "the customer's webhook `secret` (whsec_..., as GET /webhook-secret returns it); nothing is fetched")
	fs.DurationVar(&cfg.tolerance, "tolerance", exporttask.DefaultSignatureTolerance, "how far a signature's timestamp may be from this machine's clock")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	switch {
	case cfg.secret != "" && cfg.key != "":
		return config{}, errors.New("give -secret or -key, not both")
	case cfg.secret == "" && cfg.key == "":
		return config{}, errors.New("no secret: give -key KEY (the API key the server printed) to fetch the customer's secret from -secret-from, or -secret whsec_...")
	case cfg.secret != "" && !strings.HasPrefix(cfg.secret, secretPrefix):
		return config{}, fmt.Errorf("-secret must be a customer's webhook secret, %s... as GET /webhook-secret returns it, not the server's master secret", secretPrefix)
	case cfg.tolerance <= 0:
		return config{}, fmt.Errorf("-tolerance must be positive, got %s", cfg.tolerance)
	}
	if cfg.key != "" {
		u, err := url.Parse(cfg.secretFrom)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return config{}, fmt.Errorf("-secret-from must be an http(s) URL such as %s, got %q", defaultSecretFrom, cfg.secretFrom)
		}
	}
	return cfg, nil
}
