// The engine's words, each explained once, here (issue 15): what a "?" beside a word opens, wherever the word
// first appears on a page. Plain sentences; the names of third parties and the CLI's own texts stay as they are.

export const GLOSSARY = {
  surprise:
    'How unexpected the agent’s last call was to the flow, in nats (natural-log units: −ln of the chance the flow gave that call). Above the surprise gate’s limit the flow hands back instead of looking ahead.',
  binding:
    'Where a lookup’s arguments come from: a value the agent already had, from an earlier call’s arguments or answer. The binding chance is how often, in training, that source held the value the agent then used.',
  decide:
    'decide#N is the flow’s N-th decision in a session, counted from 0: after a call, it either looks something up or hands back.',
  'hand-back':
    'A decision to look nothing up: the flow hands the next step back to the agent, which goes on as it would without engine.',
  'fugue program':
    'The flow’s decision program, in fugue (a small probabilistic language): when the flow decides and from which counts. A flow whose program does not compile does not load.',
  'System-One model':
    'A fast language model that an arbiter asks at a decision when counting alone is unsure: TypeSafe’s Jev. It needs TYPESAFE_API_KEY.',
  Jev: 'TypeSafe’s System-One model. engine asks it only for an arbiter (learn without --habit-only, --flow-decider arbiter) and the confirmation judge, with TYPESAFE_API_KEY.',
  reach: 'A decider that counts how often each lookup came before the agent’s next write. It asks no model and needs no key.',
  habit: 'A decider that counts what the agent did next after each call (the habit). It asks no model and needs no key.',
  arbiter: 'A decider that weighs the habit with a System-One model’s answers (Jev), fitted on held-out decisions. It needs TYPESAFE_API_KEY.',
  promoted:
    'engine promote scored every call the flow decided after in the sessions given, and kept the flow to those where its lookups were the agent’s own: “promoted 3/4” is 3 promoted of 4 scored. A call the flow never looks anything up after is scored too, so the second number can be larger than the flow’s sites.',
  'found in place':
    'A version kept as the committed flow was found on disk: it had changed by other means than a commit (a learn over it, a copy), so a commit or a rollback kept it first.',
} as const;

export type GlossaryWord = keyof typeof GLOSSARY;
