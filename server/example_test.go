package server_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/callgrade/callgrade"
	"github.com/callgrade/callgrade/server"
)

// A Handler serves a suite that its Loader compiles; Reload calls the
// Loader again. callgrade.Open is callgrade serve's Loader: it installs the
// expression language and starts the suite's plugins, as callgrade score
// does.
func Example() {
	load := func() (*callgrade.Grader, error) {
		return callgrade.Open([]string{"../examples/weather/suite.yaml"}, callgrade.Options{})
	}
	h, err := server.New(load, server.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close()
	ts := httptest.NewServer(h)
	defer ts.Close()

	resp, err := http.Post(ts.URL+"/v1/score", "application/json", strings.NewReader(
		`{"id": "unit-left-to-its-default", "response": [{"name": "get_weather", "arguments": {"city": "Berlin"}}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Print(resp.StatusCode, " ", string(body))
	// Output:
	// 200 {"id":"unit-left-to-its-default","pass":true,"score":1,"calls":[{"expected":0,"actual":0,"pass":true,"score":1}],"diffs":[]}
}
