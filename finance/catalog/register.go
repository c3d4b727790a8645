package catalog

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// check reports what keeps t out of the catalog, as Register says.
func (c *Catalog) check(t Tool) error {
	switch {
	case t.Name == "":
		return errors.New("a tool needs a name")
	case t.Prepare == nil:
		return errors.New("no Prepare")
	case t.InputSchema == nil || t.InputSchema.Type != "object":
		return errors.New("the input schema must be an object")
	}
	if _, dup := c.byName[t.Name]; dup {
		return errors.New("registered twice")
	}
	if owner, ok := c.byAlias[t.Name]; ok {
		return fmt.Errorf("the name is already an alias of %q", owner)
	}
	if err := c.checkAliases(t); err != nil {
		return err
	}
	if err := c.checkShortcuts(t); err != nil {
		return err
	}
	return c.checkPrices(t)
}

// checkAliases refuses an alias that is empty, the tool's own name,
// listed twice, or another tool's name or alias.
func (c *Catalog) checkAliases(t Tool) error {
	for i, a := range t.Aliases {
		if a == "" || a == t.Name || slices.Contains(t.Aliases[:i], a) {
			return fmt.Errorf("alias %q must be a new name, other than the tool's", a)
		}
		if _, ok := c.byName[a]; ok {
			return fmt.Errorf("alias %q is the name of a tool", a)
		}
		if owner, ok := c.byAlias[a]; ok {
			return fmt.Errorf("alias %q is already an alias of %q", a, owner)
		}
	}
	return nil
}

// checkShortcuts refuses a shortcut without a /v1/ path or an
// operationId, or whose path another shortcut serves.
func (c *Catalog) checkShortcuts(t Tool) error {
	for i, s := range t.Shortcuts {
		if !strings.HasPrefix(s.Path, "/v1/") || s.OperationID == "" || s.Summary == "" {
			return fmt.Errorf("shortcut %q needs a /v1/ path, an operationId and a summary", s.Path)
		}
		if owner, ok := c.shortcuts[s.Path]; ok {
			return fmt.Errorf("shortcut %s is already %q's", s.Path, owner)
		}
		if slices.ContainsFunc(t.Shortcuts[:i], func(o Shortcut) bool { return o.Path == s.Path }) {
			return fmt.Errorf("shortcut %s is listed twice", s.Path)
		}
		if s.Tier != "" && (t.Name != evaluationToolName || EvaluationOperation(s.Tier) == "") {
			return fmt.Errorf("shortcut %s fixes the tier %q, which only evaluate_performance's basic, full and comprehensive have", s.Path, s.Tier)
		}
	}
	return nil
}

// checkPrices refuses a price of an operation the tool is not billed as,
// and an operation another tool prices differently. (billing checks the
// amounts: non-negative, whole micro-USD at list and at the presale
// discount.)
func (c *Catalog) checkPrices(t Tool) error {
	var billed []string
	for _, choice := range t.BilledOperations() {
		billed = append(billed, choice.Operation)
	}
	for op, price := range t.Prices {
		if !slices.Contains(billed, op) {
			return fmt.Errorf("it prices %q but is billed as %s", op, strings.Join(billed, ", "))
		}
		if other, ok := c.prices[op]; ok && other.Cmp(price) != 0 {
			return fmt.Errorf("it prices %s at %s, %q at %s", op, price, c.priceOwner[op], other)
		}
	}
	return nil
}
