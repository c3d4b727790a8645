package strictjson

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// asError returns err as the *toolkit.Error it must be.
func asError(t *testing.T, err error) *toolkit.Error {
	t.Helper()
	require.Error(t, err)
	te, ok := err.(*toolkit.Error)
	require.True(t, ok, "%T", err)
	return te
}

// TestEveryViolationIsListed: one answer names every violation, in
// document order, each with its field and rule; the message and kind are
// the first one's.
func TestEveryViolationIsListed(t *testing.T) {
	v := compileTest(t, Options{Noun: "argument"})
	doc := `{"equity":"abc","risk":"2","name":"","count":1.5,"flag":"yes","values":["1","x"],"tags":[1,"abcd"],"meta":"m"}`
	te := asError(t, v.Validate([]byte(doc), nil, nil))
	assert.Equal(t, toolkit.Invalid, te.Kind)
	assert.Equal(t, `equity: "abc" is not a number like "1.5" or "1.5e-05"`, te.Msg)
	type fr struct{ field, rule string }
	var got []fr
	for _, f := range te.Fields {
		got = append(got, fr{f.Field, f.Rule})
		assert.Contains(t, f.Message, f.Field, "each message names its field")
	}
	assert.Equal(t, []fr{
		{"equity", "pattern"}, {"risk", "maximum"}, {"name", "minLength"}, {"count", "type"}, {"flag", "type"},
		{"values[1]", "pattern"}, {"tags[0]", "type"}, {"tags[1]", "maxLength"}, {"meta", "type"},
		{"direction", "required"},
	}, got)
}

func TestViolationsAreCappedAtFifty(t *testing.T) {
	v := compileTest(t, Options{})
	doc := `{"equity":"1","direction":"long","tags":[` + strings.TrimSuffix(strings.Repeat(`"toolong",`, 500), ",") + `]}`
	te := asError(t, v.Validate([]byte(doc), nil, nil))
	require.Len(t, te.Fields, toolkit.MaxFieldErrors)
	assert.Equal(t, "tags[49]", te.Fields[49].Field)
}

// A limit stops the scan: the violations before it are kept, the limit
// is the last one.
func TestLimitEndsTheList(t *testing.T) {
	v := compileTest(t, Options{})
	doc := `{"equity":"x","direction":"long","values":["1","2","3","4","5"]}`
	te := asError(t, v.Validate([]byte(doc), nil, nil))
	require.Len(t, te.Fields, 2)
	assert.Equal(t, toolkit.FieldError{Field: "values", Rule: "maxItems", Message: "values: at most 4 items are accepted"}, te.Fields[1])
	assert.Equal(t, toolkit.Invalid, te.Kind, "the first violation sets the kind")
}

// Regression (issue 23, finding 3): the first key an object that forbids
// others does not list ends the scan, so 200,000 unknown keys cost one.
func TestUnknownKeyStopsTheScan(t *testing.T) {
	v := compileTest(t, Options{Noun: "argument"})
	var sb strings.Builder
	sb.WriteString(`{"equity":"1","direction":"long"`)
	for i := range 200_000 {
		fmt.Fprintf(&sb, `,"k%d":1`, i)
	}
	sb.WriteString("}")
	doc := []byte(sb.String())
	s := scanner{b: doc, v: v}
	te := asError(t, s.document())
	assert.Equal(t, toolkit.Invalid, te.Kind)
	assert.True(t, strings.HasPrefix(te.Msg, "Unknown argument: k0 (accepted arguments, closest first: "), te.Msg)
	assert.Less(t, s.i, 40, "the scan stopped at the first unknown key")
	assert.Equal(t, 3, s.values, "the root and two members were scanned, nothing after")
}

