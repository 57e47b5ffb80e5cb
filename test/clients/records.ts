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

export async function leadWithDates(control: Control): Promise<LeadWithDates> {
  const defs: CustomFieldDef[] = (await control.call('GET', '/lists')).catalog.custom_fields.leads;
  const leads: ListRecord[] = (await control.call('GET', '/lists/leads')).records;
  const isDate = (v: CfValue) => v.field_type === 'date' || v.field_type === 'date_time';
  for (const lead of leads) {
    const held = lead.custom_fields_values ?? [];
    const date = held.find(isDate);
    const other = held.find((v) => !isDate(v));
    const unused = defs.find((d) => d.type === 'text' && !held.some((v) => v.field_id === d.id));
    if (date && other && unused && held.length >= 3) return { lead, other, date, unused };
  }
  throw new Error('no seeded lead holds a date value beside two other fields');
}

/** A record's custom field values by field id: what "kept" and "changed" compare. */
export function valuesById(record: { readonly custom_fields_values?: readonly CfValue[] | null }): Record<number, unknown[]> {
  return Object.fromEntries((record.custom_fields_values ?? []).map((v) => [v.field_id, v.values.map((x) => x.value)]));
}
