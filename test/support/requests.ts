/** Structured requests for judge tests, built the way metrics build theirs. */
import { z } from "zod";
import type { StructuredRequest } from "../../src/judge/types";

const AnswerSchema = z.object({ answer: z.string() });

/** The reply shape of {@link echoRequest}. */
export type Answer = z.infer<typeof AnswerSchema>;

/** A request whose user message is `text`; the fake server's {@link echoChat} answers `{ answer: "echo: <text>" }`. */
export function echoRequest(text: string, promptVersion = "test-1"): StructuredRequest<Answer> {
  return {
    task: { kind: "custom", name: "echo" },
    promptVersion,
    messages: [
      { role: "system", content: "You repeat the user's text." },
      { role: "user", content: text },
    ],
    schemaName: "echo_answer",
    jsonSchema: z.toJSONSchema(AnswerSchema) as Record<string, unknown>,
    schema: AnswerSchema,
  };
}

/** A fake-server chat script that answers echo requests. */
export function echoChat(ctx: { messages: { role: string; content: unknown }[] }): object {
  const users = ctx.messages.filter((m) => m.role === "user");
  const first = users[0]?.content;
  return { answer: `echo: ${typeof first === "string" ? first : JSON.stringify(first)}` };
}

/** The text a recorded echo request asked about (its first user message). */
export function askedText(body: { messages: { role: string; content: unknown }[] }): string {
  return String(body.messages.find((m) => m.role === "user")?.content);
}
