// The demo's domains: each is an MCP server's tools (read and write, with input schemas) and a source of
// conversations between a customer, an agent and that server. A conversation is a list of steps (what was
// said, what was called and what came back); session.ts turns one into log lines, flow.ts learns a flow
// from many. Answers are sorted-key JSON, as the demo server prints them.
import type { Rng } from './rng.ts';
import { sortedJson } from './json.ts';

export interface ToolSpec {
  name: string;
  description: string;
  readOnly: boolean;
  destructive?: boolean;
  properties: Record<string, { type: string | string[]; description?: string }>;
  required: string[];
  /** Where a lookup's argument comes from in an earlier answer: [tool, JSON path] (the flow's bindings). */
  sources?: Record<string, [string, string]>;
}

export type Outcome =
  | { kind: 'result'; isError: boolean; text: string }
  | { kind: 'rpc-error'; code: number; message: string }
  /** The session ended before the server answered. */
  | { kind: 'none' };

export type Step =
  | { kind: 'say'; role: 'user' | 'assistant'; text: string }
  /** `together`: sent in the same LLM turn as the call before it, while that one is still open. */
  | { kind: 'call'; tool: string; args: Record<string, unknown>; outcome: Outcome; together?: boolean };

export interface Domain {
  name: string;
  serverCommand: string[];
  serverName: string;
  instructions: string;
  tools: ToolSpec[];
  conversation(rng: Rng): Step[];
}

const FIRST = ['Ada', 'Bruno', 'Chen', 'Dana', 'Emeka', 'Farah', 'Goran', 'Hana', 'Ivo', 'Jun', 'Kemal', 'Lena', 'Mateo', 'Nora', 'Omar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tara', 'Uma', 'Vik', 'Wen', 'Yara', 'Zoe'];
const LAST = ['Okafor', 'Lindqvist', 'Moreau', 'Tanaka', 'Kowalski', 'Haddad', 'Silva', 'Novak', 'Ibrahim', 'Berg', 'Rossi', 'Nakamura', 'Costa', 'Weber', 'Ahmed'];
const PRODUCTS = [
  ['p1', 'Desk lamp', 34.5],
  ['p2', 'Office chair', 189.0],
  ['p3', 'Noise-cancelling headphones', 229.99],
  ['p4', 'Mechanical keyboard', 119.0],
  ['p5', 'Water bottle', 18.25],
  ['p6', 'Hiking boots', 145.0],
  ['p7', 'Espresso machine', 399.0],
  ['p8', 'Yoga mat', 29.9],
  ['p9', 'Backpack', 79.0],
  ['p10', 'Smart watch', 249.0],
] as const;
const CITIES = ['JFK', 'LHR', 'CDG', 'NRT', 'SFO', 'ORD', 'BOS', 'SEA', 'MIA', 'DEN', 'ATL', 'LAX'];

const ok = (value: unknown): Outcome => ({ kind: 'result', isError: false, text: typeof value === 'string' ? value : sortedJson(value) });
const fail = (text: string): Outcome => ({ kind: 'result', isError: true, text });
const rpcError = (message: string): Outcome => ({ kind: 'rpc-error', code: -32602, message });
const user = (text: string): Step => ({ kind: 'say', role: 'user', text });
const agent = (text: string): Step => ({ kind: 'say', role: 'assistant', text });
const call = (tool: string, args: Record<string, unknown>, outcome: Outcome, together = false): Step =>
  together ? { kind: 'call', tool, args, outcome, together } : { kind: 'call', tool, args, outcome };

function person(rng: Rng): { n: number; first: string; last: string; email: string } {
  const n = rng.int(10, 9999);
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  return { n, first, last, email: `${first.toLowerCase()}.${last.toLowerCase()}${n}@example.com` };
}

const str = (name: string, description?: string) => [name, description ? { type: 'string', description } : { type: 'string' }] as const;

