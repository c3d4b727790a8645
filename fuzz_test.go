package toolkit

import (
	"encoding/json"
	"strconv"
	"testing"
)

// FuzzParseAmount: the strict parser never panics, whatever it accepts
// round-trips through its text and JSON forms unchanged, and rounding an
// accepted amount never fails (the input range keeps it within 34 digits).
func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"0", "-0.5", "185.50", "1e3", "NaN", "", "+1", "0x10", "1.", ".5", "99999999999999999999.123456789"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAmount(s)
		if err != nil {
			return
		}
		again, err := ParseAmount(a.String())
		if err != nil || again.String() != a.String() {
			t.Fatalf("ParseAmount(%q) = %q does not parse to itself: %v", s, a.String(), err)
		}
		if _, err := a.Round(MaxAmountPlaces, RoundHalfEven); err != nil {
			t.Fatalf("rounding %q: %v", s, err)
		}
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		var back Amount
		if err := json.Unmarshal(b, &back); err != nil || back.Cmp(a) != 0 {
			t.Fatalf("JSON round trip of %q: %s, %v", s, back, err)
		}
		if m, err := a.Micros(); err == nil && AmountFromMicros(m).Cmp(a) != 0 {
			t.Fatalf("Micros of %q lost value: %d", s, m)
		}
	})
}

// FuzzFloats: the fast array decoder never panics, and every value it
// accepts equals strconv.ParseFloat of the same text.
func FuzzFloats(f *testing.F) {
	for _, s := range []string{`["1.5",-1,"0.25"]`, `[]`, `[1,]`, `["1e3"]`, `[" 1"]`, `["1,5"]`, `[1 2]`, `[[1]]`, `["-0.0"]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var fs Floats
		if err := json.Unmarshal([]byte(s), &fs); err != nil {
			return
		}
		var generic []any
		if err := json.Unmarshal([]byte(s), &generic); err != nil {
			t.Fatalf("Floats accepted invalid JSON %q", s)
		}
		if len(generic) != len(fs) {
			t.Fatalf("%q: %d values, JSON has %d", s, len(fs), len(generic))
		}
		for i, g := range generic {
			var text string
			switch v := g.(type) {
			case string:
				text = v
			case float64:
				text = strconv.FormatFloat(v, 'g', -1, 64)
			default:
				t.Fatalf("%q: item %d is %T", s, i, g)
			}
			want, err := strconv.ParseFloat(text, 64)
			if err != nil || want != fs[i] {
				t.Fatalf("%q: item %d = %v, want %v (%v)", s, i, fs[i], want, err)
			}
		}
	})
}
