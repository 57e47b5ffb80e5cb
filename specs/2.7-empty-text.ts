/**
 * §2.7 text: "Required for type text; may be empty for other types". A message of each other type with an empty text
 * (and the fields its type requires, media included) is accepted and shows in the history as sent.
 */
import {
  acceptedAndShownAsSent, chatSession, type ChatSession, defineSpec, sampleMessage, sendAndReadBack, type SentAndRead, sweepRule,
} from './kit.js';

const OTHER_TYPES = ['file', 'video', 'picture', 'voice', 'audio', 'sticker', 'location', 'contact'] as const;
type OtherType = (typeof OTHER_TYPES)[number];

export default defineSpec({
  section: '2.7',
  title: 'Message object: empty text for types other than text',
  level: 'must',
  rules: [
    sweepRule<OtherType, SentAndRead, ChatSession>(
      { id: 'chat.message.empty-text-other-types', requires: ['write'],
        title: 'A file, video, picture, voice, audio, sticker, location or contact message with an empty text answers 200 and shows in the history as sent',
        reading: '§2.7: text may be empty for types other than text. The history shows type, media, file_name, file_size, location and contact as sent; an empty text may be omitted there ("Empty values may be omitted").',
        covers: ['2.7/text', '2.7/media', '2.7/type'] },
      {
        setup: (t) => chatSession(t),
        named: OTHER_TYPES,
        label: (type) => `${type}, empty text`,
        send: (_t, type, s) => sendAndReadBack(s, sampleMessage(type, '')),
        expect: acceptedAndShownAsSent,
      },
    ),
  ],
});
