/**
 * Lists: §4.2 list filtering (every parameter row, every filter kind, every custom-field type), with §1 item 5 (the paid
 * feature) and §2.12 (record fields not shown). Each parameter gives two statements: accepted in its shapes, and
 * returning exactly the matching records.
 */
import { requirements, type Requirement } from './model.js';

/** A §4.2 parameter row: where it applies, whether it takes several values or a range, and what it filters by. */
interface ParameterRow {
  readonly slug: string;
  readonly param: string;
  readonly lists: string;
  readonly shapes: string;
  readonly meaning: string;
  readonly oracle: 'lists.filter.oracle.common' | 'lists.filter.oracle.per-list';
}

const PARAMETERS: readonly ParameterRow[] = [
  { slug: 'id', param: 'filter[id]', lists: 'all four lists', shapes: 'one id or an array of ids', meaning: 'the records whose id is among the values', oracle: 'lists.filter.oracle.common' },
  { slug: 'name', param: 'filter[name]', lists: 'all four lists', shapes: 'one name or an array of names', meaning: 'the records with that name', oracle: 'lists.filter.oracle.common' },
  { slug: 'created-by', param: 'filter[created_by]', lists: 'all four lists', shapes: 'one user id or an array', meaning: 'the records created by those users', oracle: 'lists.filter.oracle.common' },
  { slug: 'updated-by', param: 'filter[updated_by]', lists: 'all four lists', shapes: 'one user id or an array', meaning: 'the records last modified by those users', oracle: 'lists.filter.oracle.common' },
  { slug: 'responsible-user-id', param: 'filter[responsible_user_id]', lists: 'all four lists', shapes: 'one user id or an array', meaning: 'the records those users are responsible for', oracle: 'lists.filter.oracle.common' },
  { slug: 'created-at', param: 'filter[created_at]', lists: 'all four lists', shapes: 'a range of timestamps (from and to)', meaning: 'the records created within the range', oracle: 'lists.filter.oracle.common' },
  { slug: 'updated-at', param: 'filter[updated_at]', lists: 'all four lists', shapes: 'a range of timestamps', meaning: 'the records modified within the range', oracle: 'lists.filter.oracle.common' },
  { slug: 'closest-task-at', param: 'filter[closest_task_at]', lists: 'all four lists', shapes: 'a range of timestamps', meaning: 'the records whose nearest task falls within the range', oracle: 'lists.filter.oracle.common' },
  { slug: 'price', param: 'filter[price]', lists: '/api/v4/leads', shapes: 'a range', meaning: 'the deals whose budget is within the range', oracle: 'lists.filter.oracle.per-list' },
  { slug: 'pipeline-id', param: 'filter[pipeline_id]', lists: '/api/v4/leads', shapes: 'one pipeline id or an array', meaning: 'the deals in those pipelines', oracle: 'lists.filter.oracle.per-list' },
  { slug: 'closed-at', param: 'filter[closed_at]', lists: '/api/v4/leads', shapes: 'a range of timestamps', meaning: 'the deals closed within the range', oracle: 'lists.filter.oracle.per-list' },
  { slug: 'next-price', param: 'filter[next_price]', lists: '/api/v4/customers', shapes: 'a value or a range', meaning: 'the customers whose expected next purchase sum matches', oracle: 'lists.filter.oracle.per-list' },
  { slug: 'next-date', param: 'filter[next_date]', lists: '/api/v4/customers', shapes: 'a range of timestamps', meaning: 'the customers whose expected next purchase date is within the range', oracle: 'lists.filter.oracle.per-list' },
  { slug: 'status-id', param: 'filter[status_id]', lists: '/api/v4/customers', shapes: 'one status id or an array', meaning: 'the customers with those statuses', oracle: 'lists.filter.oracle.per-list' },
];

