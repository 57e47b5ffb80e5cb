/**
 * §4.2 lists: UTF-8 values round-trip, a record named in Cyrillic and emoji is found by its name.
 */
import { apiToken, createNamedRecord, defineSpec, type HttpResponse, listRequest, showsRecord, sweepRule } from './kit.js';

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
      { id: 'lists.filter.non-ascii-name', requires: ['control', 'write'], exclusive: true, creates: 'one lead named in Cyrillic and emoji (control API)',
        title: 'A lead named in Cyrillic and emoji is found by its percent-encoded UTF-8 name in filter[name] and in query',
        reading: '§4.2: filter[name] filters by name and query searches (leads, contacts, companies); query strings are UTF-8 percent-encoded (RFC 3986 §2.5), so a non-ASCII name must find its record. The record is created through the control API; the rule runs alone (it adds a record others would see).' },
      {
        setup: async (t) => {
          const made = await createNamedRecord(t, 'leads', `Сделка ${t.runId.slice(0, 8)} 😀`);
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
