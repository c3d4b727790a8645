package catalog_test

import (
	"context"
	"errors"
	"testing"

	"github.com/agentfinance/toolkit/finance/catalog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompensationRunsNewestFirstOnce(t *testing.T) {
	var order []int
	c := &catalog.Compensation{}
	for i := range 3 {
		c.Add(func(context.Context) error { order = append(order, i); return nil })
	}
	require.True(t, c.Pending())
	require.NoError(t, c.Run(context.Background()))
	require.NoError(t, c.Run(context.Background()))
	assert.Equal(t, []int{2, 1, 0}, order)
	assert.False(t, c.Pending())
	var none *catalog.Compensation
	none.Add(func(context.Context) error { return errors.New("never runs") })
	assert.NoError(t, none.Run(context.Background()), "a nil Compensation keeps every write")
}
