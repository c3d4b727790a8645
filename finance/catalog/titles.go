package catalog

// titles are the human titles of the built-in tools and of the workspace
// tools (agents/workspace), by tool name: what MCP clients show instead
// of the snake_case name. A test checks every tool of the full catalog
// has one.
var titles = map[string]string{
	// core and compound
	"calculate_position_size": "Position Size (Fixed Fractional)",
	"check_trade_risk":        "Trade Risk Check",
	"evaluate_performance":    "Performance Evaluation (G-Metric)",
	"pre_trade_gate":          "Pre-Trade Gate",
	"assess_trading_system":   "Trading System Assessment",
	// performance
	"run_monte_carlo":           "Monte Carlo Equity Simulation",
	"calculate_kelly":           "Kelly Fraction and Risk of Ruin",
	"analyze_drawdown":          "Drawdown Analysis",
	"find_variance_killers":     "Variance-Killer Trades",
	"analyze_win_loss":          "Win/Loss Statistics",
	"run_what_if":               "What-If Scenarios",
	"calculate_rolling_g":       "Rolling G and Edge Trend",
	"calculate_equity_curve":    "Equity Curve from R-Multiples",
	"calculate_system_score":    "System R Score",
	"detect_peak_valley":        "Equity Peaks and Valleys",
	"analyze_recovery":          "Drawdown Recovery",
	"analyze_confidence":        "Confidence Intervals of the Edge",
	"analyze_consistency":       "Edge Consistency",
	"analyze_correlation":       "Serial Correlation of Trades",
	"analyze_distribution":      "R-Multiple Distribution",
	"analyze_risk_adjusted":     "Risk-Adjusted Ratios (Sharpe, Sortino, Calmar)",
	"analyze_execution_quality": "Execution Quality (MAE/MFE)",
	"segment_trades":            "Trade Segmentation",
	"calculate_pnl":             "Trade P&L",
	"calculate_expected_value":  "Expected Value per Trade",
	"analyze_trade_outcome":     "Trade Outcome Grade",
	"score_signal":              "Signal Quality Score",
	// market
	"calculate_indicators":    "Technical Indicators (TA-Lib)",
	"detect_regime":           "Market Regime",
	"analyze_trend_structure": "Volatility Phase and Squeeze",
	"analyze_liquidity":       "Liquidity State",
	"analyze_correlations":    "Cross-Asset Correlation Matrix",
	"detect_patterns":         "Candlestick and Chart Patterns",
	"detect_structural_break": "Structural Break Test",
	"analyze_price_structure": "Price Structure (Swings, Support, Resistance)",
	// derivatives and compliance
	"size_options_position": "Options Position Size",
	"size_futures_position": "Futures Position Size",
	"analyze_greeks":        "Option Greeks (Black-Scholes-Merton)",
	"analyze_futures_curve": "Futures Curve (Contango, Backwardation)",
	"calculate_margin":      "Margin Requirements",
	"check_compliance":      "Position Limits and Concentration",
	// workspace
	"store_memory":         "Store Memory",
	"search_memory":        "Search Memories",
	"record_trade_journal": "Record Trade in Journal",
	"get_trading_biases":   "Trading Biases",
}
