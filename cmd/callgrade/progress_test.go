package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer the progress goroutine and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestProgress(t *testing.T) {
	input := strings.Repeat(`{"id":"a","response":[]}`+"\n", 1000)
	tests := []struct {
		name  string
		total int64
		delay time.Duration
		want  []string // "" for no output at all
	}{
		{"short run draws nothing", int64(len(input)), time.Hour, nil},
		{"known size", int64(len(input)), 0, []string{"100%", "1000 responses", "ETA", "\r\x1b[K"}},
		{"pipe", 0, 0, []string{"scoring: 1000 responses"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out syncBuffer
			p := startProgress(&out, tt.total, tt.delay)
			if _, err := io.Copy(io.Discard, p.Reader(strings.NewReader(input))); err != nil {
				t.Fatal(err)
			}
			if tt.want != nil {
				deadline := time.Now().Add(5 * time.Second)
				for !strings.Contains(out.String(), tt.want[1%len(tt.want)]) && time.Now().Before(deadline) {
					time.Sleep(10 * time.Millisecond)
				}
			}
			p.Stop()
			got := out.String()
			if tt.want == nil && got != "" {
				t.Errorf("drew %q", got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("output %q lacks %q", got, w)
				}
			}
		})
	}
}

func TestWantColor(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	if wantColor(&bytes.Buffer{}) {
		t.Error("colour for a buffer")
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if wantColor(f) {
		t.Error("colour for a regular file")
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !wantColor(tty) {
			t.Error("no colour for a terminal")
		}
		t.Setenv("NO_COLOR", "1")
		if wantColor(tty) {
			t.Error("colour on a terminal with NO_COLOR set")
		}
	}
}
