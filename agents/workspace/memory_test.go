package workspace_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corpus is the fixed corpus of the ranking golden test, stored in this
// order (one second apart); the last memory repeats the first, so their
// tie is broken newest first.
var corpus = []struct{ category, content string }{
	{"trades", "AAPL breakout above 190 on heavy volume; stop at 185."},
	{"macro", "Fed minutes: rates on hold, dovish tone, bonds rallied."},
	{"trades", "Breakout failed on AAPL; volume dried up after the open."},
	{"rules", "Risk rule: never risk more than 1% of equity per trade."},
	{"Trades", "TSLA gap down, no breakout, stayed flat all day."},
	{"analysis", "Volume profile shows support at 185 for AAPL."},
	{"macro", "Rates, rates, rates: every desk talks about rates."},
	{"analysis", "Überraschung: DAX-Ausbruch über 16000 Punkte."},
	{"analysis", "日本株のブレイクアウト戦略 breakout"},
	{"trades", "AAPL breakout above 190 on heavy volume; stop at 185."},
}

var queries = []struct{ query, category string }{
	{"AAPL breakout", ""},
	{"rates", ""},
	{"volume", ""},
	{"breakout", "TRADES"},
	{"ÜBERRASCHUNG", ""},
	{"戦略", ""},
	{"risk per trade", ""},
	{"nothing matches this", ""},
}

type goldenHit struct {
	Memory int    `json:"memory"`
	Score  string `json:"score"`
}

type goldenQuery struct {
	Query    string      `json:"query"`
	Category string      `json:"category,omitempty"`
	Terms    int         `json:"terms"`
	Hits     []goldenHit `json:"hits"`
}

func TestSearchRankingGolden(t *testing.T) {
	b := newBench(t)
	a := b.agent(t, "agt_golden", "owner")
	index := map[string]int{}
	for i, m := range corpus {
		st, err := b.svc.StoreMemory(ctx, a, workspace.MemoryInput{Content: m.content, Category: m.category})
		require.NoError(t, err)
		index[st.MemoryID] = i
	}
	var got []goldenQuery
	for _, q := range queries {
		res, err := b.svc.SearchMemory(ctx, a, workspace.SearchInput{Query: q.query, Category: q.category, Limit: 50})
		require.NoError(t, err)
		g := goldenQuery{Query: q.query, Category: q.category, Terms: res.QueryTerms, Hits: []goldenHit{}}
		for _, m := range res.Memories {
			score, _ := m.SimilarityScore.MarshalJSON()
			g.Hits = append(g.Hits, goldenHit{Memory: index[m.MemoryID], Score: strings.Trim(string(score), `"`)})
			assert.Equal(t, corpus[index[m.MemoryID]].content, m.Content, "opened content")
		}
		assert.Equal(t, len(res.Memories), res.Count)
		got = append(got, g)
	}
	out, err := json.MarshalIndent(got, "", "  ")
	require.NoError(t, err)
	path := filepath.Join("testdata", "search_golden.json")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, append(out, '\n'), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create the golden file")
	assert.JSONEq(t, string(want), string(out))

	// The ranking facts the golden file pins, spelled out.
	first := got[0].Hits
	require.GreaterOrEqual(t, len(first), 4)
	assert.Equal(t, []int{9, 2, 0}, []int{first[0].Memory, first[1].Memory, first[2].Memory}, "equal scores: newest first")
	assert.Equal(t, first[0].Score, first[2].Score)
	assert.Less(t, first[3].Score, first[0].Score)
	assert.Equal(t, 6, got[1].Hits[0].Memory, "four mentions of rates beat one")
	// By hand: N = 10 memories of 95 terms (avgdl 9.5), "rates" in 2, so
	// idf = ln(1 + 8.5/2.5) = ln 4.4; memory 6 has 8 terms, 4 of them rates:
	// ln 4.4 × 4 × 2.2 / (4 + 1.2 × (0.25 + 0.75 × 8/9.5)) = 2.57778.
	assert.Equal(t, "2.57777605872", got[1].Hits[0].Score)
	for _, h := range got[3].Hits {
		assert.Equal(t, "trades", strings.ToLower(corpus[h.Memory].category), "category filter is case-insensitive")
	}
	assert.Equal(t, 7, got[4].Hits[0].Memory, "NFKC and lower case: ÜBERRASCHUNG finds Überraschung")
	assert.Equal(t, 8, got[5].Hits[0].Memory, "Han runes are terms of their own")
	assert.Empty(t, got[7].Hits)
}

