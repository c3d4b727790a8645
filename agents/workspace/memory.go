package workspace

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentfinance/toolkit"
	"golang.org/x/text/unicode/norm"
)

// Memory limits.
const (
	// MaxContentLen bounds a memory's content in characters.
	MaxContentLen = 10_000
	// MaxCategoryLen bounds a category in characters.
	MaxCategoryLen = 64
	// MaxMetadataBytes bounds a memory's metadata object (compact JSON).
	MaxMetadataBytes = 4096
	// DefaultCategory is the category of a memory stored without one.
	DefaultCategory = "general"
	// MaxQueryLen bounds a search query in characters.
	MaxQueryLen = 1000
	// MaxQueryTerms bounds the distinct terms of a query.
	MaxQueryTerms = 32
	// DefaultSearchLimit and MaxSearchLimit bound the memories a search
	// returns.
	DefaultSearchLimit = 10
	MaxSearchLimit     = 50
)

// MemoryInput is a memory to store.
type MemoryInput struct {
	// Content is 1 to MaxContentLen characters; it is indexed and sealed.
	Content string
	// Category is optional (DefaultCategory); up to MaxCategoryLen
	// characters. Searches filter on it case-insensitively.
	Category string
	// Metadata is an optional JSON object of at most MaxMetadataBytes
	// (compacted); it is sealed and returned with the memory, not indexed.
	Metadata json.RawMessage
}

// StoredMemory is the answer of StoreMemory.
type StoredMemory struct {
	MemoryID string    `json:"memory_id"`
	Category string    `json:"category"`
	StoredAt time.Time `json:"stored_at"`
	// Terms is the memory's length in index terms.
	Terms int64 `json:"terms"`
	// Bytes is what the memory counts against the agent's storage quota.
	Bytes int64 `json:"bytes"`
}

// SearchInput is a memory search.
type SearchInput struct {
	// Query is 1 to MaxQueryLen characters with 1 to MaxQueryTerms
	// distinct terms (see Terms).
	Query string
	// Category, when set, keeps only memories of that category.
	Category string
	// Limit is 1 to MaxSearchLimit (0: DefaultSearchLimit).
	Limit int
}

// Memory is a memory found by a search.
type Memory struct {
	MemoryID string          `json:"memory_id"`
	Content  string          `json:"content"`
	Category string          `json:"category"`
	Metadata json.RawMessage `json:"metadata"`
	// SimilarityScore is the BM25 score (see rankBM25), > 0.
	SimilarityScore toolkit.Float `json:"similarity_score"`
	StoredAt        time.Time     `json:"stored_at"`
}

// SearchResult is the answer of SearchMemory.
type SearchResult struct {
	// Memories are ordered by score, then newest first.
	Memories []Memory `json:"memories"`
	Count    int      `json:"count"`
	// QueryTerms is the number of distinct terms searched for.
	QueryTerms int `json:"query_terms"`
}

// StoreMemory indexes, seals and stores a memory of agentID.
func (s *Service) StoreMemory(ctx context.Context, agentID string, in MemoryInput) (StoredMemory, error) {
	const op = "workspace.StoreMemory"
	category, metadata, err := in.validate()
	if err != nil {
		return StoredMemory{}, err
	}
	id, err := s.newID(memoryIDPrefix)
	if err != nil {
		return StoredMemory{}, toolkit.WithOp(op, err)
	}
	counts, length := Terms(in.Content)
	postings := make([]Posting, 0, len(counts))
	for term, n := range counts {
		h, err := s.agentHash(hashMemoryTerm, agentID, term)
		if err != nil {
			return StoredMemory{}, toolkit.WithOp(op, err)
		}
		postings = append(postings, Posting{TermHash: h, Count: n})
	}
	slices.SortFunc(postings, func(a, b Posting) int { return bytes.Compare(a.TermHash, b.TermHash) })
	rec := MemoryRecord{ID: id, AgentID: agentID, Postings: postings, Length: length, StoredAt: s.timestamp(),
		Bytes: int64(len(in.Content) + len(category) + len(metadata))}
	if rec.CategoryHash, err = s.agentHash(hashMemoryCategory, agentID, categoryKey(category)); err != nil {
		return StoredMemory{}, toolkit.WithOp(op, err)
	}
	for _, f := range []struct {
		dst   *[]byte
		field string
		value []byte
	}{{&rec.Content, fieldMemoryContent, []byte(in.Content)}, {&rec.Category, fieldMemoryCategory, []byte(category)}} {
		if *f.dst, err = s.vault.Seal(ctx, agentID, sealedField(f.field, id), f.value); err != nil {
			return StoredMemory{}, toolkit.WithOp(op, err)
		}
	}
	if metadata != nil {
		if rec.Metadata, err = s.vault.Seal(ctx, agentID, sealedField(fieldMemoryMetadata, id), metadata); err != nil {
			return StoredMemory{}, toolkit.WithOp(op, err)
		}
	}
	if err := s.store.AddMemory(ctx, rec, MemoryQuota{MaxCount: s.cfg.MaxMemories, MaxBytes: s.cfg.MaxMemoryBytes}); err != nil {
		return StoredMemory{}, toolkit.WithOp(op, err)
	}
	return StoredMemory{MemoryID: id, Category: category, StoredAt: rec.StoredAt, Terms: length, Bytes: rec.Bytes}, nil
}

