package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out))
	s := out.String()
	assert.Contains(t, s, "sizing: 5000 shares, risking 500.00 of a 500.00 budget, notional 51500.00")
	assert.Contains(t, s, "gate: passed=false shares=363")
	assert.Contains(t, s, "above max_position_size_pct 50")
	assert.Contains(t, s, "health=POSITIVE_EDGE")
	assert.Contains(t, s, "assessment: STRONG_SYSTEM")
	assert.Contains(t, s, `sizing JSON: {"shares":5000,"risk_amount":"500.00"`)
}
