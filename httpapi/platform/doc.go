// Package platform assembles the toolkit: it builds every domain service
// from the ports (the adapters) and a Config, in the one order their
// dependencies need, and hands back what httpapi serves.
//
// The reference server and the embed example both do only this: open
// adapters, call New, mount httpapi over the result.
//
//	store, _ := bunstore.Open(ctx, "data/toolkit.db", bunstore.Options{}) // or memstore.New()
//	keys, _ := tinkkeys.LoadOrCreateDevKeys("data/keys.json")
//	p, err := platform.New(platform.Ports{Store: store, Keys: keys, Ready: store.Ready}, platform.Config{})
//	if err != nil { ... }
//	defer p.Close()          // stops the background work, then closes the store
//	go p.Run(ctx)            // guardian event windows, idempotency pruning
//	api, _ := httpapi.New(p.Services, httpapi.Options{AdminKey: adminKey})
//
// # What New builds
//
// The guardian first (every other service records its security events
// there), then the vault (per-agent encryption over Ports.Keys), agents,
// the support desk, the workspace (memories, journal), broker
// connections, the tool catalog (41 finance tools plus the 4 workspace
// tools), billing (which reads the agents' linked wallets and takes its
// price table from the catalog: each tool's catalog.Spec prices it) and
// the call path (billing/toolcall) through which every surface runs a
// tool: metered, authorized and counted in the guardian's 24-hour
// tool-call metric.
//
// # Ports
//
// Store and Keys are required. Deposits, Oracle and Presale are the
// Solana and price adapters; without them on-chain deposits answer 503
// and link-wallet never grants the presale discount. Now is the clock of
// every service, for tests.
//
// Go programs that need no HTTP can use the services directly:
// p.Calls.Call runs a tool exactly as POST /v1/tools/call does.
package platform