// SearchMemory ranks agentID's own memories against the query with BM25
// and returns the best, opened.
func (s *Service) SearchMemory(ctx context.Context, agentID string, in SearchInput) (SearchResult, error) {
	const op = "workspace.SearchMemory"
	limit, err := in.validate()
	if err != nil {
		return SearchResult{}, err
	}
	counts, _ := Terms(in.Query)
	if len(counts) == 0 {
		return SearchResult{}, invalid("query: must contain at least one letter or digit")
	}
	if len(counts) > MaxQueryTerms {
		return SearchResult{}, invalid("query: at most %d distinct terms are searched for, got %d", MaxQueryTerms, len(counts))
	}
	q := IndexQuery{AgentID: agentID}
	keys := make([]string, 0, len(counts))
	for term := range counts {
		h, err := s.agentHash(hashMemoryTerm, agentID, term)
		if err != nil {
			return SearchResult{}, toolkit.WithOp(op, err)
		}
		q.TermHashes = append(q.TermHashes, h)
		keys = append(keys, string(h))
	}
	if in.Category != "" {
		if q.CategoryHash, err = s.agentHash(hashMemoryCategory, agentID, categoryKey(in.Category)); err != nil {
			return SearchResult{}, toolkit.WithOp(op, err)
		}
	}
	snap, err := s.store.MemoryIndex(ctx, q)
	if err != nil {
		return SearchResult{}, toolkit.WithOp(op, err)
	}
	ranked := rankBM25(snap, keys)
	ranked = ranked[:min(limit, len(ranked))]
	ids := make([]string, len(ranked))
	for i, r := range ranked {
		ids[i] = r.MemoryID
	}
	recs, err := s.store.Memories(ctx, agentID, ids)
	if err != nil {
		return SearchResult{}, toolkit.WithOp(op, err)
	}
	byID := make(map[string]MemoryRecord, len(recs))
	for _, r := range recs {
		byID[r.ID] = r
	}
	out := SearchResult{Memories: []Memory{}, QueryTerms: len(keys)}
	for _, r := range ranked {
		rec, ok := byID[r.MemoryID]
		if !ok {
			continue // deleted between the two reads
		}
		m, err := s.openMemory(ctx, rec)
		if err != nil {
			return SearchResult{}, toolkit.WithOp(op, err)
		}
		m.SimilarityScore = toolkit.Float(r.score)
		out.Memories = append(out.Memories, m)
	}
	out.Count = len(out.Memories)
	return out, nil
}

// DeleteMemory deletes one of agentID's memories and gives its quota back.
// Another agent's memory is toolkit.NotFound, like a missing one.
func (s *Service) DeleteMemory(ctx context.Context, agentID, memoryID string) error {
	if !validID(memoryIDPrefix, memoryID) {
		return toolkit.Errorf(toolkit.NotFound, "memory_id: no memory %s", quoteShort(memoryID))
	}
	if err := s.store.DeleteMemory(ctx, agentID, memoryID); err != nil {
		if toolkit.IsKind(err, toolkit.NotFound) {
			return toolkit.Errorf(toolkit.NotFound, "memory_id: no memory %s", quoteShort(memoryID))
		}
		return toolkit.WithOp("workspace.DeleteMemory", err)
	}
	return nil
}

