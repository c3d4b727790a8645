package catalog

import (
	"encoding/json"
	"slices"
	"sort"
)

// OperationChoice is one operation a tool's calls are billed as, and the
// argument value that selects it (Argument and Value are empty when the
// tool always bills the same operation).
type OperationChoice struct {
	Argument  string // e.g. "tier"
	Value     string // e.g. "full"
	Operation string // e.g. "full_eval"
}

// BilledOperations lists the operations a call of t can be billed as: one
// for most tools (Operation); for a tool whose OperationFor picks the
// operation by an enumerated argument (evaluate_performance by "tier"),
// one per distinct operation, with the first enum value that selects it,
// in enum order. Documents use it to show every price of a tool.
func (t Tool) BilledOperations() []OperationChoice {
	single := []OperationChoice{{Operation: t.Operation}}
	if t.OperationFor == nil || t.InputSchema == nil {
		return single
	}
	names := make([]string, 0, len(t.InputSchema.Properties))
	for name := range t.InputSchema.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		var choices []OperationChoice
		for _, v := range t.InputSchema.Properties[name].Enum {
			value, ok := v.(string)
			if !ok {
				continue
			}
			args, _ := json.Marshal(map[string]string{name: value}) // cannot fail
			op := t.OperationFor(args)
			if !slices.ContainsFunc(choices, func(c OperationChoice) bool { return c.Operation == op }) {
				choices = append(choices, OperationChoice{Argument: name, Value: value, Operation: op})
			}
		}
		if len(choices) > 1 {
			return choices
		}
	}
	return single
}
