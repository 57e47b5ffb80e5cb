/**
 * §4.3 Chat interface: one group per sub-heading of the spec.
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