func TestMemoriesAreIsolatedBetweenAgentsOfOneOwner(t *testing.T) {
	b := newBench(t)
	alice := b.agent(t, "agt_alice", "acme")
	bob := b.agent(t, "agt_bob", "acme")
	mine, err := b.svc.StoreMemory(ctx, alice, workspace.MemoryInput{Content: "shared secret word zebra"})
	require.NoError(t, err)
	theirs, err := b.svc.StoreMemory(ctx, bob, workspace.MemoryInput{Content: "zebra zebra zebra from bob"})
	require.NoError(t, err)

	res, err := b.svc.SearchMemory(ctx, alice, workspace.SearchInput{Query: "zebra"})
	require.NoError(t, err)
	require.Len(t, res.Memories, 1)
	assert.Equal(t, mine.MemoryID, res.Memories[0].MemoryID)
	res, err = b.svc.SearchMemory(ctx, bob, workspace.SearchInput{Query: "zebra secret"})
	require.NoError(t, err)
	require.Len(t, res.Memories, 1)
	assert.Equal(t, theirs.MemoryID, res.Memories[0].MemoryID)

	err = b.svc.DeleteMemory(ctx, alice, theirs.MemoryID)
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "another agent's memory is not found: %v", err)
	res, err = b.svc.SearchMemory(ctx, bob, workspace.SearchInput{Query: "zebra"})
	require.NoError(t, err)
	assert.Len(t, res.Memories, 1, "bob's memory survived alice's attempt")

	// The same word hashes differently for the two agents.
	require.Len(t, b.rec.memories, 2)
	assert.NotEqual(t, postingSet(b.rec.memories[0]), postingSet(b.rec.memories[1]))
	for _, p := range b.rec.memories[0].Postings {
		assert.NotContains(t, postingSet(b.rec.memories[1]), string(p.TermHash))
	}
}

func postingSet(m workspace.MemoryRecord) map[string]bool {
	out := map[string]bool{}
	for _, p := range m.Postings {
		out[string(p.TermHash)] = true
	}
	return out
}

func TestMemoryReachesTheStoreSealedAndHashed(t *testing.T) {
	b := newBench(t)
	a := b.agent(t, "agt_sealed", "o")
	secret := "quokka-plaintext marmalade"
	_, err := b.svc.StoreMemory(ctx, a, workspace.MemoryInput{Content: secret, Category: "private-category",
		Metadata: json.RawMessage(`{"source": "marmalade-meta", "n": 3}`)})
	require.NoError(t, err)
	written := b.rec.written()
	require.NotEmpty(t, written)
	for _, plain := range []string{"quokka", "marmalade", "plaintext", "private-category", "marmalade-meta", "source"} {
		assert.False(t, bytes.Contains(written, []byte(plain)), "%q reached the store in the clear", plain)
	}
	m := b.rec.memories[0]
	assert.Len(t, m.Postings, 3, "quokka, plaintext, marmalade")
	for _, p := range m.Postings {
		assert.Len(t, p.TermHash, 32)
		assert.EqualValues(t, 1, p.Count)
	}
	assert.EqualValues(t, 3, m.Length)
	res, err := b.svc.SearchMemory(ctx, a, workspace.SearchInput{Query: "Marmalade"})
	require.NoError(t, err)
	require.Len(t, res.Memories, 1)
	assert.Equal(t, secret, res.Memories[0].Content)
	assert.Equal(t, "private-category", res.Memories[0].Category)
	assert.JSONEq(t, `{"source":"marmalade-meta","n":3}`, string(res.Memories[0].Metadata))
}

func TestMemoryQuotas(t *testing.T) {
	t.Run("count", func(t *testing.T) {
		b := newBench(t, func(c *workspace.Config) { c.MaxMemories = 2 })
		a := b.agent(t, "agt_count", "o")
		first, err := b.svc.StoreMemory(ctx, a, workspace.MemoryInput{Content: "one"})
		require.NoError(t, err)
		_, err = b.svc.StoreMemory(ctx, a, workspace.MemoryInput{Content: "two"})
		require.NoError(t, err)
		_, err = b.svc.StoreMemory(ctx, a, workspace.MemoryInput{Content: "three"})
		require.Error(t, err)
		assert.True(t, toolkit.IsKind(err, toolkit.Conflict), "%v", err)
		assert.Contains(t, err.Error(), "at most 2 memories")
		require.NoError(t, b.svc.DeleteMemory(ctx, a, first.MemoryID))
		_, err = b.svc.StoreMemory(ctx, a, workspace.MemoryInput{Content: "three"})
		assert.NoError(t, err, "a deleted memory gives its place back")
		other := b.agent(t, "agt_other", "o")
		_, err = b.svc.StoreMemory(ctx, other, workspace.MemoryInput{Content: "quota is per agent"})
		assert.NoError(t, err)
	})
	t.Run("bytes", func(t *testing.T) {
		b := newBench(t, func(c *workspace.Config) { c.MaxMemoryBytes = 40 })
		a := b.agent(t, "agt_bytes", "o")
		st, err := b.svc.StoreMemory(ctx, a, workspace.MemoryInput{Content: strings.Repeat("a", 20)})
		require.NoError(t, err)
		assert.EqualValues(t, 27, st.Bytes, "content and the default category")
		_, err = b.svc.StoreMemory(ctx, a, workspace.MemoryInput{Content: strings.Repeat("b", 20)})
		require.Error(t, err)
		assert.True(t, toolkit.IsKind(err, toolkit.TooLarge), "%v", err)
		assert.Contains(t, err.Error(), "27 are used and this memory needs 27")
	})
}

