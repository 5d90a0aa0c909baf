package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/clock"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// DelivererConfig configures a [Deliverer]. Store and Secret are required.
type DelivererConfig struct {
	// Store holds the webhook outbox: a [taskstore.Store], or anything
	// with its [taskstore.Outbox]. Required.
	Store taskstore.Outbox
	// Secret is the server's master secret: each delivery is signed with
	// the secret of its task's customer, derived from it with
	// [exporttask.CustomerWebhookSecret] (see [exporttask.SignWebhook]).
	// Receivers verify with their customer's secret. Required.
	Secret []byte
	// Allow lists address prefixes webhooks may reach although they are
	// loopback, private, link-local, ... (see [CheckWebhookURL]), e.g.
	// 127.0.0.0/8 for local testing. Default none.
	Allow []netip.Prefix
	// RetryHorizon is how long after its event a delivery is still
	// tried: a failed attempt is retried only when the next attempt falls
	// within RetryHorizon of the delivery's CreatedAt. Default
	// [DefaultRetryHorizon] (24 hours).
	RetryHorizon time.Duration
	// MaxAttempts, when above zero, also bounds how many times a delivery
	// is tried. Default none: RetryHorizon alone bounds the retries.
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
	// PerHost is how many of those attempts may go to one receiver host
	// (see [taskstore.DeliveryHost]) at once, so that slow receivers
	// cannot take every slot from the others. Default [DefaultPerHost].
	PerHost int
	// Retention is how long delivered and given-up deliveries are kept
	// (for GET /export-tasks/{id}/deliveries) before they are pruned.
	// Default [DefaultRetention].
	Retention time.Duration
	// PruneInterval is how often finished deliveries older than Retention
	// are pruned. Default [DefaultPruneInterval].
	PruneInterval time.Duration
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
	// Clock is the time of signatures, retries and leases, and the
	// Deliverer's poll timer. Default clock.Real().
	Clock clock.Clock
}

// ErrRunning is returned by [Deliverer.Run] when the same Deliverer is
// already running.
var ErrRunning = errors.New("webhook: already running")

// Deliverer sends the webhook deliveries of a [taskstore.Outbox]:
// it claims due deliveries, POSTs each payload signed with
// [exporttask.SignWebhook] under its customer's secret, and records the outcome with
// [taskstore.Outbox.DeliveryDone].
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
//   - network error, timeout, 404, 408, 409, 425, 429 or 5xx: tried again
//     after an exponential backoff with full jitter, or after the
//     receiver's Retry-After (bounded by MaxBackoff) when it sends one;
//     given up once the next attempt would fall after RetryHorizon from
//     the event (or after MaxAttempts, when set).
//   - 3xx: redirects are never followed (a redirect could lead to an
//     internal address) and are not retried: the receiver's URL is wrong,
//     and the same request would get the same answer. Given up at once.
//   - other 4xx (400, 401, 403, 410, 422, ...): the receiver refuses the
//     delivery; given up at once.
//   - an address webhooks may not reach (checked on the URL and, after DNS
//     resolution, on every address dialed): given up at once.
//
// A failed attempt is recorded with the receiver's HTTP status, when it
// answered, and its [exporttask.DeliveryErrorClass], read from the
// error's types (see [taskstore.DeliveryResult]).
//
// The store hands out only the oldest undelivered delivery of each task and
// URL, so a receiver gets a task's events in order, and a delivery that is
// given up no longer holds back the ones after it.
type Deliverer struct {
	store       taskstore.Outbox
	secret      []byte
	policy      *addressPolicy
	allow       []netip.Prefix
	horizon     time.Duration
	maxAttempts int // 0: no bound
	perHost     int
	retention   time.Duration
	pruneEvery  time.Duration
	timeout     time.Duration
	baseBackoff time.Duration
	maxBackoff  time.Duration
	concurrency int
	poll        time.Duration
	lease       time.Duration
	userAgent   string
	client      *http.Client
	log         *slog.Logger
	clock       clock.Clock
	running     atomic.Bool
}

