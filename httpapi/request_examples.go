package httpapi

import (
	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/agentfinance/toolkit/httpapi/openapi"
)

// The working examples of the request bodies the document publishes:
// "Try it out" in /docs/ sends them as they are, and a test sends each one
// to a fresh server and requires the documented success status
// (TestDocumentedRequestExamplesWork). Tool bodies take theirs from the
// catalog (catalog.ExampleArguments). Values are typed, so a renamed field
// does not compile.

// exampled is implemented by request types that document examples of
// their bodies.
type exampled interface {
	examples() []openapi.Example
}

// requestExamples are the examples of a route's body: the route's own, or
// its body type's.
func requestExamples(rt route) []openapi.Example {
	if rt.examples != nil {
		return rt.examples
	}
	if rt.request == nil {
		return nil
	}
	if e, ok := rt.request.prototype.(exampled); ok {
		return e.examples()
	}
	return nil
}

// example is the one example of a body, named name.
func example(name, summary string, value any) []openapi.Example {
	return []openapi.Example{{Name: name, Summary: summary, Value: value}}
}

func (RegisterRequest) examples() []openapi.Example {
	desc := "Sizes equity trades and checks them against the risk rules"
	pct := toolkit.MustParseAmount("5")
	return example("trading_agent", "A trading agent of a new owner", RegisterRequest{OwnerID: "acme-capital", AgentName: "RiskBot",
		AgentType: "trading", Description: &desc, AuthorizedInstruments: []string{"AAPL", "MSFT"}, MaxPositionSizePct: &pct})
}

func (ModeRequest) examples() []openapi.Example {
	return example("live", "Pay calls from real funds", ModeRequest{Mode: "live"})
}

func (LimitsRequest) examples() []openapi.Example {
	daily, monthly := toolkit.MustParseAmount("25.00"), toolkit.MustParseAmount("500.00")
	return example("caps", "Daily and monthly spend caps, sizing and risk checks only", LimitsRequest{DailyLimit: &daily,
		MonthlyLimit: &monthly, AllowedOperations: []string{"position_sizing", "risk_check"}})
}

func (DepositRequest) examples() []openapi.Example {
	return example("sandbox_credit", "Sandbox self-credit of test funds (no transaction hash)",
		DepositRequest{Amount: toolkit.MustParseAmount("25.00"), FundingPath: "direct_transfer"})
}

// The wallet examples are real Ed25519 signatures of the wallet fixtures
// (agents/testdata/walletsig, made with tweetnacl): correct in every
// part, and accepted by a server whose clock is within 5 minutes of
// 2026-01-01T00:00:00Z, as the round-trip test's is.
const (
	exampleWallet    = "8V7PHrV8LGrb4UCmrCR2Yuvcm73e65LSTzmvAP8RB7XZ"
	exampleSignature = "5TnXtja5Le4BPvjk718BFd5JSuy3nvK7iYW1quXAk7HzYkSDP4ZacBTcykybGRcdrsLF521tR56cW1KPHeQna17R"
	// exampleLinkSignature signs exampleLinkMessage, which names the
	// agent agt_k3v9x2m8q1w7p4z6.
	exampleLinkMessage   = "aft-link:agt_k3v9x2m8q1w7p4z6:" + exampleWallet + ":1767225600"
	exampleLinkSignature = "u5HWECejvdJ1jE6uXbYoMsABJECFVdAWTMf4UX9ZVXVYEL9PPYnf38NWqw9r2hSTp9vPMXQoCjeaR4JJM84Ng6F"
)

func (RegisterWalletRequest) examples() []openapi.Example {
	return example("signed_challenge", "A wallet's signed challenge aft-auth:<wallet>:<unix seconds>", RegisterWalletRequest{
		WalletAddress: exampleWallet, Signature: exampleSignature, Chain: "solana",
		Message: "aft-auth:" + exampleWallet + ":1767225600"})
}

func (LinkWalletRequest) examples() []openapi.Example {
	return example("signed_link", "The wallet's signature of aft-link:<agent_id>:<wallet>:<unix seconds>", LinkWalletRequest{
		SolanaWalletAddress: exampleWallet, Signature: exampleLinkSignature, Message: exampleLinkMessage})
}

func (ConnectRequest) examples() []openapi.Example {
	return example("demo", "The demo paper account (no parameters)", ConnectRequest{BrokerType: "demo"})
}

