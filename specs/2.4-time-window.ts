/**
 * §2.4 is_time_window_disabled: "when the channel has a reply time window, true disables it for this account". A
 * channel of the rule's own gets a reply window through the control API and is connected to two accounts, with false
 * and with true; the client writes in both; a reply inside the window is accepted; once the window has passed on the
 * control clock, the bot's reply is refused where the window holds and accepted where it is disabled.
 */
import { botReply, defineSpec, passReplyWindow, type ReplyWindowChannel, replyWindowChannel, resetClock, scenarioRule, status, step } from './kit.js';

export default defineSpec({
  section: '2.4',
  title: 'Channel connection: reply time window',
  level: 'must',
  rules: [
    scenarioRule<ReplyWindowChannel>(
      { id: 'chat.connect.time-window-disabled', requires: ['write', 'control'], needs: ['clock', 'second-account'], exclusive: true,
        title: 'Once the channel\'s reply window has passed, a reply is refused where is_time_window_disabled is false and accepted where it is true',
        reading: '§2.4: true "disables" the channel\'s reply time window for the account; the spec does not say how a reply outside the window is refused: 400, as for data the service does not take (another 4xx is non_strict). The window (an hour) is set on a channel registered through the control API and passed on its clock (exclusive; put back after); the replies come from the channel\'s bot.',
        covers: ['2.4/is_time_window_disabled', '4.3/Connect channel/is_time_window_disabled'] },
      {
        setup: replyWindowChannel,
        teardown: (t) => resetClock(t),
        steps: [
          step('reply inside the window', (_t, f) => botReply(f, 'enforced'), [status(200)]),
          step('the window passes', (t, f) => passReplyWindow(t, f), []),
          step('late reply, is_time_window_disabled false', (_t, f) => botReply(f, 'enforced'), [status(400)]),
          step('late reply, is_time_window_disabled true', (_t, f) => botReply(f, 'disabled'), [status(200)]),
        ],
      },
    ),
  ],
});
