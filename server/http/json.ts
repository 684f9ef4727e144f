// Answers are handed to Koa as JSON text, not as objects. Koa's body setter tests an object against the
// global `Response`, and the first touch of that global loads Node's whole fetch implementation (40–50 ms
// here), which would fall on the first answer after start. The text is what Koa would have sent.
export function sendJson(ctx: { type: string; body: unknown }, value: object): void {
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(value);
}
