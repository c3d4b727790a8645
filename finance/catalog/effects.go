package catalog

// Effect is what a tool call does besides computing its answer. MCP
// clients see it as the tool's annotations (read-only, idempotent,
// destructive).
type Effect uint8

const (
	// ReadOnly calls compute, or read the caller's data, and change
	// nothing: repeating one has no further effect. The zero value.
	ReadOnly Effect = iota
	// Appends calls add a record to the caller's data (a memory, a journal
	// trade): repeating one adds another; existing records are never
	// changed or removed.
	Appends
)