// Regression (issue 23, finding 3): a free-form object is capped in keys
// (Limits.MaxKeys), and the scan stops there.
func TestFreeFormObjectKeysAreCapped(t *testing.T) {
	v := compileTest(t, Options{Limits: Limits{MaxKeys: 100}})
	doc := []byte(`{"equity":"1","direction":"long","bars":[` + manyKeys(200_000, false) + `]}`)
	s := scanner{b: doc, v: v}
	te := asError(t, s.document())
	assert.Equal(t, toolkit.TooLarge, te.Kind)
	assert.Equal(t, "bars[0]: an object holds more than 100 members", te.Msg)
	assert.Less(t, s.values, 110, "the scan stopped at the cap")
}

// Duplicates are found whatever the object's size: before and after the
// key set moves from its slice to a map.
func TestDuplicateKeysInLargeObjects(t *testing.T) {
	v := compileTest(t, Options{})
	for _, n := range []int{2, smallObject, smallObject + 1, 900} {
		doc := `{"equity":"1","direction":"long","bars":[{` + strings.TrimPrefix(manyKeys(n, false), "{")
		doc = strings.TrimSuffix(doc, "}") + `,"k0":2}]}`
		te := asError(t, v.Validate([]byte(doc), nil, nil))
		assert.Equal(t, []toolkit.FieldError{{Field: "bars[0].k0", Rule: "duplicate",
			Message: "bars[0].k0: appears twice (each key may appear once)"}}, te.Fields, "n=%d", n)
		require.NoError(t, v.Validate([]byte(`{"equity":"1","direction":"long","bars":[`+manyKeys(n, false)+`]}`), nil, nil), "n=%d", n)
	}
	// 200,000 copies of one key: 50 violations, then the scan stops.
	s := scanner{b: []byte(`{"equity":"1","direction":"long","bars":[` + manyKeys(200_000, true) + `]}`), v: compileTest(t, Options{Limits: Limits{MaxKeys: 1 << 20}})}
	te := asError(t, s.document())
	assert.Len(t, te.Fields, toolkit.MaxFieldErrors)
	assert.Less(t, s.values, 60)
}

func TestKeySet(t *testing.T) {
	var k keySet
	for i := range 100 {
		require.True(t, k.add(strconv.Itoa(i)), i)
		require.False(t, k.add(strconv.Itoa(i/2)), i)
	}
	assert.Equal(t, 200, k.members)
	assert.True(t, k.has("99"))
	assert.False(t, k.has("100"))
}

// An unknown argument's message lists the accepted names, closest first.
func TestUnknownNamesClosestFirst(t *testing.T) {
	v := compileTest(t, Options{Noun: "argument"})
	te := asError(t, v.Validate([]byte(`{"equity":"1","direction":"long","cout":1}`), nil, nil))
	assert.Equal(t, "Unknown argument: cout (accepted arguments, closest first: count, bars, equity, flag, meta, name, pick, risk, tags, values, direction)", te.Msg)
	assert.Equal(t, []toolkit.FieldError{{Field: "cout", Rule: "unknown", Message: te.Msg}}, te.Fields)
}

// manyKeys is an object of n members "k0".."k<n-1>", or n times "k0".
func manyKeys(n int, same bool) string {
	var sb strings.Builder
	sb.WriteByte('{')
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		if same {
			sb.WriteString(`"k0":1`)
		} else {
			fmt.Fprintf(&sb, `"k%d":1`, i)
		}
	}
	sb.WriteByte('}')
	return sb.String()
}

// BenchmarkManyKeys: 200,000 keys in one object, with the key cap lifted
// so every key is checked for duplicates (linear: a map past 16 keys),
// and with the default cap (the scan stops at 1,000 keys).
func BenchmarkManyKeys(b *testing.B) {
	doc := []byte(`{"equity":"1","direction":"long","bars":[` + manyKeys(200_000, false) + `]}`)
	for _, bc := range []struct {
		name   string
		limits Limits
	}{{"uncapped", Limits{MaxKeys: 1 << 20}}, {"default", Limits{}}} {
		v := compileTest(b, Options{Limits: bc.limits})
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				_ = v.Validate(doc, nil, nil)
			}
		})
	}
}
