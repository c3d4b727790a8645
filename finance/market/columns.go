package market

// OHLCV holds bars as columns (one slice per field), the layout every
// indicator takes.
type OHLCV struct {
	Open, High, Low, Close, Volume []float64
}

// Len returns the number of bars.
func (c OHLCV) Len() int { return len(c.Close) }

// Columns splits bars into columns with a single allocation.
func Columns(bars []Bar) OHLCV {
	c := splitColumns(make([]float64, 5*len(bars)), len(bars))
	fillColumns(c, bars, 0)
	return c
}

// splitColumns cuts buf (5·n values) into the five columns of n bars.
func splitColumns(buf []float64, n int) OHLCV {
	return OHLCV{
		Open: buf[0:n:n], High: buf[n : 2*n : 2*n], Low: buf[2*n : 3*n : 3*n],
		Close: buf[3*n : 4*n : 4*n], Volume: buf[4*n : 5*n : 5*n],
	}
}

// fillColumns writes bars lo.. into the columns at their indexes.
func fillColumns(c OHLCV, bars []Bar, lo int) {
	for i := lo; i < len(bars); i++ {
		b := &bars[i]
		c.Open[i], c.High[i], c.Low[i] = float64(b.Open), float64(b.High), float64(b.Low)
		c.Close[i], c.Volume[i] = float64(b.Close), float64(b.Volume)
	}
}
