// Each list, declared with the SDK's own type in its .gen.ts file, is what
// that SDK's request takes as its tools.
import type { MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages";
import type { ResponseCreateParamsNonStreaming } from "openai/resources/responses/responses";
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionFunctionTool } from "openai/resources/chat/completions";
import { list as anthropic } from "./anthropic.gen";
import { list as openai } from "./openai.gen";
import { list as gemini } from "./gemini.gen";

export const anthropicRequest: MessageCreateParamsNonStreaming = {
  model: "claude-sonnet-4-5",
  max_tokens: 1024,
  messages: [{ role: "user", content: "Size a long AAPL trade: equity 25000, entry 10.30, stop 10.20." }],
  tools: anthropic.tools,
};

export const responsesRequest: ResponseCreateParamsNonStreaming = {
  model: "gpt-5",
  input: "Size a long AAPL trade: equity 25000, entry 10.30, stop 10.20.",
  tools: openai.tools,
};

// Chat Completions takes the same functions, each wrapped in "function".
export const chatTools: ChatCompletionFunctionTool[] = openai.tools.map(({ name, description, parameters, strict }) => ({
  type: "function",
  function: { name, description: description ?? undefined, parameters: parameters ?? undefined, strict },
}));

export const chatRequest: ChatCompletionCreateParamsNonStreaming = {
  model: "gpt-5",
  messages: [{ role: "user", content: "Size a long AAPL trade: equity 25000, entry 10.30, stop 10.20." }],
  tools: chatTools,
};

export const geminiDeclarations: number = gemini.tools[0].functionDeclarations.length;
