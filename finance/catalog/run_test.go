package catalog

import (
	"context"
	"fmt"
)

// runTool runs the tool of c called name in its pure, unmetered form
// (Tool.Run); an unknown name fails.
func runTool(c *Catalog, ctx context.Context, name string, call Call) (any, error) {
	t, ok := c.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("no tool %q", name)
	}
	return t.Run(ctx, call)
}
