package main

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// billingSteps fund an agent and make a priced call, so the ledger and
// usage tables hold rows. Nothing here is sealed; verified deposits
// (transaction signatures) and wallets are in walletSteps.
func billingSteps() []scenarioStep {
	return []scenarioStep{{name: "sandbox credit and a priced call", run: func(t *testing.T, s *scenario) {
		_, key := s.agent()
		status, m := s.call("POST", "/v1/billing/deposit", key, `{"amount":"5.00","funding_path":"direct_transfer"}`)
		require.Equal(t, http.StatusOK, status, m)
		status, m = s.call("POST", "/v1/tools/call", key, `{"tool_name":"calculate_position_size",
			"arguments":{"equity":"100000","entry_price":"185.50","stop_price":"180.00","direction":"long"}}`)
		require.Equal(t, http.StatusOK, status, m)
	}}}
}
