package value

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/callgrade/callgrade/internal/number"
	"github.com/tidwall/gjson"
)

// The benchmarks compare the hand-written scanner with the route it
// replaced: gjson.Valid, then one walk with ForEach into a Value. Both
// produce the same tree (TestGJSONRouteAgrees). Compare them with
//
//	go test -run='^$' -bench='^BenchmarkParse$' -count=6 ./value/ > bench.txt
//	benchstat -col /impl bench.txt

const flightsCall = `{"origin":"BER","destination":"SFO","max_price":500,"cabins":["economy","business"],"passengers":2}`

// nestedDoc is a tool call of about 2 KB with the nesting, escapes and
// number spellings that model output has.
const nestedDoc = `{
  "booking": {
    "reference": "CG-2024-000193",
    "status": "confirmed",
    "created_at": "2024-05-17T09:42:11Z",
    "contact": {"name": "Zoë Müller", "email": "zoe.mueller@example.com", "phone": "+49 30 1234567", "consent": {"marketing": false, "sms": true}},
    "passengers": [
      {"id": 1, "type": "adult", "first": "Zoë", "last": "Müller", "birth": "1988-02-29", "loyalty": {"programme": "Miles & More", "number": "992004318871", "tier": "senator"}, "seat": "3A", "meal": "VGML"},
      {"id": 2, "type": "adult", "first": "Jonas", "last": "Müller", "birth": "1986-11-03", "loyalty": null, "seat": "3C", "meal": null},
      {"id": 3, "type": "child", "first": "Mia", "last": "Müller", "birth": "2016-07-21", "loyalty": null, "seat": "3B", "meal": "CHML"}
    ],
    "itinerary": [
      {"segment": 1, "carrier": "LH", "flight": "LH 454", "from": {"iata": "BER", "terminal": "1", "time": "2024-06-01T10:05:00+02:00"}, "to": {"iata": "FRA", "terminal": "1", "time": "2024-06-01T11:15:00+02:00"}, "cabin": "business", "aircraft": "A320neo", "stops": 0},
      {"segment": 2, "carrier": "LH", "flight": "LH 454", "from": {"iata": "FRA", "terminal": "1", "time": "2024-06-01T13:20:00+02:00"}, "to": {"iata": "SFO", "terminal": "I", "time": "2024-06-01T15:55:00-07:00"}, "cabin": "business", "aircraft": "B747-8", "stops": 0}
    ],
    "price": {"currency": "EUR", "base": 3184.50, "taxes": [{"code": "DE", "amount": 70.43}, {"code": "RA", "amount": 1.2e1}, {"code": "YQ", "amount": 540}], "total": 3806.93, "refundable": false},
    "notes": "Window seats requested.\nChild travels with both parents; \"Mia\" needs assistance at FRA \u2014 gate change likely.\tThanks!",
    "tags": ["family", "business", "long-haul", "star-alliance"],
    "max_price": 4000,
    "flexible_dates": {"enabled": true, "window_days": 3, "prefer": ["2024-05-31", "2024-06-02"]}
  }
}`

// largeDoc builds an array of objects of at least n bytes.
func largeDoc(n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item-%d","price":%d.%02d,"in_stock":%v,"tags":["t%d","t%d"],"loc":{"lat":52.%04d,"lon":-13.%04d},"note":%s}`,
			i, i, i%1000, i%100, i%3 != 0, i%7, i%11, i%10000, (i*7)%10000,
			[]string{`null`, `"plain text"`, `"escaped \"quote\" and \u00e9"`}[i%3])
	}
	b.WriteByte(']')
	return b.String()
}

var benchDocs = []struct{ name, doc string }{
	{"flights", flightsCall},
	{"nested2k", nestedDoc},
	{"array1m", largeDoc(1 << 20)},
}

// parseGJSON is the gjson route: validate, then build the tree in one walk.
// gjson.Valid does not check UTF-8, so strings are checked while walking,
// as the scanner does.
func parseGJSON(s string) (Value, error) {
	if !gjson.Valid(s) {
		return Value{}, ErrSyntax
	}
	return fromGJSON(gjson.Parse(s))
}

var errGJSONUTF8 = errors.New("invalid UTF-8")

func fromGJSON(r gjson.Result) (Value, error) {
	switch r.Type {
	case gjson.Null:
		return Value{}, nil
	case gjson.False:
		return BoolOf(false), nil
	case gjson.True:
		return BoolOf(true), nil
	case gjson.Number:
		return NumberOf(r.Raw)
	case gjson.String:
		if !utf8.ValidString(r.Str) {
			return Value{}, errGJSONUTF8
		}
		return StringOf(r.Str), nil
	}
	var err error
	if r.IsArray() {
		var elems []Value
		r.ForEach(func(_, e gjson.Result) bool {
			var v Value
			v, err = fromGJSON(e)
			elems = append(elems, v)
			return err == nil
		})
		if err != nil {
			return Value{}, err
		}
		if elems == nil {
			elems = []Value{}
		}
		return ArrayOf(elems...), nil
	}
	var members []Member
	r.ForEach(func(k, e gjson.Result) bool {
		if !utf8.ValidString(k.Str) {
			err = errGJSONUTF8
			return false
		}
		var v Value
		v, err = fromGJSON(e)
		members = append(members, Member{Key: k.Str, Value: v})
		return err == nil
	})
	if err != nil {
		return Value{}, err
	}
	return ObjectOf(members...)
}

func TestGJSONRouteAgrees(t *testing.T) {
	for _, d := range benchDocs {
		v, err := Parse(d.doc)
		if err != nil {
			t.Fatalf("%s: Parse: %v", d.name, err)
		}
		g, err := parseGJSON(d.doc)
		if err != nil {
			t.Fatalf("%s: gjson route: %v", d.name, err)
		}
		if !Equal(v, g) || v.String() != g.String() {
			t.Errorf("%s: the two routes disagree", d.name)
		}
	}
	if n := len(nestedDoc); n < 1800 || n > 2300 {
		t.Errorf("nestedDoc is %d bytes, want about 2 KB", n)
	}
	if _, err := parseGJSON(`{"a":1,"a":2}`); !errors.Is(err, ErrDuplicateKey) {
		t.Errorf("gjson route: duplicate key error = %v", err)
	}
}

func BenchmarkParse(b *testing.B) {
	impls := []struct {
		name  string
		parse func(string) (Value, error)
	}{
		{"scanner", Parse},
		{"gjson", parseGJSON},
	}
	for _, impl := range impls {
		for _, d := range benchDocs {
			b.Run("impl="+impl.name+"/doc="+d.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(d.doc)))
				for b.Loop() {
					if _, err := impl.parse(d.doc); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkEqual(b *testing.B) {
	x, err := Parse(flightsCall)
	if err != nil {
		b.Fatal(err)
	}
	y, err := Parse(`{"passengers":2.0,"cabins":["economy","business"],"max_price":5e2,"destination":"SFO","origin":"BER"}`)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if !Equal(x, y) {
			b.Fatal("not Equal")
		}
	}
}

func BenchmarkCompareNumbers(b *testing.B) {
	pairs := []struct{ name, a, b string }{
		{"same", "500", "500"},
		{"respelt", "500", "5e2"},
		{"fraction", "0.30000000000000004", "0.3"},
		{"long", "123456789012345678901234567890.5", "123456789012345678901234567890.50e0"},
	}
	for _, p := range pairs {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = number.Compare(p.a, p.b)
			}
		})
	}
}