function parameterStatements(p: ParameterRow): Requirement[] {
  return [
    {
      id: `REQ-4.2-${p.slug}-shapes`, section: '4.2', source: 'table', level: 'must',
      statement: `${p.param} on ${p.lists} is accepted as ${p.shapes}.`,
      observes: `a 2xx answer for ${p.param} in each of its shapes, values taken from the records the list shows`,
      needs: ['nothing'],
      reading: p.shapes.includes('range') ? {
        kind: 'status-code', review: 'K18',
        passed: 'each shape answered 2xx; a range with from and to',
        failed: 'a shape the table allows refused',
        informational: 'an open range (only from or only to) accepted or refused, recorded',
      } : { kind: 'status-code' },
      rules: ['lists.filter.shapes'],
    },
    {
      id: `REQ-4.2-${p.slug}-meaning`, section: '4.2', source: 'table', level: 'must',
      statement: `${p.param} returns ${p.meaning}.`,
      observes: 'exactly the ground-truth records that satisfy it, across all pages; each returned record satisfies it on its own fields',
      needs: ['control'],
      reading: p.slug === 'name' ? {
        kind: 'stated-behaviour', review: 'K35',
        passed: 'every record with exactly that name, and only records whose name contains it',
        failed: 'a record with exactly that name missing, or a record whose name does not contain the value in any letter case',
        informational: 'records whose name only contains the value or differs in letter case (how names match is not stated: REQ-4.2-name-match)',
      } : { kind: 'stated-behaviour' },
      rules: [p.oracle, 'lists.filter.meta.consistent'],
    },
  ];
}

/** §4.2 custom field value rules: one row per field type. */
const CUSTOM_FIELD_TYPES = [
  { slug: 'numeric', types: 'numeric', value: 'the field value', multiple: true, range: true },
  { slug: 'text', types: 'text, url, textarea, streetaddress', value: 'the field value', multiple: true, range: false },
  { slug: 'enum', types: 'select, multiselect, radiobutton', value: 'the enum value id', multiple: true, range: false },
  { slug: 'checkbox', types: 'checkbox', value: '1 or 0', multiple: false, range: false },
  { slug: 'date', types: 'date, date_time', value: 'a timestamp', multiple: false, range: true },
] as const;

function customFieldStatements(): Requirement[] {
  const out: Requirement[] = [];
  for (const f of CUSTOM_FIELD_TYPES) {
    out.push({
      id: `REQ-4.2-cf-${f.slug}-value`, section: '4.2', source: 'table', level: 'must',
      statement: `A ${f.types} custom field is filtered by ${f.value}.`,
      observes: 'filter[custom_fields_values][<id>][]=<value> returns exactly the records with that value',
      needs: ['control'],
      reading: { kind: 'stated-behaviour' },
      rules: ['lists.filter.oracle.custom-fields', 'lists.filter.shapes'],
    });
    if (f.multiple) {
      out.push({
        id: `REQ-4.2-cf-${f.slug}-multiple`, section: '4.2', source: 'table', level: 'must',
        statement: `A ${f.types} custom field takes several values.`,
        observes: 'two values return the union of what each returns alone',
        needs: ['nothing'],
        reading: { kind: 'stated-behaviour' },
        rules: ['lists.filter.meta.union', 'lists.filter.oracle.custom-fields'],
      });
    }
    if (f.range) {
      out.push({
        id: `REQ-4.2-cf-${f.slug}-range`, section: '4.2', source: 'table', level: 'must',
        statement: `A ${f.types} custom field takes a range ([from] and [to] in place of []).`,
        observes: 'the range returns the records within it; a narrower range a subset of a wider one',
        needs: ['control'],
        reading: {
          kind: 'stated-behaviour', review: 'K18',
          informational: 'an open range (only from or only to) accepted or refused, recorded',
        },
        rules: ['lists.filter.oracle.custom-fields', 'lists.filter.meta.range-narrowing'],
      });
    }
  }
  out.push({
    id: 'REQ-4.2-cf-checkbox-date-multiple', section: '4.2', source: 'table', level: 'info',
    statement: 'Whether checkbox and date custom fields take several values is not stated.',
    observes: 'what two values of a checkbox or date field return',
    needs: ['nothing'],
    reading: { kind: 'open-point' },
    rules: ['lists.filter.info.checkbox-date-multiple'],
  });
  return out;
}

