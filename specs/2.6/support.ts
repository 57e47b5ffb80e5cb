/**
 * What the rules of §2.6 share: fixtures, case tables and the makers of rule families.
 */
import { chatSession, type ChatSession, mapSourceToPipeline, type RuleContext } from '../kit.js';

/** A source mapped to a pipeline of its own, and two conversations: the first message of one carried the source. */
export interface SourcePipeline {
  readonly s: ChatSession;
  readonly pipeline: number;
  /** The conversation whose first message carried the source: its lead belongs in `pipeline`. */
  readonly withSource: string;
  /** A conversation of the same client whose first message goes without a source. */
  readonly without: string;
}

/** Maps a source of the run to a pipeline no other run uses, then sends the first message of a chat with that source. */
export async function sourcePipeline(t: RuleContext): Promise<SourcePipeline> {
  const s = await chatSession(t);
  const external = `src-${t.runId}`.slice(0, 40);
  const pipeline = 7_000_000 + Math.floor(Math.random() * 1_000_000);
  await mapSourceToPipeline(s, external, pipeline);
  const withSource = s.conversationId();
  const without = s.conversationId();
  await s.mustSend(s.payload(withSource, s.client(), { source: { external_id: external } }));
  return { s, pipeline, withSource, without };
}
