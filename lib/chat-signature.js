// `conformance-kit/chat-signature`: the §5.2 signer of chat requests (src/protocol/chat-signature.ts, docs/sandbox.md).
import { bundledEntry } from '../bin/bundle.js';

const entry = await import(await bundledEntry('chat-signature'));
export const { signChatRequest, chatSignature, contentMd5, signingString, signedPath, rfc2822Date, parseRfc2822, EMPTY_MD5, CHAT_CONTENT_TYPE } = entry;
