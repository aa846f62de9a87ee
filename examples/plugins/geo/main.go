// Command callgrade-geo is a comparator plugin for callgrade. Its one
// comparator, within_km, accepts two points at most params.km kilometres
// apart (great-circle distance, haversine). A point is an object
// {"lat": 52.52, "lon": 13.405} or a string "52.52,13.405".
//
// Build it from the repository root, where examples/plugins/geo/suite.yaml
// expects it:
//
//	go build -o bin/callgrade-geo ./examples/plugins/geo
package main

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/callgrade/callgrade/plugins/sdk"
	"github.com/callgrade/callgrade/value"
)

type params struct {
	Km float64 `json:"km" doc:"the largest distance accepted, in kilometres"`
}

func main() {
	sdk.Serve(sdk.Comparator("within_km", "two points at most km kilometres apart ({lat, lon} or \"lat,lon\")",
		func(_ context.Context, in sdk.Input, p params) (sdk.Result, error) {
			lat1, lon1, err := point(in.Expected)
			if err != nil {
				return sdk.Result{}, fmt.Errorf("expected value: %w", err) // the suite's mistake
			}
			lat2, lon2, err := point(in.Actual)
			if err != nil {
				return sdk.Result{Message: err.Error()}, nil // the model's mistake
			}
			d := haversine(lat1, lon1, lat2, lon2)
			return sdk.Result{Equal: d <= p.Km, Message: fmt.Sprintf("%.1f km apart, more than %g km", d, p.Km)}, nil
		}))
}

// haversine returns the great-circle distance between two points in km.
func haversine(lat1, lon1, lat2, lon2 float64) float64 {
	const earthKm = 6371.0088 // mean radius
	rad := math.Pi / 180
	dLat, dLon := (lat2-lat1)*rad, (lon2-lon1)*rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthKm * math.Asin(math.Min(1, math.Sqrt(a)))
}

// point reads {lat, lon} or "lat,lon".
func point(v value.Value) (lat, lon float64, err error) {
	switch v.Kind() {
	case value.Object:
		la, ok1 := v.Get("lat")
		lo, ok2 := v.Get("lon")
		if !ok1 || !ok2 {
			return 0, 0, fmt.Errorf("%s is not {lat, lon}", v)
		}
		var ok bool
		if lat, ok = la.Float(); !ok {
			return 0, 0, fmt.Errorf("lat %s is not a number", la)
		}
		if lon, ok = lo.Float(); !ok {
			return 0, 0, fmt.Errorf("lon %s is not a number", lo)
		}
	case value.String:
		a, b, ok := strings.Cut(v.Str(), ",")
		if !ok {
			return 0, 0, fmt.Errorf("%s is not \"lat,lon\"", v)
		}
		if lat, err = strconv.ParseFloat(strings.TrimSpace(a), 64); err != nil {
			return 0, 0, fmt.Errorf("%s is not \"lat,lon\"", v)
		}
		if lon, err = strconv.ParseFloat(strings.TrimSpace(b), 64); err != nil {
			return 0, 0, fmt.Errorf("%s is not \"lat,lon\"", v)
		}
	default:
		return 0, 0, fmt.Errorf("%s is not a point", v)
	}
	if math.Abs(lat) > 90 || math.Abs(lon) > 180 {
		return 0, 0, fmt.Errorf("%s is not on Earth", v)
	}
	return lat, lon, nil
}
