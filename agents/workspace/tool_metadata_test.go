package workspace_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStoreMemoryMetadataAsText: store_memory takes its metadata as a JSON
// object or as the same object's JSON text (what hosts that publish the
// argument as a string send), and null for an unused argument as absent;
// anything else is refused naming metadata, before anything is stored.
func TestStoreMemoryMetadataAsText(t *testing.T) {
	b := newBench(t)
	a := b.agent(t, "agt_meta", "o")
	_, err := run(t, b, a, "store_memory", `{"content":"Trail the stop under each higher low","category":null,
		"metadata":"{\"source\": \"review\", \"week\": 12}"}`)
	require.NoError(t, err)
	_, err = run(t, b, a, "store_memory", `{"content":"No metadata at all","metadata":null}`)
	require.NoError(t, err)
	m, err := run(t, b, a, "search_memory", `{"query":"higher low","category":null,"limit":null}`)
	require.NoError(t, err)
	require.EqualValues(t, 1, m["count"])
	hit := m["memories"].([]any)[0].(map[string]any)
	assert.Equal(t, map[string]any{"source": "review", "week": float64(12)}, hit["metadata"])
	assert.Equal(t, "general", hit["category"], "a null category is the default")

	members := make([]string, 65)
	for i := range members {
		members[i] = fmt.Sprintf(`"k%d":1`, i)
	}
	for _, tc := range []struct{ metadata, want string }{
		{`"[1]"`, "metadata: must be a JSON object"},
		{`"{not json"`, "metadata: must be a JSON object"},
		{`7`, "metadata: must be a JSON object"},
		{`{` + strings.Join(members, ",") + `}`, "metadata: at most 64 members"},
		{`{"k":"` + strings.Repeat("x", 4100) + `"}`, "metadata: at most 4096 bytes"},
	} {
		_, err := run(t, b, a, "store_memory", `{"content":"x","metadata":`+tc.metadata+`}`)
		require.Error(t, err, tc.want)
		assert.Contains(t, toolkit.MessageOf(err), tc.want)
	}
	assert.Len(t, b.rec.memories, 2, "refused calls store nothing")
}
