package server_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/callgrade/callgrade/engine"
	"github.com/callgrade/callgrade/server"
	"github.com/callgrade/callgrade/suite"
)

// A Handler serves a suite that its Loader compiles; Reload calls the
// Loader again. callgrade serve's Loader also installs the expression
// language and starts the suite's plugins, as callgrade score does.
func Example() {
	load := func() (*server.Suite, error) {
		s, err := suite.Load("../examples/weather/suite.yaml")
		if err != nil {
			return nil, err
		}
		eng, err := engine.New(s, engine.Options{})
		if err != nil {
			return nil, err
		}
		return &server.Suite{Suite: s, Engine: eng}, nil
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
