package httpapi_test

import (
	"bytes"
	"encoding/binary"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sealedTicket is a ticket row as stored.
type sealedTicket struct {
	ID          string `bun:"id"`
	Subject     []byte `bun:"subject"`
	Description []byte `bun:"description"`
}

// createTicket opens a ticket and returns its id and reference.
func (e *env) createTicket(k, subject, description string) (string, string) {
	e.t.Helper()
	status, m := e.do("POST", "/v1/support/ticket", key(k),
		`{"subject":"`+subject+`","description":"`+description+`","priority":"low","category":"account"}`)
	require.Equal(e.t, http.StatusCreated, status, m)
	return m["id"].(string), m["ticket_id"].(string)
}

func (e *env) storedTicket(id string) sealedTicket {
	e.t.Helper()
	var row sealedTicket
	require.NoError(e.t, e.store.DB().NewSelect().Table("support_tickets").Column("id", "subject", "description").
		Where("id = ?", id).Scan(e.t.Context(), &row))
	return row
}

func (e *env) overwrite(id, column string, value []byte) {
	e.t.Helper()
	_, err := e.store.DB().NewUpdate().Table("support_tickets").Set(column+" = ?", value).Where("id = ?", id).Exec(e.t.Context())
	require.NoError(e.t, err)
}

// TestSupportTicketsSealedAtRest: the database holds only ciphertexts of
// subjects and descriptions; a ciphertext moved to another ticket, another
// column or another agent, or altered, fails to open (500, no plaintext);
// after a key rotation old tickets still open and new ones use the new key.
func TestSupportTicketsSealedAtRest(t *testing.T) {
	e := newEnv(t)
	_, ka := e.register("acme")
	_, kb := e.register("globex")
	id1, ref1 := e.createTicket(ka, "Subject one", "Secret description one")
	id2, ref2 := e.createTicket(ka, "Subject two", "Secret description two")
	id3, ref3 := e.createTicket(kb, "Subject three", "Secret description three")

	row1 := e.storedTicket(id1)
	for _, plain := range []string{"Subject one", "Secret description one"} {
		assert.False(t, bytes.Contains(row1.Subject, []byte(plain)) || bytes.Contains(row1.Description, []byte(plain)), plain)
	}
	assert.Greater(t, len(row1.Description), len("Secret description one"), "ciphertext carries nonce and tag")

	expectTampered := func(k, ref, what string) {
		t.Helper()
		status, m := e.do("GET", "/v1/support/ticket/"+ref, key(k), "")
		assert.Equal(t, http.StatusInternalServerError, status, what)
		assert.Equal(t, "internal error", m["detail"], "%s: no plaintext, no cause", what)
	}

	// Another ticket's description, same agent: the record id is bound in.
	row2 := e.storedTicket(id2)
	e.overwrite(id1, "description", row2.Description)
	expectTampered(ka, ref1, "description of another ticket")
	// The subject column's ciphertext in the description column.
	e.overwrite(id1, "description", row1.Subject)
	expectTampered(ka, ref1, "subject moved to description")
	// One flipped byte.
	flipped := bytes.Clone(row1.Description)
	flipped[len(flipped)-1] ^= 0x01
	e.overwrite(id1, "description", flipped)
	expectTampered(ka, ref1, "altered ciphertext")
	// Agent A's ciphertext given to agent B's ticket.
	e.overwrite(id3, "subject", row1.Subject)
	expectTampered(kb, ref3, "another agent's ciphertext")
	status, list := e.do("GET", "/v1/admin/support/tickets", admin(), "")
	assert.Equal(t, http.StatusInternalServerError, status, "a list with a tampered subject fails whole: %v", list)

	e.overwrite(id1, "description", row1.Description)
	status, m := e.do("GET", "/v1/support/ticket/"+ref1, key(ka), "")
	require.Equal(t, http.StatusOK, status, "restored ciphertext opens again")
	assert.Equal(t, "Secret description one", m["description"])

	// Rotation: old data stays readable, new data uses the new primary key.
	oldKeyID := binary.BigEndian.Uint32(row2.Description[1:5])
	newKeyID, err := e.keys.Rotate()
	require.NoError(t, err)
	require.NotEqual(t, oldKeyID, newKeyID)
	status, m = e.do("GET", "/v1/support/ticket/"+ref2, key(ka), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "Secret description two", m["description"])
	id4, ref4 := e.createTicket(ka, "After rotation", "Sealed under the new key")
	assert.Equal(t, newKeyID, binary.BigEndian.Uint32(e.storedTicket(id4).Description[1:5]), "Tink prefix names the new key")
	status, m = e.do("GET", "/v1/support/ticket/"+ref4, key(ka), "")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "Sealed under the new key", m["description"])
}
