package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/callgrade/callgrade"
)

// byteSize is a flag of a number of bytes, written as a number with an
// optional unit: 1048576, 512KiB, 256MiB, 1GiB (K, M, G alone are the
// binary units too; KB, MB, GB are powers of ten).
type byteSize int

func (b *byteSize) String() string { return formatBytes(int(*b)) }

func (b *byteSize) Type() string { return "size" }

func (b *byteSize) Set(s string) error {
	t := strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   int
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}}
	mult := 1
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.Atoi(t)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return fmt.Errorf("want a positive number of bytes, such as 268435456 or 256MiB, not %q", s)
	}
	*b = byteSize(n * mult)
	return nil
}

// formatBytes is n in the largest binary unit that divides it.
func formatBytes(n int) string {
	for _, u := range []struct {
		suffix string
		mult   int
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.mult && n%u.mult == 0 {
			return strconv.Itoa(n/u.mult) + u.suffix
		}
	}
	return strconv.Itoa(n)
}

// maxLineFlag defines --max-line-bytes, the longest response line read
// (callgrade.RunOptions.MaxLineBytes).
func maxLineFlag(fl *pflag.FlagSet, p *int) {
	*p = callgrade.DefaultMaxLineBytes
	fl.Var((*byteSize)(p), "max-line-bytes", "longest response line read; a longer one fails its case (invalid_arguments) unread (e.g. 64MiB, 1GiB)")
}
