package strictjson

import (
	"cmp"
	"slices"

	"github.com/agnivade/levenshtein"
)

// smallObject is how many distinct keys an object holds before its key
// set moves from a slice, searched in place, to a map.
const smallObject = 16

// keySet holds the keys of one object so far: a duplicate is found in
// constant time per key whatever the object's size. Small objects, nearly
// all of them, need no allocation.
type keySet struct {
	small   [smallObject]string
	n       int                 // keys in small
	large   map[string]struct{} // every key, once past smallObject
	members int                 // members seen, duplicates included
}

// add records key and reports whether it was new.
func (k *keySet) add(key string) bool {
	k.members++
	if k.large != nil {
		before := len(k.large)
		k.large[key] = struct{}{}
		return len(k.large) > before
	}
	if slices.Contains(k.small[:k.n], key) {
		return false
	}
	switch {
	case k.n < smallObject:
		k.small[k.n] = key
		k.n++
	default:
		k.large = make(map[string]struct{}, 2*smallObject)
		for _, s := range k.small {
			k.large[s] = struct{}{}
		}
		k.large[key] = struct{}{}
	}
	return true
}

// has reports whether key was added.
func (k *keySet) has(key string) bool {
	if k.large != nil {
		_, ok := k.large[key]
		return ok
	}
	return slices.Contains(k.small[:k.n], key)
}

// suggestRunes is how much of an unknown key is compared with the
// accepted names: enough for any real name, and a bound on the work.
const suggestRunes = 64

// closestFirst lists the names of props by edit distance to key, closest
// first (ties alphabetically).
func closestFirst[T any](key string, props map[string]T) []string {
	if r := []rune(key); len(r) > suggestRunes {
		key = string(r[:suggestRunes])
	}
	type scored struct {
		name string
		d    int
	}
	list := make([]scored, 0, len(props))
	for name := range props {
		list = append(list, scored{name, levenshtein.ComputeDistance(key, name)})
	}
	slices.SortFunc(list, func(a, b scored) int {
		return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(a.name, b.name))
	})
	names := make([]string, len(list))
	for i, s := range list {
		names[i] = s.name
	}
	return names
}
