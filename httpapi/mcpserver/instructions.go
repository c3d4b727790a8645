package mcpserver

import "strings"

// instructions are the MCP server's instructions: what the tools are, how
// calls are paid for, what a failed call says and how to retry a priced
// call safely. p is the API's mount prefix.
func instructions(p string) string {
	return strings.Join([]string{
		"Agent Finance Toolkit: finance calculations for trading agents (position sizing, risk checks, performance " +
			"evaluation, Monte Carlo, market analysis, options and futures) and a private workspace per agent (memories, " +
			"trade journal, biases). It never places orders. Numbers that must stay exact are decimal strings.",
		"Credits: priced tools are paid from the agent's prepaid balance in USDC credits (1 credit = 1 USD); sandbox " +
			"agents pay from test funds, live agents from real funds. Each tool's description ends with its price " +
			"(\"Price: 0.003 USD per call (metered).\" or \"Price: free.\"), and its _meta has price, currency, " +
			"billing_class and operation (evaluate_performance is priced by tier: priced_by and prices). Presale buyers " +
			"pay 80 % of these list prices. The _meta of a priced call's result says what it cost: charged, balance " +
			"(left after the debit) and replayed. Failed calls, invalid arguments and insufficient-history answers are " +
			"never charged. Prices: GET " + p + "/v1/billing/pricing; balance: GET " + p + "/v1/billing/balance.",
		"Errors: a failed call is a tool error whose _meta.code (also in its JSON text, with detail) is the REST error " +
			"code. insufficient_credits (HTTP 402) means nothing ran and nothing was charged: _meta.required is the " +
			"price, _meta.available what the paying balance holds, and _meta.top_up how to add credits (sandbox: POST " +
			p + "/v1/billing/deposit; live: a USDC transfer on Solana, then POST " + p + "/v1/billing/deposit-usdc). " +
			"forbidden (403): the agent is suspended, or the call is outside its authorized actions or spend caps. " +
			"invalid (400) names the argument and the rule. rate_limited and unavailable carry _meta.retry_after (seconds).",
		"Idempotency: to retry a priced call safely (after a timeout or a dropped connection), send the same " +
			"_meta." + idempotencyKeyMeta + " (1-255 characters, like the HTTP Idempotency-Key header) with the same " +
			"arguments: the stored answer comes back with _meta.replayed true and is charged once. The same key with " +
			"other arguments is a conflict error; stored answers are kept for 24 hours by default.",
	}, "\n\n")
}
