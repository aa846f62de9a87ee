package server

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkServeScore is one /v1/score request through the handler, with
// no network: what the handler itself costs per request (its timeout's
// goroutine and held answer included).
func BenchmarkServeScore(b *testing.B) {
	h := newHandler(b, Options{})
	defer h.Close()
	const body = `{"id": "unit-left-to-its-default", "response": [{"name": "get_weather", "arguments": {"city": "Berlin"}}]}`
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/score", strings.NewReader(body)))
		if rec.Code != 200 {
			b.Fatal(rec.Code, rec.Body)
		}
	}
}
