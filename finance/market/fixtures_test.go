package market

import (
	"encoding/json"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The -update flag rewrites the golden files. It is registered here unless
// another test file of the package registered it already (package-level
// variables are initialised before init functions run).
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files under testdata")
	}
}

// updateGolden reports whether -update was given.
func updateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// randomBars builds n seeded random-walk bars with per-bar volatility vol.
// Only +, *, / are used (normals by the Irwin-Hall sum of 12 uniforms), so
// the series is bit-identical on every platform.
func randomBars(seed uint64, n int, vol float64) []Bar {
	rng := rand.New(rand.NewPCG(seed, 99))
	normal := func() float64 {
		s := -6.0
		for range 12 {
			s += rng.Float64()
		}
		return s
	}
	bars := make([]Bar, n)
	p := 100.0
	for i := range bars {
		o := p * (1 + 0.3*vol*normal())
		c := o * (1 + vol*normal())
		h := max(o, c) * (1 + 0.5*vol*rng.Float64())
		l := min(o, c) * (1 - 0.5*vol*rng.Float64())
		bars[i] = Bar{Open: toolkit.Float(o), High: toolkit.Float(h), Low: toolkit.Float(l), Close: toolkit.Float(c),
			Volume: toolkit.Float(1000 + 10*float64(i%7))}
		p = c
	}
	return bars
}

// pathBars builds bars following the closes: each bar opens at the prior
// close (the first at its own close) with wicks of w beyond the body.
func pathBars(closes []float64, w float64) []Bar {
	bars := make([]Bar, len(closes))
	for i, c := range closes {
		o := c
		if i > 0 {
			o = closes[i-1]
		}
		bars[i] = Bar{Open: toolkit.Float(o), High: toolkit.Float(max(o, c) + w), Low: toolkit.Float(min(o, c) - w),
			Close: toolkit.Float(c), Volume: 1}
	}
	return bars
}

// linePath joins the (index, price) knots with straight lines.
func linePath(knots ...[2]float64) []float64 {
	var out []float64
	for j := 1; j < len(knots); j++ {
		a, b := knots[j-1], knots[j]
		steps := int(b[0] - a[0])
		for s := 0; s < steps; s++ {
			out = append(out, a[1]+(b[1]-a[1])*float64(s)/float64(steps))
		}
		if j == len(knots)-1 {
			out = append(out, b[1])
		}
	}
	return out
}

// checkGoldenB compares v, as JSON, with testdata/<name>, numbers within a
// relative 1e-9 (strings holding decimals are compared as numbers), and
// rewrites the file under -update.
func checkGoldenB(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", " ")
	require.NoError(t, err)
	path := filepath.Join("testdata", name)
	if updateGolden() {
		require.NoError(t, os.WriteFile(path, append(got, '\n'), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create %s", path)
	var g, w any
	require.NoError(t, json.Unmarshal(got, &g))
	require.NoError(t, json.Unmarshal(want, &w))
	jsonCloseB(t, w, g, "$")
}

func jsonCloseB(t *testing.T, want, got any, path string) {
	t.Helper()
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		require.True(t, ok, "%s: not an object", path)
		require.Equal(t, len(w), len(g), "%s: keys", path)
		for k, v := range w {
			jsonCloseB(t, v, g[k], path+"."+k)
		}
	case []any:
		g, ok := got.([]any)
		require.True(t, ok, "%s: not an array", path)
		require.Equal(t, len(w), len(g), "%s: length", path)
		for i := range w {
			jsonCloseB(t, w[i], g[i], path+"["+strconv.Itoa(i)+"]")
		}
	case string:
		g, _ := got.(string)
		wf, err1 := strconv.ParseFloat(w, 64)
		gf, err2 := strconv.ParseFloat(g, 64)
		if err1 == nil && err2 == nil {
			assert.InDelta(t, wf, gf, 1e-9*math.Max(1, math.Abs(wf)), path)
			return
		}
		assert.Equal(t, w, g, path)
	default:
		assert.Equal(t, want, got, path)
	}
}
