/**
 * §2.6 Source object.
 *
 * §2.6 and §4.3 rule 2, effects counted message by message: the first incoming message of a chat creates its one
 * unsorted lead and every non-silent incoming message one notification; a silent message creates neither, so after a
 * silent first message the first non-silent one creates the lead. Counted through the control API after each message.
 */
import fc from 'fast-check';
import {
  chatSweepRule, defineGroup, describeExternalId, equals, EXTERNAL_ID_BOUNDARY, EXTERNAL_ID_OTHER_TYPES, type ExternalIdCase, firstNotifications, invalidExternalId, leadsAre, leadsOnceSeen, type LeadsSeen, notificationsAre, scenarioRule, status, step, validExternalId, valueField,
} from '../kit.js';
import { type SourcePipeline, sourcePipeline } from './support.js';
import { externalIdAnswer, type EffectsConversation, newConversation, sendSilent, counted, CREATE, SEND } from '../fixtures/chat.js';

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
          ...EXTERNAL_ID_OTHER_TYPES,
        ],
        cases: () => fc.oneof(validExternalId, invalidExternalId),
        send: (s, c) => s.sendMessage(s.payload(s.conversationId(), s.client(), { source: { external_id: c.value } })),
        expect: externalIdAnswer,
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
    scenarioRule<SourcePipeline>(
      { id: 'chat.import.source-pipeline', requires: ['write', 'control'], title: 'With a source, the first incoming message creates the unsorted lead in the pipeline of that source',
        reading: '§2.6. The source is mapped to a pipeline through the control API (POST /_control/chat/sources); the lead is awaited for the effect window (15 s, C66). A chat without source is accepted; its lead may be in any pipeline, the spec is silent (C65).', covers: ['2.6/external_id', SEND('source'), CREATE('source[external_id]')] },
      {
        setup: sourcePipeline,
        steps: [
          step('without source', (_t, f) => f.s.sendMessage(f.s.payload(f.without, f.s.client())), [status(200)]),
          step<SourcePipeline, LeadsSeen>('', (_t, f) => leadsOnceSeen(f.s, f.withSource), (_t, f) => [
            valueField('pipeline', equals(f.pipeline, `pipeline ${f.pipeline} (the source's), within the effect window`), 'source pipeline'),
          ]),
        ],
      },
    ),
  ],
});
