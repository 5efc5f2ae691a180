/**
 * @module
 * Where a traveller's e-mail address hides in a stored copy (a webhook body, a kept answer, a help request's
 * free text): a value read from JSON with every string that is the address made null, every string that
 * merely mentions it (an error message) with the address cut out, and JSON kept as text inside it (a kept
 * answer's body) treated the same way. Addresses match as a search does, trimmed and in
 * any case (`searchedEmail`).
 */
import { searchedEmail } from '../checkout/checkout-index';

/** What an erased address is replaced with inside a longer text. */
const ERASED_MENTION = '[erased]';

/** The addresses to erase, as searches match them. */
export type ErasedAddresses = ReadonlySet<string>;

/** `text` with every mention of one of `addresses` cut out, or `text` itself when it mentions none. */
function withoutMentions(text: string, addresses: ErasedAddresses): string {
  let result = text;
  for (const address of addresses) {
    let at = result.toLowerCase().indexOf(address);
    while (at !== -1) {
      result = `${result.slice(0, at)}${ERASED_MENTION}${result.slice(at + address.length)}`;
      at = result.toLowerCase().indexOf(address, at + ERASED_MENTION.length);
    }
  }
  return result;
}

/** True when `text` (raw JSON, say) mentions one of `addresses` in any case. */
export function mentionsAny(text: string, addresses: ErasedAddresses): boolean {
  const lower = text.toLowerCase();
  for (const address of addresses) if (lower.includes(address)) return true;
  return false;
}

/**
 * `value` (parsed JSON) without `addresses`: a string that is one becomes null, one that mentions one loses it.
 * Objects and arrays are copied only where they change.
 */
export function withoutAddresses(value: unknown, addresses: ErasedAddresses): unknown {
  if (typeof value === 'string') {
    if (addresses.has(searchedEmail(value))) return null;
    if (!mentionsAny(value, addresses)) return value;
    // JSON kept as text inside a record (a kept answer's body): erased as JSON, so that it still reads.
    const nested = jsonWithoutAddresses(value, addresses);
    return nested ?? withoutMentions(value, addresses);
  }
  if (Array.isArray(value)) {
    const items = value.map((item) => withoutAddresses(item, addresses));
    return items.every((item, at) => item === value[at]) ? value : items;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const entries = Object.entries(value).map(([key, item]) => {
      const next = withoutAddresses(item, addresses);
      if (next !== item) changed = true;
      return [key, next] as const;
    });
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}

/** Stored JSON text without `addresses`, or null when it held none of them (nothing to write). */
export function jsonWithoutAddresses(json: string, addresses: ErasedAddresses): string | null {
  if (addresses.size === 0 || !mentionsAny(json, addresses)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object') return null;
  const next = JSON.stringify(withoutAddresses(parsed, addresses));
  return next === json ? null : next;
}