export const LISTS = requirements([
  {
    id: 'REQ-1-filter-four-lists', section: '1', source: 'prose', level: 'must',
    statement: 'List endpoints of deals, contacts, companies and customers accept a filter parameter.',
    observes: 'each of the four lists accepts filter parameters',
    needs: ['nothing'],
    reading: { kind: 'status-code' },
    rules: ['lists.filter.shapes'],
  },
  {
    id: 'REQ-1-filter-paid-feature', section: '1', source: 'prose', level: 'info',
    statement: 'Filtering is an optional paid function in the Alpha stage, enabled in the account settings.',
    observes: 'what a filtered list answers while the feature is off',
    needs: ['person'],
    reading: { kind: 'open-point' },
    rules: ['lists.filter.info.feature-off'],
  },
  {
    id: 'REQ-2.12-record-fields', section: '2.12', source: 'prose', level: 'info',
    statement: 'Fields of lead, contact, company and customer records are not shown; only their filterable attributes appear in §4.2.',
    observes: 'the list answer\'s media type and keys',
    needs: ['nothing'],
    reading: { kind: 'open-point' },
    rules: ['lists.response.shape'],
  },

  // ---- §4.2 prose
  {
    id: 'REQ-4.2-four-lists', section: '4.2', source: 'prose', level: 'must',
    statement: 'Filtering is available for four lists: leads, contacts, companies, customers.',
    observes: 'each list answers filtered requests with 2xx',
    needs: ['nothing'],
    reading: {
      kind: 'status-code', review: 'K22',
      passed: 'each of the four lists answers 2xx, unfiltered and filtered',
      non_strict: 'another 2xx',
      failed: 'a refusal (a 404) of a list the spec names',
    },
    rules: ['lists.filter.shapes'],
  },
  {
    id: 'REQ-4.2-access-follows-rights', section: '4.2', source: 'prose', level: 'must',
    statement: 'Access follows the user\'s rights.',
    observes: 'a user who may see only his own deals gets exactly those, on every page, and none of another user\'s, whether a filter[id], a filter[responsible_user_id] or a search names them',
    needs: ['person', 'control'],
    reading: {
      kind: 'security',
      passed: 'his deals and no other: 204, a page of his, or a 403 refusal of a request naming what he may not see',
      non_strict: 'a valid request naming another user\'s deals refused with another 4xx',
      failed: 'a deal of another user in any answer, on any page; a deal of his missing from his list',
    },
    rules: ['lists.rights.own-leads-only', 'lists.rights.filter-id', 'lists.rights.filters-within-rights'],
    partial: 'rights of one kind (deals of the user\'s own responsibility) on the deals list; contacts, companies and customers, and rights of other kinds, are not tried',
    theme: 'list-safety',
  },
  {
    id: 'REQ-4.2-query-parameters', section: '4.2', source: 'prose', level: 'must',
    statement: 'Filter parameters are sent as query parameters.',
    observes: 'filters in the query string are applied',
    needs: ['nothing'],
    reading: { kind: 'status-code' },
    rules: ['lists.filter.shapes', 'lists.filter.meta.consistent'],
  },
  {
    id: 'REQ-4.2-filter-container', section: '4.2', source: 'table', level: 'must',
    statement: 'filter is the container object of every filter parameter.',
    observes: 'filter[...] parameters are read as one object; a filter that is not an object never causes a 5xx',
    needs: ['nothing'],
    reading: { kind: 'status-code' },
    rules: ['lists.filter.shapes', 'lists.filter.no-server-error'],
  },
  ...PARAMETERS.flatMap(parameterStatements),
  {
    id: 'REQ-4.2-name-match', section: '4.2', source: 'table', level: 'info',
    statement: 'How filter[name] matches (the exact name, a part of it, another letter case) is not stated.',
    observes: 'which of exact, partial and case-changed names find a record',
    needs: ['nothing'],
    reading: { kind: 'open-point' },
    rules: ['lists.filter.info.name-match'],
  },
  {
    id: 'REQ-4.2-custom-fields-values', section: '4.2', source: 'table', level: 'must',
    statement: 'filter[custom_fields_values] filters by custom field values, multiple and range by field type.',
    observes: 'each custom field type filters as its value rules say',
    needs: ['control'],
    reading: { kind: 'stated-behaviour' },
    rules: ['lists.filter.oracle.custom-fields', 'lists.filter.shapes'],
  },
  {
    id: 'REQ-4.2-statuses-shapes', section: '4.2', source: 'table', level: 'must',
    statement: 'filter[statuses] on /api/v4/leads is an array of {pipeline_id, status_id} elements.',
    observes: 'a 2xx answer for filter[statuses][i][pipeline_id]=..&filter[statuses][i][status_id]=..',
    needs: ['nothing'],
    reading: { kind: 'status-code' },
    rules: ['lists.filter.shapes'],
  },
  {
    id: 'REQ-4.2-statuses-meaning', section: '4.2', source: 'table', level: 'must',
    statement: 'filter[statuses] returns the deals in those statuses of those pipelines.',
    observes: 'exactly the ground-truth deals matching one of the (pipeline, status) pairs',
    needs: ['control'],
    reading: { kind: 'stated-behaviour' },
    rules: ['lists.filter.oracle.per-list', 'lists.filter.meta.consistent'],
  },
  {
    id: 'REQ-4.2-statuses-both-keys', section: '4.2', source: 'table', level: 'must',
    statement: 'Both keys are required in each filter[statuses] element.',
    observes: 'an element without pipeline_id or status_id is refused with 400, never half-applied',
    needs: ['nothing'],
    reading: { kind: 'required-member', review: 'K19 (not followed: the spec calls both keys "required"; the review reads a half-applied 2xx NS)' },
    rules: ['lists.filter.statuses.incomplete'],
  },
  {
    id: 'REQ-4.2-query-finds', section: '4.2', source: 'table', level: 'must',
    statement: 'query is a search string on deals, contacts and companies.',
    observes: 'query=<a record\'s whole name> finds that record, and only records the list shows',
    needs: ['nothing'],
    reading: { kind: 'stated-behaviour' },
    rules: ['lists.query.finds-by-name'],
  },
  {
    id: 'REQ-4.2-query-not-customers', section: '4.2', source: 'table', level: 'info',
    statement: 'query exists on deals, contacts and companies only; what customers do with it is not stated.',
    observes: 'the answer of /api/v4/customers?query=...',
    needs: ['nothing'],
    reading: { kind: 'open-point' },
    rules: ['lists.filter.info.query-on-customers'],
  },
  {
    id: 'REQ-4.2-contacts-companies-common-only', section: '4.2', source: 'prose', level: 'should',
    statement: '/api/v4/contacts and /api/v4/companies have only the common parameters.',
    observes: 'a deal or customer parameter sent to contacts or companies never causes a 5xx and is ignored or refused',
    needs: ['nothing'],
    reading: {
      kind: 'stated-behaviour',
      passed: 'a list-specific parameter on contacts or companies refused (400) or without effect',
      non_strict: 'refused with another 4xx',
      failed: 'a list-specific parameter that filters contacts or companies',
    },
    rules: ['lists.filter.no-server-error', 'lists.query.valid-no-server-error'],
    partial: 'every deal and customer parameter is sent to contacts and companies (and to each other) and must not crash; whether it is ignored or refused is not judged',
    theme: 'list-safety',
  },

  // ---- filter kinds
  {
    id: 'REQ-4.2-kind-single', section: '4.2', source: 'table', level: 'must',
    statement: 'Single: filter[<field>]=<value>, one string value.',
    observes: 'the scalar form is accepted and gives the same records as the one-element array',
    needs: ['nothing'],
    reading: { kind: 'status-code' },
    rules: ['lists.filter.shapes', 'lists.filter.meta.encodings'],
  },
  {
    id: 'REQ-4.2-kind-multiple', section: '4.2', source: 'table', level: 'must',
    statement: 'Multiple: filter[<field>][0]=<v0>&filter[<field>][1]=<v1>, indexed values.',
    observes: 'indexed values are accepted and return the union of the single values',
    needs: ['nothing'],
    reading: { kind: 'status-code' },
    rules: ['lists.filter.shapes', 'lists.filter.meta.union'],
  },
  {
    id: 'REQ-4.2-kind-range', section: '4.2', source: 'table', level: 'must',
    statement: 'Range: filter[<field>][from]=<number>&filter[<field>][to]=<number>.',
    observes: 'both bounds are accepted and a narrower range returns a subset; either bound alone is sent and its refusal recorded',
    needs: ['nothing'],
    reading: {
      kind: 'status-code', review: 'K18',
      passed: 'from and to together answered 2xx, narrowing the list',
      failed: 'a range with from and to refused',
      informational: 'an open range (only from or only to) accepted or refused, recorded',
    },
    rules: ['lists.filter.shapes', 'lists.filter.meta.range-narrowing'],
  },
  {
    id: 'REQ-4.2-kind-range-timestamps', section: '4.2', source: 'table', level: 'must',
    statement: 'Time fields take timestamps as range bounds.',
    observes: 'a range of Unix timestamps on created_at, updated_at, closed_at, closest_task_at and next_date returns the records within it',
    needs: ['control'],
    reading: { kind: 'stated-behaviour' },
    rules: ['lists.filter.oracle.common', 'lists.filter.oracle.per-list'],
  },
  {
    id: 'REQ-4.2-kind-range-reversed', section: '4.2', source: 'table', level: 'must',
    statement: 'A range selects the values from [from] to [to]: with from after to, no value is in it.',
    observes: 'filter[created_at] with from after to on each list: an empty answer or a refusal, never records',
    needs: ['nothing'],
    reading: {
      kind: 'stated-behaviour', review: 'K34',
      passed: 'an empty answer (an empty 200 or a 204) or a refusal (any 4xx)',
      failed: 'records returned for the reversed range (the bounds swapped or dropped)',
      informational: 'a 2xx body not shaped as a list (the list body is not shown), recorded',
    },
    rules: ['lists.filter.range-reversed'],
  },
  {
    id: 'REQ-4.2-kind-range-fields', section: '4.2', source: 'table', level: 'must',
    statement: 'Range is allowed for price, next_price, next_date, created_at, updated_at, closed_at, closest_task_at and date, date_time, numeric custom fields.',
    observes: 'a range on each of them is accepted',
    needs: ['nothing'],
    reading: {
      kind: 'status-code', review: 'K18',
      informational: 'an open range accepted or refused, recorded',
    },
    rules: ['lists.filter.shapes'],
  },
  {
    id: 'REQ-4.2-kind-range-bounds', section: '4.2', source: 'table', level: 'info',
    statement: 'Whether range bounds are inclusive is not stated.',
    observes: 'whether from=to=X returns a record at exactly X',
    needs: ['nothing'],
    reading: { kind: 'open-point' },
    rules: ['lists.filter.info.range-bounds'],
  },
  {
    id: 'REQ-4.2-kind-custom-fields', section: '4.2', source: 'table', level: 'must',
    statement: 'Custom fields: filter[custom_fields_values][<field_id>][]=<value> repeated for several values; ranges use [from] and [to] in place of [].',
    observes: 'the [] form and the range form are accepted per field type',
    needs: ['nothing'],
    reading: { kind: 'status-code' },
    rules: ['lists.filter.shapes', 'lists.filter.oracle.custom-fields'],
  },
  ...customFieldStatements(),
  {
    id: 'REQ-4.2-response-body', section: '4.2', source: 'prose', level: 'info',
    statement: 'The response body of list endpoints is not shown.',
    observes: 'media type, HAL keys, page limit, and the answer when nothing matches',
    needs: ['nothing'],
    reading: { kind: 'open-point' },
    rules: ['lists.response.shape'],
  },

  // ---- implicit: combinations, encodings, pages, safety
  {
    id: 'REQ-4.2-combined-parameters', section: '4.2', source: 'prose', level: 'must',
    statement: 'Several filter parameters together narrow the list: each one applies.',
    observes: 'two parameters together return a subset of each alone',
    needs: ['nothing'],
    reading: {
      kind: 'stated-behaviour', review: 'K20',
      passed: 'the records matching every parameter: a subset of each parameter\'s answer alone (AND)',
      failed: 'a parameter that does not apply: the answer is neither within each parameter alone (AND) nor exactly their union (OR), e.g. one parameter ignored',
      informational: 'the parameters combined as alternatives (exactly the union, OR): the spec does not say how parameters combine, recorded',
    },
    rules: ['lists.filter.meta.intersection'],
  },
  {
    id: 'REQ-4.2-encodings-equivalent', section: '4.2', source: 'http', level: 'must',
    statement: 'Raw and percent-encoded brackets are the same query (RFC 3986 §2.1), and [] arrays equal [0] arrays.',
    observes: 'every encoding of one filter returns the same records',
    needs: ['nothing'],
    reading: {
      kind: 'stated-behaviour', also: ['rfc-unstated'], review: 'R2-A12',
      passed: 'the same records for raw and percent-encoded brackets, for [] and [0] arrays, and for a scalar and a one-element array',
      failed: 'different answers for two spellings of one filter: §4.2 writes its Single, Multiple and [] forms, and a query carries brackets only percent-encoded (RFC 3986 §3.4)',
    },
    rules: ['lists.filter.meta.encodings'],
  },
  {
    id: 'REQ-4.2-parameter-order', section: '4.2', source: 'http', level: 'must',
    statement: 'The order of query parameters does not change the result.',
    observes: 'the same filter in another parameter order returns the same records',
    needs: ['nothing'],
    reading: { kind: 'stated-behaviour' },
    rules: ['lists.filter.meta.param-order'],
  },
  {
    id: 'REQ-4.2-pages-join', section: '4.2', source: 'http', level: 'must',
    statement: 'The pages of a filtered list join into the whole answer.',
    observes: 'pages followed through _links.next hold every record once, none lost',
    needs: ['nothing'],
    reading: { kind: 'stated-behaviour' },
    rules: ['lists.filter.meta.pages-join'],
  },
  {
    id: 'REQ-4.2-malformed-no-5xx', section: '4.2', source: 'http', level: 'should',
    statement: 'Malformed filters (ranges on non-range fields, non-numeric bounds, unknown fields, huge arrays, deep nesting) never cause a 5xx.',
    observes: 'no 5xx for any generated malformed filter on any list',
    needs: ['nothing'],
    reading: { kind: 'robustness' },
    rules: ['lists.filter.no-server-error'],
  },
  {
    id: 'REQ-4.2-valid-no-5xx', section: '4.2', source: 'http', level: 'should',
    statement: 'Every list query the spec allows never causes a 5xx: each optional member (filter, page, limit, order, query) present or absent, empty values, and references to ids, users, custom fields, pipelines, statuses or pages that do not exist.',
    observes: 'no 5xx for every named query on each of the four lists (all members, each left out in turn, each alone, none; empty values; unknown references; a page past the end) and for generated ones',
    needs: ['nothing'],
    reading: { kind: 'robustness' },
    rules: ['lists.query.valid-no-server-error'],
  },
  {
    id: 'REQ-4.2-name-wildcards-literal', section: '4.2', source: 'prose', level: 'should',
    statement: 'Values are matched as data: SQL LIKE wildcards and quotes in filter[name] or query match literally.',
    observes: 'filter[name]=% and query=_ return only records whose names contain those characters, never the whole list',
    needs: ['nothing'],
    reading: {
      kind: 'stated-behaviour', review: 'K35',
      passed: 'wildcards and quotes matched as data: every record returned contains the character (substring or exact match); a 4xx',
      failed: 'a wildcard read as a pattern: records returned that do not contain the character, or an injection visible in the answer',
      informational: 'a body that is not shaped as a list, recorded (the list body is not shown)',
    },
    rules: ['lists.filter.patterns-literal'],
  },
  {
    id: 'REQ-4.2-non-ascii-values', section: '4.2', source: 'http', level: 'must',
    statement: 'UTF-8 values round-trip: a non-ASCII name (Cyrillic, emoji) in filter[name] or query finds its record.',
    observes: 'a record whose name has non-ASCII characters is found by its percent-encoded UTF-8 name',
    needs: ['control'],
    reading: { kind: 'stated-behaviour' },
    rules: ['lists.filter.non-ascii-name'],
  },
  {
    id: 'REQ-4.2-other-account-ids', section: '4.2', source: 'prose', level: 'must',
    statement: 'A list shows its own account\'s records only, whatever the filter names.',
    observes: 'filter[id] with ids of another account\'s records returns nothing',
    needs: ['control'],
    reading: { kind: 'security' },
    rules: ['lists.filter.other-account-ids'],
  },
  {
    id: 'REQ-4.2-http-bearer-required', section: '4.2', source: 'rfc6750 §3', level: 'must',
    statement: 'Each list endpoint refuses a request without a valid bearer with 401.',
    observes: 'each of the four lists answers 401 without a token and with a malformed one',
    needs: ['nothing'],
    reading: {
      kind: 'security',
      passed: '401 without a valid bearer',
      non_strict: 'another 4xx',
      failed: 'the list answered with data',
    },
    rules: ['api.bearer.every-endpoint'],
  },
]);
