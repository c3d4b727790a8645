package support

import (
	"slices"
	"strings"
)

// Status is the state of a ticket.
//
// A new ticket is open. Administrators move it along these transitions:
//
//	open        -> in_progress, resolved, closed
//	in_progress -> open, resolved, closed
//	resolved    -> open (reopen), closed
//	closed      -> (none: closed is final)
//
// Setting the status a ticket already has changes nothing and succeeds
// (a retried request is harmless); any other move is refused with
// toolkit.Conflict. The store applies a change as one conditional update
// on the states the target may be reached from, so two concurrent changes
// can never both apply from a state that allows only one of them.
type Status string

// The ticket states.
const (
	StatusOpen       Status = "open"
	StatusInProgress Status = "in_progress"
	StatusResolved   Status = "resolved"
	StatusClosed     Status = "closed"
)

// Statuses lists every ticket state.
var Statuses = []Status{StatusOpen, StatusInProgress, StatusResolved, StatusClosed}

// transitions lists, for each state, the states it may move to.
var transitions = map[Status][]Status{
	StatusOpen:       {StatusInProgress, StatusResolved, StatusClosed},
	StatusInProgress: {StatusOpen, StatusResolved, StatusClosed},
	StatusResolved:   {StatusOpen, StatusClosed},
	StatusClosed:     {},
}

// ParseStatus parses a ticket status, naming the field and the allowed
// values on error.
func ParseStatus(field, s string) (Status, error) {
	for _, st := range Statuses {
		if string(st) == s {
			return st, nil
		}
	}
	return "", invalid("%s: must be one of %s (got %q)", field, joinStatuses(Statuses), s)
}

// CanMove reports whether a ticket in state from may move to state to. A
// state never moves to itself (that is a no-op, not a transition).
func CanMove(from, to Status) bool {
	return slices.Contains(transitions[from], to)
}

// Next returns the states a ticket in state from may move to.
func Next(from Status) []Status {
	return slices.Clone(transitions[from])
}

// sourcesOf returns the states from which a ticket may move to to.
func sourcesOf(to Status) []Status {
	var out []Status
	for _, from := range Statuses {
		if CanMove(from, to) {
			out = append(out, from)
		}
	}
	return out
}

func joinStatuses(list []Status) string {
	if len(list) == 0 {
		return "none"
	}
	names := make([]string, len(list))
	for i, s := range list {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}
