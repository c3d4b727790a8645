package support

import "github.com/agentfinance/toolkit"

// List limits: like the ledger, 100 items by default and at most 1000.
const (
	DefaultListLimit = 100
	MaxListLimit     = 1000
)

// listKeyset pages the support lists: tickets and submissions, newest
// first by (CreatedAt, ID).
var listKeyset = toolkit.Keyset{Tag: "p1", DefaultLimit: DefaultListLimit, MaxLimit: MaxListLimit, ValidID: validRecordID}
