package toolkit

import (
	"bufio"
	"bytes"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/agentfinance/toolkit"

// domainEdges is the domain's dependency graph: for each domain package
// (relative to the module; "" is the root package), the packages of this
// module it may import. A name ending in "/..." allows the packages below
// it. A new domain package, or a new arrow between domain packages,
// starts here: the table is the design, the test holds the code to it.
var domainEdges = map[string][]string{
	"":                           nil,
	"cryptovault":                {""},
	"internal/strictjson":        {""},
	"internal/changecache":       {},
	"guardian":                   {"", "internal/strictjson"},
	"guardian/guardiantest":      {"guardian"},
	"agents":                     {"", "cryptovault", "guardian", "internal/changecache"},
	"agents/broker":              {"", "agents", "cryptovault"},
	"agents/workspace":           {"", "cryptovault", "finance/catalog", "finance/performance"},
	"billing":                    {"", "agents", "cryptovault", "guardian", "internal/changecache"},
	"billing/owners":             {"", "agents", "billing"},
	"billing/toolcall":           {"", "agents", "billing", "finance", "finance/catalog", "guardian"},
	"support":                    {"", "cryptovault"},
	"finance":                    {"", "finance/internal/...", "finance/performance"},
	"finance/performance":        {"", "finance/internal/..."},
	"finance/market":             {"", "finance/internal/...", "finance/performance"},
	"finance/derivatives":        {"", "finance", "finance/internal/..."},
	"finance/catalog":            {"", "finance", "finance/derivatives", "finance/internal/...", "finance/market", "finance/performance", "internal/strictjson"},
	"finance/catalog/toolformat": {"", "finance/catalog"},
	"finance/internal/...":       {"", "finance/internal/..."},
}

// domainRoots are the packages that must stay pure (DESIGN.md): the root,
// the domain folders and the neutral internal/strictjson and
// internal/changecache.
var domainRoots = []string{"finance", "agents", "billing", "support", "guardian", "cryptovault", "internal/strictjson", "internal/changecache"}

// forbiddenInDomain are import prefixes a domain package must never use.
var forbiddenInDomain = []string{
	"github.com/uptrace/bun", "database/sql", "github.com/gagliardetto/solana-go", "github.com/tink-crypto/",
	"net/http", module + "/adapters", module + "/httpapi", module + "/examples",
}

// packageImports lists every package of the module with its imports.
func packageImports(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").Output()
	require.NoError(t, err, "go list")
	pkgs := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		pkgs[fields[0]] = fields[1:]
	}
	return pkgs
}

// rel is a package path relative to the module ("" for the root, false
// for another module's package).
func rel(pkg string) (string, bool) {
	if pkg == module {
		return "", true
	}
	return strings.CutPrefix(pkg, module+"/")
}

// TestImportDirection enforces the dependency rules: domain packages
// import no technology and no adapter; httpapi imports no adapter.
func TestImportDirection(t *testing.T) {
	checked := 0
	for pkg, imports := range packageImports(t) {
		r, _ := rel(pkg)
		var forbidden []string
		switch {
		case r == "" || isDomain(r):
			forbidden = forbiddenInDomain
		case r == "httpapi" || strings.HasPrefix(r, "httpapi/") || strings.HasPrefix(r, "internal/"):
			forbidden = []string{module + "/adapters", module + "/examples"}
		default:
			continue
		}
		checked++
		for _, imp := range imports {
			for _, f := range forbidden {
				assert.False(t, imp == f || strings.HasPrefix(imp, f+"/") || (strings.HasSuffix(f, "/") && strings.HasPrefix(imp, f)),
					"%s must not import %s", pkg, imp)
			}
		}
	}
	assert.GreaterOrEqual(t, checked, 4, "the rule saw the domain packages")
}

