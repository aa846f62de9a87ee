package plugins_test

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/plugins"
	"github.com/callgrade/callgrade/rules"
)

// A program that scores a suite with plugins opens them before compiling
// the suite, hands Comparator to the engine, and closes the host when done
// or interrupted, so that no plugin process outlives it.
func Example() {
	s, err := callgrade.Load("examples/plugins/geo/suite.yaml")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	host, err := plugins.Open(s.Plugins(), plugins.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err) // "file: plugins.geo: plugin geo (command ...): ..."
		os.Exit(2)
	}
	defer host.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		host.Close() // Ctrl-C: stop the plugins; their pending comparisons fail
	}()

	eng, err := engine.New(s, engine.Options{Extensions: rules.Extensions{Plugin: host.Comparator}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	responses, err := os.Open("examples/plugins/geo/responses.jsonl")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer responses.Close()
	sum, err := eng.Run(ctx, responses, os.Stdout, engine.RunOptions{Name: responses.Name()})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	fmt.Fprintf(os.Stderr, "passed %d of %d\n", sum.Passed, sum.Cases)
}
