package server

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/openapi-viewer/viewer/exporttask"
	"github.com/openapi-viewer/viewer/exporttask/taskstore"
)

// statsTimeout bounds the store queries of one /metrics scrape.
const statsTimeout = 5 * time.Second

// metrics holds the server's Prometheus metrics, in a registry of its own
// (no global state: two Servers in one process do not share counts).
type metrics struct {
	reg       *prometheus.Registry
	requests  *prometheus.CounterVec
	latency   *prometheus.HistogramVec
	storeTime *prometheus.HistogramVec
}

// newMetrics returns the server's metrics, with the counts of stats (see
// statsCollector) read at each scrape.
func newMetrics(stats taskstore.Health) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "exporttask_http_requests_total",
			Help: "HTTP requests answered, by route pattern, method and status code.",
		}, []string{"route", "method", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "exporttask_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route pattern and method.",
			Buckets: prometheus.DefBuckets,
		}, []string{"route", "method"}),
		storeTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "exporttask_store_operation_duration_seconds",
			Help:    "Time of a store operation, by operation and outcome (ok or error).",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"op", "outcome"}),
	}
	m.reg.MustRegister(m.requests, m.latency, m.storeTime,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.reg.MustRegister(&statsCollector{store: taskstore.Instrumented{Health: stats, Observe: m.observeStore}})
	return m
}

// handler serves the registry in the Prometheus text format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// observeStore records a store operation that started at start.
func (m *metrics) observeStore(op string, start time.Time, err error) {
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	m.storeTime.WithLabelValues(op, outcome).Observe(time.Since(start).Seconds())
}

// instrument wraps the router: it counts each request by the pattern the
// router matched (r.Pattern, set by http.ServeMux on the request it is
// given; "other" when none matched, e.g. the documentation) and records
// its latency.
func (m *metrics) instrument(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		route := r.Pattern
		if route == "" {
			route = "other"
		}
		method := methodLabel(r.Method)
		m.requests.WithLabelValues(route, method, strconv.Itoa(sw.status)).Inc()
		m.latency.WithLabelValues(route, method).Observe(time.Since(start).Seconds())
	})
}

// methodLabel is the method as a label value: the standard methods as
// they are, any other token (clients may send anything) as "OTHER", so
// that clients cannot grow the number of series.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "OTHER"
}

// statusWriter remembers the status code written through it.
type statusWriter struct {
	http.ResponseWriter
	status  int
	written bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.written {
		w.status, w.written = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.written = true
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// statsCollector reads the store's counts at each scrape: tasks by status,
// the queue depth (PENDING tasks) and webhook deliveries pending and given
// up. Counting at scrape time keeps the numbers right across replicas and
// restarts, at the cost of two counting queries per scrape.
type statsCollector struct {
	store taskstore.Health
}

var (
	tasksDesc = prometheus.NewDesc("exporttask_tasks",
		"Tasks in the store, of every customer, by status.", []string{"status"}, nil)
	queueDesc = prometheus.NewDesc("exporttask_queue_depth",
		"Tasks waiting for a worker (PENDING).", nil, nil)
	deliveriesDesc = prometheus.NewDesc("exporttask_webhook_deliveries",
		"Webhook deliveries not yet delivered (pending) or given up (failed).", []string{"state"}, nil)
)

func (c *statsCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- tasksDesc
	ch <- queueDesc
	ch <- deliveriesDesc
}

func (c *statsCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), statsTimeout)
	defer cancel()
	st, err := c.store.Stats(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(tasksDesc, err)
		return
	}
	for _, s := range exporttask.Statuses() {
		ch <- prometheus.MustNewConstMetric(tasksDesc, prometheus.GaugeValue, float64(st.Tasks[s]), string(s))
	}
	ch <- prometheus.MustNewConstMetric(queueDesc, prometheus.GaugeValue, float64(st.Tasks[exporttask.StatusPending]))
	ch <- prometheus.MustNewConstMetric(deliveriesDesc, prometheus.GaugeValue, float64(st.DeliveriesPending), "pending")
	ch <- prometheus.MustNewConstMetric(deliveriesDesc, prometheus.GaugeValue, float64(st.DeliveriesFailed), "failed")
}
