// Package market holds the analytics on OHLCV bars: TA-Lib-compatible
// indicators, market regime, candlestick and chart patterns, structural
// breaks, trend and price structure, liquidity and cross-symbol
// correlation. It is pure: float64 arithmetic, no I/O. Bars are ordered
// oldest first (latest last).
package market
