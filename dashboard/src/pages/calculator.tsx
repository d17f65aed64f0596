import { useState } from 'preact/hooks';
import { Link } from '../components/link.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { BASE } from '../router.ts';
import { useApi } from '../use-api.ts';
import type { AccountOverviewBody, CalculatorBody } from '../../../src/api-bodies.ts';
import { Preview } from './preview.tsx';
import { SnippetBuilder, type SnippetOptions } from './snippet.tsx';
import { WebhookForm } from './webhook-form.tsx';
import { ResultsForm } from './results-form.tsx';

export function Calculator(props: { calcId: string }) {
  const found = useApi<CalculatorBody>(`/v1/calculators/${props.calcId}`);
  const overview = useApi<AccountOverviewBody>('/v1/account');
  const [options, setOptions] = useState<SnippetOptions>({ theme: 'light', units: '', locale: '', currency: '' });
  // A saved or removed webhook changes what the preview pulls; results settings, what it offers.
  const [round, setRound] = useState(0);
  const calculator = found.data?.calculator;
  return (
    <>
      <p class="crumbs">
        <Link href={`${BASE}/calculators`}>Calculators</Link>
      </p>
      <PageTitle>{calculator?.title ?? (found.error ? 'Calculator not found' : 'Calculator')}</PageTitle>
      {found.error && <p role="alert">{found.error}</p>}
      {calculator && overview.data && (
        <div class="grid">
          <SnippetBuilder
            calculator={calculator}
            publicUrl={overview.data.publicUrl}
            apiKey={overview.data.account.apiKey}
            options={options}
            onChange={setOptions}
          />
          <Preview calcId={calculator.id} options={options} round={round} />
          <WebhookForm
            calcId={calculator.id}
            account={overview.data.account}
            onChanged={() => setRound((n) => n + 1)}
          />
          <ResultsForm
            calcId={calculator.id}
            account={overview.data.account}
            onChanged={() => setRound((n) => n + 1)}
          />
        </div>
      )}
    </>
  );
}