func (FeedbackRequest) examples() []openapi.Example {
	return example("tools", "Feedback on the tools", FeedbackRequest{Rating: 5, Category: "tools",
		Message: "calculate_position_size answers in under 10 ms and the warnings are clear"})
}

func (TicketRequest) examples() []openapi.Example {
	return example("tool_error", "A tool answered an error", TicketRequest{Subject: "analyze_drawdown refuses my equity curve",
		Description: "Sending 250 equity values answers 400 equity_values: at least 2 values are required.",
		Priority:    "high", Category: "tool_error"})
}

func (SuggestionRequest) examples() []openapi.Example {
	return example("feature", "A feature an agent needs", SuggestionRequest{Title: "Sortino ratio in evaluate_performance",
		Description: "Add the Sortino ratio next to the Sharpe ratio in the full tier.",
		UseCase:     "Our agent ranks strategies by downside risk.", PriorityForAgent: "important"})
}

func (EnterpriseRequest) examples() []openapi.Example {
	budget := "$2,000-5,000 per month"
	return example("inquiry", "A desk running many agents", EnterpriseRequest{OrganizationName: "Acme Capital",
		ContactEmail: "desk@acme-capital.example", Description: "40 trading agents sizing and checking about 50,000 orders a day.",
		Requirements: []string{"dedicated rate limits", "monthly invoice"}, Timeline: "Q3 2026", BudgetRange: &budget})
}

func (BugReportRequest) examples() []openapi.Example {
	tool, msg := "calculate_pnl", "exit_price: must be a decimal number"
	return example("bug", "A tool refuses a valid input", BugReportRequest{Title: "calculate_pnl refuses an exit price of 0",
		Description: "A position closed at 0 (an expired option) cannot be recorded.", StepsToReproduce: "Call calculate_pnl with exit_price \"0\".",
		ExpectedBehavior: "A loss of the whole premium.", ActualBehavior: "400 exit_price: must be a decimal number",
		ToolName: &tool, ErrorMessage: &msg})
}

func (TicketStatusRequest) examples() []openapi.Example {
	return example("in_progress", "Start work on an open ticket", TicketStatusRequest{Status: "in_progress"})
}

func (ReportRequest) examples() []openapi.Example {
	return example("error", "A tool answered 500", ReportRequest{AgentID: "agt_k3v9x2m8q1w7p4z6", ReportType: "error",
		Description: "calculate_position_size answered 500 twice in a minute"})
}

func (MaintenanceRequest) examples() []openapi.Example {
	msg := "Database upgrade until 06:00 UTC"
	return example("on", "Maintenance on, with a message for the status page", MaintenanceRequest{Maintenance: true, Message: &msg})
}

// chainDepositExample is the example of an on-chain deposit of asset:
// the signature of a transfer of the chain fixtures
// (adapters/solanarpc/solanarpctest), which the round-trip test's fake
// Solana node serves.
func chainDepositExample(asset billing.Asset) []openapi.Example {
	signatures := map[billing.Asset]string{
		billing.USDC:  "2nEgeuQrJUjcqTAufJULz121L8uKrvXfyRZeGtx5EXdfAQZ5dUs8Hate1GNcNwJi7FCCjC5ytZrHRYPHMpUcG7mQ",
		billing.USDT:  "tfvvzpajZBephmAK3qqJTYkVeRV6Z28WyvAH1Nnu1M4M4PNQhpKnhZTLPhuY6XEVHGvhndv8sYsKrXAHQrDtark",
		billing.PYUSD: "2Tn8H9dC6vsm72fLipJGxVBE8ZjpVCcmdnApmQEN4yeA8v4qBYiLgGKQZPYfadELDTNG5xhsV2MEkoMgMVPaWD9m",
		billing.SOL:   "3XxyhUwDYcougDfKZg3Xn8fVZnv3WXemUC22UjsH7Z19e2Q3H6P87wWiM3p5dTQgorv7JLrGKKWYPynZd6ajUPhi",
	}
	sig, ok := signatures[asset]
	if !ok { // the native token
		sig = "GCrZ7PaXaAoUtV5KH6knTderAgxso5jSWUams9HKmsmeyEvT7Sp4V8e2sHWdnNyA1E9wsUuffPVtn74UFQrszk2"
	}
	return example("transfer", "The signature of a confirmed "+string(asset)+" transfer to the treasury", ChainDepositRequest{TxSignature: sig})
}
