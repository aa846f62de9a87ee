package plugins_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/callgrade/callgrade/internal/suite"
	"github.com/callgrade/callgrade/plugins"
	"github.com/callgrade/callgrade/value"
)

// A comparison whose Input.Ctx ends fails at once with a plugin_error
// saying it was cancelled; the plugin's CompareBatch is cancelled too
// (the test plugin notes it), the plugin is not restarted, and a later
// comparison is answered. One queued with its context already done is
// never sent.
func TestCompareCancelled(t *testing.T) {
	tp := testPlugin(t)
	log := filepath.Join(t.TempDir(), "cancelled")
	h := open(t, map[string]suite.Plugin{
		"p": {Command: []string{tp, "-cancelled", log}, Timeout: "1m"},
	}, plugins.Options{})
	c, err := h.Comparator("p.eq", value.Value{})
	if err != nil {
		t.Fatal(err)
	}
	wantEqual(t, compare(t, h, "p.eq", `"a"`, `"a"`), true) // started

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	in := input(t, `"a"`, `"slow!"`)
	in.Ctx = ctx
	start := time.Now()
	o := c.Compare(in)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Compare returned after %v", took)
	}
	wantPluginError(t, o, "p: eq: the comparison was cancelled: context deadline exceeded")
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(log)
		if string(b) == "cancelled\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the plugin saw no cancellation: %q", b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	wantEqual(t, compare(t, h, "p.eq", `"a"`, `"a"`), true)

	in = input(t, `"a"`, `"slow!"`)
	in.Ctx = ctx // done
	wantPluginError(t, c.Compare(in), "the comparison was cancelled")
	time.Sleep(100 * time.Millisecond)
	if b, _ := os.ReadFile(log); string(b) != "cancelled\n" {
		t.Errorf("a comparison cancelled before it was sent reached the plugin: %q", b)
	}
}
