package performance

import (
	"math"

	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGUsesPopulationVariance(t *testing.T) {
	r := []float64{1.5, -1.0, 2.3, -0.5, 1.8, -1.0, 3.2, 0.8}
	// mean 0.8875, population variance 2.2010937..., G = -0.2130468...
	assert.InDelta(t, 0.8875, Mean(r), 1e-15)
	assert.InDelta(t, 2.20109375, PopVariance(r), 1e-12)
	assert.InDelta(t, 0.8875-2.20109375/2, G(r), 1e-12)
	assert.InDelta(t, math.Sqrt(2.20109375*8/7), SampleStdDev(r), 1e-12)
	assert.Zero(t, G(nil))
}

func TestInvalidNamesField(t *testing.T) {
	err := invalid("r_multiples", "needs at least %d values", 2)
	assert.EqualError(t, err, "invalid: r_multiples: needs at least 2 values")
}

// ref returns a pointer to v, for an optional input.
func ref[T any](v T) *T { return &v }