function tool(
  name: string,
  description: string,
  readOnly: boolean,
  props: readonly (readonly [string, { type: string | string[]; description?: string }])[],
  required: string[],
  extra: Partial<ToolSpec> = {},
): ToolSpec {
  return { name, description, readOnly, properties: Object.fromEntries(props), required, ...extra };
}

// ---------------------------------------------------------------------------------------------------------
// shop: orders of an online shop (the engine's own demo world)
// ---------------------------------------------------------------------------------------------------------

const shopTools: ToolSpec[] = [
  tool('find_user_id_by_email', 'Find a user id by email.', true, [str('email')], ['email']),
  tool('get_user_details', "Get a user's details, including their orders.", true, [str('user_id')], ['user_id'], {
    sources: { user_id: ['find_user_id_by_email', '$'] },
  }),
  tool('get_order_details', 'Get the status and details of an order.', true, [str('order_id')], ['order_id'], {
    sources: { order_id: ['get_user_details', '$.orders[*]'] },
  }),
  tool('get_product_details', 'Get a product: its name, price and options.', true, [str('product_id')], ['product_id'], {
    sources: { product_id: ['get_order_details', '$.items[*].product_id'] },
  }),
  tool(
    'cancel_pending_order',
    "Cancel a pending order. The reason is 'no longer needed' or 'ordered by mistake'.",
    false,
    [str('order_id'), str('reason')],
    ['order_id', 'reason'],
    { destructive: true },
  ),
  tool(
    'return_delivered_order_items',
    'Return some items of a delivered order, refunded to a payment method of the user.',
    false,
    [str('order_id'), ['item_ids', { type: 'array', description: 'The items to return.' }], str('payment_method_id')],
    ['order_id', 'item_ids', 'payment_method_id'],
  ),
];

