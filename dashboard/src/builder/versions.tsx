import { useEffect } from 'preact/hooks';
import { formatDateTime } from '../format.ts';
import { useApi } from '../use-api.ts';
import type { CalculatorVersionsBody } from '../../../src/api-bodies.ts';

/** The published versions, newest first; any of them can become the draft again. */
export function Versions(props: {
  calcId: string;
  round: number;
  busy: boolean;
  onRestore: (version: number) => void;
}) {
  const list = useApi<CalculatorVersionsBody>(`/v1/account/calculators/${props.calcId}/versions`);
  // A publish or a restore changes the list.
  useEffect(() => {
    if (props.round > 0) list.reload();
  }, [props.round]);
  const versions = list.data?.versions ?? [];
  return (
    <section class="card" aria-labelledby="versions-heading">
      <h2 id="versions-heading">Versions</h2>
      {list.error && <p role="alert">{list.error}</p>}
      {list.data && versions.length === 0 && <p>Not published yet: publishing keeps each version here.</p>}
      {versions.length > 0 && (
        <div class="table-scroll">
          <table>
            <caption class="visually-hidden">Published versions</caption>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Published</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {versions.map(({ version, publishedAt }) => (
                <tr key={version}>
                  <th scope="row">
                    {version}
                    {version === list.data?.publishedVersion && <span class="hint"> (what visitors see)</span>}
                  </th>
                  <td>{formatDateTime(publishedAt)}</td>
                  <td class="row-actions">
                    <button type="button" disabled={props.busy} onClick={() => props.onRestore(version)}>
                      Restore<span class="visually-hidden"> version {version}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p class="hint">Restoring makes a version the draft; publish it to serve it again.</p>
    </section>
  );
}
