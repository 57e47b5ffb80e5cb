/**
 * §2.4 channel connection: the defaults a connect without optional fields must take, checked against the channel's
 * registered name (the control API's, else CHANNEL_NAME of the settings).
 */
import { chatPaths, chatSession, configuredChannelName, connectBody, defaultOrAbsent, defineSpec, exchangeRule, type HttpResponse, status } from './kit.js';

export default defineSpec({
  section: '2.4',
  title: 'Channel connection defaults',
  level: 'must',
  rules: [
    exchangeRule<HttpResponse, string>(
      { id: 'chat.connect.title-default', requires: [], needs: ['channel-name'],
        title: 'Connect without title answers the channel\'s registered name as title',
        reading: '§2.4: title defaults to the channel name. The name is read through the control API, else CHANNEL_NAME of the settings (the chat interface never shows it); the connect answer echoes the connection, so a title it gives must be that name; no title in the answer is non_strict (answer-member, C3 of the review). The probe gives hook_api_version (v2, as every connect of the kit), so that only title is left out.',
        covers: ['2.4/title'] },
      {
        setup: configuredChannelName,
        send: async (t) => {
          const s = await chatSession(t);
          return s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: connectBody(s.channel.accountId) });
        },
        expect: (_t, name) => [status(200), defaultOrAbsent('title', name)],
      },
    ),
  ],
});
