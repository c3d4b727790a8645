package httpapi_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/finance/catalog"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mainThreadTime is the CPU time the page's main thread has run so far
// (Chromium's TaskDuration): unlike wall time, it barely moves when other
// work loads the machine.
func mainThreadTime(t *testing.T, ctx context.Context) time.Duration {
	t.Helper()
	r, err := chromedp.Call(ctx, performance.GetMetrics, cdp.Empty{})
	require.NoError(t, err)
	for _, m := range r.Metrics {
		if m.Name == "TaskDuration" {
			return time.Duration(m.Value * float64(time.Second))
		}
	}
	t.Fatal("no TaskDuration metric")
	return 0
}

// docsStep is one step of a reader's session in /docs/, timed.
type docsStep struct {
	name      string
	wall, cpu time.Duration
}

// TestDocsTryItOutCallsTheFirstToolExample drives Swagger UI in headless
// Chromium as a new user would: the page lists the operations, POST
// /v1/tools/call expands with an example per tool in its picker, "Try it
// out" fills the body with the first example, and Execute with a funded
// agent's key answers 200. The subtree the page renders for a shortcut
// keeps the argument's own description and example (beside its $ref).
// It logs the wall and main-thread CPU time of each step: wall time moves
// with the machine's load; a test never asserts it.
func TestDocsTryItOutCallsTheFirstToolExample(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, k := e.register("acme")
	e.fund(k, "10")
	_, doc := e.do("GET", "/v1/openapi.json", nil, "")
	examples := doc["paths"].(map[string]any)["/v1/tools/call"].(map[string]any)["post"].(map[string]any)["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["examples"].(map[string]any)
	first := slices.Sorted(maps.Keys(examples))[0]

	ctx := newBrowser(t)
	_, err := chromedp.Call(ctx, performance.Enable, performance.EnableParams{TimeDomain: performance.EnableTimeDomainThreadTicks})
	require.NoError(t, err)
	var steps []docsStep
	step := func(name string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		wall, cpu := time.Now(), mainThreadTime(t, ctx)
		require.NoError(t, chromedp.Do(ctx, actions...), name)
		steps = append(steps, docsStep{name: name, wall: time.Since(wall), cpu: mainThreadTime(t, ctx) - cpu})
	}
	const op = "#operations-tools-callTool"
	step("load: operations listed", chromedp.Navigate(e.srv.URL+"/docs/"), chromedp.WaitVisible(chromedp.CSS(op)))
	step("expand callTool", chromedp.Click(chromedp.CSS(op+" .opblock-summary-control")), chromedp.WaitVisible(chromedp.CSS(op+" .try-out__btn")))
	options, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('`+op+` .opblock-section-request-body .examples-select option')].map(o => o.value)`))
	require.NoError(t, err)
	assert.ElementsMatch(t, slices.Collect(maps.Keys(examples)), options, "the example picker lists one example per tool, by name")

	_, err = chromedp.Run(ctx, chromedp.Evaluate[any](`ui.preauthorizeApiKey("ApiKey", "`+k+`")`))
	require.NoError(t, err)
	step("try it out", chromedp.Click(chromedp.CSS(op+" .try-out__btn")), chromedp.WaitVisible(chromedp.CSS(op+" textarea.body-param__text")))
	body, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(op+" textarea.body-param__text")))
	require.NoError(t, err)
	var got any
	require.NoError(t, json.Unmarshal([]byte(body), &got))
	assert.Equal(t, examples[first].(map[string]any)["value"], got, "the body is the first example, %s", first)

	step("execute", chromedp.Click(chromedp.CSS(op+" .execute")), chromedp.WaitVisible(chromedp.CSS(op+" .live-responses-table tbody .response-col_status")))
	status, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(op+" .live-responses-table tbody .response-col_status")))
	require.NoError(t, err)
	assert.Equal(t, "200", status, "the first example answers 200")

	const sizing = "#operations-sizing-calculatePositionSize"
	step("expand a shortcut", chromedp.Click(chromedp.CSS(sizing+" .opblock-summary-control")), chromedp.WaitVisible(chromedp.CSS(sizing+" .try-out__btn")))
	equity, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](`ui.specSelectors.specResolvedSubtree(["paths", "/v1/sizing/calculate", "post"])
		.getIn(["requestBody", "content", "application/json", "schema", "properties", "equity"]).toJS()`))
	require.NoError(t, err)
	sizingTool, _ := catalog.Default().Lookup("calculate_position_size")
	assert.Equal(t, sizingTool.InputSchema.Properties["equity"].Description, equity["description"], "the member's description beside its $ref is rendered")
	assert.Equal(t, []any{"25000"}, equity["examples"], "and its example, not one made from the pattern")
	assert.Equal(t, "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$", equity["pattern"], "with the referenced schema")

	var total docsStep
	for _, s := range steps {
		t.Logf("%-24s wall %6d ms, main-thread CPU %5d ms", s.name, s.wall.Milliseconds(), s.cpu.Milliseconds())
		if s.name == "load: operations listed" || s.name == "expand callTool" {
			total.wall, total.cpu = total.wall+s.wall, total.cpu+s.cpu
		}
	}
	t.Logf("%-24s wall %6d ms, main-thread CPU %5d ms", "load + expand callTool", total.wall.Milliseconds(), total.cpu.Milliseconds())
}
