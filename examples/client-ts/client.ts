// A small typed client of the toolkit's API over openapi-fetch, written
// against the types generated from the reference server's document
// (schema.d.ts). CI regenerates schema.d.ts with the pinned
// openapi-typescript and type-checks this file with tsc --noEmit: a
// document change that breaks TypeScript clients fails CI.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

type Schemas = components["schemas"];

export async function walkThrough(baseUrl: string): Promise<void> {
  const api = createClient<paths>({ baseUrl });

  const { data: agent, error } = await api.POST("/v1/agents/register", {
    body: { owner_id: `readme-${Date.now()}`, agent_name: "RiskBot", agent_type: "trading" },
  });
  if (error) throw new Error(`${error.code}: ${error.detail}`);
  const headers = { "X-API-Key": agent.api_key };

  await api.POST("/v1/billing/deposit", { headers, body: { amount: "5.00", funding_path: "direct_transfer" } });
  const { data: balance } = await api.GET("/v1/billing/balance", { headers });
  console.log("balance", balance?.balance);

  // A REST shortcut: the body is the tool's arguments, the answer its result.
  const sizing: Schemas["CalculatePositionSizeArguments"] = {
    equity: "100000", entry_price: "185.50", stop_price: "180.00", direction: "long",
  };
  const shortcut = await api.POST("/v1/sizing/calculate", { headers, body: sizing });
  if (shortcut.data) {
    const shares: number = shortcut.data.shares;
    console.log(shares, "shares; charged", shortcut.response.headers.get("X-Charged"));
  }

  // The generic call: arguments and result are typed by tool_name.
  const call = await api.POST("/v1/tools/call", {
    headers: { ...headers, "Idempotency-Key": "readme-1" },
    body: { tool_name: "calculate_position_size", arguments: sizing },
  });
  if (call.error) {
    if (call.response.status === 402 && "required" in call.error) {
      console.log("top up", call.error.required, "available", call.error.available);
    }
    return;
  }
  if (call.data.tool_name === "calculate_position_size") {
    const risk: string = call.data.result.risk_amount;
    console.log("risk", risk);
  }
  const regime = await api.POST("/v1/tools/call", {
    headers,
    body: { tool_name: "detect_regime", arguments: { bars: [] } },
  });
  if (regime.data?.tool_name === "detect_regime") {
    const result = regime.data.result;
    if ("error" in result) {
      console.log("needs", result.bars_required, "bars");
    } else {
      console.log("regime", result.regime);
    }
  }

  // The ledger, a page at a time.
  let cursor: string | undefined;
  do {
    const page = await api.GET("/v1/billing/transactions", { headers, params: { query: { limit: 100, cursor } } });
    if (!page.data) break;
    for (const tx of page.data.transactions) {
      const kind: "consumption" | "deposit" = tx.type;
      console.log(tx.created_at, kind, tx.amount, tx.balance_after);
    }
    cursor = page.data.next_cursor ?? undefined;
  } while (cursor);
}