// openMemory opens a stored memory's sealed fields.
func (s *Service) openMemory(ctx context.Context, rec MemoryRecord) (Memory, error) {
	content, err := s.vault.OpenString(ctx, rec.AgentID, sealedField(fieldMemoryContent, rec.ID), rec.Content)
	if err != nil {
		return Memory{}, err
	}
	category, err := s.vault.OpenString(ctx, rec.AgentID, sealedField(fieldMemoryCategory, rec.ID), rec.Category)
	if err != nil {
		return Memory{}, err
	}
	metadata := json.RawMessage("{}")
	if rec.Metadata != nil {
		if metadata, err = s.vault.Open(ctx, rec.AgentID, sealedField(fieldMemoryMetadata, rec.ID), rec.Metadata); err != nil {
			return Memory{}, err
		}
	}
	return Memory{MemoryID: rec.ID, Content: content, Category: category, Metadata: metadata, StoredAt: rec.StoredAt}, nil
}

// validate checks a memory and returns its category (default applied) and
// compact metadata (nil when none).
func (in MemoryInput) validate() (string, []byte, error) {
	if err := checkText("content", in.Content, 1, MaxContentLen); err != nil {
		return "", nil, err
	}
	category := strings.TrimSpace(in.Category)
	if category == "" {
		category = DefaultCategory
	}
	if err := checkText("category", category, 1, MaxCategoryLen); err != nil {
		return "", nil, err
	}
	meta := bytes.TrimSpace(in.Metadata)
	if len(meta) == 0 || bytes.Equal(meta, []byte("null")) {
		return category, nil, nil
	}
	if meta[0] != '{' || !json.Valid(meta) {
		return "", nil, invalid("metadata: must be a JSON object")
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, meta); err != nil {
		return "", nil, invalid("metadata: must be a JSON object")
	}
	if compact.Len() > MaxMetadataBytes {
		return "", nil, toolkit.Errorf(toolkit.TooLarge, "metadata: at most %d bytes of compact JSON, got %d", MaxMetadataBytes, compact.Len())
	}
	return category, compact.Bytes(), nil
}

func (in SearchInput) validate() (int, error) {
	if err := checkText("query", in.Query, 1, MaxQueryLen); err != nil {
		return 0, err
	}
	if in.Category != "" {
		if err := checkText("category", strings.TrimSpace(in.Category), 1, MaxCategoryLen); err != nil {
			return 0, err
		}
	}
	switch {
	case in.Limit == 0:
		return DefaultSearchLimit, nil
	case in.Limit < 1 || in.Limit > MaxSearchLimit:
		return 0, invalid("limit: must be between 1 and %d (got %d)", MaxSearchLimit, in.Limit)
	}
	return in.Limit, nil
}

// categoryKey is the form of a category its hash is computed over: NFKC,
// trimmed, lower case.
func categoryKey(category string) string {
	return strings.ToLower(norm.NFKC.String(strings.TrimSpace(category)))
}

// checkText checks a free-text field: valid UTF-8 without control
// characters other than tab, line feed and carriage return, minLen to
// maxLen characters.
func checkText(field, s string, minLen, maxLen int) error {
	if !utf8.ValidString(s) {
		return invalid("%s: must be valid UTF-8", field)
	}
	n := utf8.RuneCountInString(s)
	if n < minLen || n > maxLen {
		return invalid("%s: must be %d to %d characters long, got %d", field, minLen, maxLen, n)
	}
	for _, r := range s {
		if unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' {
			return invalid("%s: must not contain control characters", field)
		}
	}
	return nil
}

// quoteShort quotes a client-supplied value for a message, cut to 40
// bytes.
func quoteShort(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return `"` + strings.ToValidUTF8(strings.ReplaceAll(s, `"`, `'`), "?") + `"`
}
