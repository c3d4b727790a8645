package cryptovault

import "encoding/binary"

// The byte strings below are persistent formats: ciphertexts and lookup
// hashes already stored depend on them, so they never change. A new
// format gets a new version tag and the old one stays readable.

// adTag versions the associated-data encoding.
const adTag = "agentfin-ad-v1"

// hashTag versions the lookup-hash input encoding.
const hashTag = "agentfin-hash-v1"

// fieldAD returns the associated data that binds a ciphertext to one agent
// and one field:
//
//	"agentfin-ad-v1" || u32be(len(agentID)) || agentID || u32be(len(field)) || field
//
// The length prefixes make the encoding injective: no other (agent, field)
// pair produces the same bytes.
func fieldAD(agentID, field string) []byte {
	b := make([]byte, 0, len(adTag)+8+len(agentID)+len(field))
	b = append(b, adTag...)
	b = appendPrefixed(b, []byte(agentID))
	return appendPrefixed(b, []byte(field))
}

// hashInput returns the input of a lookup hash of value under field:
//
//	"agentfin-hash-v1" || u32be(len(field)) || field || u32be(len(value)) || value
//
// so one value under two fields hashes differently.
func hashInput(field string, value []byte) []byte {
	b := make([]byte, 0, len(hashTag)+8+len(field)+len(value))
	b = append(b, hashTag...)
	b = appendPrefixed(b, []byte(field))
	return appendPrefixed(b, value)
}

// appendPrefixed appends s preceded by its length as a big-endian uint32.
// Callers keep s below 4 GiB (MaxPlaintext and the field and agent id
// limits are far smaller).
func appendPrefixed(b, s []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}
