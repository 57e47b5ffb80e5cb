/**
 * §2.6 and §4.3 rule 2, effects counted message by message: the first incoming message of a chat creates its one
 * unsorted lead and every non-silent incoming message one notification; a silent message creates neither, so after a
 * silent first message the first non-silent one creates the lead. Counted through the control API after each message.
 */
import {
  chatSession, type ChatSession, defineSpec, effectCounts, type EffectCounts, leadsAre, notificationsAre, type ParticipantBody, scenarioRule, status, step,
} from './kit.js';

interface Conversation {
  readonly s: ChatSession;
  readonly conv: string;
  readonly client: ParticipantBody;
}

async function newConversation(t: Parameters<typeof chatSession>[0]): Promise<Conversation> {
  const s = await chatSession(t);
  return { s, conv: s.conversationId(), client: s.client() };
}

const send = (silent: boolean) => (_t: unknown, f: Conversation) => f.s.sendMessage(f.s.payload(f.conv, f.client, { silent }));
const counted = (_t: unknown, f: Conversation): Promise<EffectCounts> => effectCounts(f.s, f.conv);

export default defineSpec({
  section: '2.6',
  title: 'Source object: unsorted leads and notifications per message',
  level: 'must',
  rules: [
    scenarioRule<Conversation>(
      { id: 'chat.unsorted.first-message-only', requires: ['write'], needs: ['counters'],
        title: 'The first incoming message of a chat creates one unsorted lead, the second and third none; each one notifies once',
        reading: '§2.6: only the first incoming message creates the unsorted lead; §4.3: a non-silent message creates a notification (silent suppresses "unsorted-lead creation and notification"), so notifications count per message. Leads and notifications of the conversation are read through the control API after each message.',
        covers: ['4.3/Send, edit or import a message/silent'] },
      {
        setup: newConversation,
        steps: [
          step('first message', send(false), [status(200)]),
          step('after the first', counted, [leadsAre(1), notificationsAre(1)]),
          step('second message', send(false), [status(200)]),
          step('after the second', counted, [leadsAre(1), notificationsAre(2)]),
          step('third message', send(false), [status(200)]),
          step('after the third', counted, [leadsAre(1), notificationsAre(3)]),
        ],
      },
    ),
    scenarioRule<Conversation>(
      { id: 'chat.unsorted.silent-first', section: '4.3', requires: ['write'], needs: ['counters'],
        title: 'A silent first message creates no unsorted lead and no notification; the next non-silent one creates the lead and one notification',
        reading: '§4.3 payload table: silent suppresses unsorted-lead creation and notification; rule 2: an import silent on all but the newest yields one lead and one notification.',
        covers: ['4.3/Send, edit or import a message/silent'] },
      {
        setup: newConversation,
        steps: [
          step('silent first message', send(true), [status(200)]),
          step('after the silent one', counted, [leadsAre(0), notificationsAre(0)]),
          step('non-silent message', send(false), [status(200)]),
          step('after the non-silent one', counted, [leadsAre(1), notificationsAre(1)]),
        ],
      },
    ),
  ],
});