func TestMemoryBadInputWritesNothing(t *testing.T) {
	cases := []struct {
		name string
		in   workspace.MemoryInput
		msg  string
		kind toolkit.Kind
	}{
		{"empty content", workspace.MemoryInput{}, "content: must be 1 to 10000 characters long, got 0", toolkit.Invalid},
		{"long content", workspace.MemoryInput{Content: strings.Repeat("é", 10_001)}, "content: must be 1 to 10000", toolkit.Invalid},
		{"control character", workspace.MemoryInput{Content: "a\x00b"}, "content: must not contain control characters", toolkit.Invalid},
		{"invalid UTF-8", workspace.MemoryInput{Content: "a\xffb"}, "content: must be valid UTF-8", toolkit.Invalid},
		{"long category", workspace.MemoryInput{Content: "x", Category: strings.Repeat("c", 65)}, "category: must be 1 to 64", toolkit.Invalid},
		{"metadata array", workspace.MemoryInput{Content: "x", Metadata: json.RawMessage(`[1]`)}, "metadata: must be a JSON object", toolkit.Invalid},
		{"metadata broken", workspace.MemoryInput{Content: "x", Metadata: json.RawMessage(`{"a":`)}, "metadata: must be a JSON object", toolkit.Invalid},
		{"metadata too big", workspace.MemoryInput{Content: "x", Metadata: json.RawMessage(`{"a":"` + strings.Repeat("m", 4100) + `"}`)},
			"metadata: at most 4096 bytes", toolkit.TooLarge},
	}
	b := newBench(t)
	a := b.agent(t, "agt_bad", "o")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := b.svc.StoreMemory(ctx, a, tc.in)
			require.Error(t, err)
			assert.True(t, toolkit.IsKind(err, tc.kind), "%v", err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
	assert.Empty(t, b.rec.memories, "nothing reached the store")

	searches := []struct {
		in  workspace.SearchInput
		msg string
	}{
		{workspace.SearchInput{}, "query: must be 1 to 1000"},
		{workspace.SearchInput{Query: "?!"}, "query: must contain at least one letter or digit"},
		{workspace.SearchInput{Query: strings.Repeat("w ", 0) + manyTerms(33)}, "query: at most 32 distinct terms"},
		{workspace.SearchInput{Query: "x", Limit: 51}, "limit: must be between 1 and 50"},
		{workspace.SearchInput{Query: "x", Limit: -1}, "limit: must be between 1 and 50"},
	}
	for _, tc := range searches {
		_, err := b.svc.SearchMemory(ctx, a, tc.in)
		require.Error(t, err)
		assert.True(t, toolkit.IsKind(err, toolkit.Invalid), "%v", err)
		assert.Contains(t, err.Error(), tc.msg)
	}
	err := b.svc.DeleteMemory(ctx, a, "mem_nope")
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "%v", err)
}

func manyTerms(n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = "w" + strings.Repeat("x", i+1)
	}
	return strings.Join(words, " ")
}

func TestTerms(t *testing.T) {
	cases := []struct {
		text   string
		counts map[string]int64
		length int64
	}{
		{"Hello, hello WORLD!", map[string]int64{"hello": 2, "world": 1}, 3},
		{"ﬁnance ＡＢＣ x²", map[string]int64{"finance": 1, "abc": 1, "x2": 1}, 3},
		{"stop-loss at 185.50", map[string]int64{"stop": 1, "loss": 1, "at": 1, "185": 1, "50": 1}, 5},
		{"日本株 abc", map[string]int64{"日": 1, "本": 1, "株": 1, "abc": 1}, 4},
		{"नमस्ते दुनिया", map[string]int64{"नमस्ते": 1, "दुनिया": 1}, 2},
		{" ... ", map[string]int64{}, 0},
	}
	for _, tc := range cases {
		counts, length := workspace.Terms(tc.text)
		assert.Equal(t, tc.counts, counts, tc.text)
		assert.Equal(t, tc.length, length, tc.text)
	}
}
