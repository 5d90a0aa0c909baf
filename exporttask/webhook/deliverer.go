package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
)

// DelivererConfig configures a [Deliverer]. Store and Secret are required.
type DelivererConfig struct {
	// Store holds the webhook outbox. Required.
	Store exporttask.Store
	// Secret is the server's master secret: each delivery is signed with
	// the secret of its task's customer, derived from it with
	// [exporttask.CustomerWebhookSecret] (see [exporttask.SignWebhook]).
	// Receivers verify with their customer's secret. Required.
	Secret []byte
	// Allow lists address prefixes webhooks may reach although they are
	// loopback, private, link-local, ... (see [CheckWebhookURL]), e.g.
	// 127.0.0.0/8 for local testing. Default none.
	Allow []netip.Prefix
	// MaxAttempts is how many times a delivery is tried before giving up.
	// Default [DefaultMaxAttempts].
	MaxAttempts int
	// Timeout bounds one attempt: connecting, sending and receiving the
	// response headers and up to 64 KiB of body. Default [DefaultTimeout].
	Timeout time.Duration
	// BaseBackoff is the longest wait before the second attempt; it doubles
	// with each attempt up to MaxBackoff, and the actual wait is random
	// between zero and that ("full jitter"). Default [DefaultBaseBackoff].
	BaseBackoff time.Duration
	// MaxBackoff bounds the wait between attempts, including one a receiver
	// asks for with Retry-After. Default [DefaultMaxBackoff].
	MaxBackoff time.Duration
	// Concurrency is how many deliveries are attempted at once. Default
	// [DefaultConcurrency].
	Concurrency int
	// PollInterval is how long the Deliverer waits before looking for due
	// deliveries again when it found none. Default [DefaultPollInterval].
	PollInterval time.Duration
	// Lease is how long a claimed delivery stays reserved to this
	// Deliverer; if the process dies mid-attempt, it is claimed again after
	// that. Keep it above Timeout, or a slow attempt may be claimed again
	// while still in flight (a duplicate delivery). Default Timeout + 30s.
	Lease time.Duration
	// UserAgent is sent with every delivery. Default
	// "openapi-viewer-exporttask-webhooks/1".
	UserAgent string
	// HTTPClient, when set, sends the deliveries instead of the built-in
	// client. Its CheckRedirect is replaced (redirects are never followed)
	// and Timeout still applies per attempt, but its Transport is used as
	// is: the connection-time address check, which enforces Allow after DNS
	// resolution, is then the Transport's business. Default: a client whose
	// dialer refuses blocked addresses, that ignores proxy environment
	// variables (a proxy would hide the real destination).
	HTTPClient *http.Client
	// Logger receives the Deliverer's logs. Default slog.Default().
	Logger *slog.Logger
	// Now is the clock, for signatures and retry times. Default time.Now.
	Now func() time.Time
}

// ErrRunning is returned by [Deliverer.Run] when the same Deliverer is
// already running.
var ErrRunning = errors.New("exporttask: already running")

// Deliverer sends the webhook deliveries of a [exporttask.Store]'s outbox:
// it claims due deliveries, POSTs each payload signed with
// [exporttask.SignWebhook] under its customer's secret, and records the outcome with
// [exporttask.Store.DeliveryDone].
//
// Each request carries Content-Type application/json, User-Agent,
// X-Export-Event (the event), X-Export-Delivery (the delivery id, the same
// on every retry, for receivers to drop duplicates; it is signed) and
// X-Export-Signature (scheme v2).
// Delivery is at least once: a receiver may see a delivery again when its
// answer was lost or the process stopped mid-attempt.
//
// Outcome of an attempt:
//   - 2xx: delivered.
//   - network error, timeout, 5xx or 429: tried again after an exponential
//     backoff with full jitter, or after the receiver's Retry-After (bounded
//     by MaxBackoff) when it sends one; given up after MaxAttempts.
//   - 3xx: redirects are never followed (a redirect could lead to an
//     internal address) and are not retried: the receiver's URL is wrong,
//     and the same request would get the same answer. Given up at once.
//   - other 4xx: the receiver refuses the delivery; given up at once.
//   - an address webhooks may not reach (checked on the URL and, after DNS
//     resolution, on every address dialed): given up at once.
//
// The store hands out only the oldest undelivered delivery of each task and
// URL, so a receiver gets a task's events in order, and a delivery that is
// given up no longer holds back the ones after it.
type Deliverer struct {
	store       exporttask.Store
	secret      []byte
	policy      *addressPolicy
	allow       []netip.Prefix
	maxAttempts int
	timeout     time.Duration
	baseBackoff time.Duration
	maxBackoff  time.Duration
	concurrency int
	poll        time.Duration
	lease       time.Duration
	userAgent   string
	client      *http.Client
	log         *slog.Logger
	now         func() time.Time
	running     atomic.Bool
}

