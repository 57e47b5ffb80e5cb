/**
 * §2.4 channel connection: the defaults a connect without optional fields must take, checked against the ground
 * truth of the control API.
 */
import { channelName, chatPaths, chatSession, defineSpec, equals, exchangeRule, field, type HttpResponse, status } from './kit.js';

export default defineSpec({
  section: '2.4',
  title: 'Channel connection defaults',
  level: 'must',
  rules: [
    exchangeRule<HttpResponse, string>(
      { id: 'chat.connect.title-default', requires: ['control'],
        title: 'Connect without title answers the channel\'s registered name as title',
        reading: '§2.4: title defaults to the channel name. The name is read through the control API (the chat interface never shows it); the connect answer echoes the connection, so its title must be that name.',
        covers: ['2.4/title'] },
      {
        setup: async (t) => channelName(t, (await chatSession(t)).channel.channelId),
        send: async (t) => {
          const s = await chatSession(t);
          return s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: { account_id: s.channel.accountId } });
        },
        expect: (_t, name) => [status(200), field('title', equals(name, 'the channel name'))],
      },
    ),
  ],
});