// NewDeliverer returns a Deliverer configured by cfg, with defaults for the
// fields left zero, or an error when cfg.Store is nil or cfg.Secret is
// empty.
func NewDeliverer(cfg DelivererConfig) (*Deliverer, error) {
	if cfg.Store == nil {
		return nil, errors.New("webhook: DelivererConfig.Store is required")
	}
	if len(cfg.Secret) == 0 {
		return nil, errors.New("webhook: DelivererConfig.Secret is required to sign webhooks")
	}
	d := &Deliverer{
		store:       cfg.Store,
		secret:      bytes.Clone(cfg.Secret),
		policy:      newAddressPolicy(cfg.Allow),
		allow:       append([]netip.Prefix(nil), cfg.Allow...),
		horizon:     cfg.RetryHorizon,
		maxAttempts: max(cfg.MaxAttempts, 0),
		perHost:     cfg.PerHost,
		retention:   cfg.Retention,
		pruneEvery:  cfg.PruneInterval,
		timeout:     cfg.Timeout,
		baseBackoff: cfg.BaseBackoff,
		maxBackoff:  cfg.MaxBackoff,
		concurrency: cfg.Concurrency,
		poll:        cfg.PollInterval,
		lease:       cfg.Lease,
		userAgent:   cfg.UserAgent,
		log:         cfg.Logger,
		clock:       cfg.Clock,
	}
	if d.horizon <= 0 {
		d.horizon = DefaultRetryHorizon
	}
	if d.perHost <= 0 {
		d.perHost = DefaultPerHost
	}
	if d.retention <= 0 {
		d.retention = DefaultRetention
	}
	if d.pruneEvery <= 0 {
		d.pruneEvery = DefaultPruneInterval
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
	if d.clock == nil {
		d.clock = clock.Real()
	}
	if cfg.HTTPClient != nil {
		c := *cfg.HTTPClient
		d.client = &c
	} else {
		d.client = &http.Client{Transport: webhookTransport(d.policy)}
	}
	d.client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return d, nil
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
// in flight to stop, closes idle connections and returns nil. An attempt
// cut short by ctx is not recorded: the delivery is claimed again when its
// lease ends. Run also prunes finished deliveries older than Retention.
// Run can be called again after it returns, but not while it runs
// ([ErrRunning]).
//
// Fairness: at most Concurrency attempts run at once, and at most PerHost
// of them to one receiver host; deliveries to a host at its limit are
// left in the outbox, so a slow receiver holds PerHost slots at most and
// the others keep theirs. Across replicas, each Deliverer applies its own
// limits.
func (d *Deliverer) Run(ctx context.Context) error {
	if !d.running.CompareAndSwap(false, true) {
		return ErrRunning
	}
	defer d.running.Store(false)
	var wg sync.WaitGroup
	defer d.client.CloseIdleConnections()
	defer wg.Wait()
	// done receives the host of each attempt that ended.
	done := make(chan string, d.concurrency)
	inFlight := make(map[string]int) // per host; touched by this goroutine only
	running := 0
	var lastPrune time.Time
	for ctx.Err() == nil {
		if now := d.clock.Now(); now.Sub(lastPrune) >= d.pruneEvery {
			d.prune(ctx, now)
			lastPrune = now
		}
		var claimed []taskstore.Delivery
		if free := d.concurrency - running; free > 0 {
			var err error
			// One per host per claim: a host with a free slot gets one
			// more, and the loop claims again at once.
			claimed, err = d.store.ClaimDeliveries(ctx, taskstore.DeliveryClaim{
				Now: d.clock.Now(), Limit: free, Lease: d.lease, SkipHosts: d.saturated(inFlight), PerHost: 1})
			if err != nil && ctx.Err() == nil {
				d.log.ErrorContext(ctx, "webhook: claiming deliveries", "error", err)
			}
		}
		for _, dl := range claimed {
			inFlight[dl.Host]++
			running++
			wg.Add(1)
			go func() {
				defer wg.Done()
				d.deliver(ctx, dl)
				done <- dl.Host
			}()
		}
		if len(claimed) > 0 && running < d.concurrency {
			continue // maybe more are due, to other hosts or this one
		}
		var t clock.Timer
		var tick <-chan time.Time
		if running < d.concurrency {
			t = d.clock.NewTimer(d.poll)
			tick = t.C()
		}
		select {
		case <-ctx.Done():
		case h := <-done:
			// The next delivery of that task and URL may have become due.
			d.ended(inFlight, h)
			running--
		case <-tick:
		}
		if t != nil {
			t.Stop()
		}
		// Collect every other attempt that ended meanwhile.
		for drained := false; !drained; {
			select {
			case h := <-done:
				d.ended(inFlight, h)
				running--
			default:
				drained = true
			}
		}
	}
	// The attempts in flight record their outcome and end (the deferred
	// wg.Wait); done has room for all of them.
	return nil
}

// ended counts an attempt to host as over.
func (d *Deliverer) ended(inFlight map[string]int, host string) {
	if inFlight[host]--; inFlight[host] <= 0 {
		delete(inFlight, host)
	}
}

// saturated lists the hosts with PerHost attempts in flight.
func (d *Deliverer) saturated(inFlight map[string]int) []string {
	var hosts []string
	for h, n := range inFlight {
		if n >= d.perHost {
			hosts = append(hosts, h)
		}
	}
	return hosts
}

// prune deletes the deliveries that ended more than Retention before now,
// a batch at a time.
func (d *Deliverer) prune(ctx context.Context, now time.Time) {
	const batch = 1000
	total := 0
	for ctx.Err() == nil {
		n, err := d.store.PruneDeliveries(ctx, now.Add(-d.retention), batch)
		if err != nil {
			if ctx.Err() == nil {
				d.log.ErrorContext(ctx, "webhook: pruning finished deliveries", "error", err)
			}
			return
		}
		total += n
		if n < batch {
			break
		}
	}
	if total > 0 {
		d.log.InfoContext(ctx, "webhook: pruned finished deliveries", "deliveries", total,
			"olderThan", d.retention.String())
	}
}

// deliver makes one attempt at dl and records its outcome.
func (d *Deliverer) deliver(ctx context.Context, dl taskstore.Delivery) {
	log := d.log.With("delivery", dl.ID, "task", dl.TaskID, "event", dl.Event, "attempt", dl.Attempts+1)
	res, retry := d.attempt(ctx, dl)
	if !res.Delivered && ctx.Err() != nil {
		log.InfoContext(ctx, "webhook: attempt interrupted by shutdown; it is retried when its lease ends")
		return
	}
	now := d.clock.Now()
	res.At = now
	switch {
	case res.Delivered:
		log.DebugContext(ctx, "webhook: delivered")
	case retry != nil && d.mayRetry(dl, now.Add(*retry)):
		res.NextAttempt = now.Add(*retry)
		log.WarnContext(ctx, "webhook: attempt failed; will retry", "error", res.Error,
			"retryIn", retry.Round(time.Millisecond).String())
	default:
		if retry != nil {
			res.Error = fmt.Sprintf("%s (gave up after %d attempts over %s)", res.Error, dl.Attempts+1,
				now.Sub(dl.CreatedAt).Round(time.Second))
		}
		log.WarnContext(ctx, "webhook: delivery given up", "error", res.Error)
	}
	// Record the outcome even if shutdown begins now: the attempt is over.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := d.store.DeliveryDone(rctx, dl.ID, res); err != nil {
		log.ErrorContext(ctx, "webhook: recording an attempt; it is retried when its lease ends", "error", err)
	}
}

// mayRetry reports whether dl may be tried again at next: within the
// retry horizon of its event and, when MaxAttempts is set, below it.
func (d *Deliverer) mayRetry(dl taskstore.Delivery, next time.Time) bool {
	if d.maxAttempts > 0 && dl.Attempts+1 >= d.maxAttempts {
		return false
	}
	return !next.After(dl.CreatedAt.Add(d.horizon))
}

// retryable reports whether an HTTP status is worth another attempt: the
// receiver may answer differently later (404 during a deploy, 408, 409,
// 425 Too Early, 429, any 5xx).
func retryable(code int) bool {
	switch code {
	case http.StatusNotFound, http.StatusRequestTimeout, http.StatusConflict, http.StatusTooEarly, http.StatusTooManyRequests:
		return true
	}
	return code >= 500
}

// maxResponseBody is how much of a receiver's answer is read (and thrown
// away), so that the connection can be reused.
const maxResponseBody = 64 << 10

// attempt POSTs dl once. retry is nil when the delivery must not be tried
// again, else the wait before the next attempt. A failed attempt's result
// carries its class and, when the receiver answered, its status.
func (d *Deliverer) attempt(ctx context.Context, dl taskstore.Delivery) (res taskstore.DeliveryResult, retry *time.Duration) {
	fail := func(wait *time.Duration, code int, class exporttask.DeliveryErrorClass, format string, args ...any) (taskstore.DeliveryResult, *time.Duration) {
		return taskstore.DeliveryResult{StatusCode: code, Class: class, Error: fmt.Sprintf(format, args...)}, wait
	}
	if err := CheckWebhookURL(dl.URL, d.allow); err != nil {
		return fail(nil, 0, exporttask.DeliveryErrorAddressNotAllowed, "%v", err)
	}
	actx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	// The transport reports a failed TLS handshake here, whatever the
	// error's type.
	var tlsFailed atomic.Bool
	actx = httptrace.WithClientTrace(actx, &httptrace.ClientTrace{
		TLSHandshakeDone: func(_ tls.ConnectionState, err error) {
			if err != nil {
				tlsFailed.Store(true)
			}
		},
	})
	req, err := http.NewRequestWithContext(actx, http.MethodPost, dl.URL, bytes.NewReader(dl.Payload))
	if err != nil {
		return fail(nil, 0, failureClass(err, false), "building the request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", d.userAgent)
	req.Header.Set("X-Export-Event", string(dl.Event))
	id := strconv.FormatInt(dl.ID, 10)
	req.Header.Set(exporttask.DeliveryHeader, id)
	secret := exporttask.CustomerWebhookSecret(d.secret, dl.Customer)
	req.Header.Set(exporttask.SignatureHeader, exporttask.SignWebhook(secret, id, d.clock.Now(), dl.Payload))

	backoffWait := backoff(dl.Attempts+1, d.baseBackoff, d.maxBackoff)
	resp, err := d.client.Do(req)
	if err != nil {
		class := failureClass(err, tlsFailed.Load())
		if errors.Is(err, ErrBlockedAddress) {
			return fail(nil, 0, class, "%v", err)
		}
		return fail(&backoffWait, 0, class, "%v", err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxResponseBody))
	_ = resp.Body.Close()

	code := resp.StatusCode
	switch {
	case code >= 200 && code < 300:
		return taskstore.DeliveryResult{Delivered: true}, nil
	case code >= 300 && code < 400:
		return fail(nil, code, exporttask.DeliveryErrorHTTPStatus, "HTTP %s: redirect to %q not followed", resp.Status, resp.Header.Get("Location"))
	case retryable(code):
		wait := backoffWait
		if ra, ok := retryAfter(resp.Header, d.clock.Now()); ok {
			wait = min(ra, d.maxBackoff)
		}
		return fail(&wait, code, exporttask.DeliveryErrorHTTPStatus, "HTTP %s", resp.Status)
	default:
		return fail(nil, code, exporttask.DeliveryErrorHTTPStatus, "HTTP %s", resp.Status)
	}
}
