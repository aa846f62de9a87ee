package sdk_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/callgrade/callgrade/plugins/internal/pluginpb"
	"github.com/callgrade/callgrade/plugins/sdk"
	"github.com/callgrade/callgrade/value"
)

func TestDerivedSchemas(t *testing.T) {
	type nested struct {
		Km     float64  `json:"km" doc:"kilometres"`
		Labels []string `json:"labels,omitempty"`
		Strict bool
		skip   int //lint:ignore U1000 an unexported field, which the schema must leave out
		Not    int `json:"-"`
	}
	fn := func(context.Context, sdk.Input, nested) (sdk.Result, error) { return sdk.Result{}, nil }
	tests := []struct {
		def  sdk.Def
		want string
	}{
		{sdk.Comparator("a", "", fn),
			`{"additionalProperties":false,"properties":{"Strict":{"type":"boolean"},"km":{"description":"kilometres","type":"number"},"labels":{"items":{"type":"string"},"type":"array"}},"required":["km","Strict"],"type":"object"}`},
		{sdk.Comparator("b", "", func(context.Context, sdk.Input, map[string]any) (sdk.Result, error) { return sdk.Result{}, nil }),
			`{"type":"object"}`},
		{sdk.Comparator("c", "", func(context.Context, sdk.Input, any) (sdk.Result, error) { return sdk.Result{}, nil }),
			`{"type":"object"}`},
		{sdk.Comparator("d", "", fn).WithSchema(`{"type":"object","required":["x"]}`),
			`{"type":"object","required":["x"]}`},
	}
	for _, tt := range tests {
		resp, err := sdk.NewServer(tt.def).Describe(context.Background(), &pluginpb.DescribeRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if got := resp.Comparators[0].ParamsSchema; got != tt.want {
			t.Errorf("%s: got %s\nwant %s", resp.Comparators[0].Name, got, tt.want)
		}
	}
}

func TestCompareBatch(t *testing.T) {
	type params struct {
		Max float64 `json:"max"`
	}
	score := 0.5
	srv := sdk.NewServer(sdk.Comparator("le", "actual <= params.max",
		func(_ context.Context, in sdk.Input, p params) (sdk.Result, error) {
			f, ok := in.Actual.Float()
			switch {
			case !ok:
				return sdk.Result{}, errors.New("not a number")
			case f == 13:
				panic("unlucky")
			case f == 7:
				return sdk.Result{Equal: true, Score: &score}, nil
			}
			if _, err := value.Parse(in.Args); err != nil {
				return sdk.Result{}, err
			}
			return sdk.Result{Equal: f <= p.Max, Message: in.Path}, nil
		}))
	item := func(comp, actual, params string) *pluginpb.CompareItem {
		return &pluginpb.CompareItem{Comparator: comp, Path: "p", Expected: "0", Actual: actual, Params: params, Args: `{"p":` + actual + `}`}
	}
	tests := []struct {
		item *pluginpb.CompareItem
		want string
	}{
		{item("le", "5", `{"max": 6}`), "true p <nil>"},
		{item("le", "7", `{"max": 6}`), "true  0.5"},
		{item("le", "8", `{"max": 6}`), "false p <nil>"},
		{item("le", `"x"`, `{"max": 6}`), "error: not a number"},
		{item("le", "13", `{"max": 6}`), "error: comparator le panicked: unlucky"},
		{item("le", "5", `{"max": "6"}`), "error: params: json: cannot unmarshal string into Go struct field params.max of type float64"},
		{item("ge", "5", `{}`), `error: no comparator "ge"`},
		{item("le", "{", `{}`), "error: actual value: invalid JSON"},
	}
	// want is a prefix of the result. Once one by one, once in a batch large enough to run in parallel.
	var all []*pluginpb.CompareItem
	for range 50 {
		for _, tt := range tests {
			all = append(all, tt.item)
		}
	}
	for _, items := range [][]*pluginpb.CompareItem{all[:len(tests)], all} {
		resp, err := srv.CompareBatch(context.Background(), &pluginpb.CompareBatchRequest{Items: items})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Results) != len(items) {
			t.Fatalf("%d results for %d items", len(resp.Results), len(items))
		}
		for i, r := range resp.Results {
			got := "error: " + r.Error
			if r.Error == "" {
				s := "<nil>"
				if r.Score != nil {
					s = strconv.FormatFloat(*r.Score, 'g', -1, 64)
				}
				got = strconv.FormatBool(r.Equal) + " " + r.Message + " " + s
			}
			if want := tests[i%len(tests)].want; !strings.HasPrefix(got, want) {
				t.Errorf("item %d: got %q, want %q", i, got, want)
			}
		}
	}
}
