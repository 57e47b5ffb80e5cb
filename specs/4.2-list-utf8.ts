/**
 * §4.2 lists: UTF-8 values round-trip, a record named in Cyrillic and emoji is found by its name.
 */
import { apiToken, defineSpec, type HttpResponse, listRequest, nonAsciiLead, showsRecord, sweepRule } from './kit.js';

interface Fixture {
  readonly token: string;
  readonly id: number;
  readonly name: string;
}

type Parameter = 'filter[name]' | 'query';

export default defineSpec({
  section: '4.2',
  title: 'List filtering: non-ASCII values',
  level: 'must',
  rules: [
    sweepRule<Parameter, HttpResponse, Fixture>(
      { id: 'lists.filter.non-ascii-name', requires: ['write'], needs: ['non-ascii-record'], exclusive: true,
        creates: 'one lead named in Cyrillic and emoji (through the control API; without one, NON_ASCII_LEAD_ID names a lead made beforehand)',
        title: 'A lead named in Cyrillic and emoji is found by its percent-encoded UTF-8 name in filter[name] and in query',
        reading: '§4.2: filter[name] filters by name and query searches (leads, contacts, companies); query strings are UTF-8 percent-encoded (RFC 3986 §2.5), so a non-ASCII name must find its record. The record is created through the control API (the rule runs alone: it adds a record others would see), else it is the lead NON_ASCII_LEAD_ID of the settings, named NON_ASCII_LEAD_NAME.' },
      {
        setup: async (t) => {
          const made = await nonAsciiLead(t, `Сделка ${t.runId.slice(0, 8)} 😀`);
          return { token: await apiToken(t), ...made };
        },
        named: ['filter[name]', 'query'],
        send: (t, parameter, f) => t.send(listRequest(t.target, f.token, 'leads', `${encodeURIComponent(parameter)}=${encodeURIComponent(f.name)}`)),
        expect: (_t, _parameter, f) => [showsRecord(f.id, 'the record by its non-ASCII name')],
        label: (parameter) => parameter,
      },
    ),
  ],
});
