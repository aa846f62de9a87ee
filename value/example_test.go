package value_test

import (
	"errors"
	"fmt"

	"github.com/callgrade/callgrade/value"
)

// Two tool calls that differ only in key order and in how a number is
// spelt are Equal; a string is never Equal to a number; an object that
// names a key twice is rejected, not resolved.
func Example() {
	want, _ := value.Parse(`{"city":"Berlin","days":5}`)
	got, _ := value.Parse(`{"days":5.0,"city":"Berlin"}`)
	fmt.Println(value.Equal(want, got))
	fmt.Println(got) // keys sorted, numbers as written

	str, _ := value.Parse(`{"city":"Berlin","days":"5"}`)
	fmt.Println(value.Equal(want, str))

	_, err := value.Parse(`{"city":"Paris","city":"Berlin"}`)
	fmt.Println(err)
	fmt.Println(errors.Is(err, value.ErrDuplicateKey))
	// Output:
	// true
	// {"city":"Berlin","days":5.0}
	// false
	// duplicate key at byte 16: key "city" appears twice
	// true
}

// A Parser reused for a stream of documents: each Value is done with
// before the Reset that recycles its memory.
func ExampleParser() {
	var p value.Parser
	for _, line := range []string{`{"city":"Berlin"}`, `{"city":"Paris","days":2}`} {
		v, err := p.Parse(line, value.Limits{})
		if err != nil {
			panic(err)
		}
		fmt.Println(v)
		p.Reset() // v is no longer valid
	}
	// Output:
	// {"city":"Berlin"}
	// {"city":"Paris","days":2}
}
