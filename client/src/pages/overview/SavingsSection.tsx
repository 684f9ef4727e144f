// The Overview's savings: the period chosen on the card and the top bar's domain ask GET /api/savings.
import { createSignal } from 'solid-js';
import { SAVINGS_DAYS_DEFAULT } from '../../../../shared/limits.ts';
import { getSavings } from '../../api/endpoints.ts';
import { SavingsCard, type Period } from '../../components/overview/SavingsCard.tsx';
import { createApiResource } from '../../data/createApiResource.ts';
import { domain } from '../../stores/domain.ts';

export function SavingsSection() {
  const [period, setPeriod] = createSignal<Period>(String(SAVINGS_DAYS_DEFAULT) as Period);
  const savings = createApiResource(
    () => ({ days: Number(period()), domain: domain() }),
    (q, signal) => getSavings(q.days, q.domain, { signal }),
    { topics: ['sessions'] },
  );
  return <SavingsCard savings={savings} period={period()} onPeriod={setPeriod} />;
}
