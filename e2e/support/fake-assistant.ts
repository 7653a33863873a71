import { type FakeOpenAI, type FakeRequest, startFakeOpenAI } from "../../tests/helpers/fake-openai";

/**
 * The e2e server's AI provider: the local fake of the OpenAI wire format, answering by what was asked, so the
 * Assistant journeys read like a conversation. "library" looks the creatives up (a read tool, run at once);
 * "delete" proposes delete_creatives (destructive: the page asks before it runs); after a tool result it
 * reports what came back; anything else gets a greeting.
 */
export async function startFakeAssistant(): Promise<FakeOpenAI> {
  const fake = await startFakeOpenAI();
  fake.respond((request: FakeRequest) => {
    const messages: { role: string; content: unknown }[] = request.body.messages;
    const last = messages.at(-1)!;
    const usage = { prompt_tokens: 900, completion_tokens: 40 };
    if (last.role === "tool") {
      const result = String(last.content);
      const count = (result.match(/"fileName"/g) ?? []).length;
      return {
        content: result.includes("error") ? "That did not go through: " + result.slice(0, 120) : `I looked that up: your library has ${count} creatives.`,
        usage,
      };
    }
    const text = String(last.content).toLowerCase();
    if (text.includes("delete")) return { toolCalls: [{ name: "delete_creatives", arguments: { ids: ["cre_from_the_assistant"] } }], usage };
    if (text.includes("library")) return { toolCalls: [{ name: "list_creatives", arguments: { limit: 10 } }], usage };
    return { content: "Hello! Ask me about your library, ads or performance.", usage };
  });
  return fake;
}
