// Shell quoting as the CLI's `init` writes it (init::shell_quote): the Claude Code command and the next steps
// must equal the CLI's text byte for byte, so the rule is the CLI's, not a general-purpose quoter's.
// A `~` stays bare on purpose, so the user's shell expands it.

const PLAIN = /^[A-Za-z0-9\-_./:=@%+,~]+$/;

/** One word for a POSIX shell: bare when plain, else single-quoted with each `'` written `'\''`. */
export function shellQuote(word: string): string {
  if (PLAIN.test(word)) return word;
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/** Words quoted one by one and joined with single spaces. */
export function shellJoin(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}
