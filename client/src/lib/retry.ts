// Whether trying a failed request again can help: the network, a server error or a busy server can pass; a
// 4xx answer (no such thing, bad input, a conflict) will be the same next time.
export function errorMayPass(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500;
}
