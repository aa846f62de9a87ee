package main

import (
	"math"
	"testing"

	"github.com/callgrade/callgrade/value"
)

func TestPoint(t *testing.T) {
	tests := []struct {
		in       string
		lat, lon float64
		ok       bool
	}{
		{`{"lat": 52.52, "lon": 13.405}`, 52.52, 13.405, true},
		{`"52.52, 13.405"`, 52.52, 13.405, true},
		{`"-33.87,151.21"`, -33.87, 151.21, true},
		{`{"lat": 52.52}`, 0, 0, false},
		{`{"lat": "52", "lon": 13}`, 0, 0, false},
		{`"Berlin"`, 0, 0, false},
		{`"91,0"`, 0, 0, false},
		{`[52.52, 13.405]`, 0, 0, false},
	}
	for _, tt := range tests {
		v, err := value.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		lat, lon, err := point(v)
		if (err == nil) != tt.ok || lat != tt.lat || lon != tt.lon {
			t.Errorf("point(%s) = %v, %v, %v", tt.in, lat, lon, err)
		}
	}
}

func TestHaversine(t *testing.T) {
	// Berlin to Paris is about 878 km.
	if d := haversine(52.52, 13.405, 48.8566, 2.3522); math.Abs(d-878) > 2 {
		t.Errorf("Berlin-Paris = %v km", d)
	}
	if d := haversine(10, 20, 10, 20); d != 0 {
		t.Errorf("same point = %v", d)
	}
}