function shopConversation(rng: Rng): Step[] {
  const p = person(rng);
  const userId = `user_${p.n}`;
  const card = `credit_card_${p.n}`;
  const orderCount = rng.int(1, 3);
  const orders = Array.from({ length: orderCount }, (_, i) => {
    const items = Array.from({ length: rng.int(1, 3) }, (_, j) => {
      const [product_id, name, price] = rng.pick(PRODUCTS);
      return { item_id: String(j + 1), name, price, product_id };
    });
    return {
      order_id: `#W${p.n}${'abc'[i] ?? 'z'}`,
      items,
      payment_history: [{ amount: items.reduce((s, it) => s + it.price, 0), payment_method_id: card }],
      status: rng.pick(['pending', 'pending', 'delivered', 'processed']),
      user_id: userId,
    };
  });
  const intent = rng.weighted({ cancel: 4, return: 3, status: 3, product: 2 });
  // Mostly, the customer's order is in the state their request needs.
  const first = orders[0]!;
  if (intent === 'cancel' && rng.chance(0.85)) first.status = 'pending';
  if (intent === 'return' && rng.chance(0.85)) first.status = 'delivered';
  const steps: Step[] = [];
  const wants = {
    cancel: 'I want to cancel an order I no longer need.',
    return: "I'd like to return something I received.",
    status: 'Where is my order?',
    product: 'I have a question about something I bought.',
  }[intent];
  if (rng.chance(0.15)) {
    const typo = p.email.replace('.com', '.con');
    steps.push(user(`Hi, I'm ${typo}, no, ${p.email}. ${wants}`));
    steps.push(call('find_user_id_by_email', { email: typo }, fail('Error: User not found')));
  } else {
    steps.push(user(`Hi, I'm ${p.first}, ${p.email}. ${wants}`));
  }
  steps.push(call('find_user_id_by_email', { email: p.email }, ok(userId)));
  steps.push(
    call('get_user_details', { user_id: userId }, ok({
      email: p.email,
      name: { first_name: p.first, last_name: p.last },
      orders: orders.map((o) => o.order_id),
      payment_methods: { [card]: { source: 'credit_card' } },
      user_id: userId,
    })),
  );
  const together = rng.chance(0.4);
  orders.forEach((o, i) => {
    if (rng.chance(0.04)) {
      steps.push(call('get_order_details', { order_id: o.order_id.slice(1) }, rpcError('invalid params: order_id must start with #'), together && i > 0));
    }
    steps.push(call('get_order_details', { order_id: o.order_id }, ok(o), together && i > 0));
  });
  const pending = orders.filter((o) => o.status === 'pending');
  const delivered = orders.filter((o) => o.status === 'delivered');
  if (intent === 'cancel') {
    const target = pending[0] ?? first;
    steps.push(agent(`You have ${orders.length === 1 ? 'one order' : `${orders.length} orders`}: ${orders.map((o) => `${o.order_id} (${o.status})`).join(', ')}. Which one should I cancel?`));
    steps.push(user(`${target.order_id}, please. ${rng.pick(['I no longer need it.', 'I ordered it by mistake.'])}`));
    const reason = rng.chance(0.5) ? 'no longer needed' : 'ordered by mistake';
    if (target.status === 'pending') {
      steps.push(call('cancel_pending_order', { order_id: target.order_id, reason }, ok({ order_id: target.order_id, status: 'cancelled' })));
      steps.push(agent(`Order ${target.order_id} is cancelled; the refund goes back to your card.`));
    } else {
      steps.push(call('cancel_pending_order', { order_id: target.order_id, reason }, fail('Error: non-pending order cannot be cancelled')));
      steps.push(agent(`Order ${target.order_id} is already ${target.status}, so it cannot be cancelled. You can return it once it arrives.`));
    }
  } else if (intent === 'return') {
    const target = delivered[0] ?? first;
    const items = target.items.slice(0, rng.int(1, target.items.length));
    steps.push(agent(`Order ${target.order_id} holds ${target.items.map((it) => it.name).join(', ')}. Which items would you like to return, and should the refund go to ${card}?`));
    steps.push(user(`The ${items.map((it) => it.name.toLowerCase()).join(' and the ')}, refund to my card.`));
    if (target.status === 'delivered') {
      steps.push(call('return_delivered_order_items', { item_ids: items.map((it) => it.item_id), order_id: target.order_id, payment_method_id: card }, ok({ order_id: target.order_id, return_items: items.map((it) => it.item_id), status: 'return requested' })));
      steps.push(agent('The return is requested. You will get an email with the shipping label.'));
    } else {
      steps.push(call('return_delivered_order_items', { item_ids: items.map((it) => it.item_id), order_id: target.order_id, payment_method_id: card }, fail('Error: non-delivered order cannot be returned')));
      steps.push(agent(`Order ${target.order_id} has not been delivered yet, so it cannot be returned.`));
    }
  } else if (intent === 'status') {
    steps.push(agent(orders.map((o) => `${o.order_id} is ${o.status}`).join('; ') + '.'));
    steps.push(user('Thanks!'));
    steps.push(agent('You are welcome. Anything else?'));
  } else {
    const item = first.items[0]!;
    steps.push(user(`Does the ${item.name.toLowerCase()} come in another colour?`));
    steps.push(call('get_product_details', { product_id: item.product_id }, ok({ name: item.name, options: { color: ['black', 'white', 'blue'].slice(0, rng.int(1, 3)) }, price: item.price, product_id: item.product_id })));
    steps.push(agent(`The ${item.name.toLowerCase()} comes in the colours listed on its page; I can't exchange it from here, but a return is possible once delivered.`));
  }
  return steps;
}

// ---------------------------------------------------------------------------------------------------------
// retail: store stock and holds
// ---------------------------------------------------------------------------------------------------------

