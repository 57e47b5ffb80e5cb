/**
 * §4.2 lists: a list shows its own account's records only, whatever the filter names.
 */
import { apiToken, defineSpec, type HttpResponse, LISTS, type ListName, listRequest, otherAccountIds, Precondition, showsNoneOf, sweepRule } from './kit.js';

interface Fixture {
  readonly token: string;
  readonly foreign: ReadonlyMap<ListName, readonly number[]>;
}

const idFilter = (ids: readonly number[]): string => ids.map((id) => `filter%5Bid%5D%5B%5D=${id}`).join('&');

export default defineSpec({
  section: '4.2',
  title: 'List filtering: account isolation',
  level: 'must',
  rules: [
    sweepRule<ListName, HttpResponse, Fixture>(
      { id: 'lists.filter.other-account-ids', requires: [], needs: ['foreign-records'],
        title: 'filter[id] naming another account\'s records returns none of them, on each of the four lists',
        reading: '§4.2 (and §0: one base_url per account): a token of one account reaches that account\'s records only. The ids are read from the control API\'s ground truth of a second account (those this account also holds are left out), else from OTHER_ACCOUNT_RECORD_IDS of the settings. 204 or a page without them passes; a refusal of the valid filter is non_strict.' },
      {
        setup: async (t) => {
          const foreign = new Map<ListName, readonly number[]>();
          for (const list of LISTS) foreign.set(list, await otherAccountIds(t, list));
          if ([...foreign.values()].every((ids) => ids.length === 0)) throw new Precondition('the second account holds no id this account does not');
          return { token: await apiToken(t), foreign };
        },
        named: LISTS,
        send: (t, list, f) => t.send(listRequest(t.target, f.token, list, idFilter(f.foreign.get(list) ?? []))),
        expect: (_t, list, f) => [showsNoneOf(f.foreign.get(list) ?? [], 'the other account')],
        label: (list) => list,
      },
    ),
  ],
});
