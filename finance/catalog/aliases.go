package catalog

// aliases maps the published names of tools to the catalog's names (the
// published service used both spellings). record_trade_outcome is the
// published SDK's name of record_trade_journal, a workspace tool the
// wiring registers (agents/workspace); without it the alias finds nothing.
var aliases = map[string]string{
	"calculate_confidence":     "analyze_confidence",
	"calculate_risk_adjusted":  "analyze_risk_adjusted",
	"analyze_segmentation":     "segment_trades",
	"analyze_peak_valley":      "detect_peak_valley",
	"calculate_options_size":   "size_options_position",
	"calculate_futures_size":   "size_futures_position",
	"record_trade_outcome":     "record_trade_journal",
	"calculate_system_r_score": "calculate_system_score",
}

// Resolve returns the tool called name, or the tool a published alias
// names.
func (c *Catalog) Resolve(name string) (Tool, bool) {
	if t, ok := c.Lookup(name); ok {
		return t, true
	}
	return c.Lookup(aliases[name])
}
