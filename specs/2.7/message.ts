/**
 * §2.7 Message object.
 *
 * §2.7 message types, accepted when valid: a message of each of the nine types, with the fields its type requires
 * (and the optional ones its type uses: media_duration, sticker_id), answers 200 and shows in the history as sent.
 *
 * §2.7 text: "Required for type text; may be empty for other types". A message of each other type with an empty text
 * (and the fields its type requires, media included) is accepted and shows in the history as sent.
 */
import fc from 'fast-check';
import {
  acceptedAndShownAsSent, applyCase, chatSession, ChatSession, chatSweepRule, defineGroup, describeCase, fieldCaseArb, sampleMessage, sendAndReadBack, type SentAndRead, sweepRule,
} from '../kit.js';
import { fullMessage, MESSAGE_FIELDS, type MessageCase, MESSAGE_CASES, TYPES, type MessageType, OTHER_TYPES, type OtherType } from './support.js';
import { messageEvent, refusalOf, optionalRule } from '../fixtures/chat.js';

export default defineGroup({
  heading: 'Message object (`payload.message`)',
  rules: [
    // §2.7 message
    chatSweepRule<MessageCase>(
      { id: 'chat.message.required', title: 'A message without type, or without a field its type requires, or with one of another type, is refused with 400',
        reading: '§2.7: type required; text for text; file_name and file_size for file, video, picture; location (lon, lat) for location; contact (name, phone) for contact: accepted without them fails. media is left unmarked ("Link to image, file, …"): a picture without it accepted is non_strict (C10 of the review); a value of another JSON type coerced or ignored and accepted is non_strict (wrong-type, C11); a type outside the list accepted fails (enumeration).',
        covers: ['2.7/type', '2.7/text', '2.7/media', '2.7/file_name', '2.7/file_size', '2.7/location', '2.7/contact', '4.3/Send, edit or import a message/message'] },
      {
        connect: true,
        named: MESSAGE_CASES,
        cases: () => fc.constantFrom(...Object.keys(MESSAGE_FIELDS)).chain((messageType) => fieldCaseArb(MESSAGE_FIELDS[messageType]!).map((c) => ({ ...c, messageType }))),
        send: (s, c) => s.postEvent(applyCase(messageEvent(s, { message: sampleMessage(c.messageType, c.messageType === 'text' ? 'hi' : '') }), c)),
        expect: refusalOf,
        label: (c) => `${c.messageType}: ${describeCase(c)}`,
      },
    ),
    optionalRule(
      { id: 'chat.message.optional', title: 'sticker_id, callback_data, media_duration, delivery_status and shared_post (and its preview fields) may each be omitted',
        covers: ['2.7/sticker_id', '2.7/callback_data', '2.7/media_duration', '2.7/delivery_status', '2.7/shared_post', '2.8/preview_link', '2.8/preview_permalink', '2.8/site_name', '2.8/url'] },
      (s) => messageEvent(s, { message: fullMessage() }),
      ['sticker_id', 'callback_data', 'media_duration', 'delivery_status', 'shared_post', ['shared_post', 'preview_link'], ['shared_post', 'preview_permalink'], ['shared_post', 'site_name']]
        .map((p) => ['payload', 'message', ...(Array.isArray(p) ? p : [p])]),
    ),
    sweepRule<MessageType | 'sticker by sticker_id, no media', SentAndRead, ChatSession>(
      { id: 'chat.message.types-accepted', title: 'A valid message of each type (text, file, video, picture, voice, audio, sticker, location, contact) answers 200 and shows in the history as sent; so does a sticker named by sticker_id alone',
        reading: '§2.7: the fields each type requires (file_name and file_size for file, video and picture; location; contact), plus media for voice, audio and sticker, media_duration and sticker_id where the type uses them. The history shows type, text, media, file_name, file_size, location and contact as sent (§4.3 history table; media_duration and sticker_id are not history fields). A sticker is also sent with sticker_id and no media: media is required for no type but file, video and picture, and sticker_id ("Sticker id, the same in all accounts") names the sticker, so a refusal fails (issue 28 item 4: a valid shape, named on every run).',
        covers: ['2.7/type', '2.7/text', '2.7/media', '2.7/file_name', '2.7/file_size', '2.7/sticker_id', '2.7/location', '2.7/contact', '2.7/media_duration'] },
      {
        setup: (t) => chatSession(t),
        named: [...TYPES, 'sticker by sticker_id, no media'] as const,
        label: (type) => type,
        send: (_t, type, s) => {
          if (type !== 'sticker by sticker_id, no media') return sendAndReadBack(s, sampleMessage(type, type === 'text' ? 'a text message' : `a ${type}`));
          const { media: _media, ...sticker } = sampleMessage('sticker', 'a sticker by its id');
          return sendAndReadBack(s, sticker);
        },
        expect: acceptedAndShownAsSent,
      },
    ),
    sweepRule<OtherType | 'picture without text', SentAndRead, ChatSession>(
      { id: 'chat.message.empty-text-other-types', title: 'A file, video, picture, voice, audio, sticker, location or contact message with an empty text answers 200 and shows in the history as sent',
        reading: '§2.7: text may be empty for types other than text, and is required only for type text (a picture is also sent without a text member). The history shows type, media, file_name, file_size, location and contact as sent; an empty text may be omitted there ("Empty values may be omitted").',
        covers: ['2.7/text', '2.7/media', '2.7/type'] },
      {
        setup: (t) => chatSession(t),
        // A picture without any text member too: "Required for type text" leaves it out of the others (issue 28 item 4).
        named: [...OTHER_TYPES, 'picture without text'] as const,
        label: (type) => (type === 'picture without text' ? type : `${type}, empty text`),
        send: (_t, type, s) => {
          if (type !== 'picture without text') return sendAndReadBack(s, sampleMessage(type, ''));
          const { text: _text, ...picture } = sampleMessage('picture', '');
          return sendAndReadBack(s, picture);
        },
        expect: acceptedAndShownAsSent,
      },
    ),
  ],
});
