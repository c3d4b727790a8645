package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// setUpAgents registers n sandbox agents, each under its own new owner,
// credits each with fund USD of test funds, and returns their API keys.
func setUpAgents(ctx context.Context, client *http.Client, base string, n int, fund string) ([]string, error) {
	run := make([]byte, 4)
	if _, err := rand.Read(run); err != nil {
		return nil, err
	}
	keys := make([]string, n)
	for i := range keys {
		var reg struct {
			APIKey string `json:"api_key"`
		}
		body := fmt.Sprintf(`{"owner_id":"load-%s-%d","agent_name":"load agent %d","agent_type":"trading"}`, hex.EncodeToString(run), i, i)
		if err := call(ctx, client, "POST", base+"/v1/agents/register", "", body, http.StatusCreated, &reg); err != nil {
			return nil, fmt.Errorf("register agent %d: %w", i, err)
		}
		if reg.APIKey == "" {
			return nil, fmt.Errorf("register agent %d: no api_key in the answer", i)
		}
		deposit := fmt.Sprintf(`{"amount":%q,"funding_path":"direct_transfer"}`, fund)
		if err := call(ctx, client, "POST", base+"/v1/billing/deposit", reg.APIKey, deposit, http.StatusOK, nil); err != nil {
			return nil, fmt.Errorf("fund agent %d with %s USD of test funds (is -sandbox-credit-cap at least that?): %w", i, fund, err)
		}
		keys[i] = reg.APIKey
	}
	return keys, nil
}

// call sends one JSON request and decodes the answer into out (when not
// nil); any status but want is an error quoting the body.
func call(ctx context.Context, client *http.Client, method, url, key, body string, want int, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewBufferString(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: status %d: %s", method, url, resp.StatusCode, bytes.TrimSpace(b))
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(b, out)
}
