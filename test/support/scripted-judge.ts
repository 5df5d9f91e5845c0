/**
 * A scripted answer-correctness judge for the fake OpenAI server: statements
 * are the text's sentences; an answer statement is TP when the reference has
 * the same sentence, else FP; a reference sentence is covered when the answer
 * has it, else FN. So a test writes rows whose counts it knows.
 */
import type { ChatContext } from "./fake-openai";
import { conformToSchema, requestSchema } from "./schema-conform";

/** The JSON data of a request: its last user message that is JSON (a retry ends with the judge's correction, in words). */
export function requestData(ctx: { messages: { role: string; content: unknown }[] }): Record<string, unknown> {
  const users = ctx.messages.filter((m) => m.role === "user").reverse();
  const data = users.find((m) => /^\s*[[{]/.test(String(m.content))) ?? users[0];
  return JSON.parse(String(data?.content)) as Record<string, unknown>;
}

/** Sentences of a text: split after ".", "!" or "?" followed by space. */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** Which prompt a chat request is: statement extraction or classification. */
export function promptKind(body: { response_format?: { json_schema?: { name?: string } } }): string | undefined {
  return body.response_format?.json_schema?.name;
}

/**
 * The fake server's chat script for answer correctness, shaped to the
 * request's schema as an enforcing server would (key order, maxLength).
 */
export function scriptedAnswerCorrectness(ctx: ChatContext): object {
  return conformToSchema(scriptedReply(requestData(ctx)), requestSchema(ctx.body)) as object;
}

function scriptedReply(data: Record<string, unknown>): object {
  if (Array.isArray(data["questions"])) {
    // The fused layout's batched call: each question's answers, each as the fused call's reply.
    const questions = data["questions"] as { reference: string[]; answers: { answer: number; text: string }[] }[];
    return {
      questions: questions.map((q) => ({ answers: q.answers.map(({ answer, text }) => ({ answer, statements: sentences(text), ...classified(sentences(text), q.reference) })) })),
    };
  }
  if (Array.isArray(data["texts"])) return { texts: (data["texts"] as { number: number; text: string }[]).map((t) => ({ number: t.number, statements: sentences(t.text) })) };
  if (typeof data["text"] === "string" && Array.isArray(data["reference"])) {
    // The fused layout: the text's statements with their verdicts, then the reference's.
    const answer = sentences(data["text"]);
    const verdicts = classified(answer, data["reference"] as string[]);
    return { statements: answer, ...verdicts };
  }
  if (typeof data["text"] === "string") return { statements: sentences(data["text"]) };
  return classified(data["answer"] as string[], data["reference"] as string[]);
}

function classified(answer: readonly string[], reference: readonly string[]): { response: object[]; reference: object[] } {
  return {
    response: answer.map((s, i) => ({
      reason: reference.includes(s) ? `A${i + 1} is R${reference.indexOf(s) + 1}` : `no reference statement says "${s}"`,
      verdict: reference.includes(s) ? "TP" : "FP",
    })),
    reference: reference.map((s, i) => ({
      reason: answer.includes(s) ? `R${i + 1} is A${answer.indexOf(s) + 1}` : `the answer never says "${s}"`,
      verdict: answer.includes(s) ? "covered" : "FN",
    })),
  };
}

/** A deterministic 4-dimensional embedding whose cosines differ from text to text. */
export function scriptedEmbedding(text: string): number[] {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.codePointAt(0)!) % 1_000_003;
  return [1 + (h % 7), 1 + ((h >> 3) % 5), ((h >> 5) % 9) - 4, 2];
}
