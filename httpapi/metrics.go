package httpapi

import (
	"strconv"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing/toolcall"
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the API's Prometheus collectors. The library records none
// unless Options.Metrics is set; serve the registry given to NewMetrics
// with promhttp, preferably on a separate address. Every method is safe on
// a nil *Metrics.
type Metrics struct {
	requests      *prometheus.CounterVec
	duration      *prometheus.HistogramVec
	charges       *prometheus.CounterVec
	chargedMicros *prometheus.CounterVec
	deposits      *prometheus.CounterVec
	rateLimits    *prometheus.CounterVec
	storeErrors   *prometheus.CounterVec
}

// NewMetrics creates the collectors and registers them with reg:
//
//	toolkit_http_requests_total{route,code}         requests answered
//	toolkit_http_request_duration_seconds{route}    latency histogram
//	toolkit_charges_total{operation}                priced tool calls charged
//	toolkit_charged_micro_usd_total{operation}      amount charged, micro-USD
//	toolkit_deposits_total{funding_path,result}     deposits: credited, replay, refused, failed
//	toolkit_rate_limited_total{limit}               requests refused with 429
//	toolkit_store_errors_total{operation,kind}      database errors (internal, unavailable)
//
// route is the route pattern ("GET /v1/agents/me"; "unmatched" for
// unknown paths), so label values stay bounded.
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "toolkit_http_requests_total",
			Help: "HTTP requests answered, by route pattern and status code."}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "toolkit_http_request_duration_seconds",
			Help:    "HTTP request latency, by route pattern.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}}, []string{"route"}),
		charges: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "toolkit_charges_total",
			Help: "Priced tool calls charged, by billed operation."}, []string{"operation"}),
		chargedMicros: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "toolkit_charged_micro_usd_total",
			Help: "Amount charged for tool calls in micro-USD (exact up to 2^53), by billed operation."}, []string{"operation"}),
		deposits: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "toolkit_deposits_total",
			Help: "Deposits by funding path and result (credited, replay, refused, failed)."}, []string{"funding_path", "result"}),
		rateLimits: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "toolkit_rate_limited_total",
			Help: "Requests refused with 429, by limit."}, []string{"limit"}),
		storeErrors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "toolkit_store_errors_total",
			Help: "Database errors (kinds internal and unavailable), by SQL operation."}, []string{"operation", "kind"}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration, m.charges, m.chargedMicros, m.deposits, m.rateLimits, m.storeErrors} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// StoreError counts one database error; pass it to the store adapter
// (bunstore.Options.OnError). Kinds other than internal and unavailable
// are business outcomes (not found, conflict) and are not counted.
func (m *Metrics) StoreError(operation string, kind toolkit.Kind) {
	if m == nil || (kind != toolkit.Internal && kind != toolkit.Unavailable) {
		return
	}
	m.storeErrors.WithLabelValues(operation, kind.String()).Inc()
}

// request counts one answered request.
func (m *Metrics) request(route string, status int, d time.Duration) {
	if m == nil {
		return
	}
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(route).Observe(d.Seconds())
}

// ObserveCall counts the charge of a tool call (a toolcall.Options.Observe
// function: set it on the call service, e.g. platform.Config.Calls).
func (m *Metrics) ObserveCall(res toolcall.Result, err error) {
	if m == nil || err != nil || res.Operation == "" || res.Charged.Sign() <= 0 {
		return
	}
	m.charges.WithLabelValues(res.Operation).Inc()
	if micros, err := res.Charged.Micros(); err == nil {
		m.chargedMicros.WithLabelValues(res.Operation).Add(float64(micros))
	}
}

// deposit counts one deposit attempt by its outcome; fundingPath is one of
// the validated funding paths, so the label stays bounded.
func (m *Metrics) deposit(fundingPath string, err error) {
	if m == nil {
		return
	}
	result := "credited"
	switch kind := toolkit.KindOf(err); {
	case err == nil:
	case kind == toolkit.Conflict:
		result = "replay"
	case kind == toolkit.Internal || kind == toolkit.Unavailable:
		result = "failed"
	default:
		result = "refused"
	}
	m.deposits.WithLabelValues(fundingPath, result).Inc()
}

// rateLimited counts one 429.
func (m *Metrics) rateLimited(c rateClass) {
	if m == nil {
		return
	}
	m.rateLimits.WithLabelValues(string(c)).Inc()
}
