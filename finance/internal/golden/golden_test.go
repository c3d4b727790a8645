package golden

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}

func TestAssertJSON(t *testing.T) {
	cases := []struct {
		want, got string
		equal     bool
	}{
		{`{"a":"1.5","b":[1,2],"c":"x"}`, `{"c":"x","b":[1,2],"a":"1.5"}`, true},
		{`{"a":"100"}`, `{"a":"100.000000001"}`, true},   // within 1e-10 relative
		{`{"a":"100"}`, `{"a":"100.00000002"}`, false},   // beyond 1e-10 relative
		{`{"a":"0.5"}`, `{"a":"0.5000000000005"}`, true}, // within 1e-10 relative
		{`{"a":"1e-9"}`, `{"a":"1.01e-9"}`, false},       // relative, also below 1
		{`{"a":"0"}`, `{"a":"1e-19"}`, true},             // float noise around 0
		{`{"a":"100"}`, `{"a":"100.001"}`, false},        // beyond the tolerance
		{`{"a":1}`, `{"a":1.0000000000001}`, false},      // JSON numbers (counts, seeds) compare exactly
		{`{"a":"x"}`, `{"a":"y"}`, false},                // text compares exactly
		{`{"a":"1"}`, `{"a":1}`, false},                  // a string is not a number
		{`{"a":[1,2]}`, `{"a":[1]}`, false},              // array length
		{`{"a":1}`, `{"a":1,"b":2}`, false},              // extra key
		{`{"a":1,"b":null}`, `{"a":1,"c":null}`, false},  // other key
		{`{"a":true}`, `{"a":false}`, false},             // booleans
		{`{"a":null}`, `{"a":"0"}`, false},               // null
		{`[{"a":"1"}]`, `[{"a":"2"}]`, false},            // nested
	}
	for _, c := range cases {
		r := &recorder{TB: t}
		AssertJSON(r, []byte(c.want), []byte(c.got), "case")
		assert.Equal(t, c.equal, !r.failed, "%s vs %s", c.want, c.got)
	}
}

func TestCheckReadsTheGoldenFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "testdata", "x.json")
	r := &recorder{TB: t}
	*update = true
	Check(r, path, map[string]any{"a": "1.5"})
	*update = false
	assert.False(t, r.failed, "-update writes the file")
	Check(r, path, map[string]any{"a": "1.5000000000001"})
	assert.False(t, r.failed)
	Check(r, path, map[string]any{"a": "2"})
	assert.True(t, r.failed)
}
