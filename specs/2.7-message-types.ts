/**
 * §2.7 message types, accepted when valid: a message of each of the nine types, with the fields its type requires
 * (and the optional ones its type uses: media_duration, sticker_id), answers 200 and shows in the history as sent.
 */
import {
  acceptedAndShownAsSent, chatSession, type ChatSession, defineSpec, sampleMessage, sendAndReadBack, type SentAndRead, sweepRule,
} from './kit.js';

const TYPES = ['text', 'file', 'video', 'picture', 'voice', 'audio', 'sticker', 'location', 'contact'] as const;
type MessageType = (typeof TYPES)[number];

export default defineSpec({
  section: '2.7',
  title: 'Message object: every type accepted',
  level: 'must',
  rules: [
    sweepRule<MessageType, SentAndRead, ChatSession>(
      { id: 'chat.message.types-accepted', requires: ['write'],
        title: 'A valid message of each type (text, file, video, picture, voice, audio, sticker, location, contact) answers 200 and shows in the history as sent',
        reading: '§2.7: the fields each type requires (file_name and file_size for file, video and picture; location; contact), plus media for voice, audio and sticker, media_duration and sticker_id where the type uses them. The history shows type, text, media, file_name, file_size, location and contact as sent (§4.3 history table; media_duration and sticker_id are not history fields).',
        covers: ['2.7/type', '2.7/text', '2.7/media', '2.7/file_name', '2.7/file_size', '2.7/sticker_id', '2.7/location', '2.7/contact', '2.7/media_duration'] },
      {
        setup: (t) => chatSession(t),
        named: TYPES,
        label: (type) => type,
        send: (_t, type, s) => sendAndReadBack(s, sampleMessage(type, type === 'text' ? 'a text message' : `a ${type}`)),
        expect: acceptedAndShownAsSent,
      },
    ),
  ],
});
