import { useState } from 'preact/hooks';
import { Link } from '../components/link.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { textIn } from '../../../src/definition/text.ts';
import { BASE, builderPath } from '../router.ts';
import { useApi } from '../use-api.ts';
import type { AccountCalculatorBody, AccountOverviewBody, CalculatorBody } from '../../../src/api-bodies.ts';
import { Preview } from './preview.tsx';
import { SnippetBuilder, type SnippetOptions } from './snippet.tsx';
import { WebhookForm } from './webhook-form.tsx';
import { ResultsForm } from './results-form.tsx';

export function Calculator(props: { calcId: string }) {
  const found = useApi<CalculatorBody>(`/v1/calculators/${props.calcId}`);
  // Not in the catalogue: one of the owner's own (what visitors load is its published version).
  const own = useApi<AccountCalculatorBody>(found.error ? `/v1/account/calculators/${props.calcId}` : null);
  const overview = useApi<AccountOverviewBody>('/v1/account');
  const [options, setOptions] = useState<SnippetOptions>({ theme: 'light', units: '', locale: '', currency: '' });
  // A saved or removed webhook changes what the preview pulls; results settings, what it offers.
  const [round, setRound] = useState(0);
  const definition = found.data?.calculator.definition ?? own.data?.published ?? own.data?.draft;
  const failed = own.error;
  return (
    <>
      <p class="crumbs">
        <Link href={`${BASE}/calculators`}>Calculators</Link>
        {own.data && (
          <>
            {' · '}
            <Link href={builderPath(props.calcId)}>Edit in the builder</Link>
          </>
        )}
      </p>
      <PageTitle>
        {definition ? textIn(definition.title, 'en') : failed ? 'Calculator not found' : 'Calculator'}
      </PageTitle>
      {failed && <p role="alert">{failed}</p>}
      {own.data?.status === 'draft' && (
        <p class="warning">Not published yet: embedding pages show it once you publish it in the builder.</p>
      )}
      {definition && overview.data && (
        <div class="grid">
          <SnippetBuilder
            calcId={props.calcId}
            definition={definition}
            publicUrl={overview.data.publicUrl}
            apiKey={overview.data.account.apiKey}
            options={options}
            onChange={setOptions}
          />
          <Preview calcId={props.calcId} options={options} round={round} />
          <WebhookForm calcId={props.calcId} account={overview.data.account} onChanged={() => setRound((n) => n + 1)} />
          <ResultsForm calcId={props.calcId} account={overview.data.account} onChanged={() => setRound((n) => n + 1)} />
        </div>
      )}
    </>
  );
}
