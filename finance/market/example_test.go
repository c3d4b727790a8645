package market_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentfinance/toolkit"

	"github.com/agentfinance/toolkit/finance/market"
)

func ExampleSMA() {
	s, err := market.SMA([]float64{1, 2, 3, 4, 5}, 3)
	if err != nil {
		panic(err)
	}
	fmt.Println(s.First, s.Values)
	b, _ := json.Marshal(s)
	fmt.Println(string(b))
	// Output:
	// 2 [2 3 4]
	// [null,null,"2","3","4"]
}

func ExampleRSI() {
	up := []float64{10, 11, 12, 13, 14, 15}
	flat := []float64{10, 10, 10, 10, 10, 10}
	a, _ := market.RSI(up, 3)
	b, _ := market.RSI(flat, 3)
	fmt.Println(a.First, a.Values, b.Values) // flat: 50 (TA-Lib says 0)
	// Output: 3 [100 100 100] [50 50 50]
}

func ExampleMACD() {
	x := make([]float64, 40)
	for i := range x {
		x[i] = float64(100 + i)
	}
	m, _ := market.MACD(x, 12, 26, 9)
	v, _ := m.MACD.Last()
	fmt.Printf("first valid %d, macd %.4f\n", m.MACD.First, v)
	// Output: first valid 33, macd 7.0000
}

func ExampleCalculateIndicators() {
	bars := make([]market.Bar, 30)
	for i := range bars {
		c := toolkit.Float(100 + i%5) // 100, 101, 102, 103, 104, 100, ...
		bars[i] = market.Bar{Open: c, High: c + 1, Low: c - 1, Close: c, Volume: 1000}
	}
	period := 5 // optional parameters are pointers: nil takes the default
	answer, err := market.CalculateIndicators(context.Background(), bars, market.IndicatorRequest{Indicator: "bb", Period: &period})
	if err != nil {
		panic(err)
	}
	res := answer.Result // nil only for an insufficient_bars answer (fewer than 5 bars here)
	fmt.Println(res.FirstValidIndex, res.Latest["middle"], res.Latest["upper"])
	// Output: 4 102 104.828427125
}

func ExampleDetectRegime() {
	bars := make([]market.Bar, 150)
	for i := range bars {
		c := toolkit.Float(100 + i%7)
		bars[i] = market.Bar{Open: c, High: c + 1, Low: c - 1, Close: c, Volume: 1000}
	}
	answer, err := market.DetectRegime(context.Background(), bars)
	if err != nil {
		panic(err) // invalid bars
	}
	if answer.Insufficient != nil { // too few bars is an answer, as over HTTP
		b, _ := json.Marshal(answer)
		fmt.Println(string(b))
	}
	// Output:
	// {"error":"insufficient_bars","bars_provided":150,"bars_required":200,"message":"detect_regime needs at least 200 bars (latest last); 150 provided. Fetch more history and retry."}
}
