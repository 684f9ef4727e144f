// A fugue program (a flow's `program`, flow-format §1.3.10) and its canonical text (flow-review.md §4.6):
// flow-show prints it and flow-diff compares it line by line, so both print it the same way.
import { debugFloat, sortedJson } from './format.ts';
import { readProgram, type Expr, type Flow, type Program, type Stmt } from './flows.ts';

/** The standard program in its JSON form, as a flow file holds it. */
export const STANDARD_JSON = {
  fugue_program: 1,
  body: [
    { stmt: 'let', var: 'prev', value: { op: 'var', name: 'call' } },
    { stmt: 'let', var: 'failed', value: { op: 'var', name: 'call_failed' } },
    {
      stmt: 'for',
      var: 'i',
      start: { op: 'int', value: 0 },
      end: { op: 'var', name: 'max_lookups' },
      body: [
        {
          stmt: 'sample',
          var: 'd',
          addr: { name: 'decide', index: { op: 'var', name: 'i' } },
          dist: { name: 'Decide', args: [{ op: 'var', name: 'prev' }, { op: 'var', name: 'failed' }] },
        },
        { stmt: 'if', cond: { op: 'eq', lhs: { op: 'var', name: 'd' }, rhs: { op: 'int', value: 0 } }, then: [{ stmt: 'break' }] },
        {
          stmt: 'sample',
          var: 'ok',
          addr: { name: 'outcome', index: { op: 'var', name: 'i' } },
          dist: { name: 'Outcome', args: [{ op: 'var', name: 'd' }] },
        },
        { stmt: 'assign', var: 'prev', value: { op: 'var', name: 'd' } },
        { stmt: 'assign', var: 'failed', value: { op: 'not', arg: { op: 'var', name: 'ok' } } },
      ],
    },
  ],
  ret: { op: 'var', name: 'prev' },
};

/** The standard run: decide, look up, decide again, up to max_lookups. What an absent `program` means. */
export const STANDARD_PROGRAM: Program = readProgram(STANDARD_JSON);

/** The flow's program; the standard one when the file has none. */
export function programOf(flow: Flow): Program {
  return flow.program ?? STANDARD_PROGRAM;
}

/** Structural equality: the reader already made `else: []`, no index and no args canonical. */
export function sameProgram(a: Program, b: Program): boolean {
  return sortedJson(a) === sortedJson(b);
}

export function isStandardProgram(flow: Flow): boolean {
  return sameProgram(programOf(flow), STANDARD_PROGRAM);
}

const BINARY: Record<string, [symbol: string, precedence: number]> = {
  or: ['||', 1],
  and: ['&&', 2],
  eq: ['==', 3],
  ne: ['!=', 3],
  lt: ['<', 3],
  le: ['<=', 3],
  gt: ['>', 3],
  ge: ['>=', 3],
  add: ['+', 4],
  sub: ['-', 4],
  mul: ['*', 5],
  div: ['/', 5],
};

function precedence(e: Expr): number {
  const binary = BINARY[e.op];
  if (binary) return binary[1];
  if (e.op === 'neg' || e.op === 'not') return 6;
  if ((e.op === 'f64' || e.op === 'int') && (e.value < 0 || Object.is(e.value, -0))) return 6;
  return 7;
}

function escapeName(name: string): string {
  let out = '';
  for (const ch of name) {
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\0') out += '\\0';
    else out += ch;
  }
  return `"${out}"`;
}

function wrap(e: Expr, parens: boolean): string {
  const text = exprText(e);
  return parens ? `(${text})` : text;
}

function exprText(e: Expr): string {
  switch (e.op) {
    case 'f64':
      return debugFloat(e.value);
    case 'int':
      return String(e.value);
    case 'bool':
      return String(e.value);
    case 'var':
      return e.name;
    case 'array':
      return `[${e.items.map(exprText).join(', ')}]`;
    case 'index':
      return `${wrap(e.array, precedence(e.array) < 7)}[${exprText(e.index)}]`;
    case 'len':
      return `${wrap(e.array, precedence(e.array) < 7)}.len()`;
    case 'neg':
    case 'not': {
      const literal = e.op === 'neg' && (e.arg.op === 'f64' || e.arg.op === 'int');
      return `${e.op === 'neg' ? '-' : '!'}${wrap(e.arg, literal || precedence(e.arg) < 6)}`;
    }
    case 'call':
      return `${e.func}(${e.args.map(exprText).join(', ')})`;
    default: {
      const [symbol, p] = BINARY[e.op]!;
      const leftMin = p === 3 ? p + 1 : p;
      return `${wrap(e.lhs, precedence(e.lhs) < leftMin)} ${symbol} ${wrap(e.rhs, precedence(e.rhs) <= p)}`;
    }
  }
}

function addrText(addr: { name: string; index: Expr | null }): string {
  return addr.index ? `addr!(${escapeName(addr.name)}, ${exprText(addr.index)})` : `addr!(${escapeName(addr.name)})`;
}

function stmtLines(s: Stmt, indent: string, out: string[]): void {
  switch (s.stmt) {
    case 'sample':
      out.push(`${indent}let ${s.var} <- sample(${addrText(s.addr)}, ${s.dist.name}(${s.dist.args.map(exprText).join(', ')}));`);
      return;
    case 'let':
      out.push(`${indent}let ${s.var} = ${exprText(s.value)};`);
      return;
    case 'assign':
      out.push(`${indent}${s.var} = ${exprText(s.value)};`);
      return;
    case 'observe':
      out.push(
        `${indent}observe(${addrText(s.addr)}, ${s.dist.name}(${s.dist.args.map(exprText).join(', ')}), ${exprText(s.value)});`,
      );
      return;
    case 'factor':
      out.push(`${indent}factor(${exprText(s.logw)});`);
      return;
    case 'for':
      out.push(`${indent}for ${s.var} in ${exprText(s.start)}..${exprText(s.end)} {`);
      for (const inner of s.body) stmtLines(inner, `${indent}    `, out);
      out.push(`${indent}}`);
      return;
    case 'if': {
      out.push(`${indent}if ${exprText(s.cond)} {`);
      let branch: Stmt & { stmt: 'if' } = s;
      for (;;) {
        for (const inner of branch.then) stmtLines(inner, `${indent}    `, out);
        const otherwise: Stmt[] = branch.else;
        const only: Stmt | undefined = otherwise.length === 1 ? otherwise[0] : undefined;
        if (only && only.stmt === 'if') {
          out.push(`${indent}} else if ${exprText(only.cond)} {`);
          branch = only;
          continue;
        }
        if (otherwise.length > 0) {
          out.push(`${indent}} else {`);
          for (const inner of otherwise) stmtLines(inner, `${indent}    `, out);
        }
        break;
      }
      out.push(`${indent}}`);
      return;
    }
    case 'break':
      out.push(`${indent}break;`);
  }
}

/** The program's canonical text, one statement a line, with no trailing newline. */
export function programText(program: Program): string {
  const out: string[] = [];
  for (const s of program.body) stmtLines(s, '', out);
  out.push(`pure(${exprText(program.ret)})`);
  return out.join('\n');
}