const retailTools: ToolSpec[] = [
  tool('search_products', 'Search the catalogue by words.', true, [str('query'), ['limit', { type: ['integer', 'null'] }]], ['query']),
  tool('get_product', 'Get one product with its price and description.', true, [str('product_id')], ['product_id'], {
    sources: { product_id: ['search_products', '$[*].product_id'] },
  }),
  tool('find_store', 'Find the stores near a ZIP code, nearest first.', true, [str('zip')], ['zip']),
  tool('check_stock', 'How many of a product a store has on its shelves.', true, [str('product_id'), str('store_id')], ['product_id', 'store_id'], {
    sources: { product_id: ['search_products', '$[*].product_id'], store_id: ['find_store', '$[*].store_id'] },
  }),
  tool('place_hold', 'Hold a product at a store for a customer for 48 hours.', false, [str('product_id'), str('store_id'), str('email')], ['product_id', 'store_id', 'email']),
  tool('cancel_hold', 'Cancel a hold.', false, [str('hold_id')], ['hold_id'], { destructive: true }),
];

function retailConversation(rng: Rng): Step[] {
  const p = person(rng);
  const steps: Step[] = [];
  if (rng.chance(0.2)) {
    const hold = `H-${rng.int(1000, 9999)}`;
    steps.push(user(`Please cancel my hold ${hold}, I bought it elsewhere.`));
    steps.push(call('cancel_hold', { hold_id: hold }, rng.chance(0.8) ? ok({ hold_id: hold, status: 'cancelled' }) : fail(`Error: no hold ${hold}`)));
    steps.push(agent(`Done: hold ${hold} is taken care of.`));
    return steps;
  }
  const [pid, name, price] = rng.pick(PRODUCTS);
  const zip = String(rng.int(10001, 99950));
  const found = [{ name, price, product_id: pid }, ...Array.from({ length: rng.int(0, 3) }, () => {
    const [id, n, pr] = rng.pick(PRODUCTS);
    return { name: n, price: pr, product_id: id };
  })];
  steps.push(user(`Do you have a ${name.toLowerCase()} in stock near ${zip}?`));
  steps.push(call('search_products', { limit: 5, query: name.toLowerCase() }, ok(found)));
  steps.push(call('get_product', { product_id: pid }, ok({ description: `A ${name.toLowerCase()} our customers like.`, name, price, product_id: pid })));
  const stores = Array.from({ length: rng.int(1, 3) }, (_, i) => ({ distance_km: Math.round(rng.between(0.5, 25) * 10) / 10 + i * 3, name: `Store ${zip.slice(0, 3)}-${i + 1}`, store_id: `S${zip.slice(0, 3)}${i + 1}` }));
  steps.push(call('find_store', { zip }, ok(stores)));
  let chosen: string | null = null;
  for (const s of stores) {
    if (rng.chance(0.05)) steps.push(call('check_stock', { product_id: pid, store_id: s.store_id.toLowerCase() }, rpcError(`unknown store_id ${s.store_id.toLowerCase()}`)));
    const available = rng.chance(0.65) ? rng.int(1, 12) : 0;
    steps.push(call('check_stock', { product_id: pid, store_id: s.store_id }, ok({ available, product_id: pid, store_id: s.store_id })));
    if (available > 0) {
      chosen = s.store_id;
      break;
    }
    if (s !== stores[stores.length - 1]) {
      steps.push(agent(`${s.name} has none left. Shall I check the next store?`));
      steps.push(user('Yes please.'));
    }
  }
  if (chosen === null) {
    steps.push(agent('None of the stores near you has it right now. It is back in stock next week.'));
    return steps;
  }
  steps.push(agent(`${chosen} has it at $${price}. Shall I hold one for you?`));
  if (rng.chance(0.7)) {
    steps.push(user(`Yes, hold it for ${p.email}.`));
    const hold = `H-${rng.int(1000, 9999)}`;
    steps.push(call('place_hold', { email: p.email, product_id: pid, store_id: chosen }, ok({ expires_in_hours: 48, hold_id: hold, status: 'held' })));
    steps.push(agent(`Hold ${hold} is placed for 48 hours.`));
  } else {
    steps.push(user("No thanks, I'll just drop by."));
    steps.push(agent('See you there!'));
  }
  return steps;
}

