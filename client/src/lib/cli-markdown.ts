// A small Markdown reader for the texts the CLI prints (flow-show, flow-diff, the stage report): headings,
// paragraphs, bullet and numbered lists, pipe tables, fenced code, block quotes, rules; inline code, bold,
// emphasis and http(s) links. It returns a tree that the page renders as elements with text children, so
// nothing from a file ever reaches innerHTML: raw HTML in the text stays text. A full Markdown library would
// add ~40 KB for constructs these texts never use; this reads exactly what they print.

export type Inline =
  | { t: 'text'; text: string }
  | { t: 'code'; text: string }
  | { t: 'strong'; children: Inline[] }
  | { t: 'em'; children: Inline[] }
  | { t: 'link'; href: string; children: Inline[] };

export type Block =
  | { t: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { t: 'paragraph'; children: Inline[] }
  | { t: 'list'; ordered: boolean; items: Inline[][] }
  | { t: 'table'; head: Inline[][]; rows: Inline[][][] }
  | { t: 'code'; lang: string; text: string }
  | { t: 'quote'; children: Block[] }
  | { t: 'rule' };

/** Only web links are links; anything else (javascript:, data:, relative) is shown as text. */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  return /^https?:\/\/[^\s]+$/i.test(trimmed) ? trimmed : null;
}

/** Inline Markdown: `code`, **strong**, *em*, [text](http…). Underscores are never emphasis (tool names). */
export function parseInline(src: string): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') out.push({ t: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === '\\' && i + 1 < src.length && /[\\`*_[\]()#|!-]/.test(src[i + 1]!)) {
      text += src[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`') {
      let ticks = 1;
      while (src[i + ticks] === '`') ticks++;
      const fence = '`'.repeat(ticks);
      const end = src.indexOf(fence, i + ticks);
      if (end !== -1) {
        flush();
        let code = src.slice(i + ticks, end);
        if (code.length > 1 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '') code = code.slice(1, -1);
        out.push({ t: 'code', text: code });
        i = end + ticks;
        continue;
      }
      text += fence;
      i += ticks;
      continue;
    }
    if (ch === '*' && src[i + 1] === '*') {
      const end = src.indexOf('**', i + 2);
      if (end > i + 2) {
        flush();
        out.push({ t: 'strong', children: parseInline(src.slice(i + 2, end)) });
        i = end + 2;
        continue;
      }
    }
    if (ch === '*' && src[i + 1] !== '*' && src[i + 1] !== ' ' && src[i + 1] !== undefined) {
      const end = src.indexOf('*', i + 1);
      if (end > i + 1 && src[end - 1] !== ' ') {
        flush();
        out.push({ t: 'em', children: parseInline(src.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    if (ch === '[') {
      const close = src.indexOf('](', i + 1);
      const paren = close === -1 ? -1 : src.indexOf(')', close + 2);
      if (close !== -1 && paren !== -1 && !src.slice(i + 1, close).includes('[')) {
        const href = safeHref(src.slice(close + 2, paren));
        const label = parseInline(src.slice(i + 1, close));
        flush();
        if (href !== null) out.push({ t: 'link', href, children: label });
        else out.push(...label);
        i = paren + 1;
        continue;
      }
    }
    text += ch;
    i++;
  }
  flush();
  return out;
}

/** A table row's cells: pipes split cells, except inside backticks or after a backslash. */
export function splitRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  let inCode = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '\\' && s[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (ch === '`') {
      inCode = !inCode;
      cell += ch;
    } else if (ch === '|' && !inCode) {
      cells.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

const isDelimiterRow = (line: string) => /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/.test(line);
const bullet = /^\s{0,3}[-*+]\s+(.*)$/;
const numbered = /^\s{0,3}\d{1,9}[.)]\s+(.*)$/;
const fenceOpen = /^\s{0,3}(`{3,}|~{3,})\s*([^`\s]*)\s*$/;

/** Block Markdown into a tree. Unknown constructs read as paragraphs. */
export function parseMarkdown(src: string): Block[] {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = fenceOpen.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i]!.trim().startsWith(marker[0]!.repeat(marker.length)) && lines[i]!.trim().replace(new RegExp(`^\\${marker[0]}+`), '') === '')) {
        body.push(lines[i]!);
        i++;
      }
      i++;
      blocks.push({ t: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      blocks.push({ t: 'heading', level: heading[1]!.length as 1 | 2 | 3 | 4 | 5 | 6, children: parseInline(heading[2]!) });
      i++;
      continue;
    }
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      blocks.push({ t: 'rule' });
      i++;
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && isDelimiterRow(lines[i + 1]!)) {
      const head = splitRow(line).map(parseInline);
      const rows: Inline[][][] = [];
      i += 2;
      while (i < lines.length && lines[i]!.trim() !== '' && lines[i]!.includes('|')) {
        const cells = splitRow(lines[i]!).map(parseInline);
        while (cells.length < head.length) cells.push([]);
        rows.push(cells.slice(0, head.length));
        i++;
      }
      blocks.push({ t: 'table', head, rows });
      continue;
    }
    if (/^\s{0,3}>/.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && /^\s{0,3}>/.test(lines[i]!)) {
        inner.push(lines[i]!.replace(/^\s{0,3}>\s?/, ''));
        i++;
      }
      blocks.push({ t: 'quote', children: parseMarkdown(inner.join('\n')) });
      continue;
    }
    const listStart = bullet.exec(line) ?? numbered.exec(line);
    if (listStart) {
      const ordered = !bullet.test(line);
      const pattern = ordered ? numbered : bullet;
      const items: string[] = [];
      while (i < lines.length) {
        const l = lines[i]!;
        const m = pattern.exec(l);
        if (m) items.push(m[1]!);
        else if (l.trim() !== '' && /^\s{2,}\S/.test(l) && items.length > 0) items[items.length - 1] += ` ${l.trim()}`;
        else break;
        i++;
      }
      blocks.push({ t: 'list', ordered, items: items.map(parseInline) });
      continue;
    }
    const para: string[] = [];
    while (
      i < lines.length &&
      lines[i]!.trim() !== '' &&
      !fenceOpen.test(lines[i]!) &&
      !/^\s{0,3}#{1,6}\s/.test(lines[i]!) &&
      !bullet.test(lines[i]!) &&
      !/^\s{0,3}>/.test(lines[i]!) &&
      !(lines[i]!.includes('|') && i + 1 < lines.length && isDelimiterRow(lines[i + 1]!))
    ) {
      para.push(lines[i]!.trim());
      i++;
    }
    if (para.length === 0) {
      para.push(line.trim());
      i++;
    }
    blocks.push({ t: 'paragraph', children: parseInline(para.join(' ')) });
  }
  return blocks;
}

/** The plain text of inline content (for titles and tests). */
export function inlineText(nodes: readonly Inline[]): string {
  return nodes.map((n) => (n.t === 'text' || n.t === 'code' ? n.text : inlineText(n.children))).join('');
}
