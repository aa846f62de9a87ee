package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// progress draws a bar on a terminal while score reads its responses: the
// share of the file read, responses per second and the time left. It is a
// few lines rather than a dependency because what it measures (bytes and
// lines read by the engine's reader) is all it needs, and it must draw
// nothing at all for runs under a second.
type progress struct {
	w     io.Writer
	total int64 // bytes to read; 0 when unknown (a pipe)
	delay time.Duration
	read  atomic.Int64
	lines atomic.Int64
	stop  chan struct{}
	wg    sync.WaitGroup
}

// startProgress starts drawing on w after delay; Stop ends it.
func startProgress(w io.Writer, total int64, delay time.Duration) *progress {
	p := &progress{w: w, total: total, delay: delay, stop: make(chan struct{})}
	p.wg.Add(1)
	go p.loop()
	return p
}

// Reader wraps r so that what is read through it is counted.
func (p *progress) Reader(r io.Reader) io.Reader { return &countingReader{r: r, p: p} }

type countingReader struct {
	r io.Reader
	p *progress
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.p.read.Add(int64(n))
	c.p.lines.Add(int64(bytes.Count(b[:n], []byte{'\n'})))
	return n, err
}

// Stop stops drawing and clears the bar.
func (p *progress) Stop() {
	close(p.stop)
	p.wg.Wait()
}

func (p *progress) loop() {
	defer p.wg.Done()
	start := time.Now()
	select {
	case <-p.stop:
		return // a run under the delay draws nothing
	case <-time.After(p.delay):
	}
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		p.draw(time.Since(start))
		select {
		case <-p.stop:
			fmt.Fprint(p.w, "\r\x1b[K")
			return
		case <-tick.C:
		}
	}
}

func (p *progress) draw(elapsed time.Duration) {
	read, lines := p.read.Load(), p.lines.Load()
	rate := float64(lines) / elapsed.Seconds()
	if p.total <= 0 {
		fmt.Fprintf(p.w, "\r\x1b[Kscoring: %s, %.0f/s", count(int(lines), "response"), rate)
		return
	}
	frac := min(1, float64(read)/float64(p.total))
	const width = 30
	n := int(frac * width)
	bar := strings.Repeat("=", n) + strings.Repeat(" ", width-n)
	eta := "?"
	if frac > 0 {
		eta = (time.Duration(float64(elapsed) * (1 - frac) / frac)).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r\x1b[K[%s] %3.0f%%  %s  %.0f/s  ETA %s", bar, 100*frac, count(int(lines), "response"), rate, eta)
}