// ---------------------------------------------------------------------------------------------------------
// travel: flight reservations
// ---------------------------------------------------------------------------------------------------------

const travelTools: ToolSpec[] = [
  tool('find_user_id_by_email', 'Find a user id by email.', true, [str('email')], ['email']),
  tool('get_user', 'Get a user: membership, payment methods and reservations.', true, [str('user_id')], ['user_id'], {
    sources: { user_id: ['find_user_id_by_email', '$'] },
  }),
  tool('get_reservation', 'Get a reservation with its flights, passengers and bags.', true, [str('reservation_id')], ['reservation_id'], {
    sources: { reservation_id: ['get_user', '$.reservations[*]'] },
  }),
  tool('search_flights', 'Search direct flights on a date (YYYY-MM-DD).', true, [str('origin'), str('destination'), str('date')], ['origin', 'destination', 'date']),
  tool('book_flight', 'Book a flight for a user, paid with one of their payment methods.', false, [str('user_id'), str('flight_id'), str('payment_method_id')], ['user_id', 'flight_id', 'payment_method_id']),
  tool('cancel_reservation', 'Cancel a whole reservation.', false, [str('reservation_id')], ['reservation_id'], { destructive: true }),
  tool(
    'update_baggage',
    'Change the number of checked bags of a reservation.',
    false,
    [str('reservation_id'), ['total_baggages', { type: 'integer' }], ['nonfree_baggages', { type: 'integer' }], str('payment_method_id')],
    ['reservation_id', 'total_baggages', 'nonfree_baggages', 'payment_method_id'],
  ),
];

function travelConversation(rng: Rng): Step[] {
  const p = person(rng);
  const userId = `${p.first.toLowerCase()}_${p.last.toLowerCase()}_${p.n}`;
  const card = `credit_card_${rng.int(1000000, 9999999)}`;
  const intent = rng.weighted({ cancel: 3, bags: 2, book: 3 });
  const steps: Step[] = [];
  const reservations = Array.from({ length: rng.int(1, 3) }, () => {
    const [origin, destination] = [rng.pick(CITIES), rng.pick(CITIES)];
    return {
      cabin: rng.pick(['economy', 'economy', 'business']),
      destination,
      flights: [{ date: `2026-12-${String(rng.int(1, 28)).padStart(2, '0')}`, flight_number: `HAT${rng.int(100, 299)}` }],
      nonfree_baggages: 0,
      origin,
      reservation_id: Array.from({ length: 6 }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[rng.int(0, 31)]).join(''),
      total_baggages: rng.int(0, 2),
    };
  });
  const identify = () => {
    steps.push(call('find_user_id_by_email', { email: p.email }, ok(userId)));
    steps.push(call('get_user', { user_id: userId }, ok({
      email: p.email,
      membership: rng.pick(['regular', 'silver', 'gold']),
      name: { first_name: p.first, last_name: p.last },
      payment_methods: { [card]: { source: 'credit_card' } },
      reservations: reservations.map((r) => r.reservation_id),
      user_id: userId,
    })));
  };
  if (intent === 'book') {
    const [origin, destination] = [rng.pick(CITIES), rng.pick(CITIES.filter((c) => c !== 'JFK'))];
    const date = `2026-12-${String(rng.int(1, 28)).padStart(2, '0')}`;
    steps.push(user(`I need a flight from ${origin} to ${destination} on ${date}.`));
    const flights = Array.from({ length: rng.int(0, 4) }, () => ({ available_seats: rng.int(0, 9), flight_number: `HAT${rng.int(100, 299)}`, price: rng.int(120, 900), scheduled_departure_time_est: `${String(rng.int(6, 21)).padStart(2, '0')}:00:00` }));
    steps.push(call('search_flights', { date, destination, origin }, ok(flights)));
    const flight = flights.find((f) => f.available_seats > 0);
    if (!flight) {
      steps.push(agent('There is no direct flight with a free seat that day. Another date?'));
      steps.push(user("No, I'll look elsewhere."));
      return steps;
    }
    steps.push(agent(`${flight.flight_number} leaves at ${flight.scheduled_departure_time_est.slice(0, 5)} for $${flight.price}. Shall I book it? I need your email.`));
    steps.push(user(`Yes, it's ${p.email}.`));
    identify();
    steps.push(call('book_flight', { flight_id: flight.flight_number, payment_method_id: card, user_id: userId }, rng.chance(0.9) ? ok({ flight_number: flight.flight_number, reservation_id: 'NEW' + rng.int(100, 999), status: 'booked' }) : fail('Error: payment declined')));
    steps.push(agent('That is done; your confirmation is on its way.'));
    return steps;
  }
  steps.push(user(`Hello, ${p.email} here. ${intent === 'cancel' ? 'I need to cancel a trip.' : 'I want to add a checked bag.'}`));
  identify();
  const together = rng.chance(0.5);
  reservations.forEach((r, i) => steps.push(call('get_reservation', { reservation_id: r.reservation_id }, ok(r), together && i > 0)));
  const r = reservations[rng.int(0, reservations.length - 1)]!;
  steps.push(agent(`I see ${reservations.map((x) => `${x.reservation_id} (${x.origin} to ${x.destination})`).join(', ')}. Which one?`));
  steps.push(user(`${r.reservation_id}.`));
  if (intent === 'cancel') {
    const refused = r.cabin === 'economy' && rng.chance(0.3);
    steps.push(call('cancel_reservation', { reservation_id: r.reservation_id }, refused ? fail('Error: basic economy cannot be cancelled after 24 hours') : ok({ refund: 'to the original payment method', reservation_id: r.reservation_id, status: 'cancelled' })));
    steps.push(agent(refused ? 'That fare cannot be cancelled any more, I am sorry.' : `${r.reservation_id} is cancelled; the refund takes 5 to 7 business days.`));
  } else {
    const total = r.total_baggages + 1;
    steps.push(call('update_baggage', { nonfree_baggages: total > 2 ? 1 : 0, payment_method_id: card, reservation_id: r.reservation_id, total_baggages: total }, ok({ reservation_id: r.reservation_id, total_baggages: total })));
    steps.push(agent(`You now have ${total} checked bag${total === 1 ? '' : 's'} on ${r.reservation_id}.`));
  }
  return steps;
}

