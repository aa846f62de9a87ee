package server

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// The Prometheus text exposition format is written by hand: a handful of
// counters and one histogram do not justify client_golang and its
// dependencies, and the handler keeps its metrics to itself (no global
// registry), so that two handlers in one process do not mix their counts.

// buckets are the upper bounds of the latency histogram, in seconds.
var buckets = [...]float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

type reqKey struct{ route, code string }

type histogram struct {
	counts [len(buckets) + 1]uint64 // per bucket, not cumulative; the last is +Inf
	sum    float64
	n      uint64
}

type metrics struct {
	mu       sync.Mutex
	requests map[reqKey]uint64
	latency  map[string]*histogram

	pass, fail, lineErrors atomic.Uint64
	reloadOK, reloadErr    atomic.Uint64
	cases                  atomic.Int64
}

func newMetrics() *metrics {
	return &metrics{requests: map[reqKey]uint64{}, latency: map[string]*histogram{}}
}

func (m *metrics) request(route, code string, d time.Duration) {
	s := d.Seconds()
	b := len(buckets)
	for i, ub := range buckets {
		if s <= ub {
			b = i
			break
		}
	}
	m.mu.Lock()
	m.requests[reqKey{route, code}]++
	h := m.latency[route]
	if h == nil {
		h = &histogram{}
		m.latency[route] = h
	}
	h.counts[b]++
	h.sum += s
	h.n++
	m.mu.Unlock()
}

func (m *metrics) verdict(pass bool) {
	if pass {
		m.pass.Add(1)
	} else {
		m.fail.Add(1)
	}
}

func (m *metrics) lineError() { m.lineErrors.Add(1) }

func (m *metrics) reloaded(ok bool) {
	if ok {
		m.reloadOK.Add(1)
	} else {
		m.reloadErr.Add(1)
	}
}

func (m *metrics) setCases(n int) { m.cases.Store(int64(n)) }

// write writes every metric in the Prometheus text format, version 0.0.4.
func (m *metrics) write(w io.Writer) error {
	m.mu.Lock()
	keys := make([]reqKey, 0, len(m.requests))
	for k := range m.requests {
		keys = append(keys, k)
	}
	counts := make(map[reqKey]uint64, len(keys))
	for _, k := range keys {
		counts[k] = m.requests[k]
	}
	routes := make([]string, 0, len(m.latency))
	hists := make(map[string]histogram, len(m.latency))
	for r, h := range m.latency {
		routes = append(routes, r)
		hists[r] = *h
	}
	m.mu.Unlock()
	slices.SortFunc(keys, func(a, b reqKey) int {
		if a.route != b.route {
			return cmp.Compare(a.route, b.route)
		}
		return cmp.Compare(a.code, b.code)
	})
	slices.Sort(routes)

	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "# HELP callgrade_http_requests_total HTTP requests answered, by route and status code.")
	fmt.Fprintln(bw, "# TYPE callgrade_http_requests_total counter")
	for _, k := range keys {
		fmt.Fprintf(bw, "callgrade_http_requests_total{route=%q,code=%q} %d\n", k.route, k.code, counts[k])
	}
	fmt.Fprintln(bw, "# HELP callgrade_http_request_duration_seconds Time to answer an HTTP request, by route.")
	fmt.Fprintln(bw, "# TYPE callgrade_http_request_duration_seconds histogram")
	for _, r := range routes {
		h := hists[r]
		var cum uint64
		for i, ub := range buckets {
			cum += h.counts[i]
			fmt.Fprintf(bw, "callgrade_http_request_duration_seconds_bucket{route=%q,le=%q} %d\n", r, strconv.FormatFloat(ub, 'g', -1, 64), cum)
		}
		cum += h.counts[len(buckets)]
		fmt.Fprintf(bw, "callgrade_http_request_duration_seconds_bucket{route=%q,le=\"+Inf\"} %d\n", r, cum)
		fmt.Fprintf(bw, "callgrade_http_request_duration_seconds_sum{route=%q} %s\n", r, strconv.FormatFloat(h.sum, 'g', -1, 64))
		fmt.Fprintf(bw, "callgrade_http_request_duration_seconds_count{route=%q} %d\n", r, h.n)
	}
	fmt.Fprintln(bw, "# HELP callgrade_verdicts_total Responses scored, by verdict.")
	fmt.Fprintln(bw, "# TYPE callgrade_verdicts_total counter")
	fmt.Fprintf(bw, "callgrade_verdicts_total{verdict=\"pass\"} %d\n", m.pass.Load())
	fmt.Fprintf(bw, "callgrade_verdicts_total{verdict=\"fail\"} %d\n", m.fail.Load())
	fmt.Fprintln(bw, "# HELP callgrade_batch_line_errors_total Batch lines answered with an error line instead of a result.")
	fmt.Fprintln(bw, "# TYPE callgrade_batch_line_errors_total counter")
	fmt.Fprintf(bw, "callgrade_batch_line_errors_total %d\n", m.lineErrors.Load())
	fmt.Fprintln(bw, "# HELP callgrade_suite_reloads_total Suite reloads, by result.")
	fmt.Fprintln(bw, "# TYPE callgrade_suite_reloads_total counter")
	fmt.Fprintf(bw, "callgrade_suite_reloads_total{result=\"ok\"} %d\n", m.reloadOK.Load())
	fmt.Fprintf(bw, "callgrade_suite_reloads_total{result=\"error\"} %d\n", m.reloadErr.Load())
	fmt.Fprintln(bw, "# HELP callgrade_suite_cases Cases in the suite being served.")
	fmt.Fprintln(bw, "# TYPE callgrade_suite_cases gauge")
	fmt.Fprintf(bw, "callgrade_suite_cases %d\n", m.cases.Load())
	return bw.Flush()
}
