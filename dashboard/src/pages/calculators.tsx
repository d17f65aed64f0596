import { Link } from '../components/link.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { BASE } from '../router.ts';
import { useApi } from '../use-api.ts';
import type { CalculatorListBody } from '../../../src/api-bodies.ts';

export function Calculators() {
  const list = useApi<CalculatorListBody>('/v1/calculators');
  return (
    <>
      <PageTitle>Calculators</PageTitle>
      <p class="lead">Pick a calculator to get its embed snippet, preview it and set up its pre-fill webhook.</p>
      {list.error && <p role="alert">{list.error}</p>}
      <ul class="catalogue">
        {list.data?.calculators.map((calculator) => (
          <li key={calculator.id} class="card">
            <h2>
              <Link href={`${BASE}/calculators/${calculator.id}`}>{calculator.title}</Link>
            </h2>
            <p class="hint">
              <code>{calculator.id}</code> · {calculator.category}
            </p>
            <p>{calculator.description}</p>
          </li>
        ))}
      </ul>
    </>
  );
}