export const DOMAINS: Record<string, Domain> = {
  shop: {
    name: 'shop',
    serverCommand: ['engine-mcp-demo', '--world', 'shop'],
    serverName: 'engine-mcp-demo',
    instructions: 'A demo shop: find customers, read their orders, cancel or return them.',
    tools: shopTools,
    conversation: shopConversation,
  },
  retail: {
    name: 'retail',
    serverCommand: ['npx', '-y', '@example/store-mcp', '--region', 'us-east'],
    serverName: 'store-mcp',
    instructions: 'Store stock and holds.',
    tools: retailTools,
    conversation: retailConversation,
  },
  travel: {
    name: 'travel',
    serverCommand: ['https://mcp.example.com/travel/mcp'],
    serverName: 'airline-mcp',
    instructions: 'Flight reservations: search, book, cancel, bags.',
    tools: travelTools,
    conversation: travelConversation,
  },
};

export const DOMAIN_NAMES = Object.keys(DOMAINS);

export function domainOf(name: string): Domain {
  const d = DOMAINS[name];
  if (!d) throw new Error(`unknown domain "${name}": choose from ${DOMAIN_NAMES.join(', ')}`);
  return d;
}

/** The `tools/list` answer's items, as the server lists them (sorted keys). */
export function listedTools(domain: Domain): unknown[] {
  return domain.tools.map((t) => ({
    annotations: t.destructive ? { destructiveHint: true, readOnlyHint: t.readOnly } : { readOnlyHint: t.readOnly },
    description: t.description,
    inputSchema: { properties: t.properties, required: t.required, type: 'object' },
    name: t.name,
  }));
}
