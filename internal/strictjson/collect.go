package strictjson

import (
	"errors"

	"github.com/agentfinance/toolkit"
)

// errEnough stops a scan that has found toolkit.MaxFieldErrors
// violations.
var errEnough = errors.New("strictjson: enough violations found")

// flag records a violation of the schema, if err is one, and lets the scan
// go on; once toolkit.MaxFieldErrors are recorded it stops the scan.
func (s *scanner) flag(err error) error {
	if err == nil {
		return nil
	}
	s.note(err)
	if len(s.errs) >= toolkit.MaxFieldErrors {
		return errEnough
	}
	return nil
}

// note adds err's field errors to the violations found.
func (s *scanner) note(err error) {
	var te *toolkit.Error
	if !errors.As(err, &te) {
		te = fieldError(toolkit.Internal, s.path.String(), ruleInvalid, err.Error())
	}
	if s.first == nil {
		s.first = te
	}
	fields := te.Fields
	if len(fields) == 0 {
		fields = []toolkit.FieldError{{Field: s.path.String(), Rule: ruleInvalid, Message: toolkit.MessageOf(te)}}
	}
	room := toolkit.MaxFieldErrors - len(s.errs)
	s.errs = append(s.errs, fields[:min(room, len(fields))]...)
}

// result is the outcome of a scan that ended with stop (nil, errEnough or
// the error that stopped it): nil when nothing was found, else the first
// violation's error listing every one. An error that is not a
// *toolkit.Error, alone, is returned as it is.
func (s *scanner) result(stop error) error {
	if stop != nil && stop != errEnough {
		var te *toolkit.Error
		if s.first == nil && !errors.As(stop, &te) {
			return stop
		}
		s.note(stop)
	}
	if s.first == nil {
		return nil
	}
	combined := *s.first
	combined.Fields = s.errs
	return &combined
}
