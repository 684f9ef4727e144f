// The message of anything thrown: an Error's message, else the value as text. One helper for the server,
// the workers and the client, so every error a person reads is worded the same way.
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