// NewDeliverer returns a Deliverer configured by cfg, with defaults for the
// fields left zero. It panics when cfg.Store is nil or cfg.Secret is empty.
func NewDeliverer(cfg DelivererConfig) *Deliverer {
	if cfg.Store == nil {
		panic("exporttask: NewDeliverer needs a Store")
	}
	if len(cfg.Secret) == 0 {
		panic("exporttask: NewDeliverer needs a Secret to sign webhooks")
	}
	d := &Deliverer{
		store:       cfg.Store,
		secret:      bytes.Clone(cfg.Secret),
		policy:      newAddressPolicy(cfg.Allow),
		allow:       append([]netip.Prefix(nil), cfg.Allow...),
		maxAttempts: cfg.MaxAttempts,
		timeout:     cfg.Timeout,
		baseBackoff: cfg.BaseBackoff,
		maxBackoff:  cfg.MaxBackoff,
		concurrency: cfg.Concurrency,
		poll:        cfg.PollInterval,
		lease:       cfg.Lease,
		userAgent:   cfg.UserAgent,
		log:         cfg.Logger,
		now:         cfg.Now,
	}
	if d.maxAttempts <= 0 {
		d.maxAttempts = DefaultMaxAttempts
	}
	if d.timeout <= 0 {
		d.timeout = DefaultTimeout
	}
	if d.baseBackoff <= 0 {
		d.baseBackoff = DefaultBaseBackoff
	}
	if d.maxBackoff <= 0 {
		d.maxBackoff = DefaultMaxBackoff
	}
	if d.concurrency <= 0 {
		d.concurrency = DefaultConcurrency
	}
	if d.poll <= 0 {
		d.poll = DefaultPollInterval
	}
	if d.lease <= 0 {
		d.lease = d.timeout + 30*time.Second
	}
	if d.userAgent == "" {
		d.userAgent = DefaultUserAgent
	}
	if d.log == nil {
		d.log = slog.Default()
	}
	if d.now == nil {
		d.now = time.Now
	}
	if cfg.HTTPClient != nil {
		c := *cfg.HTTPClient
		d.client = &c
	} else {
		d.client = &http.Client{Transport: webhookTransport(d.policy)}
	}
	d.client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return d
}

