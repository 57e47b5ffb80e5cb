/**
 * §2.6 Source object.
 *
 * §2.6 and §4.3 rule 2, effects counted message by message: the first incoming message of a chat creates its one
 * unsorted lead and every non-silent incoming message one notification; a silent message creates neither, so after a
 * silent first message the first non-silent one creates the lead. Counted through the control API after each message.
 */
import fc from 'fast-check';
import {
  chatSession, chatSweepRule, defineGroup, describeExternalId, EXTERNAL_ID_BOUNDARY, externalIdAccepted, type ExternalIdCase, fail, firstNotifications, invalidExternalId, leadsAre, leadsOnceSeen, notificationsAre, pass, rule, scenarioRule, status, step, validExternalId,
} from '../kit.js';
import { refusal, accepted, type EffectsConversation, newConversation, sendSilent, counted, CREATE, SEND } from '../fixtures/chat.js';

export default defineGroup({
  heading: 'Source object',
  rules: [
    // §2.6 source, §8 external_id limit
    chatSweepRule<ExternalIdCase>(
      { id: 'chat.source.external-id', needs: [], title: 'external_id: a string of up to 40 printable ASCII characters, an integer or a boolean is accepted; 41 characters or a non-printable character is refused',
        reading: '§2.6 and §8: up to 40 characters, printable ASCII and space. Both sides of the boundary (40, 41) are always sent; non-ASCII letters count as non-printable.',
        covers: ['2.6/external_id', '8/Source external_id', '4.3/Send, edit or import a message/source', '4.3/Create chat/source[external_id]'] },
      {
        connect: true,
        named: [
          { variant: 'printable', value: EXTERNAL_ID_BOUNDARY.accepted },
          { variant: 'too-long', value: EXTERNAL_ID_BOUNDARY.refused },
          { variant: 'printable', value: ' ~!"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}' },
          { variant: 'non-printable', value: 'tab\there', char: '\t' },
          { variant: 'integer', value: 42 },
          { variant: 'boolean', value: true },
        ],
        cases: () => fc.oneof(validExternalId, invalidExternalId),
        send: (s, c) => s.sendMessage(s.payload(s.conversationId(), s.client(), { source: { external_id: c.value } })),
        expect: (c) => (externalIdAccepted(c) ? accepted : refusal),
        label: describeExternalId,
      },
    ),
    scenarioRule<EffectsConversation>(
      { id: 'chat.unsorted.first-message-only', title: 'The first incoming message of a chat creates one unsorted lead, the second and third none; each one notifies once',
        reading: '§2.6: only the first incoming message creates the unsorted lead; §4.3: a non-silent message creates a notification (silent suppresses "unsorted-lead creation and notification"), so notifications count per message. Leads and notifications of the conversation are read through the control API after each message, over the whole effect window (C66). Two notifications for the first message are non_strict (C40); later ones are counted from there.',
        covers: ['4.3/Send, edit or import a message/silent'] },
      {
        setup: newConversation,
        steps: [
          step('first message', sendSilent(false), [status(200)]),
          step('after the first', counted(1, 0), [leadsAre(1), firstNotifications]),
          step('second message', sendSilent(false), [status(200)]),
          step('after the second', counted(1, 1), (_t, f) => [leadsAre(1), notificationsAre(f.first + 1)]),
          step('third message', sendSilent(false), [status(200)]),
          step('after the third', counted(1, 2), (_t, f) => [leadsAre(1), notificationsAre(f.first + 2)]),
        ],
      },
    ),
    rule(
      { id: 'chat.import.source-pipeline', requires: ['write', 'control'], title: 'With a source, the first incoming message creates the unsorted lead in the pipeline of that source',
        reading: '§2.6. The source is mapped to a pipeline through the control API (POST /_control/chat/sources); the lead is awaited for the effect window (15 s, C66). A chat without source is accepted; its lead may be in any pipeline, the spec is silent (C65).', covers: ['2.6/external_id', SEND('source'), CREATE('source[external_id]')] },
      async (t) => {
        const s = await chatSession(t);
        const external = `src-${t.runId}`.slice(0, 40);
        const pipeline = 7_000_000 + Math.floor(Math.random() * 1_000_000);
        await t.control.call('POST', '/chat/sources', { account_id: s.channel.accountId, external_id: external, pipeline_id: pipeline });
        const withSource = s.conversationId();
        const without = s.conversationId();
        await s.mustSend(s.payload(withSource, s.client(), { source: { external_id: external } }));
        const noSource = await s.sendMessage(s.payload(without, s.client()));
        const a = (await leadsOnceSeen(s, withSource)).pipeline;
        return t.outcome([
          a === pipeline ? pass('source pipeline', String(a)) : fail('source pipeline', `expected the lead in pipeline ${pipeline} (the source's) within the effect window, observed ${String(a)}`),
          ...t.check(noSource, [status(200)]).map((f) => ({ ...f, check: `without source: ${f.check}` })),
        ]);
      },
    ),
  ],
});
