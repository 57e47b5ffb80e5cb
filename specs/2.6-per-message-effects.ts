/**
 * §2.6 and §4.3 rule 2, effects counted message by message: the first incoming message of a chat creates its one
 * unsorted lead and every non-silent incoming message one notification; a silent message creates neither, so after a
 * silent first message the first non-silent one creates the lead. Counted through the control API after each message.
 */
import {
  chatSession, type ChatSession, defineSpec, effectCountsOver, type EffectCounts, firstNotifications, leadsAre, notificationsAre, type ParticipantBody, scenarioRule, status, step,
} from './kit.js';

interface Conversation {
  readonly s: ChatSession;
  readonly conv: string;
  readonly client: ParticipantBody;
  /** The notifications the first message made: one, or two (non_strict, C40); later messages add one each. */
  first: number;
}

async function newConversation(t: Parameters<typeof chatSession>[0]): Promise<Conversation> {
  const s = await chatSession(t);
  return { s, conv: s.conversationId(), client: s.client(), first: 1 };
}

const send = (silent: boolean) => (_t: unknown, f: Conversation) => f.s.sendMessage(f.s.payload(f.conv, f.client, { silent }));
/**
 * The counts over the whole effect window (C66): the expected lead and notifications may come late in it, and one
 * beyond them is watched for as long. `later` messages after the first notify once each.
 */
const counted = (leads: number, later: number) => async (_t: unknown, f: Conversation): Promise<EffectCounts> => {
  const c = await effectCountsOver(f.s, f.conv, { leads, notifications: f.first + later });
  if (later === 0 && c.notifications === 2) f.first = 2;
  return c;
};

export default defineSpec({
  section: '2.6',
  title: 'Source object: unsorted leads and notifications per message',
  level: 'must',
  rules: [
    scenarioRule<Conversation>(
      { id: 'chat.unsorted.first-message-only', requires: ['write'], needs: ['counters'],
        title: 'The first incoming message of a chat creates one unsorted lead, the second and third none; each one notifies once',
        reading: '§2.6: only the first incoming message creates the unsorted lead; §4.3: a non-silent message creates a notification (silent suppresses "unsorted-lead creation and notification"), so notifications count per message. Leads and notifications of the conversation are read through the control API after each message, over the whole effect window (C66). Two notifications for the first message are non_strict (C40); later ones are counted from there.',
        covers: ['4.3/Send, edit or import a message/silent'] },
      {
        setup: newConversation,
        steps: [
          step('first message', send(false), [status(200)]),
          step('after the first', counted(1, 0), [leadsAre(1), firstNotifications]),
          step('second message', send(false), [status(200)]),
          step('after the second', counted(1, 1), (_t, f) => [leadsAre(1), notificationsAre(f.first + 1)]),
          step('third message', send(false), [status(200)]),
          step('after the third', counted(1, 2), (_t, f) => [leadsAre(1), notificationsAre(f.first + 2)]),
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
          step('after the silent one', async (_t, f) => effectCountsOver(f.s, f.conv, { leads: 0, notifications: 0 }), [leadsAre(0), notificationsAre(0)]),
          step('non-silent message', send(false), [status(200)]),
          step('after the non-silent one', counted(1, 0), [leadsAre(1), firstNotifications]),
        ],
      },
    ),
  ],
});
