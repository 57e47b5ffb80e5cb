/**
 * §4.3 Chat interface: one group per sub-heading of the spec (an endpoint), and one for what every endpoint shares
 * (signed JSON, the common 400 and 403, unknown paths), with the §7 codes (404 for an unknown channel or message, 204
 * for an empty history) and the §8 limits of each endpoint. Every chat rule works in its own conversations.
 */
import { defineSection } from '../kit.js';
import chatInterface from './chat-interface.js';
import connect from './connect.js';
import disconnect from './disconnect.js';
import createChat from './create-chat.js';
import message from './message.js';
import edit from './edit.js';
import comment from './comment.js';
import deliveryStatus from './delivery-status.js';
import history from './history.js';
import typing from './typing.js';
import react from './react.js';

export default defineSection({
  section: '4.3',
  title: 'Chat interface',
  defaults: { level: 'must', requires: ['write'] },
  groups: [chatInterface, connect, disconnect, createChat, message, edit, comment, deliveryStatus, history, typing, react],
});
