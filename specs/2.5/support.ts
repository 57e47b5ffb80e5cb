/**
 * What the rules of §2.5 share: fixtures, case tables and the makers of rule families.
 */
import { ChatSession } from '../kit.js';

export const fullParticipant = (s: ChatSession) => ({ ...s.client('Full Participant'), avatar: 'https://files.example/avatar.png', profile: { phone: '+10000000001', email: 'client@example.com' }, profile_link: 'https://social.example/client' });
