package httpapi_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	// decimalText is a string field holding one decimal number.
	decimalText = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)
	// exponentText is a number in exponent form, in a field or in a sentence.
	exponentText = regexp.MustCompile(`[0-9](\.[0-9]+)?[eE][+-]?[0-9]+\b`)
	// decimalInText is a decimal number quoted in a sentence.
	decimalInText = regexp.MustCompile(`-?[0-9]+\.[0-9]+`)
)

// significantDigits counts the significant digits of a plain decimal.
func significantDigits(s string) int {
	digits := strings.TrimLeft(strings.Replace(strings.TrimPrefix(s, "-"), ".", "", 1), "0")
	if strings.Contains(s, ".") {
		return len(digits)
	}
	return len(strings.TrimRight(digits, "0"))
}

// numberFormatProblems lists the number texts of an answer that break the
// output rules: a decimal string ending in a lone ".0" (or with zeros
// after the money form's two decimals), an exponent anywhere, or a
// statistic quoted in a sentence with more than 12 significant digits.
func numberFormatProblems(path string, v any, out []string) []string {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out = numberFormatProblems(path+"."+k, v[k], out)
		}
	case []any:
		for i, x := range v {
			out = numberFormatProblems(fmt.Sprintf("%s[%d]", path, i), x, out)
		}
	case string:
		if exponentText.MatchString(v) {
			return append(out, fmt.Sprintf("%s: exponent form in %q", path, v))
		}
		if decimalText.MatchString(v) {
			if _, frac, ok := strings.Cut(v, "."); ok && (frac == "0" || len(frac) > 2 && strings.HasSuffix(frac, "0")) {
				out = append(out, fmt.Sprintf("%s: trailing zero in %q", path, v))
			}
			return out
		}
		for _, n := range decimalInText.FindAllString(v, -1) {
			if significantDigits(n) > toolkit.SignificantDigits {
				out = append(out, fmt.Sprintf("%s: %s has more than %d significant digits in %q", path, n, toolkit.SignificantDigits, v))
			}
		}
	}
	return out
}

func TestNumberFormatProblemsCatchesBadTexts(t *testing.T) {
	bad := map[string]any{"a": "400.0", "b": "1.2500", "c": "1e-05", "d": []any{"mean R 0.5666666666666667 (must be > 0)"}, "e": "p = 1.2e-07"}
	assert.Len(t, numberFormatProblems("", bad, nil), 5)
	good := map[string]any{"a": "400", "b": "1.25", "c": "2500.00", "d": "mean R 0.566666666667 (must be > 0)", "e": "0.10", "f": "2026-03-09"}
	assert.Empty(t, numberFormatProblems("", good, nil))
}

// extraNumberFormatCalls are arguments beyond the schema examples that
// reach answers the examples do not: the option modes that print other
// figures.
var extraNumberFormatCalls = []struct{ tool, args string }{
	{"size_options_position", `{"mode":"delta_adjusted","equity":"100000","risk_pct":"0.02","delta":"1.0","underlying_entry":"100","underlying_stop":"95"}`},
	{"size_options_position", `{"mode":"spread","equity":"100000","risk_pct":"0.02","spread_width":"5.0","credit_received":"1.50"}`},
	{"size_options_position", `{"mode":"premium","equity":"100000","risk_pct":"0.02","entry_premium":"2.50"}`},
	{"size_futures_position", `{"mode":"tick_value","equity":"100000.0","risk_pct":"0.010","entry_price":"4500.0","stop_price":"4490.0","tick_size":"0.25","tick_value":"12.50"}`},
	{"size_futures_position", `{"mode":"margin_based","available_margin":"50000.0","initial_margin_per_contract":"12000.0","max_margin_usage_pct":"0.50"}`},
	{"size_futures_position", `{"mode":"notional","max_notional":"1000000.0","contract_price":"4500.0","contract_multiplier":50}`},
	{"assess_trading_system", `{"r_multiples":["1.5","-1.0","2.0","-0.5","0.8","-1.0","3.0"]}`},
	{"evaluate_performance", `{"r_multiples":["1.5","-1.0","2.0","-0.5","0.8","-1.0","3.0","-2.5"],"tier":"comprehensive"}`},
	{"calculate_rolling_g", `{"r_multiples":["1","-0.5"]}`},
}

// TestEveryToolAnswerFollowsTheNumberFormats runs all 45 tools with the
// catalog's example arguments (as a client reading only the schemas
// builds them), plus the modes the examples do not reach, and checks
// every number text of every answer: no trailing ".0" on a decimal
// string, no exponent, and statistics in sentences (verdict_reasons,
// summaries, evidence) at most 12 significant digits, like the fields.
func TestEveryToolAnswerFollowsTheNumberFormats(t *testing.T) {
	e := newEnv(t, withFullCatalog)
	_, k := e.register("formats")
	e.fund(k, "100")
	status, list := e.do("GET", "/v1/tools/list", nil, "")
	require.Equal(t, http.StatusOK, status)
	tools := list["tools"].([]any)
	require.Len(t, tools, 45)
	calls := map[string][]string{}
	for _, raw := range tools {
		tool := raw.(map[string]any)
		schema := tool["input_schema"].(map[string]any)
		args, err := schemaArguments{root: schema}.object(schema)
		require.NoError(t, err, tool["name"])
		b, err := json.Marshal(args)
		require.NoError(t, err)
		calls[tool["name"].(string)] = append(calls[tool["name"].(string)], string(b))
	}
	for _, c := range extraNumberFormatCalls {
		calls[c.tool] = append(calls[c.tool], c.args)
	}
	for _, name := range slices.Sorted(maps.Keys(calls)) {
		t.Run(name, func(t *testing.T) {
			for _, args := range calls[name] {
				status, answer := e.do("POST", "/v1/tools/call", key(k), `{"tool_name":"`+name+`","arguments":`+args+`}`)
				require.Equal(t, http.StatusOK, status, "%s: %v", args, answer)
				assert.Empty(t, numberFormatProblems(name, answer["result"], nil), args)
			}
		})
	}
}