// webhookTransport is an HTTP transport whose dialer refuses the addresses
// policy blocks, checked on the resolved address of every connection.
func webhookTransport(policy *addressPolicy) *http.Transport {
	dialer := &net.Dialer{
		Timeout:   10 * time.Second,
		KeepAlive: 30 * time.Second,
		Control:   policy.control,
	}
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// Run delivers due webhooks until ctx is done, then waits for the attempts
// in flight to stop, closes idle connections and returns nil. An attempt cut short by ctx is not
// recorded: the delivery is claimed again when its lease ends. Run can be
// called again after it returns, but not while it runs ([ErrRunning]).
func (d *Deliverer) Run(ctx context.Context) error {
	if !d.running.CompareAndSwap(false, true) {
		return ErrRunning
	}
	defer d.running.Store(false)
	var wg sync.WaitGroup
	defer d.client.CloseIdleConnections()
	defer wg.Wait()
	slots := make(chan struct{}, d.concurrency)
	// finished wakes the poller as soon as an attempt ends: the next
	// delivery of that task and URL may have become due.
	finished := make(chan struct{}, 1)
	for ctx.Err() == nil {
		free := d.concurrency - len(slots)
		var claimed []exporttask.Delivery
		if free > 0 {
			var err error
			claimed, err = d.store.ClaimDeliveries(ctx, d.now(), free, d.lease)
			if err != nil && ctx.Err() == nil {
				d.log.ErrorContext(ctx, "exporttask: claiming webhook deliveries", "error", err)
			}
		}
		for _, dl := range claimed {
			slots <- struct{}{}
			wg.Add(1)
			go func() {
				defer wg.Done()
				d.deliver(ctx, dl)
				<-slots
				select {
				case finished <- struct{}{}:
				default:
				}
			}()
		}
		if len(claimed) > 0 && len(claimed) == free {
			// Maybe more are due; look again once a slot is free.
			select {
			case <-ctx.Done():
			case <-finished:
			}
			continue
		}
		t := time.NewTimer(d.poll)
		select {
		case <-ctx.Done():
		case <-finished:
		case <-t.C:
		}
		t.Stop()
	}
	return nil
}

// deliver makes one attempt at dl and records its outcome.
func (d *Deliverer) deliver(ctx context.Context, dl exporttask.Delivery) {
	log := d.log.With("delivery", dl.ID, "task", dl.TaskID, "event", dl.Event, "attempt", dl.Attempts+1)
	res, retry := d.attempt(ctx, dl)
	if !res.Delivered && ctx.Err() != nil {
		log.InfoContext(ctx, "exporttask: webhook attempt interrupted by shutdown; it is retried when its lease ends")
		return
	}
	switch {
	case res.Delivered:
		log.DebugContext(ctx, "exporttask: webhook delivered")
	case retry != nil && dl.Attempts+1 < d.maxAttempts:
		res.NextAttempt = d.now().Add(*retry)
		log.WarnContext(ctx, "exporttask: webhook attempt failed; will retry", "error", res.Error, "retryIn", *retry)
	default:
		if retry != nil {
			res.Error = fmt.Sprintf("%s (gave up after %d attempts)", res.Error, dl.Attempts+1)
		}
		log.WarnContext(ctx, "exporttask: webhook delivery given up", "error", res.Error)
	}
	// Record the outcome even if shutdown begins now: the attempt is over.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := d.store.DeliveryDone(rctx, dl.ID, res); err != nil {
		log.ErrorContext(ctx, "exporttask: recording a webhook attempt; it is retried when its lease ends", "error", err)
	}
}

// maxResponseBody is how much of a receiver's answer is read (and thrown
// away), so that the connection can be reused.
const maxResponseBody = 64 << 10

// attempt POSTs dl once. retry is nil when the delivery must not be tried
// again, else the wait before the next attempt.
func (d *Deliverer) attempt(ctx context.Context, dl exporttask.Delivery) (res exporttask.DeliveryResult, retry *time.Duration) {
	fail := func(wait *time.Duration, format string, args ...any) (exporttask.DeliveryResult, *time.Duration) {
		return exporttask.DeliveryResult{Error: fmt.Sprintf(format, args...)}, wait
	}
	if err := CheckWebhookURL(dl.URL, d.allow); err != nil {
		return fail(nil, "%v", err)
	}
	actx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, dl.URL, bytes.NewReader(dl.Payload))
	if err != nil {
		return fail(nil, "building the request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", d.userAgent)
	req.Header.Set("X-Export-Event", string(dl.Event))
	id := strconv.FormatInt(dl.ID, 10)
	req.Header.Set(exporttask.DeliveryHeader, id)
	secret := exporttask.CustomerWebhookSecret(d.secret, dl.Customer)
	req.Header.Set(exporttask.SignatureHeader, exporttask.SignWebhook(secret, id, d.now(), dl.Payload))

	backoffWait := backoff(dl.Attempts+1, d.baseBackoff, d.maxBackoff)
	resp, err := d.client.Do(req)
	if err != nil {
		if errors.Is(err, ErrBlockedAddress) {
			return fail(nil, "%v", err)
		}
		return fail(&backoffWait, "%v", err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxResponseBody))
	_ = resp.Body.Close()

	code := resp.StatusCode
	switch {
	case code >= 200 && code < 300:
		return exporttask.DeliveryResult{Delivered: true}, nil
	case code >= 300 && code < 400:
		return fail(nil, "HTTP %s: redirect to %q not followed", resp.Status, resp.Header.Get("Location"))
	case code == http.StatusTooManyRequests || code >= 500:
		wait := backoffWait
		if ra, ok := retryAfter(resp.Header, d.now()); ok {
			wait = min(ra, d.maxBackoff)
		}
		return fail(&wait, "HTTP %s", resp.Status)
	default:
		return fail(nil, "HTTP %s", resp.Status)
	}
}
