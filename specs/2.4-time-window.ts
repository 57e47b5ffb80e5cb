/**
 * §2.4 is_time_window_disabled: "when the channel has a reply time window, true disables it for this account". A
 * channel of the rule's own gets a reply window through the control API and is connected to two accounts, with false
 * and with true; the client writes in both; a reply inside the window is accepted; once the window has passed on the
 * control clock, what the bot's reply gets in each is recorded: the spec shows neither the window nor how a reply
 * outside it is refused (C5 of the review). That true is accepted and echoed is judged by chat.connect.echoes-request.
 */
import { botReply, defineSpec, observedStatus, passReplyWindow, type ReplyWindowChannel, replyWindowChannel, resetClock, scenarioRule, status, step } from './kit.js';

export default defineSpec({
  section: '2.4',
  title: 'Channel connection: reply time window',
  level: 'info',
  rules: [
    scenarioRule<ReplyWindowChannel>(
      { id: 'chat.connect.time-window-disabled', requires: ['write', 'control'], needs: ['clock', 'second-account'], exclusive: true,
        title: 'What a reply gets once the channel\'s reply window has passed, where is_time_window_disabled is false and where it is true',
        reading: '§2.4: true "disables" the channel\'s reply time window for the account; the spec shows neither the window nor how a reply outside it is refused, so the late replies are recorded, not judged (open-point, C5 of the review). The window (an hour) is set on a channel registered through the control API and passed on its clock (exclusive; put back after); the replies come from the channel\'s bot.',
        covers: ['2.4/is_time_window_disabled', '4.3/Connect channel/is_time_window_disabled'] },
      {
        setup: replyWindowChannel,
        teardown: (t) => resetClock(t),
        steps: [
          step('reply inside the window', (_t, f) => botReply(f, 'enforced'), [status(200)]),
          step('the window passes', (t, f) => passReplyWindow(t, f), []),
          step('late reply, is_time_window_disabled false', (_t, f) => botReply(f, 'enforced'), [observedStatus('late reply, window held')]),
          step('late reply, is_time_window_disabled true', (_t, f) => botReply(f, 'disabled'), [observedStatus('late reply, window disabled')]),
        ],
      },
    ),
  ],
});
