/**
 * What the clients' write tests pick from the emulator's data through the control API: a seeded lead holding a date
 * value beside other custom fields (the record a read-modify-write must keep whole), and the list's field catalog.
 */
import type { CfValue, CustomFieldDef, ListRecord } from '../../src/emulator/lists/data.js';
import type { Control } from './https-emulator.js';

export interface LeadWithDates {
  readonly lead: ListRecord;
  /** A field of the lead's that is not a date: the one a test changes or clears. */
  readonly other: CfValue;
  readonly date: CfValue;
  /** A text field of the catalog the lead holds no value of: the one a test adds. */
  readonly unused: CustomFieldDef;
}

/** `each`: the date types the lead must hold a value of every one of (the PHP recording wants a date and a date-time). */
export async function leadWithDates(control: Pick<Control, 'call'>, each: readonly ('date' | 'date_time')[] = []): Promise<LeadWithDates> {
  const defs: CustomFieldDef[] = (await control.call('GET', '/lists')).catalog.custom_fields.leads;
  const leads: ListRecord[] = (await control.call('GET', '/lists/leads')).records;
  const isDate = (v: CfValue) => v.field_type === 'date' || v.field_type === 'date_time';
  for (const lead of leads) {
    const held = lead.custom_fields_values ?? [];
    if (!each.every((type) => held.some((v) => v.field_type === type))) continue;
    const date = held.find((v) => v.field_type === each.at(-1)) ?? held.find(isDate);
    const other = held.find((v) => !isDate(v));
    const unused = defs.find((d) => d.type === 'text' && !held.some((v) => v.field_id === d.id));
    if (date && other && unused && held.length >= 3) return { lead, other, date, unused };
  }
  throw new Error(`no seeded lead holds a date value${each.length ? ` of each of ${each.join(', ')}` : ''} beside two other fields`);
}

/** A record's custom field values by field id: what "kept" and "changed" compare. */
export function valuesById(record: { readonly custom_fields_values?: readonly CfValue[] | null }): Record<number, unknown[]> {
  return Object.fromEntries((record.custom_fields_values ?? []).map((v) => [v.field_id, v.values.map((x) => x.value)]));
}
