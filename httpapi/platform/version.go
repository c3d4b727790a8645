package platform

import "runtime/debug"

// version is set at build time:
//
//	go build -ldflags "-X github.com/agentfinance/toolkit/httpapi/platform.version=0.3.0" ./examples/server
var version string

// Version is the toolkit's version: the one set at build time (-ldflags
// -X), else the module version Go recorded in the binary (a tagged
// dependency, or a pseudo-version), else "devel" with the VCS revision Go
// recorded ("devel+1a2b3c4d5e6f"), else "devel". It is the platform
// version of GET /v1/guardian/status and of the MCP server; the API's own
// version (the OpenAPI info.version) is the contract's, 1.0.0.
func Version() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == modulePath && dep.Version != "" && dep.Version != "(devel)" {
				return dep.Version
			}
		}
		if info.Main.Path == modulePath && info.Main.Version != "" && info.Main.Version != "(devel)" {
			return info.Main.Version
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				return "devel+" + s.Value[:12]
			}
		}
	}
	return "devel"
}

// modulePath is the toolkit's module.
const modulePath = "github.com/agentfinance/toolkit"
