package guardian_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/agentfinance/toolkit/guardian"
	"github.com/stretchr/testify/assert"
)

// fault is a store adapter's error of a full disk or a read-only
// database (guardian.StorageFault).
type fault struct{ full bool }

func (f fault) Error() string  { return "storage fault" }
func (f fault) DiskFull() bool { return f.full }

// events is a Recorder keeping what it is told.
type events []guardian.Event

func (e *events) Record(_ context.Context, ev guardian.Event) { *e = append(*e, ev) }

func TestRecordStorageFaultRecordsTheFaultInTheChain(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want []guardian.Type
	}{
		{"disk full", fmt.Errorf("charge: %w", fault{full: true}), []guardian.Type{guardian.TypeDiskFull}},
		{"read-only", fault{}, []guardian.Type{guardian.TypeDatabaseReadOnly}},
		{"other", errors.New("connection refused"), nil},
		{"nil", nil, nil},
	}
	for _, tc := range cases {
		var got events
		assert.Equal(t, tc.want != nil, guardian.RecordStorageFault(context.Background(), &got, tc.err), tc.name)
		var types []guardian.Type
		for _, e := range got {
			types = append(types, e.Type)
		}
		assert.Equal(t, tc.want, types, tc.name)
	}
	assert.True(t, guardian.RecordStorageFault(context.Background(), nil, fault{}), "a nil recorder discards")
}