// TestDomainGraph holds every domain package to domainEdges: each has an
// entry, and imports only the packages its entry allows.
func TestDomainGraph(t *testing.T) {
	for pkg, imports := range packageImports(t) {
		r, _ := rel(pkg)
		if r != "" && !isDomain(r) {
			continue
		}
		allowed, ok := edgesOf(r)
		if !assert.True(t, ok, "domain package %q has no entry in domainEdges: add it with the packages it may import", r) {
			continue
		}
		for _, imp := range imports {
			if target, ours := rel(imp); ours {
				assert.True(t, allows(allowed, target), "%q must not import %q (domainEdges)", r, target)
			}
		}
	}
}

// TestDomainLayers checks that the table itself points one way between
// the domain folders: the graph of folders (finance, agents, billing, ...)
// has no cycle, so no arrow runs back up.
func TestDomainLayers(t *testing.T) {
	if cycle := folderCycle(domainEdges); cycle != nil {
		t.Errorf("the domain folders import each other in a circle: %s", strings.Join(cycle, " -> "))
	}
}

func TestDomainGraphRules(t *testing.T) {
	billing, _ := edgesOf("billing")
	assert.True(t, allows(billing, "agents"))
	assert.False(t, allows(billing, "billing/toolcall"), "an arrow the table does not hold is refused")
	internal, ok := edgesOf("finance/internal/money")
	assert.True(t, ok, "a /... entry covers the packages below it")
	assert.True(t, allows(internal, "finance/internal/limits"))
	assert.Equal(t, "internal/strictjson", folderOf("internal/strictjson"))
	assert.Equal(t, "finance", folderOf("finance/catalog/toolformat"))
	assert.Equal(t, []string{"agents", "billing", "agents"},
		folderCycle(map[string][]string{"agents": {"billing"}, "billing/toolcall": {"agents"}}), "a circle is found")
}

// folderCycle returns a circle in the graph of folders of edges, or nil.
func folderCycle(edges map[string][]string) []string {
	folders := map[string]map[string]bool{}
	for pkg, targets := range edges {
		from := folderOf(pkg)
		for _, to := range targets {
			if f := folderOf(to); f != from {
				if folders[from] == nil {
					folders[from] = map[string]bool{}
				}
				folders[from][f] = true
			}
		}
	}
	state := map[string]int{} // 1: on the path, 2: done
	var visit func(f string, path []string) []string
	visit = func(f string, path []string) []string {
		switch state[f] {
		case 1:
			return append(path, f)
		case 2:
			return nil
		}
		state[f] = 1
		for _, next := range slices.Sorted(maps.Keys(folders[f])) {
			if c := visit(next, append(path, f)); c != nil {
				return c
			}
		}
		state[f] = 2
		return nil
	}
	for _, f := range slices.Sorted(maps.Keys(folders)) {
		if c := visit(f, nil); c != nil {
			for i, x := range c { // from the circle's start
				if x == c[len(c)-1] {
					return c[i:]
				}
			}
		}
	}
	return nil
}

// edgesOf finds a package's entry, exact or by a "/..." pattern.
func edgesOf(r string) ([]string, bool) {
	if e, ok := domainEdges[r]; ok {
		return e, true
	}
	for k, e := range domainEdges {
		if base, ok := strings.CutSuffix(k, "/..."); ok && strings.HasPrefix(r, base+"/") {
			return e, true
		}
	}
	return nil, false
}

// allows reports whether target matches an allowed entry.
func allows(allowed []string, target string) bool {
	for _, a := range allowed {
		if a == target {
			return true
		}
		if base, ok := strings.CutSuffix(a, "/..."); ok && strings.HasPrefix(target, base+"/") {
			return true
		}
	}
	return false
}

// folderOf is the top folder of a package ("." for the root; "internal/x"
// keeps its second element, being a neutral package of its own).
func folderOf(r string) string {
	if r == "" {
		return "."
	}
	parts := strings.Split(r, "/")
	if parts[0] == "internal" && len(parts) > 1 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

func isDomain(rel string) bool {
	for _, d := range domainRoots {
		if rel == d || strings.HasPrefix(rel, d+"/") {
			return true
		}
	}
	return false
}
