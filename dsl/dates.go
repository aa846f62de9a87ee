package dsl

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/callgrade/callgrade/value"
)

// isoLayouts are tried first, on the text with 't' and 'z' upper-cased. A
// time without an offset is UTC; a date without a time is midnight UTC.
var isoLayouts = []string{
	time.RFC3339Nano, // also reads RFC 3339 without fractional seconds
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05Z0700",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
	"2006-01-02",
	"2006-1-2",
	"2006/01/02",
	"2006/1/2",
	"2006/01/02 15:04:05",
	"2006/01/02 15:04",
	"20060102",
}

// writtenLayouts are tried on written forms after commas, ordinal suffixes
// ("5th") and a leading weekday are removed. Month names match in any case.
var writtenLayouts = []string{
	"Jan 2 2006", "January 2 2006", "2 Jan 2006", "2 January 2006",
	"Jan 2 2006 15:04", "January 2 2006 15:04", "2 Jan 2006 15:04", "2 January 2006 15:04",
	"Jan 2 2006 15:04:05", "January 2 2006 15:04:05", "2 Jan 2006 15:04:05", "2 January 2006 15:04:05",
	"Jan 2 2006 3:04 PM", "January 2 2006 3:04 PM", "2 Jan 2006 3:04 PM", "2 January 2006 3:04 PM",
	"Jan 2 2006 3:04PM", "January 2 2006 3:04PM",
	"2 Jan 2006 15:04:05 -0700", "2 Jan 2006 15:04 -0700", "Jan 2 2006 15:04:05 -0700",
	"2006 Jan 2", "2006 January 2",
}

var weekdays = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
	"mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"}

// toTime is date(): a time.Time as is, or a string in one of the layouts.
func toTime(x any) (time.Time, error) {
	switch t := x.(type) {
	case time.Time:
		return t, nil
	case raw:
		if t.v.Kind() == value.String {
			return parseDate(t.v.Str())
		}
	case string:
		return parseDate(t)
	}
	return time.Time{}, fmt.Errorf("date: %s is not a string", brief(x))
}

// parseDate reads s as a date, in a zone that is its offset alone:
// time.Parse gives the machine's zone (its name, its location) to a time
// whose offset the machine's zone uses, which an expression could read
// through Zone, Location or Format("MST"), making its verdict depend on
// the machine.
func parseDate(s string) (time.Time, error) {
	t, err := parseDateLocal(s)
	if err == nil && t.Location() != time.UTC {
		_, off := t.Zone()
		t = t.In(time.FixedZone("", off))
	}
	return t, err
}

func parseDateLocal(s string) (time.Time, error) {
	if t, ok := fastDate(s); ok {
		return t, nil
	}
	text := strings.Join(strings.Fields(s), " ")
	if text == "" || len(text) > 64 {
		return time.Time{}, fmt.Errorf("date: cannot read %s as a date", brief(s))
	}
	if text[0] >= '0' && text[0] <= '9' {
		iso := strings.Map(func(r rune) rune {
			switch r {
			case 't':
				return 'T'
			case 'z':
				return 'Z'
			}
			return r
		}, text)
		for _, l := range isoLayouts {
			if t, err := time.Parse(l, iso); err == nil {
				return t, nil
			}
		}
	}
	w := written(text)
	for _, l := range writtenLayouts {
		if t, err := time.Parse(l, w); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("date: cannot read %s as a date", brief(s))
}

// written simplifies a written date: no commas or periods after words, no
// ordinal suffixes, no leading weekday, "Sept" as "Sep", "UTC"/"GMT" as
// +0000.
func written(s string) string {
	s = strings.NewReplacer(",", " ", ". ", " ").Replace(s)
	f := strings.Fields(s)
	if len(f) > 0 {
		w := strings.ToLower(strings.TrimSuffix(f[0], "."))
		for _, d := range weekdays {
			if w == d {
				f = f[1:]
				break
			}
		}
	}
	for i, w := range f {
		lw := strings.ToLower(w)
		switch {
		case lw == "sept":
			f[i] = "Sep"
		case lw == "utc" || lw == "gmt" || lw == "z":
			f[i] = "+0000"
		case lw == "am" || lw == "pm":
			f[i] = strings.ToUpper(w)
		case len(w) > 2 && unicode.IsDigit(rune(w[0])):
			if strings.HasSuffix(lw, "am") || strings.HasSuffix(lw, "pm") {
				f[i] = w[:len(w)-2] + strings.ToUpper(w[len(w)-2:])
				break
			}
			for _, suf := range []string{"st", "nd", "rd", "th"} {
				if strings.HasSuffix(lw, suf) && allDigits(w[:len(w)-2]) {
					f[i] = w[:len(w)-2]
				}
			}
		}
	}
	return strings.Join(f, " ")
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// fastDate reads the two commonest forms without trying layouts: a plain
// YYYY-MM-DD date and RFC 3339.
func fastDate(s string) (time.Time, bool) {
	if len(s) == 10 && s[4] == '-' && s[7] == '-' && allDigits(s[:4]) && allDigits(s[5:7]) && allDigits(s[8:]) {
		y := int(s[0]-'0')*1000 + int(s[1]-'0')*100 + int(s[2]-'0')*10 + int(s[3]-'0')
		m := time.Month(int(s[5]-'0')*10 + int(s[6]-'0'))
		d := int(s[8]-'0')*10 + int(s[9]-'0')
		t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		if m >= 1 && m <= 12 && t.Day() == d && t.Month() == m {
			return t, true
		}
		return time.Time{}, false
	}
	if len(s) >= 20 && s[10] == 'T' {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
