/**
 * §2.5 participant profile: "when a new unsorted lead is created, they are added to the contact data". A client whose
 * first message carries profile phone and email creates the unsorted lead; its contact, read through the control
 * API (GET /_control/chat/unsorted), carries both.
 */
import { contactCarries, defineSpec, type ProfiledClient, profiledClient, scenarioRule, sendFirstMessage, status, step, unsortedLeadOf } from './kit.js';

export default defineSpec({
  section: '2.5',
  title: 'Participant profile: phone and email in the contact',
  level: 'must',
  rules: [
    scenarioRule<ProfiledClient>(
      { id: 'chat.participant.profile-to-contact', requires: ['write'], needs: ['ground-truth'],
        title: 'A first incoming message whose sender has profile phone and email creates an unsorted lead whose contact carries both',
        reading: '§2.5 profile: phone and email "are added to the contact data" when a new unsorted lead is created (§2.6: by the first incoming message). The lead and its contact are read through the control API. A phone with other separators and an email in another case are the same values.',
        covers: ['2.5/profile', '4.3/Send, edit or import a message/sender'],
        creates: 'one chat with one message from a client with a profile' },
      {
        setup: profiledClient,
        steps: [
          step('first message', (_t, f) => sendFirstMessage(f), [status(200)]),
          step('unsorted lead', (_t, f) => unsortedLeadOf(f.s, f.conv), (_t, f) => [contactCarries(f.profile)]),
        ],
      },
    ),
  ],
});
