// JSON as the engine's own writers print it: object keys sorted (Rust BTreeMap / serde_json Value), no spaces.
// The proxy's messages, flow-log and confirmation-log lines and the demo server's answers all look like this.

export function sortedJson(value: unknown): string {
  return JSON.stringify(sortDeep(value));
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortDeep((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}
