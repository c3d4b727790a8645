package portal

import (
	"slices"
	"time"

	"github.com/agentfinance/toolkit/billing"
)

// chart is what assets/portal.js draws with uPlot: x values (unix
// seconds) and one series per label. It travels to the page as JSON in a
// data island (<script type="application/json">), never as script.
type chart struct {
	// Unit is "usd", "ms", "count" or "ratio": how the y axis reads.
	Unit   string        `json:"unit"`
	X      []int64       `json:"x"`
	Series []chartSeries `json:"series"`
}

type chartSeries struct {
	Label  string    `json:"label"`
	Values []float64 `json:"values"`
}

// Points counts the non-zero points of the chart (the page says so, and
// an empty chart says there is nothing to draw).
func (c chart) Points() int {
	n := 0
	for _, s := range c.Series {
		for _, v := range s.Values {
			if v != 0 {
				n++
			}
		}
	}
	return n
}

// days lists the UTC days from from through to.
func days(from, to time.Time) []time.Time {
	var out []time.Time
	for d := dayOf(from); !d.After(dayOf(to)); d = d.AddDate(0, 0, 1) {
		out = append(out, d)
	}
	return out
}

func dayOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// usageChart turns daily usage rows into one series of cost per day per
// key (the operation, or the agent with byAgent); names label the keys
// (missing: the key itself). Cost is plotted in dollars: a float for the
// drawing only, the tables show the exact amounts.
func usageChart(rows []billing.DailyUsage, from, to time.Time, byAgent bool, names map[string]string) chart {
	ds := days(from, to)
	c := chart{Unit: "usd", X: make([]int64, len(ds))}
	index := map[time.Time]int{}
	for i, d := range ds {
		c.X[i], index[d] = d.Unix(), i
	}
	series := map[string][]float64{}
	var keys []string
	for _, r := range rows {
		k := r.Operation
		if byAgent {
			k = r.AgentID
		}
		if series[k] == nil {
			series[k] = make([]float64, len(ds))
			keys = append(keys, k)
		}
		if i, ok := index[dayOf(r.Day)]; ok {
			series[k][i] += float64(r.TotalMicros) / 1e6
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		label := k
		if n := names[k]; n != "" {
			label = n
		}
		c.Series = append(c.Series, chartSeries{Label: label, Values: series[k]})
	}
	return c
}
