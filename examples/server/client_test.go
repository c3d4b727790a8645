package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/examples/client"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite ../client/openapi.json from the reference server")

// clientsSource is the OpenAPI document the generated clients are made
// from (examples/client, examples/client-ts).
const clientsSource = "../client/openapi.json"

// documentBaseURL is the server URL of the committed document.
const documentBaseURL = "https://toolkit.agentfinance.test"

// serveForClients runs the reference server over a fresh SQLite database
// and returns its URL.
func serveForClients(t *testing.T, args ...string) string {
	t.Helper()
	return startServer(t, append([]string{"-db", filepath.Join(t.TempDir(), "toolkit.db")}, args...)...).base
}

// TestOpenAPIDocumentIsTheClientsSource: the committed document the
// clients are generated from is the reference server's (-update rewrites
// it; then run go generate ./examples/client).
func TestOpenAPIDocumentIsTheClientsSource(t *testing.T) {
	base := serveForClients(t, "-base-url", documentBaseURL)
	res, err := http.Get(base + "/v1/openapi.json")
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	var live any
	require.NoError(t, json.NewDecoder(res.Body).Decode(&live))
	if *update {
		b, err := json.MarshalIndent(live, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(clientsSource, append(b, '\n'), 0o644))
	}
	raw, err := os.ReadFile(clientsSource)
	require.NoError(t, err)
	var committed any
	require.NoError(t, json.Unmarshal(raw, &committed))
	require.Equal(t, committed, live, "the API changed: run go test ./examples/server -run TestOpenAPIDocumentIsTheClientsSource -update, then go generate ./examples/client")
}

// TestGeneratedClientWalksTheREADME drives the reference server through
// the generated Go client as the walk-through does (README and
// docs/walkthrough.md): register, deposit, balance,
// a priced shortcut, a tool call with a typed result, and the ledger a
// page at a time.
func TestGeneratedClientWalksTheREADME(t *testing.T) {
	base := serveForClients(t)
	ctx := context.Background()
	c, err := client.NewClientWithResponses(base)
	require.NoError(t, err)

	reg, err := c.RegisterAgentWithResponse(ctx, nil, client.RegisterRequest{
		OwnerId: "readme-" + time.Now().UTC().Format("20060102T150405.000000000"), AgentName: "RiskBot", AgentType: client.RegisterRequestAgentTypeTrading})
	require.NoError(t, err)
	require.NotNil(t, reg.JSON201, "%d %s", reg.StatusCode(), reg.Body)
	assert.Equal(t, client.RegisterResponseModeSandbox, reg.JSON201.Mode)
	assert.NotEmpty(t, reg.HTTPResponse.Header.Get("X-Request-Id"))
	var withKey client.RequestEditorFn = func(_ context.Context, req *http.Request) error {
		req.Header.Set("X-API-Key", reg.JSON201.ApiKey)
		return nil
	}

	dep, err := c.DepositWithResponse(ctx, nil, client.DepositRequest{Amount: "5.00", FundingPath: client.DepositRequestFundingPathDirectTransfer}, withKey)
	require.NoError(t, err)
	require.NotNil(t, dep.JSON200, "%d %s", dep.StatusCode(), dep.Body)
	assert.Equal(t, "5.00", dep.JSON200.SandboxBalance, "self-credit is test money")
	assert.Equal(t, "0.00", dep.JSON200.RealBalance, "never real money")
	assert.Equal(t, "5.00", dep.JSON200.Balance, "what the sandbox agent's calls are paid from")

	bal, err := c.GetBalanceWithResponse(ctx, nil, withKey)
	require.NoError(t, err)
	require.NotNil(t, bal.JSON200)
	assert.Equal(t, reg.JSON201.AgentId, bal.JSON200.AgentId)

	sizing := client.CalculatePositionSizeArguments{Equity: "100000", EntryPrice: "185.50", StopPrice: "180.00", Direction: client.CalculatePositionSizeArgumentsDirectionLong}
	short, err := c.CalculatePositionSizeWithResponse(ctx, nil, sizing, withKey)
	require.NoError(t, err)
	require.NotNil(t, short.JSON200, "%d %s", short.StatusCode(), short.Body)
	assert.EqualValues(t, 363, short.JSON200.Shares)
	assert.Equal(t, "0.003", short.HTTPResponse.Header.Get("X-Charged"))
	assert.Equal(t, "4.997", short.HTTPResponse.Header.Get("X-Balance"))

	var body client.CallToolJSONRequestBody
	require.NoError(t, body.FromCalculatePositionSizeCall(client.CalculatePositionSizeCall{
		ToolName: client.CalculatePositionSizeCallToolNameCalculatePositionSize, Arguments: sizing}))
	called, err := c.CallToolWithResponse(ctx, &client.CallToolParams{IdempotencyKey: ptr("readme-1")}, body, withKey)
	require.NoError(t, err)
	require.NotNil(t, called.JSON200, "%d %s", called.StatusCode(), called.Body)
	answer, err := called.JSON200.AsCalculatePositionSizeAnswer()
	require.NoError(t, err)
	assert.EqualValues(t, 363, answer.Result.Shares, "the result is typed per tool")
	assert.Equal(t, "2000.00", answer.Result.RiskAmount)

	again, err := c.CallToolWithResponse(ctx, &client.CallToolParams{IdempotencyKey: ptr("readme-1")}, body, withKey)
	require.NoError(t, err)
	assert.Equal(t, "true", again.HTTPResponse.Header.Get("Idempotent-Replayed"))

	for range 3 {
		_, err := c.DepositWithResponse(ctx, nil, client.DepositRequest{Amount: "1", FundingPath: client.DepositRequestFundingPathDirectTransfer}, withKey)
		require.NoError(t, err)
	}
	var seen []string
	params := &client.ListTransactionsParams{Limit: ptr(2)}
	for pages := 0; ; pages++ {
		require.Less(t, pages, 10)
		page, err := c.ListTransactionsWithResponse(ctx, params, withKey)
		require.NoError(t, err)
		require.NotNil(t, page.JSON200, "%d %s", page.StatusCode(), page.Body)
		for _, tx := range page.JSON200.Transactions {
			seen = append(seen, tx.TxId)
		}
		if !page.JSON200.HasMore {
			assert.Nil(t, page.JSON200.NextCursor)
			break
		}
		params.Cursor = page.JSON200.NextCursor
	}
	assert.Len(t, seen, 6, "four deposits and two charges, each once")

	bad, err := c.ListTransactionsWithResponse(ctx, &client.ListTransactionsParams{Cursor: ptr("bogus")}, withKey)
	require.NoError(t, err)
	require.NotNil(t, bad.JSON400)
	assert.Equal(t, client.ErrorBodyCodeInvalid, bad.JSON400.Code)
	assert.True(t, bytes.Contains(bad.Body, []byte("cursor")))
}

func ptr[T any](v T) *T { return &v }
